// The shards of one version (all of one plan, each once: shard-set.ts) put back together into the report the whole
// run would have written: the same scenarios and checks, ids, verdicts and messages, in the order of the whole run;
// totals, exit code and verdict line computed again. A shard that did not finish — exit 3, a harness error, or
// scenarios of its plan missing from its report — makes the version's report fail: a lost shard is never green.
import type { FailOn, Report, UndocumentedMember } from '../schema/generated/types.js';
import { DEFAULT_FAIL_ON } from '../verdict/verdicts.js';
import { finalize, verdictLine } from '../verdict/totals.js';
import { sortedNotes } from '../runner/undocumented.js';

const unique = <T>(items: T[]) => [...new Set(items)];

/** why a shard did not finish, or undefined when it did */
export function crashOf(report: Report): string | undefined {
  const ran = new Set(report.scenarios.filter((s) => !s.skipReason?.startsWith('harness error')).map((s) => s.id));
  const notRun = report.shard!.scenarios.filter((id) => !ran.has(id));
  const why = [
    report.exitCode === 3 ? 'exit 3 (a fault of synconf)' : undefined,
    report.harnessErrors.length ? `harness error: ${report.harnessErrors[0].message.split('\n')[0]}` : undefined,
    notRun.length
      ? `${notRun.length} of its ${report.shard!.scenarios.length} scenarios did not run (${notRun.join(', ')})`
      : undefined,
  ].filter(Boolean);
  return why.length ? why.join('; ') : undefined;
}

/** the undocumented members of all shards, each with the scenarios of every shard that saw it */
function undocumentedOf(shards: Report[], order: string[]): UndocumentedMember[] {
  const found = new Map<string, UndocumentedMember>();
  for (const n of shards.flatMap((r) => r.undocumented ?? [])) {
    const key = `${n.endpoint} ${n.member}`;
    const note = found.get(key) ?? found.set(key, { ...n, scenarios: [] }).get(key)!;
    note.scenarios = unique([...note.scenarios, ...n.scenarios]);
  }
  for (const note of found.values()) note.scenarios.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return sortedNotes({ strict: false, found });
}

/** --baseline in every shard: the counts add up; gone are the baseline's checks that no shard had */
function baselineOf(shards: Report[]): Report['baseline'] {
  const baselines = shards.map((r) => r.baseline);
  if (baselines.some((b) => !b)) return undefined;
  const [first] = baselines as NonNullable<Report['baseline']>[];
  const gone = first.gone.filter((g) => baselines.every((b) => b!.gone.some((x) => x.id === g.id)));
  const counts = { ...first.counts };
  for (const k of Object.keys(counts) as (keyof typeof counts)[])
    counts[k] = k === 'gone' ? gone.length : baselines.reduce((sum, b) => sum + b!.counts[k], 0);
  return { ...first, counts, gone };
}

/** the run of the whole: from the first shard's start to the last one's end, the targets and expectations of all */
function runOf(shards: Report[]): Report['run'] {
  const starts = shards.map((r) => Date.parse(r.run.startedAt));
  const ends = shards.map((r, i) => starts[i] + r.run.durationMs);
  const joined = (values: (string | null | undefined)[]) => unique(values.filter((v): v is string => !!v)).join(', ');
  return {
    ...shards[0].run,
    startedAt: new Date(Math.min(...starts)).toISOString(),
    durationMs: Math.max(...ends) - Math.min(...starts),
    target: joined(shards.map((r) => r.run.target)),
    expectations: joined(shards.map((r) => r.run.expectations)) || null,
  };
}

/**
 * one report of the shards of `version`; `order` the scenario ids as the whole run orders them (default: shard 1's,
 * then shard 2's, …). `crashed` names each shard that did not finish.
 */
export function combineShards(
  shards: Report[],
  version: string,
  order: string[] = [],
): { report: Report; crashed: string[] } {
  const sorted = [...shards].sort((a, b) => a.shard!.index - b.shard!.index);
  const ids = unique([...order, ...sorted.flatMap((r) => r.scenarios.map((s) => s.id))]);
  const scenarios = sorted.flatMap((r) => r.scenarios).sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  const ran = new Set(sorted.flatMap((r) => r.shard!.scenarios));
  const notSelected = unique(sorted.flatMap((r) => r.notSelected ?? []).map((s) => s.id))
    .filter((id) => !ran.has(id))
    .map((id) => sorted.flatMap((r) => r.notSelected ?? []).find((s) => s.id === id)!);
  const crashed = sorted.flatMap((r) => {
    const why = crashOf(r);
    return why
      ? [`shard ${r.shard!.index}/${r.shard!.count} of plan ${r.shard!.plan} for ${version} did not finish: ${why}`]
      : [];
  });
  const expensiveCalls: Record<string, number> = {};
  for (const [k, n] of sorted.flatMap((r) => Object.entries(r.expensiveCalls)))
    expensiveCalls[k] = (expensiveCalls[k] ?? 0) + n;
  const first = sorted[0];
  const report: Report = {
    ...structuredClone(first),
    run: runOf(sorted),
    agent: sorted.find((r) => r.agent.version)?.agent ?? first.agent,
    expensiveCalls,
    harnessErrors: [...sorted.flatMap((r) => r.harnessErrors), ...crashed.map((message) => ({ message }))],
    scenarios,
  };
  delete report.shard;
  // a shard's coverage speaks of its scenarios only: the command computes the whole run's from the statement index
  delete report.statementCoverage;
  const lists = {
    staleExpectations: unique(sorted.flatMap((r) => r.staleExpectations ?? [])),
    unusedExchanges: sorted.flatMap((r) => r.unusedExchanges ?? []),
    notSelected,
    undocumented: undocumentedOf(sorted, ids),
  };
  for (const [key, list] of Object.entries(lists)) {
    if (list.length) Object.assign(report, { [key]: list });
    else delete report[key as keyof typeof lists];
  }
  const baseline = baselineOf(sorted);
  if (baseline) report.baseline = baseline;
  else delete report.baseline;
  if (first.repeat) report.repeat = { ...first.repeat, flaky: unique(sorted.flatMap((r) => r.repeat?.flaky ?? [])) };
  const failOn = (first.run.failOn ?? DEFAULT_FAIL_ON) as FailOn[];
  finalize(report, failOn);
  // a fault of synconf in a shard stays the version's exit code (3), as in the whole run
  if (sorted.some((r) => r.exitCode === 3)) {
    report.exitCode = 3;
    report.verdict = verdictLine(report, failOn);
  }
  return { report, crashed };
}
