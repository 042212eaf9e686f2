// The causes of a version matrix as text, per pair of adjacent versions: the counts by level, then one line per
// cause that is not compatible (the compatible ones counted), each with the changed checks it explains counted by
// class. The terminal and the first lines of matrix.md share it; pure: a matrix in, lines out.
import type { Matrix, MatrixCause, MatrixPair } from '../schema/generated/types.js';
import { CHANGE_CLASSES, CHANGE_LABEL } from '../verdict/change-class.js';
import { causeLine, countLine, failing, gateLine } from './causes-text.js';
import type { ChangeFailOn } from '../verdict/change-levels.js';

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

/** every pair: a heading line, its urgent causes one line each (with what they explain), the rest counted */
export function pairsText(m: Matrix): string[] {
  return (m.pairs ?? []).flatMap((p) => {
    const shown = p.causes.filter(urgent);
    const rest = p.causes.length - shown.length;
    return [
      `${pairName(m, p)}: ${countLine(p.counts)}${p.recorded ? '' : ' (no recordings: from the changed checks only)'}; checks changed: ${pairChecksLine(p)}`,
      ...shown.map((c) => `  ${causeLine(c.cause)}; ${checksLine(c)}`),
      ...(rest ? [`  …and ${plural(rest, 'compatible or accepted cause')} (matrix.md, matrix.html)`] : []),
    ];
  });
}

const LEVELS = ['breaking', 'risky', 'compatible'];

/** matrix --fail-on LEVEL: per pair the gate's line naming the causes that trip it; tripped when any does */
export function matrixGate(m: Matrix, failOn: ChangeFailOn): { lines: string[]; tripped: boolean } {
  let tripped = false;
  const lines = (m.pairs ?? []).map((p) => {
    const causes = failing(
      p.causes.map((c) => c.cause),
      failOn,
    );
    tripped ||= causes.length > 0;
    return `${pairName(m, p)}: ${gateLine(failOn, causes)}`;
  });
  return { lines, tripped };
}

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
