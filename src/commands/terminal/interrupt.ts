// The process's side of the one stop guard (session/guard.ts): only here are handlers for SIGINT, SIGTERM and SIGHUP
// installed on the process, its line printed, its exit code set and the process ended. Every command that runs work
// guards it with `onInterrupt` (or hands `processSignals` to the session that guards it).
import { exitCodeOfSignal } from '../../errors.js';
import { guard, type Guard, type GuardOptions, type SignalHook } from '../../session/guard.js';

export { STOP_WITHIN_MS } from '../../session/guard.js';
export type Interrupt = Guard;

/**
 * The exit code of a server (serve, proxy) that a signal stopped: SIGTERM, what `kill` and CI send, is its orderly
 * stop (undefined: the command's own code, its verdict); Ctrl-C and SIGHUP interrupt it, 128 + n as every command.
 */
export const serverInterruptCode = (signal: NodeJS.Signals): number | undefined =>
  signal === 'SIGTERM' ? undefined : exitCodeOfSignal(signal);

/** the signals that stop a command in order */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** what the interrupt marks on the process for the entry (cli/bin.ts): it listens; it is ending the process itself */
const marked = process as { synconfInterrupt?: boolean; synconfEnding?: boolean };

/** the process's signals, line, exit code and end, as the guard takes them */
export const processSignals: SignalHook = {
  listen(onSignal) {
    // on(), not once(): the lab's own handler re-raises the signal when no other listener is left,
    // which would end the process before the report is written.
    for (const s of SIGNALS) process.on(s, onSignal);
    // the entry's early handler (cli/bin.ts) leaves the signals to this one while it listens
    marked.synconfInterrupt = true;
    return () => {
      for (const s of SIGNALS) process.off(s, onSignal);
      marked.synconfInterrupt = false;
    };
  },
  say: (line) => console.error(line),
  setExitCode: (code) => void (process.exitCode = code),
  ending: () => void (marked.synconfEnding = true), // the entry's own exit waits for this one
  exit: (code) => process.exit(code),
};

/** Listens for SIGINT, SIGTERM and SIGHUP until `off()`: the guard of a command's work */
export const onInterrupt = (opts: GuardOptions = {}): Interrupt => guard(processSignals, opts);
