// Mutations derived from what a step asserts: for each operator of an assertion, change the value
// it reads so that the operator must no longer hold (equals → another value, exists → dropped,
// contains → the item removed, min → below it, …), and empty every array an assertion reads.
// A mutant that survives one of these names an assertion that is not evaluated where it is written
// (a wait that holds before it, a known deviation that swallows it, a pointer the scenario renders wrong).
import { isDeepStrictEqual } from 'node:util';
import type { Assertion, Operators } from '../schema/generated/types.js';
import { resolvePointer, MISSING, jsonType } from '../json.js';
import { changeAt, DROP, type ValueMutation, type Operator } from './schema-mutations.js';
import { assertionLabel } from '../runner/assertions.js';

const show = (v: unknown) => {
  const t = JSON.stringify(v) ?? 'undefined';
  return t.length > 50 ? `${t.slice(0, 49)}…` : t;
};

const LONG_AGO = '2000-01-01T00:00:00Z';

/** a value of the same JSON type as `v` that differs from it (another type when there is none) */
function different(v: unknown): unknown {
  if (typeof v === 'string') return `${v}-mutant`;
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return !v;
  if (Array.isArray(v)) return v.length ? [] : ['mutant'];
  if (v !== null && typeof v === 'object') return { ...v, mutant: true };
  return 'mutant';
}

function otherTypeThan(type: string, v: unknown): unknown {
  const candidates: unknown[] = [typeof v === 'number' ? String(v) : 1, 'mutant', true, null, {}, []];
  return candidates.find((c) => {
    const t = jsonType(c);
    return !(t === type || (type === 'number' && t === 'integer'));
  });
}

function stripContained(v: unknown, x: unknown): unknown {
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

/** the values an operator rules out, as (description, new value | DROP) */
function negations(ops: Operators, v: unknown, present: boolean): [string, unknown][] {
  const out: [string, unknown][] = [];
  if (ops.exists === true && present) out.push(['dropped (exists)', DROP]);
  if (ops.exists === false && !present) out.push(['added (must be absent)', 'mutant']);
  if (!present) return out;
  if ('equals' in ops) {
    let x = different(v);
    if (isDeepStrictEqual(x, ops.equals)) x = different(x);
    out.push([`${show(v)} → ${show(x)} (equals)`, x]);
  }
  if ('notEquals' in ops) out.push([`→ ${show(ops.notEquals)} (notEquals)`, ops.notEquals]);
  if (ops.type !== undefined) {
    const x = otherTypeThan(ops.type, v);
    out.push([`→ ${show(x)} (type ${ops.type})`, x]);
  }
  if (ops.matches !== undefined) {
    const re = new RegExp(ops.matches);
    const x = ['', 'mutant value', '0', '-'].find((c) => !re.test(c));
    if (x !== undefined) out.push([`→ ${show(x)} (matches /${ops.matches}/)`, x]);
  }
  if (ops.endsWith !== undefined && typeof v === 'string')
    out.push([`${show(v)} → ${show(`${v}-mutant`)} (endsWith ${show(ops.endsWith)})`, `${v}-mutant`]);
  if ('contains' in ops) out.push([`without ${show(ops.contains)} (contains)`, stripContained(v, ops.contains)]);
  if ('notContains' in ops) {
    const x = ops.notContains;
    const added = Array.isArray(v)
      ? [...v, x]
      : typeof v === 'string'
        ? `${v}${x}`
        : v !== null && typeof v === 'object' && typeof x === 'string'
          ? { ...v, [x]: 'mutant' }
          : v;
    out.push([`with ${show(x)} added (notContains)`, added]);
  }
  if (ops.has !== undefined && v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const [k, want] = Object.entries(ops.has)[0] ?? [];
    if (k !== undefined) out.push([`member ${k} → ${show(different(want))} (has)`, { ...v, [k]: different(want) }]);
  }
  if (ops.min !== undefined) out.push([`→ ${ops.min - 1} (min ${ops.min})`, ops.min - 1]);
  if (ops.max !== undefined) out.push([`→ ${ops.max + 1} (max ${ops.max})`, ops.max + 1]);
  // a well-formed instant before any bound a run can capture (an agent's start, an earlier state change)
  if (ops.notBefore !== undefined) out.push([`→ "${LONG_AGO}" (notBefore ${ops.notBefore})`, LONG_AGO]);
  const emptyOf = Array.isArray(v) ? [] : typeof v === 'string' ? '' : {};
  if (ops.length !== undefined)
    out.push([
      ops.length === 0 ? 'one item longer (length 0)' : `emptied (length ${ops.length})`,
      ops.length === 0 ? (Array.isArray(v) ? ['mutant'] : typeof v === 'string' ? 'x' : { mutant: 1 }) : emptyOf,
    ]);
  if (ops.minLength !== undefined && ops.minLength > 0) out.push([`emptied (minLength ${ops.minLength})`, emptyOf]);
  if (ops.every !== undefined && Array.isArray(v) && v.length) {
    for (const [d, x] of negations(ops.every as Operators, v[0], true))
      out.push([`first item ${d} (every)`, x === DROP ? v.slice(1) : [x, ...v.slice(1)]]);
  }
  return out;
}

/** mutations of a JSON body (or an event) that break each operator of each assertion, and empty the arrays they read */
export function assertionMutations(assertions: Assertion[], doc: unknown, operator: Operator): ValueMutation[] {
  const out: ValueMutation[] = [];
  const emptied = new Set<string>();
  const seen = new Map<string, number>();
  for (const a of assertions) {
    // the check's name, as the runner gives it (a repeated label gets #2, #3, …)
    const label = assertionLabel(a);
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    const aims = `assert:${label}${n > 1 ? ` #${n}` : ''}`;
    if (a.path.startsWith('header:')) continue;
    const { path, name, ...ops } = a;
    const found = resolvePointer(doc, path);
    const present = found !== MISSING;
    for (const [description, value] of negations(ops, found, present)) {
      out.push({
        operator,
        pointer: path,
        aims,
        description: `${name ? `"${name}": ` : ''}${path || 'body'} ${description}`,
        apply: (d) => changeAt(d, path, () => value),
      });
    }
    // The nearest array on the way to what the assertion reads: an agent that answers [] there.
    const segs = path.split('/');
    for (let n = segs.length; n >= 1; n--) {
      const p = segs.slice(0, n).join('/');
      const v = resolvePointer(doc, p);
      if (Array.isArray(v) && v.length && !emptied.has(p)) {
        emptied.add(p);
        out.push({
          operator: 'empty-array',
          pointer: p,
          aims,
          description: `${p || 'body'} emptied (${v.length} items → [])`,
          apply: (d) => changeAt(d, p, () => []),
        });
        break;
      }
    }
  }
  return out;
}

/** header assertions: the header dropped */
export function headerMutations(assertions: Assertion[]): { header: string; description: string }[] {
  return assertions
    .filter((a) => a.path.startsWith('header:'))
    .map((a) => ({
      header: a.path.slice('header:'.length).toLowerCase(),
      description: `header ${a.path.slice('header:'.length)} dropped`,
    }));
}
