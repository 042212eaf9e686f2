// What the operator rows (operators.ts) give `synconf mutate`: for a value an assertion reads, the values its
// operator rules out (equals → another value, exists → dropped, contains → the item removed, min → below it, …).
// These are the pieces the rows' `negate` share; each row says which value breaks it.
import { isDeepStrictEqual } from 'node:util';
import { jsonType } from '../json.js';

/** the value removed (a member deleted, an array item spliced out) instead of replaced */
export const DROP = Symbol('drop');

/** one mutant of a value: what it does, and the new value (or DROP) */
export type Negation = [description: string, value: unknown];

/** a value in a mutant's description: JSON, 50 characters at most */
export const show = (v: unknown): string => {
  const t = JSON.stringify(v) ?? 'undefined';
  return t.length > 50 ? `${t.slice(0, 49)}…` : t;
};

/** a well-formed instant before any bound a run can capture (an agent's start, an earlier state change) */
export const LONG_AGO = '2000-01-01T00:00:00Z';

/** a value of the same JSON type as `v` that differs from it (another type when there is none) */
export function different(v: unknown): unknown {
  if (typeof v === 'string') return `${v}-mutant`;
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return !v;
  if (Array.isArray(v)) return v.length ? [] : ['mutant'];
  if (v !== null && typeof v === 'object') return { ...v, mutant: true };
  return 'mutant';
}

/** a value whose JSON type is not `type` ("number" admitting integers) */
export function otherTypeThan(type: string, v: unknown): unknown {
  const candidates: unknown[] = [typeof v === 'number' ? String(v) : 1, 'mutant', true, null, {}, []];
  return candidates.find((c) => {
    const t = jsonType(c);
    return !(t === type || (type === 'number' && t === 'integer'));
  });
}

/** `v` without `x`: the array items matching it (by subset), the substring, the member named */
export function stripContained(v: unknown, x: unknown): unknown {
  if (Array.isArray(v))
    return v.filter(
      (item) =>
        !(
          isDeepStrictEqual(item, x) ||
          (x !== null &&
            typeof x === 'object' &&
            item !== null &&
            typeof item === 'object' &&
            Object.entries(x).every(([k, y]) => isDeepStrictEqual((item as Record<string, unknown>)[k], y)))
        ),
    );
  if (typeof v === 'string' && typeof x === 'string' && x) return v.split(x).join('');
  if (v !== null && typeof v === 'object' && typeof x === 'string') {
    const { [x]: _gone, ...rest } = v as Record<string, unknown>;
    return rest;
  }
  return v;
}

/** `v` with `x` added: an array item, a string's tail, an object's member named `x` */
export function withAdded(v: unknown, x: unknown): unknown {
  if (Array.isArray(v)) return [...v, x];
  if (typeof v === 'string') return `${v}${x}`;
  if (v !== null && typeof v === 'object' && typeof x === 'string') return { ...v, [x]: 'mutant' };
  return v;
}

/** an empty value of `v`'s kind: [], "" or {} */
export const emptyOf = (v: unknown): unknown => (Array.isArray(v) ? [] : typeof v === 'string' ? '' : {});

/** a value of `v`'s kind one item longer than empty */
export const oneLong = (v: unknown): unknown =>
  Array.isArray(v) ? ['mutant'] : typeof v === 'string' ? 'x' : { mutant: 1 };
