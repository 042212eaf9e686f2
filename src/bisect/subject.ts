// What `synconf bisect` looks for, and what a probed release shows of it: a check's verdict (--check), a scenario's
// verdict (--scenario), or whether a cause of the drift from the old end is there (--cause, as `drift` prints one:
// rule id, endpoint, and the member's pointer where it names one). A cause is judged by the drift comparison of the
// old end's exchanges with the probed release's, over the scenarios that reach its endpoint: the old end compared
// with itself has no cause, so it shows "absent"; the new end must show "present". Pure: the caller runs releases.
import type { Report } from '../schema/generated/types.js';
import type { LoadedScenario } from '../scenario/load.js';
import { matches, parseCause, type Acceptance } from '../changes/accept.js';
import { causesOf } from '../changes/causes.js';
import { driftBetween } from '../changes/compare-dirs.js';
import { UsageError } from '../errors.js';
import { didYouMean } from '../did-you-mean.js';
import type { Probe } from './search.js';

export type Subject =
  | { kind: 'check'; id: string; scenarios: string[] }
  | { kind: 'scenario'; id: string; scenarios: string[] }
  | { kind: 'cause'; id: string; cause: Acceptance; scenarios: string[] };

/** the one of --check, --scenario, --cause given, with the scenarios a probe runs for it */
export function subjectOf(
  given: { check?: string; scenario?: string; cause?: string },
  suite: LoadedScenario[],
): Subject {
  const named = (['check', 'scenario', 'cause'] as const).filter((k) => given[k] !== undefined);
  if (named.length !== 1)
    throw new UsageError(
      `name what changed once: --check ID, --scenario ID or --cause "RULE METHOD /path [/pointer]"${named.length ? ` (given: ${named.map((k) => `--${k}`).join(', ')})` : ''}`,
    );
  const ids = suite.map((l) => l.scenario.id);
  const known = (id: string, option: string) => {
    if (!ids.includes(id)) throw new UsageError(`${option} ${id}: no such scenario in the suite${didYouMean(id, ids)}`);
    return [id];
  };
  if (given.check !== undefined) {
    if (!/^[^/]+\/[^/]+\/.+$/.test(given.check))
      throw new UsageError(`--check ${given.check}: not a check id (<scenario>/<step>/<check>, as a report names it)`);
    return { kind: 'check', id: given.check, scenarios: known(given.check.split('/')[0], '--check') };
  }
  if (given.scenario !== undefined)
    return { kind: 'scenario', id: given.scenario, scenarios: known(given.scenario, '--scenario') };
  const text = given.cause!.trim();
  // as drift prints it (RULE METHOD /path /pointer) or as --ignore takes it (RULE@METHOD /path /pointer)
  const cause = parseCause(text.includes('@') ? text : text.replace(/\s+/, '@'), '--cause');
  if (cause.endpoint === '*') throw new UsageError(`--cause "${text}": name the endpoint (METHOD /path)`);
  const reaching = suite.filter((l) => l.scenario.spec.includes(cause.endpoint)).map((l) => l.scenario.id);
  if (!reaching.length) throw new UsageError(`--cause "${text}": no scenario of the suite reaches ${cause.endpoint}`);
  return { kind: 'cause', id: text, cause, scenarios: reaching };
}

/** the verdict of a check or a scenario in a release's report, or why it tells nothing */
export function verdictIn(subject: Subject, report: Report | undefined): Probe {
  const scenario = report?.scenarios.find((s) => s.id === subject.scenarios[0]);
  if (subject.kind === 'scenario') {
    if (!scenario) return { hole: `the scenario did not run (${report?.harnessErrors[0]?.message ?? 'no report'})` };
    if (scenario.verdict === 'skip') return { hole: `the scenario was skipped (${scenario.skipReason ?? 'skip'})` };
    return { behaviour: scenario.verdict };
  }
  const check = report?.scenarios.flatMap((s) => s.checks).find((c) => c.id === subject.id);
  if (!check) return { hole: `the check did not run (${report?.harnessErrors[0]?.message ?? 'no report'})` };
  if (check.verdict === 'skip') return { hole: `the check was skipped (${check.skipReason ?? check.message})` };
  return { behaviour: check.verdict };
}

/**
 * Whether the cause is in the drift from the old end's exchanges (recordings folder) to a release's: "present" or
 * "absent"; a hole when a scenario that reaches its endpoint did not run on that release.
 */
export function causeIn(
  subject: Extract<Subject, { kind: 'cause' }>,
  report: Report | undefined,
  old: string,
  probed: string,
): Probe {
  const ran = new Set(report?.scenarios.filter((s) => s.verdict !== 'skip').map((s) => s.id));
  const missing = subject.scenarios.filter((id) => !ran.has(id));
  if (missing.length)
    return { hole: `${missing.join(', ')} did not run (${report?.harnessErrors[0]?.message ?? 'skipped'})` };
  const drift = driftBetween(old, probed, (s) => subject.scenarios.includes(s));
  if (drift.problems.length) return { hole: `its exchanges cannot be compared: ${drift.problems[0]}` };
  const present = causesOf(drift.scenarios, false).some((c) => matches(subject.cause, c));
  return { behaviour: present ? 'present' : 'absent' };
}
