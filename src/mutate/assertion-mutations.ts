// Mutations derived from what a step asserts: for each operator of an assertion, change the value
// it reads so that the operator must no longer hold (each operator row's `negate`, scenario/operators.ts:
// equals → another value, exists → dropped, contains → the item removed, min → below it, …), and empty every
// array an assertion reads.
// A mutant that survives one of these names an assertion that is not evaluated where it is written
// (a wait that holds before it, a known deviation that swallows it, a pointer the scenario renders wrong).
import type { Assertion } from '../schema/generated/types.js';
import { resolvePointer } from '../json.js';
import { negationsOf } from '../scenario/operators.js';
import { changeAt, type ValueMutation, type Operator } from './schema-mutations.js';
import { assertionLabel } from '../runner/assertions.js';

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
    for (const [description, value] of negationsOf(ops, found)) {
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
