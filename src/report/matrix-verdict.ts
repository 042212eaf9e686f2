// The answer of a version matrix in words, said the same way on matrix.html's banner and in matrix.md's first lines:
// what each newer version does to clients of the older one (its pair's answer, src/matrix/causes.ts), the worst of
// those answers, and — a separate fact — how the versions conform to the spec. Pure: a matrix in, text out.
import type { Matrix, MatrixPair, PairAnswer } from '../schema/generated/types.js';
import { runStatus } from '../verdict/verdicts.js';
import { plural } from '../plural.js';

/** the answers, worst first: cannot-tell is as urgent as a break short of one (nobody knows), so it comes second */
export const ANSWER_ORDER: PairAnswer[] = ['breaks', 'cannot-tell', 'may-affect', 'compatible'];

/** the worst answer of the matrix's pairs; undefined with one version (no pair) */
export function worstAnswer(m: Matrix): PairAnswer | undefined {
  const answers = (m.pairs ?? []).map((p) => p.answer);
  return ANSWER_ORDER.find((a) => answers.includes(a));
}

/** the pairs, worst answer first, then oldest first */
export const pairsByAnswer = (m: Matrix): MatrixPair[] =>
  [...(m.pairs ?? [])].sort((a, b) => ANSWER_ORDER.indexOf(a.answer) - ANSWER_ORDER.indexOf(b.answer));

/** the whole matrix's answer in one line, for its heading: the worst of its pairs */
export function headline(m: Matrix): string {
  const pairs = m.pairs ?? [];
  if (pairs.length === 1) return pairAnswer(m, pairs[0]);
  const worst = worstAnswer(m);
  if (worst === 'breaks') return 'a newer version breaks clients of an older one';
  if (worst === 'cannot-tell') return 'cannot tell whether a newer version breaks clients of an older one';
  if (worst === 'may-affect') return 'a newer version may affect clients of an older one';
  if (worst === 'compatible') return 'every newer version is compatible with clients of the older';
  return 'one version: no pair to compare';
}

/** "1.29.5 breaks clients of 1.19.2" */
export function pairAnswer(m: Matrix, p: MatrixPair): string {
  const [older, newer] = [m.columns[p.from].label, m.columns[p.to].label];
  if (p.answer === 'breaks') return `${newer} breaks clients of ${older}`;
  if (p.answer === 'may-affect') return `${newer} may affect clients of ${older}`;
  if (p.answer === 'compatible') return `${newer} is compatible with clients of ${older}`;
  return `cannot tell what ${newer} does to clients of ${older}`;
}

/** what the answer rests on: "4 breaking causes", "1 risky cause", or why it cannot tell */
export function pairGrounds(p: MatrixPair): string {
  const c = p.counts;
  const accepted = c.accepted ? ` (${c.accepted} accepted)` : '';
  if (p.answer === 'breaks') return `${plural(c.breaking, 'breaking cause')}${accepted}`;
  if (p.answer === 'may-affect') return `${plural(c.risky, 'risky cause')}${accepted}`;
  if (p.answer === 'compatible') return `${plural(c.compatible, 'compatible cause')}${accepted}`;
  return p.reason ?? 'no exchanges to compare';
}

/** the conformance of the versions to the spec, a fact apart from the answer: each version's verdict */
export function conformance(m: Matrix): string {
  const columns = m.order.map((i) => m.columns[i]);
  const listed = columns.map((c) => `${c.label} ${c.totals['expected-fail']}`).join(', ');
  if (columns.every((c) => c.exitCode === 0))
    return `every version conforms (0 failures; listed known deviations: ${listed})`;
  return columns
    .map((c) => `${c.label} ${runStatus(c.exitCode)}${c.totals.fail ? ` (${plural(c.totals.fail, 'failure')})` : ''}`)
    .join(', ');
}

/** how the two facts relate, in a sentence */
export const RELATION =
  'Conformance is about the spec; the answer, about clients of the older version: a version can conform and still ' +
  'break them (a listed deviation, or a change the spec allows).';
