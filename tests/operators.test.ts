// The operator table (src/scenario/operators.ts): one row per operator of the scenario schema, and each row holds on
// a value that keeps it and fails, with its message, on one that breaks it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Assertion } from '../src/schema/generated/types.js';
import { definedMembers } from '../src/schema/registry.js';
import { OPERATORS } from '../src/scenario/operators.js';
import { evaluate } from '../src/runner/assertions.js';

/** members of the schema's operators that qualify another operator, not operators of their own */
const MODIFIERS = ['where', 'except'];

test('the table has one row per operator of schemas/scenario.schema.json, and no other', () => {
  const names = OPERATORS.map((r) => r.name as string);
  assert.deepEqual(new Set(names).size, names.length, 'one row each');
  assert.deepEqual(
    [...names].sort(),
    definedMembers('scenario', 'operators')
      .filter((n) => !MODIFIERS.includes(n))
      .sort(),
  );
});

const TS = '2026-01-01T00:00:00Z';
/** [operators, a value that keeps them, one that breaks them, the failure message] */
const CASES: [Omit<Assertion, 'path'>, unknown, unknown, RegExp][] = [
  [{ exists: true }, 1, undefined, /^\/v is missing$/],
  [{ exists: false }, undefined, 1, /^\/v exists \(1\)$/],
  [{ equals: 3 }, 3, 4, /is 4, expected 3/],
  [{ notEquals: 3 }, 4, 3, /is 3, expected anything else/],
  [{ type: 'number' }, 2, '2', /is of type string, expected number/],
  [{ matches: '^a' }, 'ab', 'ba', /"ba" does not match \/\^a\//],
  [{ contains: 'x' }, ['x'], ['y'], /does not contain "x"/],
  [{ notContains: 'x' }, ['y'], ['x'], /contains "x"/],
  [{ has: { a: 1 } }, { a: 1, b: 2 }, { a: 2 }, /differs in a \(2, expected 1\)/],
  [{ min: 2 }, 2, 1, /1 is not at least 2/],
  [{ max: 2 }, 2, 3, /3 is not at most 2/],
  [{ length: 2 }, [1, 2], [1], /has length 1, expected 2/],
  [{ minLength: 1 }, 'a', '', /has length 0, expected at least 1/],
  [{ absolute: true }, '/a', 'a', /"a" is not an absolute path/],
  [{ endsWith: '/' }, 'a/', 'a', /"a" does not end with "\/"/],
  [{ subsetOf: ['a', 'b'] }, ['a'], ['c'], /has "c", not in/],
  [{ isCountOf: [1, 2], where: [{ path: '', min: 2 }] }, 1, 2, /is 2, expected 1 \(the count of .* where  min 2\)/],
  [{ notBefore: TS }, '2026-02-01T00:00:00Z', '2025-01-01T00:00:00Z', /is before "2026-01-01T00:00:00Z"/],
  [
    { unchangedFrom: { a: 1, t: 1 }, except: ['/t'] },
    { a: 1, t: 2 },
    { a: 2, t: 1 },
    /changed beyond \/t: \/a \(1 → 2\)/,
  ],
  [{ every: { type: 'string' } }, ['a'], ['a', 1], /\[1\] is of type integer, expected string/],
];

for (const [ops, keeps, breaks, message] of CASES)
  test(`${Object.keys(ops)[0]}: holds on ${JSON.stringify(keeps)}, fails on ${JSON.stringify(breaks)}`, () => {
    const at = (v: unknown) => evaluate({ path: '/v', ...ops } as Assertion, v === undefined ? {} : { v }, {});
    assert.ok(at(keeps).ok, at(keeps).message);
    const broken = at(breaks);
    assert.equal(broken.ok, false);
    assert.match(broken.message, message);
  });

test('every operator of the table is among the cases', () => {
  const covered = new Set(CASES.map(([ops]) => Object.keys(ops)[0]));
  assert.deepEqual(
    OPERATORS.map((r) => r.name).filter((n) => !covered.has(n)),
    [],
  );
});

/** notBefore bounds with templates, judged when the file loads: whether some value of the templates makes a timestamp */
const TEMPLATED_BOUNDS: [string, boolean][] = [
  ['{{t}}', true],
  ['{{d}}T{{t}}', true],
  ['{{d}}T00:00:00Z', true],
  ['{{d}}t00:00:00.123456789-05:30', true],
  ['2024-01-01T{{t}}', true],
  ['2024-01-01T00:00:00Z{{empty}}', true],
  ['{{t}}.{{fraction}}', true],
  ['yesterday {{t}}', false],
  ['{{t}} ago', false],
  ['{{d}}T00:00:00+0200', false],
  ['{{d}}T{{t}}T', false],
  ['2024-01-01 {{t}}', false],
  ['{{t}}Z+02:00', false],
];

for (const [bound, can] of TEMPLATED_BOUNDS)
  test(`notBefore "${bound}" is ${can ? 'kept' : 'refused'} when the file loads`, () => {
    const problem = OPERATORS.find((r) => r.name === 'notBefore')!.operand!({ notBefore: bound });
    assert.equal(
      problem,
      can ? undefined : `notBefore: "${bound}" is not an RFC 3339 timestamp, whatever its templates hold`,
    );
  });
