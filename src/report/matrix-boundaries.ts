// The version boundaries of a matrix as text: for each version statement of the spec, what each tested version
// showed, the oldest where it holds and whether that agrees with the version the spec names. Disagreements are
// findings and are listed open; the whole table is folded away. Pure: a matrix in, HTML, Markdown or lines out.
import type { BoundaryVerdict, Matrix, MatrixBoundary } from '../schema/generated/types.js';
import { escapeHtml, escapeMarkdown as md, cut } from './text.js';
import { plural, wordFor } from '../plural.js';

const e = (s: string, max = 500) => escapeHtml(cut(s, max));

const VERDICTS: BoundaryVerdict[] = ['disagrees', 'agrees', 'cannot tell'];

/** the spec's side of the boundary: "from 1.18.0", "before 1.2.0", or a dash when it names no version */
const specSide = (b: MatrixBoundary) => (b.version ? `${b.holds === 'before' ? 'before' : 'from'} ${b.version}` : '–');
/** a cell in a word: what the version showed (the details say by what) */
const shortCell = (observed: string) => (observed === 'not observed' ? '–' : observed);
const firstHolds = (m: Matrix, b: MatrixBoundary) => (b.firstHolds === null ? 'none' : m.columns[b.firstHolds].label);

/** "3 agree, 1 disagrees, 13 cannot tell" */
export function boundarySummary(m: Matrix): string {
  const all = m.boundaries ?? [];
  const n = (v: BoundaryVerdict) => all.filter((b) => b.verdict === v).length;
  const disagree = n('disagrees');
  return `${n('agrees')} agree, ${disagree} ${wordFor(disagree, 'disagrees', 'disagree')}, ${n('cannot tell')} cannot tell`;
}

const disagreements = (m: Matrix) => (m.boundaries ?? []).filter((b) => b.verdict === 'disagrees');
const ordered = (m: Matrix) =>
  [...(m.boundaries ?? [])].sort((a, b) => VERDICTS.indexOf(a.verdict) - VERDICTS.indexOf(b.verdict));

/** terminal lines: the counts, then one line per disagreement */
export function boundaryLines(m: Matrix): string[] {
  if (!m.boundaries?.length) return [];
  return [
    `version boundaries against the spec (${m.boundaries.length} version statements): ${boundarySummary(m)}`,
    ...disagreements(m).map((b) => `  disagrees ${b.statement} (spec: ${specSide(b)}): ${b.why}`),
  ];
}

/** matrix --fail-on boundary: tripped by any disagreement, each named in a line */
export function boundaryGate(m: Matrix): { lines: string[]; tripped: boolean } {
  const found = disagreements(m);
  if (!found.length)
    return { lines: ['--fail-on boundary: no version statement disagrees with the tested versions'], tripped: false };
  return {
    lines: [
      `--fail-on boundary: ${plural(found.length, 'version statement')} ${wordFor(found.length, 'disagrees', 'disagree')} with the tested versions:`,
      ...found.map((b) => `  ${b.statement} (spec: ${specSide(b)}): ${b.why}`),
    ],
    tripped: true,
  };
}

/** Markdown: disagreements listed, the table (one row per version statement) folded away */
export function boundariesMarkdown(m: Matrix): string[] {
  if (!m.boundaries?.length) return [];
  const head = m.order.map((i) => md(m.columns[i].label));
  return [
    '',
    `### Version boundaries against the spec (${boundarySummary(m)})`,
    '',
    ...disagreements(m).flatMap((b, i, all) => [
      `- **disagrees** \`${b.statement}\` (spec: ${specSide(b)}): ${md(b.why)}`,
      ...(i === all.length - 1 ? [''] : []),
    ]),
    '<details><summary>Each version statement: what each version showed, the first where it holds</summary>',
    '',
    `| statement | spec | ${head.join(' | ')} | first holds | verdict |`,
    `|---|---|${'---|'.repeat(head.length)}---|---|`,
    ...ordered(m).map(
      (b) =>
        `| \`${b.statement}\` | ${specSide(b)} | ${m.order.map((i) => shortCell(b.cells[i].observed)).join(' | ')} | ${md(firstHolds(m, b))} | ${b.verdict}: ${md(b.why)} |`,
    ),
    '',
    '</details>',
  ];
}

/** HTML: disagreements listed, the table folded away; each cell says by what in its title */
export function boundariesHtml(m: Matrix): string {
  if (!m.boundaries?.length) return '';
  const head = m.order.map((i) => `<th scope="col">${e(m.columns[i].label)}</th>`).join('');
  const row = (b: MatrixBoundary) =>
    `<tr><th scope="row"><code>${e(b.statement, 120)}</code><div class="muted">${e(b.quote, 160)}</div></th><td class="nowrap">${e(specSide(b))}</td>${m.order.map((i) => `<td title="${e(b.cells[i].by, 300)}">${e(shortCell(b.cells[i].observed))}</td>`).join('')}<td>${e(firstHolds(m, b))}</td><td><strong>${e(b.verdict)}</strong>: ${e(b.why, 400)}</td></tr>`;
  const found = disagreements(m)
    .map(
      (b) =>
        `<li><strong>disagrees</strong> <code>${e(b.statement, 120)}</code> (spec: ${e(specSide(b))}): ${e(b.why, 400)}</li>`,
    )
    .join('');
  return `<h2 id="boundaries">Version boundaries against the spec <span class="muted">(${e(boundarySummary(m))})</span></h2>
${found ? `<ul>${found}</ul>` : ''}<details><summary>Each version statement: what each version showed, the first where it holds</summary>
<p class="muted">A version statement holds on a version where a check citing it passed or its endpoint answered, and does not where its endpoint was absent (404, or 405 where its path has another method) or every check citing it failed. It agrees when it holds on every observed version on the spec's side of the boundary and on none of the other, with a version observed on each side.</p>
<table><thead><tr><th scope="col">Statement</th><th scope="col">Spec</th>${head}<th scope="col">First holds</th><th scope="col">Verdict</th></tr></thead>
<tbody>
${ordered(m).map(row).join('\n')}
</tbody></table></details>`;
}
