// How a run stops part-way, in bounded time: Ctrl-C (or SIGTERM, SIGHUP), a run or scenario past its time bound, an
// agent that stopped answering. Each aborts the signal a scenario runs under with a reason; every request and every
// pause of the scenario races that signal, and the steps look at it between them, so a scenario stops within a turn
// of the event loop, keeping the checks it made.
import { monotonicMs } from './clock.js';
import { nextTurn } from '../turns.js';

/** thrown inside a scenario when its signal is aborted: the reason is a harness error of the run */
export class Stopped extends Error {
  override name = 'Stopped';
  constructor(
    message: string,
    /** the whole run must stop (the agent stopped answering), not only this scenario */
    readonly wholeRun = false,
  ) {
    super(message);
  }
}

/** the reason an aborted signal carries, as a sentence */
export const reasonOf = (signal: AbortSignal): string =>
  signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'stopped');

/** throws Stopped once `signal` is aborted */
export function checkStop(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Stopped(reasonOf(signal));
}

/** `work`, or Stopped as soon as `signal` is aborted (the work itself is left to end on its own bound) */
export function raceStop<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  checkStop(signal);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Stopped(reasonOf(signal)));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e as Error);
      },
    );
  });
}

let lastTurn = monotonicMs();

/**
 * A turn of the event loop at most every 50 ms: a replay never waits for I/O, so a signal could land only between
 * scenarios, and one scenario of 200,000 steps would be deaf to it. Once per step costs nothing measurable.
 */
export async function turnNowAndThen(): Promise<void> {
  const now = monotonicMs();
  if (now - lastTurn < 50) return;
  lastTurn = now;
  await nextTurn();
}
