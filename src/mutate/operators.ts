// The mutation operators, as schemas/mutation-report.schema.json names them (the one list of them).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMAS_DIR } from '../paths.js';
import type { MutantResult } from '../schema/generated/types.js';

export type Operator = MutantResult['operator'];

export function operators(): Operator[] {
  return JSON.parse(readFileSync(join(SCHEMAS_DIR, 'mutation-report.schema.json'), 'utf8')).$defs.operator.enum;
}

/** the operators `mutate --live` runs when --operators is not given: the ones only a live agent can judge */
export const DEFAULT_OPERATORS: Operator[] = ['side-effect', 'drop-events'];
