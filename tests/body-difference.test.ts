// Where two request bodies first differ (src/transport/body-difference.ts), as a miss of replay (echo: the run's own
// request) or serve (a stranger's: the sent side described, never quoted) says it: the JSON pointer or character
// offset where they part, a short excerpt of each from there, control characters escaped, no credential echoed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bodyDifference } from '../src/transport/body-difference.js';

const LONG = `{"a":"${'x'.repeat(100)}","b":1}`;

// [what, sent, recorded, echo, the line]
const ROWS: [string, string, string, boolean, string][] = [
  [
    'JSON differing past the first 80 characters: the pointer, both values',
    LONG,
    LONG.replace('"b":1', '"b":2'),
    true,
    'body differs at /b: sent 1 vs recorded 2',
  ],
  [
    "a stranger's JSON (serve): its value described, not quoted",
    '{"file":"2021-01-01T00:00:00Z"}',
    '{"file":"2020-01-01T00:00:00Z"}',
    false,
    'body differs at /file: sent a string of 20 characters vs recorded "2020-01-01T00:00:00Z"',
  ],
  [
    'a member missing on one side',
    '{"a":1}',
    '{"a":1,"b":{"c":true}}',
    true,
    'body differs at /b: sent (missing) vs recorded {"c":true}',
  ],
  [
    'a credential member: redacted on both sides, echo or not',
    '{"gui":{"password":"hunter2-sent"}}',
    '{"gui":{"password":"hunter2-recorded"}}',
    true,
    'body differs at /gui/password: sent <REDACTED> vs recorded <REDACTED>',
  ],
  [
    'text: the offset, excerpts from where they part, a control character escaped',
    `${'t'.repeat(60)}A\u001b[2J`,
    `${'t'.repeat(60)}B`,
    true,
    'body differs at character 60: sent "…ttttttttttA\\x1b[2J" vs recorded "…ttttttttttB"',
  ],
  [
    "text with a credential parameter: its value never shown, the stranger's body only counted",
    'user=a&password=hunter2&x=1',
    'user=a&password=other&x=2',
    false,
    'body differs at character 29: sent a body of 27 bytes vs recorded "…<REDACTED>&x=2"',
  ],
];

for (const [what, sent, recorded, echo, line] of ROWS)
  test(what, () => {
    const said = bodyDifference(sent, recorded, echo);
    assert.equal(said, line);
    assert.doesNotMatch(said, /hunter2/);
  });
