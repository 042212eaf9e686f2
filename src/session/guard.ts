// The one stop guard of every command that runs work (run, replay, drift, matrix, history, bisect, mutate, serve,
// proxy): SIGINT, SIGTERM and SIGHUP (a closed terminal, a dropped SSH session, a CI runner cancelling). The first
// signal is recorded at once and wins (the process exits 128 + its number, however soon the work would have ended),
// says "interrupted (SIGNAME)" once and starts an orderly stop (the command writes what it has, e.g. the report of the
// scenarios done so far); a second one ends the process at once. The orderly stop has STOP_WITHIN_MS (`deadline`).
// session/ installs no handler on the process: the command hands it a `SignalHook` (commands/terminal/interrupt.ts),
// through which the guard hears the signals, says its line, sets the exit code and ends the process.
// A signal is read by the event loop only between two pieces of synchronous work: every long stretch below takes a
// turn now and then (turns.ts), and a command looks once more (`heard`) before its exit code is decided.
import { hearSignals } from '../turns.js';
import { exitCodeOfSignal, Interrupted } from '../errors.js';

/**
 * How long an orderly stop may take after the signal: what it still writes then (the report of a run the signal
 * stopped) is given up, whole or not at all (`deadline`), so that the process ends within a second of the signal.
 */
export const STOP_WITHIN_MS = 700;

/** what the command layer gives the guard: the process's signals, its line, its exit code and its end */
export interface SignalHook {
  /** hears the stop signals from now on; the function returned stops hearing them */
  listen(onSignal: (signal: NodeJS.Signals) => void): () => void;
  /** a line for the user (the first signal's) */
  say(line: string): void;
  /** the code the process exits with when it ends by itself */
  setExitCode(code: number): void;
  /** the guard ends the process itself once its orderly stop is done: the entry's own exit waits for it */
  ending(): void;
  /** ends the process now */
  exit(code: number): void;
}

export interface Guard {
  /** the signal that arrived, once one has */
  readonly signal: NodeJS.Signals | undefined;
  /** resolves with the first signal */
  readonly stopped: Promise<NodeJS.Signals>;
  /** aborted by the first signal (its reason: "interrupted by SIGNAME"): what the work below stops on */
  readonly abort: AbortSignal;
  /** aborted STOP_WITHIN_MS after the first signal: what the orderly stop still writes is given up then */
  readonly deadline: AbortSignal;
  /** the signal, if one came, once every signal that landed during synchronous work has been heard */
  heard(): Promise<NodeJS.Signals | undefined>;
  /** never resolves: once a signal came, the orderly stop (`stop`) writes what there is and ends the process */
  ending(): Promise<never>;
  /** the code the process exits with: 128 + n once a signal came (it wins), else `code` */
  exitCode(code: number): number;
  /**
   * The command's report is in place, saying its verdict: from now until the process exits (`off` no longer stops
   * listening), a first signal has `rewrite` write it again, marked interrupted, whole or not at all, and the process
   * exits 128 + n. The signal wins even then, and the report agrees with the exit code (issue 41). A signal that came
   * while the report was written, after its last stop point, has it rewritten now, and the process exits after that.
   */
  afterReport(rewrite: (signal: NodeJS.Signals) => Promise<void>, doing: string): void;
  /** stop listening (when the command is done), unless a report is to be rewritten on a signal (`afterReport`) */
  off(): void;
}

export interface GuardOptions {
  /** the line said once on the first signal, after "interrupted (SIGNAME)": what the command does now */
  line?: { command: string; doing: string };
  /**
   * the orderly stop: run on the first signal (its failure is ignored: the process is ending anyway), then the
   * process exits with 128 + the signal's number; without it, the command stops on `abort` and ends itself
   */
  stop?: (signal: NodeJS.Signals) => Promise<void>;
}

/** Guards the work from now until `off()`: the hook's signals heard, the first one stopping it in order. */
export function guard(hook: SignalHook, opts: GuardOptions = {}): Guard {
  let signal: NodeJS.Signals | undefined;
  let late: { rewrite: (signal: NodeJS.Signals) => Promise<void>; doing: string } | undefined;
  let lateWrite: Promise<void> | undefined; // a report rewritten for a signal that came while it was written
  let resolve: (s: NodeJS.Signals) => void = () => {};
  const stopped = new Promise<NodeJS.Signals>((r) => (resolve = r));
  const abort = new AbortController();
  const deadline = new AbortController();
  const onSignal = (s: NodeJS.Signals) => {
    if (signal) return hook.exit(exitCodeOfSignal(signal)); // the second Ctrl-C: the user does not want to wait
    signal = s;
    if (opts.line) hook.say(`\n${opts.line.command}: interrupted (${s}): ${late?.doing ?? opts.line.doing}`);
    abort.abort(new Interrupted(s, exitCodeOfSignal(s)));
    setTimeout(() => deadline.abort(), STOP_WITHIN_MS).unref();
    resolve(s);
    const exit = () => hook.exit(exitCodeOfSignal(s));
    const end = late?.rewrite ?? opts.stop;
    if (!end) return;
    hook.ending();
    void end(s)
      .then(() => lateWrite)
      .then(exit, exit);
  };
  const unlisten = hook.listen(onSignal);
  return {
    get signal() {
      return signal;
    },
    stopped,
    abort: abort.signal,
    deadline: deadline.signal,
    async heard() {
      await hearSignals();
      return signal;
    },
    ending() {
      if (signal) hook.setExitCode(exitCodeOfSignal(signal));
      return new Promise<never>(() => {});
    },
    exitCode: (code) => (signal ? exitCodeOfSignal(signal) : code),
    afterReport(rewrite, doing) {
      if (!signal) late = { rewrite, doing };
      // the signal came while the report was written (after its last stop point): it wins all the same, and the
      // process exits once the report says so
      else lateWrite ??= rewrite(signal);
    },
    off() {
      if (!late) unlisten();
    },
  };
}
