// The operands of a scenario's checks, judged when the file is loaded by their rows of the operator table
// (operators.ts; the schema says their types, a row says what a type cannot): a `matches:` pattern that compiles and
// cannot backtrack for ever, a `notBefore:` that is a timestamp, an `isCountOf:` or `subsetOf:` that is a list (or a
// capture of one), an assertion with an operator. So `validate scenario` refuses what a run would only find wrong
// when the check runs (the agent blamed, exit 1, or nothing checked, exit 0), in the words the run uses.
import type { Assertion, Operators, Scenario } from '../schema/generated/types.js';
import { definedMembers } from '../schema/registry.js';
import { patternProblem } from '../regex-safety.js';
import { OPERATORS } from './operators.js';

type Fail = (pointer: string, message: string, step?: string) => Error;

let operatorNames: string[] | undefined;
const operators = () => (operatorNames ??= definedMembers('scenario', 'operators'));

/** the problem of one operand of `ops` (the operator's name, and the words the check would fail with) */
function operandProblem(ops: Operators): [string, string] | undefined {
  for (const row of OPERATORS) {
    const problem = row.name in ops ? row.operand?.(ops) : undefined;
    if (problem) return [row.name, problem];
  }
  return undefined;
}

/** the operators of `ops` (and of its `every`, its `where`), each operand judged; fails at the first problem */
function checkOperators(ops: Operators, at: string, fail: (pointer: string, message: string) => Error): void {
  const problem = operandProblem(ops);
  if (problem) throw fail(`${at}/${problem[0]}`, problem[1]);
  if (ops.every) checkOperators(ops.every, `${at}/every`, fail);
  ops.where?.forEach((a, i) => checkAssertion(a, `${at}/where/${i}`, fail));
}

function checkAssertion(a: Assertion, at: string, fail: (pointer: string, message: string) => Error): void {
  const { path: _path, name: _name, statements: _statements, ...ops } = a;
  if (Object.keys(ops).length === 0) throw fail(at, `an assertion needs an operator: one of ${operators().join(', ')}`);
  checkOperators(ops, at, fail);
}

/** throws `fail(pointer, message, step)` for the first operand of the scenario's checks that no run could use */
export function checkOperands(s: Scenario, fail: Fail): void {
  for (const phase of ['setup', 'steps', 'cleanup'] as const)
    (s[phase] ?? []).forEach((step, i) => {
      const at = `/${phase}/${i}`;
      const failHere = (pointer: string, message: string) => fail(pointer, message, step.name);
      const text = step.expect?.text?.matches;
      const problem = text === undefined ? undefined : patternProblem(text);
      if (problem) throw failHere(`${at}/expect/text/matches`, problem);
      step.expect?.assert?.forEach((a, j) => checkAssertion(a, `${at}/expect/assert/${j}`, failHere));
      step.expectEvent?.assert?.forEach((a, j) => checkAssertion(a, `${at}/expectEvent/assert/${j}`, failHere));
    });
}
