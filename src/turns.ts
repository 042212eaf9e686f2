// Turns of the event loop. A signal (Ctrl-C, SIGTERM, SIGHUP) is read by the loop only between two pieces of
// synchronous work: a replay never waits for I/O, and the folds, views and renders of a report of 50,000 checks are
// seconds of it, so without a turn now and then a signal would be heard only after them (issue 41). The runner and
// the mutation loop take one between scenarios (and mutants); a long loop paces itself (`pacer`), taking one every
// TURN_MS. Below every layer: writers of report/ pace themselves too, and still print nothing and handle no signal.

export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Two turns of the event loop: a signal that landed during synchronous work is read in the loop's poll phase, which
 * a single turn taken from an I/O callback may come before.
 */
export async function hearSignals(): Promise<void> {
  await nextTurn();
  await nextTurn();
}

/** how long a loop runs without a turn: well within the second a signal is to be acted on, on a loaded machine */
export const TURN_MS = 50;

/** awaited once an item of a long loop: a turn once TURN_MS have passed since the last (what a turn is: `turn`) */
export type Pace = () => Promise<void>;

/** a pace whose turn is `turn` (a command's may also stop the loop: it throws once the work is to be given up) */
export function pacer(turn: () => Promise<void> = nextTurn): Pace {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < TURN_MS) return;
    await turn();
    since = performance.now();
  };
}

/** `items` mapped by `fn`, a turn taken now and then */
export async function pacedMap<T, U>(
  items: readonly T[],
  fn: (item: T, index: number) => U,
  pace: Pace = pacer(),
): Promise<U[]> {
  const out: U[] = [];
  for (const [i, item] of items.entries()) {
    await pace();
    out.push(fn(item, i));
  }
  return out;
}

/**
 * Work written once for both callers, as a generator that yields where it may pause: `drained` runs it through at
 * once (a small report, a test), `pacedDrain` takes a turn at its pauses now and then.
 */
export function drained<R>(work: Generator<void, R>): R {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** `work` run through, `pace` awaited at each of its pauses */
export async function pacedDrain<R>(work: Generator<void, R>, pace: Pace): Promise<R> {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    await pace();
  }
}
