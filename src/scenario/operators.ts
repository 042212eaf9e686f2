// The assertion operators of scenario files, one row each: its operand judged when the file is loaded (what the
// schema's types cannot say), its check of a value and the message it fails with. The schema of each is its member
// of `operators` in schemas/scenario.schema.json (a test holds the two to the same names). The runner, and through
// it `run`, `replay` and `synconf proxy`, judges with these rows; `validate scenario` with their operands; `synconf
// mutate` breaks each with the values its row rules out (`negate`).
import { isDeepStrictEqual } from 'node:util';
import type { Assertion, Operators } from '../schema/generated/types.js';
import { short } from '../schema/registry.js';
import { MISSING, escapePointer, jsonType, unescapePointer } from '../json.js';
import { patternProblem } from '../regex-safety.js';
import { canBeInstant, instant } from './instant.js';
import { literalParts } from './template.js';
import {
  DROP,
  LONG_AGO,
  different,
  emptyOf,
  oneLong,
  otherTypeThan,
  show,
  stripContained,
  withAdded,
  type Negation,
} from './negations.js';

/** what a row may ask of the assertion being judged: the failures of nested operators, whether one holds */
export interface Judge {
  failures(found: unknown, ops: Operators): string[];
  holds(assertion: Assertion, item: unknown): boolean;
}

export interface OperatorRow {
  name: Extract<keyof Operators, string>;
  /** false for the one operator judged on a value that may be missing (`exists`) */
  needsValue: boolean;
  /** why the operand can never be used (no run could check it), undefined when it can */
  operand?: (ops: Operators) => string | undefined;
  /** the failures of the value found (MISSING where nothing is, for an operator that does not need a value) */
  check: (v: unknown, ops: Operators, judge: Judge) => string[];
  /** the values this operator rules out for the value found (MISSING as in `check`), each a mutant that must fail
   * it; `negations` gives those of nested operators */
  negate: (v: unknown, ops: Operators, negations: (ops: Operators, v: unknown) => Negation[]) => Negation[];
}

/** a string that is one {{template}}: its value is known only when the step runs */
const WHOLE_TEMPLATE = /^\{\{\s*[\w.-]+\s*\}\}$/;

/** objects match by subset, arrays element-wise by subset, scalars by equality */
function subsetMatch(actual: unknown, expected: unknown): boolean {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(expected).every(
      ([k, v]) => Object.hasOwn(actual, k) && subsetMatch((actual as Record<string, unknown>)[k], v),
    );
  }
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) && expected.length === actual.length && expected.every((v, i) => subsetMatch(actual[i], v))
    );
  return isDeepStrictEqual(actual, expected);
}

function contains(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(actual)) return actual.some((item) => subsetMatch(item, expected));
  if (typeof actual === 'string') return typeof expected === 'string' && actual.includes(expected);
  if (actual !== null && typeof actual === 'object')
    return typeof expected === 'string' && Object.hasOwn(actual, expected);
  return false;
}

/** the length of an array or a string, the member count of an object; undefined for anything else */
const lengthOf = (v: unknown) =>
  Array.isArray(v) || typeof v === 'string'
    ? v.length
    : v !== null && typeof v === 'object'
      ? Object.keys(v).length
      : undefined;

/** is `path` absolute: `/…` (Unix), `C:\…` or `C:/…` (a Windows drive) or `\\…` (a Windows share) */
const isAbsolute = (path: string) => /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(path);

/** why `v` is not an instant at or after `bound` (undefined when it is) */
function notBeforeFailure(v: unknown, bound: unknown): string | undefined {
  const [at, from] = [instant(v), instant(bound)];
  if (!from) return `notBefore: ${short(bound)} is not an RFC 3339 timestamp`;
  if (!at) return `${short(v)} is not an RFC 3339 timestamp`;
  if (at[0] < from[0] || (at[0] === from[0] && at[1] < from[1])) return `${short(v)} is before ${short(bound)}`;
  return undefined;
}

/** why a `notBefore:` bound can be no timestamp: a {{template}} is known only when the step runs, but the text around
 * it must fit the form of one ("yesterday {{x}}" never does) */
function notBeforeOperand(bound: string): string | undefined {
  if (!bound.includes('{{'))
    return instant(bound) ? undefined : `notBefore: ${short(bound)} is not an RFC 3339 timestamp`;
  if (!canBeInstant(literalParts(bound)))
    return `notBefore: ${short(bound)} is not an RFC 3339 timestamp, whatever its templates hold`;
  return undefined;
}

/** `value` without the members at `pointers` (each relative to it): the part meant to change, left out */
function without(value: unknown, pointers: string[]): unknown {
  const copy = structuredClone(value);
  for (const pointer of pointers) {
    const parts = pointer.split('/').slice(1).map(unescapePointer);
    const last = parts.pop();
    const parent = parts.reduce<unknown>(
      (node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined),
      copy,
    );
    if (last !== undefined && parent !== null && typeof parent === 'object')
      delete (parent as Record<string, unknown>)[last];
  }
  return copy;
}

/** the pointers where `after` differs from `before` (the first few, depth first) */
function changedMembers(before: unknown, after: unknown, at = '', out: string[] = []): string[] {
  if (out.length >= 5 || isDeepStrictEqual(before, after)) return out;
  const objects = [before, after].every((x) => x !== null && typeof x === 'object');
  if (!objects || Array.isArray(before) !== Array.isArray(after)) {
    out.push(`${at || '/'} (${short(before, 30)} → ${short(after, 30)})`);
    return out;
  }
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)]))
    changedMembers(b[key], a[key], `${at}/${escapePointer(key)}`, out);
  return out;
}

/** the operand of `key` is a list (array or object), or a {{capture}} that will be one */
const listOperand = (key: 'isCountOf' | 'subsetOf') => (ops: Operators) => {
  const v = ops[key];
  return typeof v === 'object' && v !== null
    ? undefined
    : typeof v === 'string' && WHOLE_TEMPLATE.test(v)
      ? undefined
      : `${key}: ${short(v)} is not an array or object (nor a {{capture}} of one)`;
};

/** a row whose check fails with one message, or holds */
const one = (
  name: Extract<keyof Operators, string>,
  failure: (v: unknown, ops: Operators) => string | undefined,
  negate: OperatorRow['negate'],
): OperatorRow => ({
  name,
  needsValue: true,
  check: (v, ops) => {
    const f = failure(v, ops);
    return f === undefined ? [] : [f];
  },
  negate,
});

/** a row's single mutant: `value`, described as "<from> → <value> (<operator>)" */
const to = (value: unknown, operator: string, from = ''): Negation[] => [
  [`${from ? `${from} ` : ''}→ ${show(value)} (${operator})`, value],
];

/** the strings a pattern rules out, the first that fails it (none when it matches all of them) */
function notMatching(pattern: string): Negation[] {
  const re = new RegExp(pattern);
  const x = ['', 'mutant value', '0', '-'].find((c) => !re.test(c));
  return x === undefined ? [] : to(x, `matches /${pattern}/`);
}

/** a value `equals` rules out: another of the same type, never the operand */
function notEqual(v: unknown, ops: Operators): Negation[] {
  let x = different(v);
  if (isDeepStrictEqual(x, ops.equals)) x = different(x);
  return to(x, 'equals', show(v));
}

/** an object `has` rules out: the first member it names set to another value */
function notHaving(v: unknown, ops: Operators): Negation[] {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return [];
  const [k, want] = Object.entries(ops.has ?? {})[0] ?? [];
  return k === undefined ? [] : [[`member ${k} → ${show(different(want))} (has)`, { ...v, [k]: different(want) }]];
}

/** the length rows: emptied (length 0: one item longer) */
const lengthNegation = (v: unknown, ops: Operators): Negation[] => [
  [
    ops.length === 0 ? 'one item longer (length 0)' : `emptied (length ${ops.length})`,
    ops.length === 0 ? oneLong(v) : emptyOf(v),
  ],
];

/** a list `subsetOf` rules out: one item (an object: one key) that no list it is held to holds */
const beyondSubset = (v: unknown): Negation[] =>
  v !== null && typeof v === 'object'
    ? [['with "synconf-mutant" added (subsetOf)', withAdded(v, 'synconf-mutant')]]
    : [];

/** a count `isCountOf` rules out: one more (a list: one item more) */
function countPlusOne(v: unknown): Negation[] {
  if (Array.isArray(v)) return [[`one item more (isCountOf)`, [...v, v.at(-1) ?? 'mutant']]];
  return typeof v === 'number' ? to(v + 1, 'isCountOf', show(v)) : [];
}

/** an array `every` rules out: its first item broken as the nested operators rule out */
function firstItemBroken(v: unknown, ops: Operators, negations: (ops: Operators, v: unknown) => Negation[]) {
  if (!Array.isArray(v) || !v.length) return [];
  return negations(ops.every as Operators, v[0]).map(([d, x]): Negation => [
    `first item ${d} (every)`,
    x === DROP ? v.slice(1) : [x, ...v.slice(1)],
  ]);
}

function hasFailure(v: unknown, has: Record<string, unknown>): string | undefined {
  if (subsetMatch(v, has)) return undefined;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return `${short(v)} is not an object`;
  const obj = v as Record<string, unknown>;
  const differing = Object.keys(has).filter((k) => !Object.hasOwn(obj, k) || !subsetMatch(obj[k], has[k]));
  return `differs in ${differing.map((k) => `${k} (${Object.hasOwn(obj, k) ? short(obj[k], 30) : 'missing'}, expected ${short(has[k], 30)})`).join(', ')}`;
}

function subsetOfFailure(v: unknown, of: unknown): string | undefined {
  const inIt = (item: unknown) =>
    Array.isArray(of)
      ? of.some((x) => isDeepStrictEqual(x, item))
      : of !== null && typeof of === 'object' && typeof item === 'string' && Object.hasOwn(of, item);
  // an object's items are its keys (the listeners of a status against the configured addresses)
  const items = Array.isArray(v) ? v : v !== null && typeof v === 'object' ? Object.keys(v) : undefined;
  if (!items) return `${short(v)} is not an array or object (subsetOf)`;
  const outside = items.filter((item) => !inIt(item));
  return outside.length ? `has ${outside.map((x) => short(x, 30)).join(', ')}, not in ${short(of)}` : undefined;
}

function isCountOfFailure(v: unknown, ops: Operators, judge: Judge): string | undefined {
  const of = ops.isCountOf;
  const items = Array.isArray(of) ? of : of !== null && typeof of === 'object' ? Object.values(of) : undefined;
  const n = items?.filter((item) => (ops.where ?? []).every((a) => judge.holds(a, item))).length;
  const describe = (a: Assertion) => `${a.path} ${describeOps(operatorsOf(a))}`;
  const which = ops.where ? ` where ${ops.where.map(describe).join(' and ')}` : '';
  if (n === undefined) return `isCountOf: ${short(of)} is not an array or object`;
  // a list is compared by its own count: as many items as the other one has
  if ((Array.isArray(v) ? v.length : v) !== n)
    return `is ${short(v)}, expected ${n} (the count of ${short(of, 40)}${which})`;
  return undefined;
}

function unchangedFailure(v: unknown, ops: Operators): string | undefined {
  const except = ops.except ?? [];
  const [now, before] = [without(v, except), without(ops.unchangedFrom, except)];
  if (isDeepStrictEqual(now, before)) return undefined;
  return `changed beyond ${except.length ? except.join(', ') : 'nothing'}: ${changedMembers(before, now).join(', ')}`;
}

/** the operators, in the order their failures are listed */
export const OPERATORS: OperatorRow[] = [
  {
    name: 'exists',
    needsValue: false,
    check: (found, ops) =>
      ops.exists === undefined || ops.exists === (found !== MISSING)
        ? []
        : [ops.exists ? 'is missing' : `exists (${short(found)})`],
    negate: (found, ops) =>
      ops.exists === true && found !== MISSING
        ? [['dropped (exists)', DROP]]
        : ops.exists === false && found === MISSING
          ? [['added (must be absent)', 'mutant']]
          : [],
  },
  one(
    'equals',
    (v, ops) => (isDeepStrictEqual(v, ops.equals) ? undefined : `is ${short(v)}, expected ${short(ops.equals)}`),
    notEqual,
  ),
  one(
    'notEquals',
    (v, ops) => (isDeepStrictEqual(v, ops.notEquals) ? `is ${short(v)}, expected anything else` : undefined),
    (_, ops) => to(ops.notEquals, 'notEquals'),
  ),
  one(
    'type',
    (v, ops) => {
      const t = jsonType(v);
      return ops.type === t || (ops.type === 'number' && t === 'integer')
        ? undefined
        : `is of type ${t}, expected ${ops.type}`;
    },
    (v, ops) => to(otherTypeThan(ops.type!, v), `type ${ops.type}`),
  ),
  {
    ...one(
      'matches',
      (v, ops) =>
        typeof v === 'string' && new RegExp(ops.matches!).test(v)
          ? undefined
          : `${short(v)} does not match /${ops.matches}/`,
      (_, ops) => notMatching(ops.matches!),
    ),
    operand: (ops) => patternProblem(ops.matches!),
  },
  one(
    'contains',
    (v, ops) => (contains(v, ops.contains) ? undefined : `${short(v)} does not contain ${short(ops.contains)}`),
    (v, ops) => [[`without ${show(ops.contains)} (contains)`, stripContained(v, ops.contains)]],
  ),
  one(
    'notContains',
    (v, ops) => (contains(v, ops.notContains) ? `${short(v)} contains ${short(ops.notContains)}` : undefined),
    (v, ops) => [[`with ${show(ops.notContains)} added (notContains)`, withAdded(v, ops.notContains)]],
  ),
  one('has', (v, ops) => hasFailure(v, ops.has!), notHaving),
  one(
    'min',
    (v, ops) => (typeof v === 'number' && v >= ops.min! ? undefined : `${short(v)} is not at least ${ops.min}`),
    (_, ops) => to(ops.min! - 1, `min ${ops.min}`),
  ),
  one(
    'max',
    (v, ops) => (typeof v === 'number' && v <= ops.max! ? undefined : `${short(v)} is not at most ${ops.max}`),
    (_, ops) => to(ops.max! + 1, `max ${ops.max}`),
  ),
  one(
    'length',
    (v, ops) => (lengthOf(v) === ops.length ? undefined : `has length ${lengthOf(v) ?? 'n/a'}, expected ${ops.length}`),
    lengthNegation,
  ),
  one(
    'minLength',
    (v, ops) => {
      const len = lengthOf(v);
      return len !== undefined && len >= ops.minLength!
        ? undefined
        : `has length ${len ?? 'n/a'}, expected at least ${ops.minLength}`;
    },
    (v, ops) => (ops.minLength! > 0 ? [[`emptied (minLength ${ops.minLength})`, emptyOf(v)]] : []),
  ),
  one(
    'absolute',
    (v, ops) =>
      typeof v === 'string' && isAbsolute(v) === ops.absolute
        ? undefined
        : `${short(v)} is not ${ops.absolute ? 'an absolute' : 'a relative'} path`,
    (v, ops) =>
      typeof v === 'string' ? to(ops.absolute ? 'mutant/relative' : '/mutant/absolute', 'absolute', show(v)) : [],
  ),
  one(
    'endsWith',
    (v, ops) =>
      typeof v === 'string' && v.endsWith(ops.endsWith!)
        ? undefined
        : `${short(v)} does not end with ${short(ops.endsWith)}`,
    (v, ops) => (typeof v === 'string' ? to(`${v}-mutant`, `endsWith ${show(ops.endsWith)}`, show(v)) : []),
  ),
  {
    ...one('subsetOf', (v, ops) => subsetOfFailure(v, ops.subsetOf), beyondSubset),
    operand: listOperand('subsetOf'),
  },
  {
    name: 'isCountOf',
    needsValue: true,
    operand: listOperand('isCountOf'),
    check: (v, ops, judge) => {
      const f = isCountOfFailure(v, ops, judge);
      return f === undefined ? [] : [f];
    },
    negate: countPlusOne,
  },
  {
    ...one(
      'notBefore',
      (v, ops) => notBeforeFailure(v, ops.notBefore),
      (_, ops) => [[`→ "${LONG_AGO}" (notBefore ${ops.notBefore})`, LONG_AGO]],
    ),
    operand: (ops) => notBeforeOperand(ops.notBefore!),
  },
  one('unchangedFrom', unchangedFailure, (v) => to(different(v), 'unchangedFrom', show(v))),
  {
    name: 'every',
    needsValue: true,
    check: (v, ops, judge) =>
      Array.isArray(v)
        ? v.flatMap((item, i) => judge.failures(item, ops.every as Operators).map((f) => `[${i}] ${f}`))
        : ['is not an array (every)'],
    negate: firstItemBroken,
  },
];

/** the values the operators of `ops` rule out for the value `v` found (MISSING where nothing is), in table order:
 * each a mutant that must fail the assertion */
export function negationsOf(ops: Operators, v: unknown): Negation[] {
  return rowsOf(ops)
    .filter((row) => !row.needsValue || v !== MISSING)
    .flatMap((row) => row.negate(v, ops, negationsOf));
}

/** the operators of an assertion (its path, label and citations left out) */
export function operatorsOf(assertion: Assertion): Operators {
  const { path: _path, name: _label, statements: _cited, ...ops } = assertion;
  return ops;
}

/** the operators as a scenario reads: "exists, equals 3" */
export function describeOps(ops: Operators): string {
  return Object.entries(ops)
    .map(([k, v]) => (k === 'exists' ? (v ? 'exists' : 'is absent') : `${k} ${short(v, 40)}`))
    .join(', ');
}

/** the operators of `ops` it holds (in table order), with the rows that judge them */
export const rowsOf = (ops: Operators): OperatorRow[] => OPERATORS.filter((row) => row.name in ops);
