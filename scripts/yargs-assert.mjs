// node:assert's strictEqual and notStrictEqual for yargs (scripts/bundle.mjs hands yargs this module for `assert`):
// yargs checks its own invariants with them at every command it runs, and loading node:assert (its error classes,
// call tracker and colours) cost ~0.7 ms of every start. The same checks (Object.is, as node:assert's); only a
// failing one loads node:assert, to throw its AssertionError.
export function strictEqual(actual, expected, message) {
  if (!Object.is(actual, expected)) require('node:assert').strictEqual(actual, expected, message);
}

export function notStrictEqual(actual, expected, message) {
  if (Object.is(actual, expected)) require('node:assert').notStrictEqual(actual, expected, message);
}
