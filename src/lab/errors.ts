import { InputError } from '../errors.js';

/** A lab problem the user can act on (missing binary, instance that never answers, ...). The message says what to do. */
export class LabError extends InputError {
  override name = 'LabError';
}
