// The one comparison of two agents' recorded exchanges, for every command that asks what changed between versions:
// drift (two folders, or a folder and a fresh live recording), the matrix (live or replayed: each version's report
// folder keeps its exchanges) and report merge. Scenario by scenario by shape (compare-dirs.ts), then folded into
// causes classified by the change rules (causes.ts).
import type { ChangeCause } from '../schema/generated/types.js';
import { driftBetween, type FolderDrift } from './compare-dirs.js';
import { causesOf } from './causes.js';

export interface Comparison {
  drift: FolderDrift;
  /** most urgent first */
  causes: ChangeCause[];
}

/** the changes from recordings folder `a` (older) to `b` (newer); `only` limits them to some scenario ids */
export function compareRecordings(a: string, b: string, only?: (scenario: string) => boolean): Comparison {
  const drift = driftBetween(a, b, only);
  return { drift, causes: causesOf(drift.scenarios) };
}
