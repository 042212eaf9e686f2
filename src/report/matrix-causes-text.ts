// The causes of a version matrix as text, per pair of adjacent versions: the pair's name, the changed checks a cause
// explains counted by class, the top causes. The terminal (matrix-answer.ts), matrix.md and matrix.html share it;
// pure: a matrix in, text out.
import type { Matrix, MatrixCause, MatrixPair } from '../schema/generated/types.js';
import { CHANGE_CLASSES, CHANGE_LABEL } from '../verdict/change-class.js';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "1.19.2 → 1.29.5" */
export const pairName = (m: Matrix, p: MatrixPair) => `${m.columns[p.from].label} → ${m.columns[p.to].label}`;

/** the checks a cause explains, counted by class: "9 checks: 9 listed regression" */
export function checksLine(c: MatrixCause): string {
  if (!c.checks.length) return 'no check changed with it';
  const by = CHANGE_CLASSES.map((k) => [k, c.checks.filter((x) => x.class === k).length] as const)
    .filter(([, n]) => n)
    .map(([k, n]) => `${n} ${CHANGE_LABEL[k]}`);
  return `explains ${plural(c.checks.length, 'changed check')} (${by.join(', ')})`;
}

/** the changed checks of a pair by class: "9 listed regression, 1 fixed" */
export function pairChecksLine(p: MatrixPair): string {
  const by = CHANGE_CLASSES.filter((k) => p.checks[k]).map((k) => `${p.checks[k]} ${CHANGE_LABEL[k]}`);
  return by.length ? by.join(', ') : 'no check changed';
}

/** the urgent causes first: not accepted and not compatible */
export const urgent = (c: MatrixCause) => !c.cause.accepted && c.cause.level !== 'compatible';

const LEVELS = ['breaking', 'risky', 'compatible'];

/** the top causes of a pair: urgent ones, by level, then those that explain the most changed checks */
export function topCauses(p: MatrixPair, n: number): MatrixCause[] {
  return p.causes
    .filter(urgent)
    .map((c, i) => ({ c, i }))
    .sort(
      (x, y) =>
        LEVELS.indexOf(x.c.cause.level) - LEVELS.indexOf(y.c.cause.level) ||
        y.c.checks.length - x.c.checks.length ||
        x.i - y.i,
    )
    .slice(0, n)
    .map(({ c }) => c);
}
