// The one comparison of two agents' recorded exchanges, for every command that asks what changed between versions:
// drift (two folders, or a folder and a fresh live recording), the matrix (live or replayed: each version's report
// folder keeps its exchanges) and report merge. Scenario by scenario by shape (compare-dirs.ts), then folded into
// causes classified by the change rules (causes.ts).
import type { ChangeCause } from '../schema/generated/types.js';
import { driftBetween, driftSteps, pacedDriftBetween, type FolderDrift } from './compare-dirs.js';
import type { Pace } from '../turns.js';
import { causesOf } from './causes.js';
import { describeDifference, type Difference } from './compare.js';

export interface Comparison {
  drift: FolderDrift;
  /** most urgent first */
  causes: ChangeCause[];
}

/**
 * the changes from recordings folder `a` (older) to `b` (newer); `only` limits them to some scenario ids, `keep` to
 * some differences (a client's footprint: changes/footprint.ts)
 */
export function compareRecordings(
  a: string,
  b: string,
  only?: (scenario: string) => boolean,
  keep?: (d: Difference) => boolean,
): Comparison {
  const drift = driftBetween(a, b, only);
  if (keep) restrict(drift, keep);
  // not folded yet: whoever accepts reviewed causes folds them after (foldMembers)
  return { drift, causes: causesOf(drift.scenarios, false) };
}

/** the changes from `a` to `b` of every scenario (`only`: some), a turn taken now and then (`pace`) */
export async function pacedCompareRecordings(
  a: string,
  b: string,
  only: ((scenario: string) => boolean) | undefined,
  pace: Pace,
): Promise<Comparison> {
  const drift = await pacedDriftBetween(a, b, only, pace);
  return { drift, causes: causesOf(drift.scenarios, false) };
}

/** the changes from `a` to `b`, piece by piece: it yields where a paced caller may take a turn (a matrix's pairs) */
export function* compareSteps(a: string, b: string, only?: (scenario: string) => boolean): Generator<void, Comparison> {
  const drift = yield* driftSteps(a, b, only);
  return { drift, causes: causesOf(drift.scenarios, false) };
}

/** the drift with only the differences `keep` holds for (its lines and count with them) */
function restrict(drift: FolderDrift, keep: (d: Difference) => boolean): void {
  drift.differences = 0;
  for (const s of drift.scenarios) {
    if (s.onlyIn) {
      drift.differences++; // a scenario recorded on one side only is one difference
      continue;
    }
    s.differences = s.differences.filter(keep);
    s.lines = s.differences.map(describeDifference);
    drift.differences += s.differences.length;
  }
}
