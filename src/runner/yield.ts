// A turn of the event loop. A replay never waits for I/O, so without it a Ctrl-C would be handled only after the
// whole run: the runner and the mutation loop take one between scenarios (and mutants), then check their stop signal.
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
