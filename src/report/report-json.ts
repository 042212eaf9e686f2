// report.json within the size bound (bound.ts). A report that fits is written as it is, every check in it (the
// common case). A larger one gets, in this order: the repeated identical checks of each scenario and the repeated
// harness errors folded into their first occurrences (their `more`); then, while the file is still too large, checks
// left out whole (problems are kept before passes) and counted by verdict per scenario (`omitted`). `folded` says
// so. The totals, the verdict and the exit code are the run's, untouched.
import type { CheckResult, Report, ScenarioResult, VerdictCounts } from '../schema/generated/types.js';
import { REPORT_FILE_BOUND, Budget, boundedJson, jsonText, shrunkJson } from './bound.js';
import type { Pace } from '../turns.js';
import { checkKind, fold, harnessKind, type Kept } from './fold.js';

/** how many a check or harness error stands for: itself and those folded into it */
const weight = (x: { more?: number }) => 1 + (x.more ?? 0);
/** a kept item with its count of folded ones (none: no `more` member) */
const withMore = <T extends { more?: number }>({ item, more }: Kept<T>): T => {
  const { more: _, ...rest } = item;
  return (more ? { ...rest, more } : rest) as T;
};
/** the bytes a check takes in report.json: its own lines, indented five levels deep */
const checkBytes = (c: CheckResult) => {
  const own = JSON.stringify(c, null, 2);
  return Buffer.byteLength(own) + (own.split('\n').length * 10 + 2);
};
const sum = (ns: number[]) => ns.reduce((a, b) => a + b, 0);

/** report.json's text, at most `limit` bytes (unless the scenarios alone, without a check, are larger) */
export const reportJson = (report: Report, limit = REPORT_FILE_BOUND): string =>
  // the share of the bound the checks are given shrinks until the file fits (the first try nearly always does)
  boundedJson(report, limit, (share) => boundedReport(report, limit, share));

/**
 * The same text, a turn now and then (`pace`): the checks' bytes are counted first, check by check, and a report whose
 * checks alone pass the bound is never written out whole (50,000 checks took a second and more in one piece, deaf to
 * signals: issue 41), only folded.
 */
export async function pacedReportJson(report: Report, pace: Pace, limit = REPORT_FILE_BOUND): Promise<string> {
  let bytes = 0;
  for (const s of report.scenarios)
    for (const c of s.checks) {
      await pace();
      bytes += checkBytes(c);
      if (bytes > limit) return shrunkJson(limit, (share) => boundedReport(report, limit, share));
    }
  return reportJson(report, limit);
}

/** the checks that fit in what the rest of the report leaves of `bytes`: problems first, then passes */
function checksThatFit(scenarios: ScenarioResult[], bytes: number): Set<CheckResult> {
  const budget = new Budget(bytes);
  const kept = new Set<CheckResult>();
  for (const passes of [false, true])
    for (const s of scenarios)
      for (const c of s.checks) if ((c.verdict === 'pass') === passes && budget.take(checkBytes(c))) kept.add(c);
  return kept;
}

/** `s` with only the `kept` checks, the others counted by verdict in `omitted` */
function keepOnly(s: ScenarioResult, kept: Set<CheckResult>): ScenarioResult {
  const left = s.checks.filter((c) => !kept.has(c));
  if (!left.length) return s;
  const omitted: VerdictCounts = { ...s.omitted };
  for (const c of left) omitted[c.verdict] = (omitted[c.verdict] ?? 0) + weight(c);
  return { ...s, checks: s.checks.filter((c) => kept.has(c)), omitted };
}

/** how many checks a report stands for: those in it, those folded into them, those omitted */
const checksOf = (scenarios: ScenarioResult[]) =>
  sum(scenarios.map((s) => sum(s.checks.map(weight)) + sum(Object.values(s.omitted ?? {}))));

function boundedReport(report: Report, limit: number, share: number): Report {
  const harnessErrors = fold(report.harnessErrors, harnessKind, weight).map(withMore);
  const folded = report.scenarios.map((s) => ({
    ...s,
    checks: fold(s.checks, (c) => checkKind(c, s.id), weight).map(withMore),
  }));
  const skeleton = jsonText({ ...report, harnessErrors, scenarios: folded.map((s) => ({ ...s, checks: [] })) });
  const kept = checksThatFit(folded, limit * share - Buffer.byteLength(skeleton));
  const { scenarios: _, ...rest } = report;
  return {
    ...rest,
    harnessErrors,
    folded: {
      limitBytes: limit,
      checks: checksOf(report.scenarios) - kept.size,
      harnessErrors: sum(report.harnessErrors.map(weight)) - harnessErrors.length,
    },
    scenarios: folded.map((s) => keepOnly(s, kept)),
  };
}
