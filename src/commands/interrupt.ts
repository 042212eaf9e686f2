// Ctrl-C (SIGINT), SIGTERM and SIGHUP (a closed terminal, a dropped SSH session, a CI runner cancelling), one way for
// every command: the first signal starts an orderly stop (the command writes what it has, e.g. the report of the
// scenarios done so far), a second one ends the process at once.
import { constants } from 'node:os';

/** the exit code of a process a signal stopped, as shells report it: 128 + its number (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP) */
export const exitCodeOfSignal = (signal: NodeJS.Signals): number => 128 + (constants.signals[signal] ?? 2);

/**
 * The exit code of a server (serve, proxy) that a signal stopped: SIGTERM, what `kill` and CI send, is its orderly
 * stop (undefined: the command's own code, its verdict); Ctrl-C and SIGHUP interrupt it, 128 + n as every command.
 */
export const serverInterruptCode = (signal: NodeJS.Signals): number | undefined =>
  signal === 'SIGTERM' ? undefined : exitCodeOfSignal(signal);

/** how long a run may take to stop after a signal (at its next step) before the interrupt writes its report for it */
export const STOP_WITHIN_MS = 800;

/** the signals that stop a command in order */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface Interrupt {
  /** the signal that arrived, once one has */
  readonly signal: NodeJS.Signals | undefined;
  /** resolves with the first signal */
  readonly stopped: Promise<NodeJS.Signals>;
  /** stop listening (when the command is done) */
  off(): void;
}

/**
 * Listens for SIGINT, SIGTERM and SIGHUP until `off()`. With `stop`, the first signal runs it (its failure is ignored: the
 * process is ending anyway) and then exits with 128 + the signal's number (130 for SIGINT); without, the command awaits `stopped` and
 * ends itself. A command that runs long without awaiting anything must yield (runner/yield.ts) for a signal to land.
 */
export function onInterrupt(stop?: (signal: NodeJS.Signals) => Promise<void>): Interrupt {
  let signal: NodeJS.Signals | undefined;
  let resolve: (s: NodeJS.Signals) => void = () => {};
  const stopped = new Promise<NodeJS.Signals>((r) => (resolve = r));
  const onSignal = (s: NodeJS.Signals) => {
    if (signal) process.exit(exitCodeOfSignal(signal)); // the second Ctrl-C: the user does not want to wait
    signal = s;
    resolve(s);
    if (stop)
      void stop(s).then(
        () => process.exit(exitCodeOfSignal(s)),
        () => process.exit(exitCodeOfSignal(s)),
      );
  };
  // on(), not once(): the lab's own handler re-raises the signal when no other listener is left,
  // which would end the process before the report is written.
  for (const s of SIGNALS) process.on(s, onSignal);
  // the entry's early handler (cli/bin.ts) leaves the signals to this one while it listens
  const marked = process as { synconfInterrupt?: boolean };
  marked.synconfInterrupt = true;
  return {
    get signal() {
      return signal;
    },
    stopped,
    off() {
      for (const s of SIGNALS) process.off(s, onSignal);
      marked.synconfInterrupt = false;
    },
  };
}
