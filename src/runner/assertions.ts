// Assertions of scenario files: operators on a value found by a JSON pointer (or a header).
import type { Assertion, Operators } from '../schema/generated/types.js';
import { isDeepStrictEqual } from 'node:util';
import { short } from '../schema/registry.js';
import { MISSING, resolvePointer, jsonType, escapePointer, unescapePointer } from '../json.js';
import { instant } from '../scenario/instant.js';

export interface AssertionOutcome {
  ok: boolean;
  message: string;
  expected: unknown;
  actual: unknown;
}

type Found = unknown;

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

/** how many items an array (member values an object) has, of those `where` holds for; undefined for anything else */
function countOf(v: unknown, where: Assertion[] = []): number | undefined {
  const items = Array.isArray(v) ? v : v !== null && typeof v === 'object' ? Object.values(v) : undefined;
  return items?.filter((item) => where.every((a) => evaluate(a, item, {}).ok)).length;
}

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

/** the operators that relate the value to another one: a path's form, a set, a count, an instant, a state before */
function relationFailures(v: unknown, ops: Operators): string[] {
  const out: string[] = [];
  if (ops.absolute !== undefined && !(typeof v === 'string' && isAbsolute(v) === ops.absolute))
    out.push(`${short(v)} is not ${ops.absolute ? 'an absolute' : 'a relative'} path`);
  if (ops.endsWith !== undefined && !(typeof v === 'string' && v.endsWith(ops.endsWith)))
    out.push(`${short(v)} does not end with ${short(ops.endsWith)}`);
  if ('subsetOf' in ops) {
    const of = ops.subsetOf;
    const inIt = (item: unknown) =>
      Array.isArray(of)
        ? of.some((x) => isDeepStrictEqual(x, item))
        : of !== null && typeof of === 'object' && typeof item === 'string' && Object.hasOwn(of, item);
    // an object's items are its keys (the listeners of a status against the configured addresses)
    const items = Array.isArray(v) ? v : v !== null && typeof v === 'object' ? Object.keys(v) : undefined;
    if (!items) out.push(`${short(v)} is not an array or object (subsetOf)`);
    else {
      const outside = items.filter((item) => !inIt(item));
      if (outside.length) out.push(`has ${outside.map((x) => short(x, 30)).join(', ')}, not in ${short(of)}`);
    }
  }
  if ('isCountOf' in ops) {
    const n = countOf(ops.isCountOf, ops.where);
    const which = ops.where ? ` where ${ops.where.map((a) => `${a.path} ${describeOps(opsOf(a))}`).join(' and ')}` : '';
    if (n === undefined) out.push(`isCountOf: ${short(ops.isCountOf)} is not an array or object`);
    // a list is compared by its own count: as many items as the other one has
    else if ((Array.isArray(v) ? v.length : v) !== n)
      out.push(`is ${short(v)}, expected ${n} (the count of ${short(ops.isCountOf, 40)}${which})`);
  }
  if (ops.notBefore !== undefined) {
    const failure = notBeforeFailure(v, ops.notBefore);
    if (failure) out.push(failure);
  }
  if ('unchangedFrom' in ops) {
    const except = ops.except ?? [];
    const [now, before] = [without(v, except), without(ops.unchangedFrom, except)];
    if (!isDeepStrictEqual(now, before))
      out.push(
        `changed beyond ${except.length ? except.join(', ') : 'nothing'}: ${changedMembers(before, now).join(', ')}`,
      );
  }
  return out;
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

/** one failure message per operator that does not hold, [] when all hold */
function failures(found: Found, ops: Operators): string[] {
  const out: string[] = [];
  const present = found !== MISSING;
  const v = present ? found : undefined;
  if (ops.exists !== undefined && ops.exists !== present) out.push(ops.exists ? 'is missing' : `exists (${short(v)})`);
  const needsValue = Object.keys(ops).some((k) => k !== 'exists');
  if (!needsValue) return out;
  if (!present) return [...out, 'is missing'];
  if ('equals' in ops && !isDeepStrictEqual(v, ops.equals)) out.push(`is ${short(v)}, expected ${short(ops.equals)}`);
  if ('notEquals' in ops && isDeepStrictEqual(v, ops.notEquals)) out.push(`is ${short(v)}, expected anything else`);
  if (ops.type !== undefined) {
    const t = jsonType(v);
    const ok = ops.type === t || (ops.type === 'number' && t === 'integer');
    if (!ok) out.push(`is of type ${t}, expected ${ops.type}`);
  }
  if (ops.matches !== undefined && !(typeof v === 'string' && new RegExp(ops.matches).test(v)))
    out.push(`${short(v)} does not match /${ops.matches}/`);
  if ('contains' in ops && !contains(v, ops.contains)) out.push(`${short(v)} does not contain ${short(ops.contains)}`);
  if ('notContains' in ops && contains(v, ops.notContains)) out.push(`${short(v)} contains ${short(ops.notContains)}`);
  const has = ops.has;
  if (has !== undefined && !subsetMatch(v, has)) {
    const obj = v as Record<string, unknown>;
    const differing =
      v !== null && typeof v === 'object' && !Array.isArray(v)
        ? Object.keys(has).filter((k) => !Object.hasOwn(obj, k) || !subsetMatch(obj[k], has[k]))
        : [];
    out.push(
      differing.length
        ? `differs in ${differing.map((k) => `${k} (${Object.hasOwn(obj, k) ? short(obj[k], 30) : 'missing'}, expected ${short(has[k], 30)})`).join(', ')}`
        : `${short(v)} is not an object`,
    );
  }
  if (ops.min !== undefined && !(typeof v === 'number' && v >= ops.min))
    out.push(`${short(v)} is not at least ${ops.min}`);
  if (ops.max !== undefined && !(typeof v === 'number' && v <= ops.max))
    out.push(`${short(v)} is not at most ${ops.max}`);
  const len =
    Array.isArray(v) || typeof v === 'string'
      ? v.length
      : v !== null && typeof v === 'object'
        ? Object.keys(v).length
        : undefined;
  if (ops.length !== undefined && len !== ops.length) out.push(`has length ${len ?? 'n/a'}, expected ${ops.length}`);
  if (ops.minLength !== undefined && (len === undefined || len < ops.minLength))
    out.push(`has length ${len ?? 'n/a'}, expected at least ${ops.minLength}`);
  out.push(...relationFailures(v, ops));
  if (ops.every !== undefined) {
    if (!Array.isArray(v)) out.push('is not an array (every)');
    else v.forEach((item, i) => failures(item, ops.every as Operators).forEach((f) => out.push(`[${i}] ${f}`)));
  }
  return out;
}

/** evaluate one assertion against a body (parsed JSON or undefined) and headers */
export function evaluate(assertion: Assertion, body: unknown, headers: Record<string, string>): AssertionOutcome {
  const { path, name: _label, statements: _cited, ...ops } = assertion;
  const found: Found = path.startsWith('header:')
    ? (headers[path.slice('header:'.length).toLowerCase()] ?? MISSING)
    : body === undefined
      ? MISSING
      : resolvePointer(body, path);
  const problems = failures(found, ops);
  const where = path === '' ? 'body' : path;
  return {
    ok: problems.length === 0,
    message: problems.length ? `${where} ${problems.join('; ')}` : `${where} ${describeOps(ops)}`,
    expected: ops,
    actual: found === MISSING ? undefined : found,
  };
}

/** the operators of an assertion (its path, label and citations left out) */
function opsOf(assertion: Assertion): Operators {
  const { path: _path, name: _label, statements: _cited, ...ops } = assertion;
  return ops;
}

export function describeOps(ops: Operators): string {
  return Object.entries(ops)
    .map(([k, v]) => (k === 'exists' ? (v ? 'exists' : 'is absent') : `${k} ${short(v, 40)}`))
    .join(', ');
}

/** stable label of an assertion for its check id */
export function assertionLabel(a: Assertion): string {
  if (a.name) return a.name;
  const ops = Object.keys(a)
    .filter((k) => k !== 'path' && k !== 'name' && k !== 'statements')
    .join('+');
  return `${a.path === '' ? 'body' : a.path} ${ops}`;
}
