/** Exit codes of every synconf command (the CI gate). */
export const EXIT = {
  /** every check conforms (or is a listed known deviation) */
  ok: 0,
  /** a check does not conform */
  nonConforming: 1,
  /** usage, input or harness error */
  usage: 2,
} as const;

/** An error the user can act on: printed without a stack, exits with code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
