// The baseline gate: every check of a run compared with a previous report.json (--baseline), so
// a team with a known backlog can gate on regressions only (--fail-on new-failure).
//   new failure    a problem now (fail, unexpected pass) that was not one in the baseline
//   fixed          a problem in the baseline that is not one now
//   still failing  a problem in both
//   new check      not in the baseline
//   gone           in the baseline, not in this run (listed in report.baseline.gone)
import type { BaselineClass, Report } from '../schema/generated/types.js';
import { isProblem } from './verdicts.js';

function classOf(now: boolean, before: boolean): BaselineClass {
  if (now && !before) return 'new-failure';
  if (!now && before) return 'fixed';
  return now ? 'still-failing' : 'unchanged';
}

/** marks each check of `report` with its class against `baseline` and adds report.baseline */
export function compareWithBaseline(report: Report, baseline: Report, file: string): void {
  const before = new Map(baseline.scenarios.flatMap((s) => s.checks.map((c) => [c.id, c.verdict] as const)));
  const seen = new Set<string>();
  const counts = { 'new-failure': 0, fixed: 0, 'still-failing': 0, 'new-check': 0, gone: 0 };
  for (const c of report.scenarios.flatMap((s) => s.checks)) {
    seen.add(c.id);
    const previous = before.get(c.id);
    const cls = previous === undefined ? 'new-check' : classOf(isProblem(c.verdict), isProblem(previous));
    c.baseline = previous === undefined ? { class: cls } : { class: cls, verdict: previous };
    if (cls !== 'unchanged') counts[cls]++;
  }
  const gone = [...before].filter(([id]) => !seen.has(id)).map(([id, verdict]) => ({ id, verdict }));
  counts.gone = gone.length;
  report.baseline = { file, startedAt: baseline.run.startedAt, agentVersion: baseline.agent.version, counts, gone };
}
