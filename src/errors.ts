// The error model of synconf, below every layer: every failure a user can meet is one of these kinds,
// and one function maps a kind to the process exit code. An agent that does not conform is never an
// exception: it is a failing check with its evidence (exit 1 through the run's verdicts).
import { constants } from 'node:os';

/** Exit codes of every synconf command (the CI gate). */
export const EXIT = {
  /** every check conforms (or is a listed known deviation) */
  ok: 0,
  /** a check does not conform */
  nonConforming: 1,
  /** usage or input error: bad flags, a missing or malformed file, an agent that cannot be reached or started */
  usage: 2,
  /** a fault of synconf itself (a bug): the stack goes to a log file or --verbose */
  internal: 3,
  /** stopped by Ctrl-C (SIGINT), SIGTERM or SIGHUP: 128 + SIGINT, as shells report Ctrl-C */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * What an interrupt aborts the work with (AbortSignal.reason): the signal, and the exit code it gives the process,
 * 128 + its number, for the lines and reports that say it (a run's work knows the signal only through its abort).
 */
export class Interrupted extends Error {
  override name = 'Interrupted';
  constructor(
    readonly signal: string,
    readonly exitCode: number,
  ) {
    super(`interrupted by ${signal}`);
  }
}

/** the exit code of a process a signal stopped, as shells report it: 128 + its number (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP) */
export const exitCodeOfSignal = (signal: NodeJS.Signals): number => 128 + (constants.signals[signal] ?? 2);

/** the exit code of work aborted by a signal: 128 + its number (130 when the abort does not say which signal) */
export const exitCodeOfAbort = (abort: AbortSignal | undefined): number =>
  abort?.reason instanceof Interrupted ? abort.reason.exitCode : EXIT.interrupted;

/** usage: bad flags or arguments. input: a file or agent that synconf cannot use (missing, unreadable, malformed). */
export type ErrorKind = 'usage' | 'input';

/**
 * An error the user can act on: printed as one line (plus an optional hint), without a stack.
 * The message names the file (and line), the option or the step, and the cause.
 */
export class SynconfError extends Error {
  override name = 'SynconfError';
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** A bad flag, argument or combination of them. */
export class UsageError extends SynconfError {
  override name = 'UsageError';
  constructor(message: string, hint?: string) {
    super('usage', message, hint);
  }
}

/** A file or an agent synconf cannot use: missing, unreadable, malformed, unreachable. */
export class InputError extends SynconfError {
  override name = 'InputError';
  constructor(message: string, hint?: string) {
    super('input', message, hint);
  }
}

/** The one place that maps a thrown value to an exit code: known kinds to 2, anything else is a fault of synconf. */
export function exitCodeOf(err: unknown): ExitCode {
  return err instanceof SynconfError ? EXIT.usage : EXIT.internal;
}
