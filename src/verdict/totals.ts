// The outcome of a run as numbers and one line: totals by verdict, the exit code (what --fail-on makes of the
// checks) and the verdict line every report and the console end with.
import type { FailOn, Report, ScenarioResult } from '../schema/generated/types.js';
import { failsRun, isSignalExit, VERDICTS } from './verdicts.js';
import { SYNCONF_VERSION } from '../paths.js';
import { plural } from '../plural.js';
import { exitCodeOfSignal } from '../errors.js';

export function totalsOf(scenarios: ScenarioResult[]): Report['totals'] {
  const t: Report['totals'] = {
    scenarios: scenarios.length,
    checks: 0,
    pass: 0,
    fail: 0,
    'expected-fail': 0,
    'unexpected-pass': 0,
    skip: 0,
  };
  // a report bounded for size (report-json.ts) folded checks into a kept one (`more`) or left them out (`omitted`):
  // they count as they did in the run, so a merge of bounded shards counts what the whole run would
  for (const s of scenarios) {
    for (const c of s.checks) t[c.verdict] += 1 + (c.more ?? 0);
    for (const v of VERDICTS) t[v] += s.omitted?.[v] ?? 0;
  }
  t.checks = VERDICTS.reduce((n, v) => n + t[v], 0);
  return t;
}

export function verdictLine(
  r: Pick<Report, 'totals' | 'exitCode' | 'harnessErrors' | 'undocumented' | 'baseline' | 'repeat' | 'proxy'> & {
    scenarios?: Report['scenarios'];
    run?: Pick<Report['run'], 'mode'>;
  },
  failOn: readonly FailOn[],
): string {
  const t = r.totals;
  const head = isSignalExit(r.exitCode)
    ? 'INTERRUPTED'
    : r.exitCode === 3
      ? 'INTERNAL ERROR'
      : r.exitCode === 2
        ? 'HARNESS ERROR'
        : r.exitCode === 1
          ? 'DOES NOT CONFORM'
          : 'CONFORMS';
  const errors = plural(r.harnessErrors.length, 'harness error');
  if (t.scenarios === 0 && r.harnessErrors.length)
    return `synconf: ${head}: no scenario ran; ${errors} (exit ${r.exitCode})`;
  const parts = [
    `${t.pass} passed`,
    `${t.fail} failed`,
    plural(t['expected-fail'], 'expected failure'),
    plural(t['unexpected-pass'], 'unexpected pass', 'unexpected passes'),
    `${t.skip} skipped`,
  ];
  const notRun = r.scenarios?.filter((s) => s.skipReason?.startsWith('harness error')).length ?? 0;
  const noted = (r.undocumented ?? []).reduce((n, u) => n + 1 + (u.more ?? 0), 0);
  const undocumented = noted ? `; ${plural(noted, 'undocumented member')}` : '';
  let tail = `${undocumented}${r.harnessErrors.length ? `; ${errors}` : ''}`;
  if (r.repeat) tail += `; over ${r.repeat.runs} runs ${r.repeat.flaky.length} flaky`;
  const b = r.baseline?.counts;
  if (b)
    tail += `; against the baseline: ${b['new-failure']} new failures, ${b.fixed} fixed, ${b['still-failing']} still failing, ${b['new-check']} new checks, ${b.gone} gone`;
  tail += unjudgedExchanges(r.proxy);
  // a proxy session's scenarios are the endpoints of the spec the client called
  const unit = r.run?.mode === 'proxy' ? 'endpoint' : 'scenario';
  return `synconf: ${head}: ${plural(t.scenarios, unit)}${notRun ? ` (${notRun} not run: harness error)` : ''}, ${plural(t.checks, 'check')}: ${parts.join(', ')}${tail} (failing on: ${failOn.join(', ')}; exit ${r.exitCode})`;
}

/** a proxy session's exchanges no check judged, by why: a verdict over the rest must not read as over them all */
const UNJUDGED: [key: 'cutByStop' | 'tooLarge' | 'answersNotJudged', what: string][] = [
  ['cutByStop', 'cut by the stop'],
  ['tooLarge', 'over the body bound'],
  ['answersNotJudged', "with an answer kept cut or made by synconf's stand-in"],
];
function unjudgedExchanges(proxy: Report['proxy']): string {
  const said = UNJUDGED.flatMap(([key, what]) => (proxy?.exchanges[key] ? [`${proxy.exchanges[key]} ${what}`] : []));
  return said.length ? `; exchanges not judged: ${said.join(', ')}` : '';
}

/**
 * whether a check of these scenarios fails the run under `failOn`: one listed, or one a report bounded for size left
 * out (counted by verdict in `omitted`)
 */
export function failingUnder(scenarios: ScenarioResult[], failOn: readonly FailOn[]): boolean {
  return scenarios.some(
    (s) =>
      s.checks.some((c) => failsRun(c, failOn)) ||
      failOn.some((v) => (s.omitted?.[v as keyof NonNullable<typeof s.omitted>] ?? 0) > 0),
  );
}

/** totals, exit code and verdict line of a report, from its scenarios and harness errors */
export function finalize(report: Report, failOn: readonly FailOn[]): Report {
  report.totals = totalsOf(report.scenarios);
  report.run.failOn = [...failOn];
  const nonConforming = failingUnder(report.scenarios, failOn);
  report.exitCode = report.harnessErrors.length ? 2 : nonConforming ? 1 : 0;
  report.verdict = verdictLine(report, failOn);
  return report;
}

/**
 * the report of a run that could not start (no scenarios loaded, no target): a harness error, exit 2;
 * or of a run a fault of synconf ended (exitCode 3, what the process then exits with)
 */
export function emptyReport(mode: Report['run']['mode'], target: string, message: string, exitCode: 2 | 3 = 2): Report {
  const report: Report = {
    format: 'synconf-report/1',
    synconf: { version: SYNCONF_VERSION },
    run: { mode, startedAt: new Date().toISOString(), durationMs: 0, target, expectations: null },
    agent: { version: null, versionSource: 'unknown', longVersion: null, os: null, arch: null, deviceId: null },
    totals: totalsOf([]),
    exitCode,
    verdict: '',
    expensiveCalls: {},
    harnessErrors: [{ message }],
    scenarios: [],
  };
  report.verdict = verdictLine(report, []);
  return report;
}

/** the report of a run a signal stopped: what ran, the harness error that says so, the process's exit code (128 + n) */
export function interruptedReport(
  report: Report,
  signal: NodeJS.Signals,
  failOn: FailOn[],
  when = 'before the run ended',
): Report {
  const message = `interrupted by ${signal} ${when}`;
  // once: the interrupt and the run may both come to mark the same report
  if (!report.harnessErrors.some((e) => e.message === message)) report.harnessErrors.push({ message });
  const final = finalize(report, failOn);
  final.exitCode = exitCodeOfSignal(signal) as Report['exitCode']; // what the process exits with
  final.verdict = verdictLine(final, failOn);
  return final;
}
