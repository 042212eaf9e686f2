// Time as the runner sees it. Live runs use the wall clock; a replay uses a virtual clock that
// advances by the recorded durations, so waits and event polls end where they ended live,
// without sleeping.
import { setTimeout as sleep } from 'node:timers/promises';

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** account for time an exchange took (virtual clocks advance, the wall clock already has) */
  elapse(ms: number): void;
}

/** milliseconds on a monotonic clock, for durations: process.hrtime, because the first use of the global
 * `performance` loads perf_hooks (~0.85 ms of every replay, bench/README.md) */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export const wallClock: Clock = {
  now: monotonicMs,
  sleep: (ms) => sleep(ms),
  elapse: () => {},
};

export function virtualClock(): Clock {
  let t = 0;
  return {
    now: () => t,
    sleep: async (ms) => {
      t += ms;
    },
    elapse: (ms) => {
      t += ms;
    },
  };
}

/** "250ms" / "5s" / "1.5s" → milliseconds (the scenario schema guarantees the form) */
export function parseDuration(text: string): number {
  const m = /^([0-9]+(?:\.[0-9]+)?)(ms|s)$/.exec(text);
  if (!m) throw new Error(`not a duration: "${text}" (use e.g. 250ms or 5s)`);
  return Number(m[1]) * (m[2] === 's' ? 1000 : 1);
}
