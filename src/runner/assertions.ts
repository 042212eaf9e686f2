// Assertions of scenario files: operators on a value found by a JSON pointer (or a header), judged by the rows of
// the operator table (scenario/operators.ts).
import type { Assertion, Operators } from '../schema/generated/types.js';
import { MISSING, resolvePointer } from '../json.js';
import { OPERATORS, describeOps, operatorsOf, type Judge } from '../scenario/operators.js';

export { describeOps };

export interface AssertionOutcome {
  ok: boolean;
  message: string;
  expected: unknown;
  actual: unknown;
}

const judge: Judge = {
  failures: (found, ops) => failures(found, ops),
  holds: (assertion, item) => evaluate(assertion, item, {}).ok,
};

/** one failure message per operator that does not hold, [] when all hold; a missing value fails every other one
 * (the runner's text checks judge a body's text with it too) */
export function failures(found: unknown, ops: Operators): string[] {
  const rows = OPERATORS.filter((row) => row.name in ops);
  const out = rows.filter((row) => !row.needsValue).flatMap((row) => row.check(found, ops, judge));
  const valued = rows.filter((row) => row.needsValue);
  if (valued.length === 0) return out;
  if (found === MISSING) return [...out, 'is missing'];
  return [...out, ...valued.flatMap((row) => row.check(found, ops, judge))];
}

/** evaluate one assertion against a body (parsed JSON or undefined) and headers */
export function evaluate(assertion: Assertion, body: unknown, headers: Record<string, string>): AssertionOutcome {
  const { path } = assertion;
  const ops = operatorsOf(assertion);
  const found = path.startsWith('header:')
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

/** stable label of an assertion for its check id */
export function assertionLabel(a: Assertion): string {
  if (a.name) return a.name;
  const ops = Object.keys(a)
    .filter((k) => k !== 'path' && k !== 'name' && k !== 'statements')
    .join('+');
  return `${a.path === '' ? 'body' : a.path} ${ops}`;
}
