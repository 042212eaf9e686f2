import { InputError } from '../errors.js';

/** A lab problem the user can act on (missing binary, instance that never answers, ...). The message says what to do. */
export class LabError extends InputError {
  override name = 'LabError';
}

/**
 * A step of the lab itself went wrong, such as its edit of config.xml: a fault of synconf (exit 3), never the
 * agent's. The message starts with "lab:" and names the step.
 */
export class LabFault extends Error {
  override name = 'LabFault';
}
