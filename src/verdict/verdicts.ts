// The five verdicts as every report format presents them: one order, one wording, one legend.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckResult, FailOn, Verdict } from '../schema/generated/types.js';
import { SCHEMAS_DIR } from '../paths.js';

/** display order: what needs attention first */
export const VERDICTS: readonly Verdict[] = ['fail', 'unexpected-pass', 'expected-fail', 'skip', 'pass'];

export const VERDICT_LABEL: Record<Verdict, string> = {
  fail: 'fail',
  'unexpected-pass': 'unexpected pass',
  'expected-fail': 'expected fail',
  skip: 'skip',
  pass: 'pass',
};

/** the legend, written for a reader who has never seen synconf */
export const VERDICT_MEANING: Record<Verdict, string> = {
  fail: 'The agent does not do what the spec says, and this is not a known deviation.',
  'unexpected-pass':
    'Listed as a known deviation of this agent version, but the agent now conforms: the deviation list is stale.',
  'expected-fail':
    'The agent deviates from the spec in a way known and accepted for this version (the reason is given).',
  skip: 'Not checked (the reason is given), e.g. the endpoint does not exist in this agent version.',
  pass: 'The agent does what the spec says.',
};

/** what fails a run unless --fail-on says otherwise: a failure, a stale deviation entry, a flaky check */
export const DEFAULT_FAIL_ON: readonly FailOn[] = ['fail', 'unexpected-pass', 'flaky'];

/** what --fail-on takes, as schemas/report.schema.json lists it: verdicts, new-failure (--baseline), flaky (--repeat) */
export function failOnChoices(): FailOn[] {
  return JSON.parse(readFileSync(join(SCHEMAS_DIR, 'report.schema.json'), 'utf8')).$defs.failOn.enum;
}

/** the --fail-on choices that are verdicts (a run without --baseline and --repeat: the matrix) */
export function failOnVerdicts(): Verdict[] {
  const choices: string[] = failOnChoices(); // the schema read once, not once per verdict
  return VERDICTS.filter((v) => choices.includes(v));
}

/**
 * THE rule of the gate: does this check make the run non-conforming (exit 1)? A flaky check
 * (--repeat) fails it when `flaky` is in `failOn`, whatever its verdicts; with a baseline,
 * `new-failure` fails a check that is a problem now and was not one (or was absent) in the baseline.
 */
export function failsRun(
  c: Pick<CheckResult, 'verdict' | 'flaky' | 'baseline'>,
  failOn: readonly FailOn[] = DEFAULT_FAIL_ON,
): boolean {
  if (c.flaky) return failOn.includes('flaky');
  // A check the baseline did not have and that fails is new too.
  const isNew = c.baseline?.class === 'new-failure' || (c.baseline?.class === 'new-check' && isProblem(c.verdict));
  if (failOn.includes('new-failure') && isNew) return true;
  return (failOn as readonly string[]).includes(c.verdict);
}

/** verdicts that need attention: the agent fails, or a deviation entry is stale (whatever --fail-on says) */
export function isProblem(v: Verdict): boolean {
  return v === 'fail' || v === 'unexpected-pass';
}

/** the verdict that needs the most attention among `vs` (pass for none) */
export function worst(vs: Iterable<Verdict>): Verdict {
  let best = VERDICTS.length - 1;
  for (const v of vs) best = Math.min(best, VERDICTS.indexOf(v));
  return VERDICTS[best];
}

/**
 * The verdict of a scenario: the one of its checks that needs the most attention. A scenario stopped part-way (its
 * `stopped` check) is a skip, not run to its end, never a pass nor an expected failure (both read as done), unless a
 * check already needs attention.
 */
export function scenarioVerdict(checks: CheckResult[]): CheckResult['verdict'] {
  if (!checks.length) return 'skip';
  const verdict = worst(checks.map((c) => c.verdict));
  return checks.some((c) => c.kind === 'stopped') && !isProblem(verdict) ? 'skip' : verdict;
}

/** an exit code of a process a signal stopped: 128 + the signal's number (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP) */
export const isSignalExit = (exitCode: number): boolean => exitCode > 128;

/** the run as a whole, from its exit code (the CI gate) */
export function runStatus(exitCode: number): string {
  return exitCode === 0
    ? 'conforms'
    : exitCode === 1
      ? 'does not conform'
      : exitCode === 3
        ? 'internal error'
        : isSignalExit(exitCode)
          ? 'interrupted'
          : 'harness error';
}

/** count of each verdict in `vs` */
export function countVerdicts(vs: Iterable<Verdict>): Record<Verdict, number> {
  const n: Record<Verdict, number> = { pass: 0, fail: 0, 'expected-fail': 0, 'unexpected-pass': 0, skip: 0 };
  for (const v of vs) n[v]++;
  return n;
}
