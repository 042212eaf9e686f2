// What `--fail-on`, `--ignore` and `--ignore-file` ask of a version matrix, read the same way by `matrix` and
// `report merge`: the verdicts that fail a version, the change level or boundary gate over the pairs of versions,
// and the reviewed changes accepted (read before any work: a bad entry stops it).
import { BOUNDARY_FAIL_ON, changeFailOnChoices, type ChangeFailOn } from '../verdict/change-levels.js';
import { loadIgnoreFile, parseIgnore, type Acceptance } from '../changes/accept.js';
import type { GateAsk } from '../report/matrix-answer.js';
import { UsageError } from '../errors.js';

export interface ReleaseGate {
  /** the verdicts given (none: each run's own) */
  verdicts: string[];
  ask: GateAsk;
  accepted: Acceptance[];
}

export function releaseGateOf(opts: { failOn: string[]; ignore?: string[]; ignoreFile?: string }): ReleaseGate {
  const levels: string[] = changeFailOnChoices();
  const asked = opts.failOn.filter((v) => levels.includes(v));
  if (asked.length > 1)
    throw new UsageError(
      `--fail-on takes one change level, got ${asked.join(' and ')}: give the lowest that must fail (any fails on every cause)`,
    );
  return {
    verdicts: opts.failOn.filter((v) => !levels.includes(v) && v !== BOUNDARY_FAIL_ON),
    ask: {
      changes: opts.failOn.find((v) => levels.includes(v)) as ChangeFailOn | undefined,
      boundary: opts.failOn.includes(BOUNDARY_FAIL_ON),
    },
    accepted: [...(opts.ignore ?? []).map(parseIgnore), ...(opts.ignoreFile ? loadIgnoreFile(opts.ignoreFile) : [])],
  };
}
