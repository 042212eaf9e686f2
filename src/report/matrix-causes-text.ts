// The causes of a version matrix as text, per pair of adjacent versions: the pair's name, the changed checks a cause
// explains counted by class, the top causes. The terminal (matrix-answer.ts), matrix.md and matrix.html share it;
// pure: a matrix in, text out.
import type { Matrix, MatrixCause, MatrixPair, MatrixRow } from '../schema/generated/types.js';
import { CHANGE_CLASSES, CHANGE_LABEL } from '../verdict/change-class.js';
import { plural } from '../plural.js';

/** "1.19.2 → 1.29.5" */
export const pairName = (m: Matrix, p: MatrixPair) => `${m.columns[p.from].label} → ${m.columns[p.to].label}`;

/** the changed checks a cause explains by class: "25 listed regression, 1 known" */
function checksByClass(c: MatrixCause): string {
  return CHANGE_CLASSES.map((k) => [k, c.checks.filter((x) => x.class === k).length] as const)
    .filter(([, n]) => n)
    .map(([k, n]) => `${n} ${CHANGE_LABEL[k]}`)
    .join(', ');
}

/** the checks a cause explains, counted by class: "explains 9 changed checks (9 listed regression)" */
export function checksLine(c: MatrixCause): string {
  if (!c.checks.length) return 'no check changed with it';
  return `explains ${plural(c.checks.length, 'changed check')} (${checksByClass(c)})`;
}

/** the same in a first screen's row, where a pair has one line: "explains 9 listed regression" */
export const checksShort = (c: MatrixCause) =>
  c.checks.length ? `explains ${checksByClass(c)}` : 'no check changed with it';

// the rows of a matrix by check id, made once per matrix (a cause looks up each check it explains)
const rowsById = new WeakMap<Matrix, Map<string, MatrixRow>>();

/**
 * Whether a cause is also a listed known deviation of the newer version: a check it explains is an expected failure
 * there. The newer version's report lists it as accepted, and its run conforms; the matrix says both, side by side.
 */
export function isListedDeviation(m: Matrix, p: MatrixPair, c: MatrixCause): boolean {
  let rows = rowsById.get(m);
  if (!rows) rowsById.set(m, (rows = new Map(m.rows.map((r) => [r.id, r]))));
  return c.checks.some((x) => rows.get(x.id)?.cells[p.to] === 'expected-fail');
}

/** "listed known deviation of 1.29.5", or nothing */
export const listedNote = (m: Matrix, p: MatrixPair, c: MatrixCause) =>
  isListedDeviation(m, p, c) ? `listed known deviation of ${m.columns[p.to].label}` : '';

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
