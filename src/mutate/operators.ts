// The mutation operators, as schemas/mutation-report.schema.json names them (the one list of them): those derived
// from the suite's own checks, and those derived from the spec's statements (a table here, so that the help lists
// them without loading mutate/; tests/spec-mutants.test.ts holds it equal to the schema's list).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMAS_DIR } from '../paths.js';
import type { MutantResult } from '../schema/generated/types.js';

export type Operator = MutantResult['operator'];

function schemaDefs(): Record<string, { enum: string[] }> {
  return JSON.parse(readFileSync(join(SCHEMAS_DIR, 'mutation-report.schema.json'), 'utf8')).$defs;
}

/** the operators derived from the suite's checks (the ones --live can run) */
export function operators(): Operator[] {
  return schemaDefs().checkOperator.enum as Operator[];
}

/** the operators that break one statement of the spec in a recorded exchange, and what each does */
export const SPEC_OPERATORS = {
  retype: 'a member of the answer takes another JSON type (a shape statement: "| field | type |")',
  'drop-member': 'a member of the answer is removed (a member the spec says is present)',
  'other-value': 'a member keeps its type but takes another value (a shown default, a stated value)',
  'set-value': 'a member is set to a given well-typed value that contradicts the statement',
  'counter-skew': 'a count is one more, inconsistent with its sibling or with the answer of another endpoint',
  'drop-key': 'a key the statement names is removed from an object (a listed name missing)',
  'rename-keys': 'the keys of an object name something else (keys that must be addresses, paths, field names)',
  'add-item': 'an item the statement rules out is added to a list (an entry of the wrong kind, an unlisted name)',
  'swap-separator': 'the path separator of paths is swapped (/ for \\)',
  'relative-path': 'an absolute path loses its leading separator',
  'absolute-path': 'a relative path becomes absolute',
  'strip-trailing-separator': 'paths lose their trailing separator',
  'drop-offset': 'a timestamp loses its UTC offset',
  'foreign-id': 'an identifier is replaced by another well-formed one (a device ID of another device)',
  'freeze-value': 'a member keeps its first recorded value in every later answer (a counter that should move)',
  refuse: 'a successful answer becomes a refusal (400, or 403 for the API key), a plain-text body',
  'accept-refused': 'a refused answer (4xx, 5xx) becomes 200 with a JSON body',
  'error-body': 'a plain-text error body becomes a JSON body',
  'fill-body': 'an empty success body becomes a JSON object',
  'media-type': 'a JSON answer is sent as text/plain',
  absent: "an endpoint the agent must have answers the router's 404 (where it answered, or refused, before)",
  present: 'an endpoint the agent must not have yet (404) answers 200',
  'undo-effect': 'a request is answered as recorded, but the recordings of the state after it are those from before',
  'drop-events': 'the events a request must generate never come',
} as const;

export type SpecOperator = keyof typeof SPEC_OPERATORS;

/** the operators `mutate --live` runs when --operators is not given: the ones only a live agent can judge */
export const DEFAULT_OPERATORS: Operator[] = ['side-effect', 'drop-events'];
