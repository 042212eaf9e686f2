// src/plural.ts: the one way a count is said in a sentence, and the word that agrees with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plural, wordFor } from '../src/plural.js';

test('a count and its word: one, many, none, and a plural that is not one + "s"', () => {
  const rows: [string, string][] = [
    [plural(0, 'check'), '0 checks'],
    [plural(1, 'check'), '1 check'],
    [plural(2, 'check'), '2 checks'],
    [plural(3, 'harness error'), '3 harness errors'],
    [plural(2, 'entry', 'entries'), '2 entries'],
    [`${wordFor(1, 'check')} ${wordFor(1, 'fails', 'fail')}`, 'check fails'],
    [`${wordFor(4, 'check')} ${wordFor(4, 'fails', 'fail')}`, 'checks fail'],
    [wordFor(0, 'is', 'are'), 'are'],
  ];
  for (const [got, want] of rows) assert.equal(got, want);
});
