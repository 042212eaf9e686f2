// The levels of a change between two agent versions, by what a client of the older version feels (breaking: it can
// fail, risky: it may, compatible: it does not), and the --fail-on choices over them. Read from the schemas (their
// enums are in order of severity), so the command line offers exactly what the documents hold.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeLevel, DriftCauses } from '../schema/generated/types.js';
import { SCHEMAS_DIR } from '../paths.js';

export type { ChangeLevel };
/** --fail-on of the drift gate: a level, or any (every cause) */
export type ChangeFailOn = NonNullable<DriftCauses['failOn']>;

const schema = (name: string) => JSON.parse(readFileSync(join(SCHEMAS_DIR, `${name}.schema.json`), 'utf8'));

let levels: ChangeLevel[] | undefined;
/** the levels from the most severe */
export const changeLevels = (): readonly ChangeLevel[] => (levels ??= schema('change-rules').$defs.level.enum);

/** the --fail-on choices: the levels, then any */
export const changeFailOnChoices = (): ChangeFailOn[] => schema('drift-causes').properties.failOn.enum;

/** is a cause of `level` at or above the --fail-on level (any: every level)? */
export function tripsGate(level: ChangeLevel, failOn: ChangeFailOn): boolean {
  return failOn === 'any' || changeLevels().indexOf(level) <= changeLevels().indexOf(failOn);
}

/** --fail-on boundary (synconf matrix, beside the levels): exit 1 when a version statement of the spec disagrees with
 * what the tested versions showed (matrix `boundaries`); without it a disagreement is listed, as a finding */
export const BOUNDARY_FAIL_ON = 'boundary';
