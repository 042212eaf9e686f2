// --repeat N: flakiness measured, not guessed. N reports of the same suite against the same
// target become one: a check's verdict is the worst of its runs; a check whose verdict varied is
// flaky, with its verdict in each run and the evidence of the odd one out (the least frequent
// verdict, or the worst run when the odd one is a pass and has no evidence).
import type { CheckResult, Report, ScenarioResult, Verdict } from '../schema/generated/types.js';
import { worst, scenarioVerdict } from './verdicts.js';

/** a check a run did not have (its scenario broke, or a step was not reached) counts as skip */
const ABSENT: Verdict = 'skip';

function combineCheck(id: string, perRun: (CheckResult | undefined)[]): CheckResult {
  const runs = perRun.map((c) => c?.verdict ?? ABSENT);
  if (runs.every((v) => v === runs[0])) return { ...perRun.find(Boolean)!, runs };
  const freq = new Map<Verdict, number>();
  for (const v of runs) freq.set(v, (freq.get(v) ?? 0) + 1);
  const odd = [...freq].sort((a, b) => a[1] - b[1])[0][0];
  let shown = runs.indexOf(odd);
  if (!perRun[shown]?.evidence && !perRun[shown]?.schemaErrors) shown = runs.indexOf(worst(runs));
  const base = perRun[shown] ?? perRun.find(Boolean)!;
  return { ...base, id, verdict: worst(runs), runs, flaky: true, oddRun: shown + 1 };
}

function combineScenario(perRun: (ScenarioResult | undefined)[]): ScenarioResult {
  const first = perRun.find(Boolean)!;
  const ids: string[] = [];
  for (const s of perRun) for (const c of s?.checks ?? []) if (!ids.includes(c.id)) ids.push(c.id);
  const checks = ids.map((id) =>
    combineCheck(
      id,
      perRun.map((s) => s?.checks.find((c) => c.id === id)),
    ),
  );
  const durations = perRun.filter((s): s is ScenarioResult => !!s).map((s) => s.durationMs);
  return {
    ...first,
    checks,
    verdict: checks.length ? scenarioVerdict(checks) : worst(perRun.map((s) => s?.verdict ?? ABSENT)),
    // the slowest run: what a CI timeout has to allow for
    durationMs: Math.max(...durations),
  };
}

/** one report of several runs (in order); totals, exit code and verdict line are the caller's (finalize) */
export function combineRuns(reports: Report[]): Report {
  if (reports.length === 1) return { ...reports[0], repeat: { runs: 1, flaky: [] } };
  const ids: string[] = [];
  for (const r of reports) for (const s of r.scenarios) if (!ids.includes(s.id)) ids.push(s.id);
  const scenarios = ids.map((id) => combineScenario(reports.map((r) => r.scenarios.find((s) => s.id === id))));
  const harnessErrors = reports.flatMap((r, i) =>
    r.harnessErrors.map((h) => ({ ...h, message: `run ${i + 1}: ${h.message}` })),
  );
  const last = reports[reports.length - 1];
  return {
    ...last,
    run: { ...reports[0].run, durationMs: reports.reduce((n, r) => n + r.run.durationMs, 0) },
    scenarios,
    harnessErrors,
    repeat: { runs: reports.length, flaky: scenarios.flatMap((s) => s.checks.filter((c) => c.flaky).map((c) => c.id)) },
  };
}

/** the closing line of a repeated run: how many checks held their verdict, and which did not */
export function stabilityLine(report: Report): string {
  const rep = report.repeat;
  if (!rep) return '';
  const checks = report.scenarios.flatMap((s) => s.checks);
  const flaky = checks.filter((c) => c.flaky);
  const list = flaky.slice(0, 10).map((c) => `${c.id} (${(c.runs ?? []).join(', ')})`);
  const more = flaky.length > 10 ? `, and ${flaky.length - 10} more` : '';
  return `stability over ${rep.runs} runs: ${checks.length - flaky.length} of ${checks.length} checks stable, ${flaky.length} flaky${flaky.length ? `: ${list.join('; ')}${more}` : ''}`;
}
