// The version matrix as Markdown: the runs, then the checks that changed between versions grouped by
// class, regressions first (the unchanged rows are only counted; matrix.html and matrix.json have them all).
import type { Matrix, MatrixRow } from '../schema/generated/types.js';
import { escapeMarkdown as md } from './text.js';
import { VERDICT_LABEL } from '../verdict/verdicts.js';
import { CHANGE_CLASSES, CHANGE_HEADING, CHANGE_LABEL, CHANGE_MEANING } from '../verdict/change-class.js';

/** rows shown per class; the rest are counted (matrix.json and matrix.html have every row) */
const ROWS_PER_CLASS = 60;

/** undocumented members that not every run has (a version started or stopped sending them); the others counted */
function undocumentedSection(m: Matrix): string[] {
  const all = m.undocumented ?? [];
  const differ = all.filter((u) => u.columns.length < m.columns.length);
  if (!all.length) return [];
  const out = ['', `### Undocumented members (${all.length}; ${differ.length} not in every version)`, ''];
  if (differ.length) {
    out.push(
      `| endpoint | member | ${m.order.map((i) => md(m.columns[i].label)).join(' | ')} |`,
      `|---|---|${'---|'.repeat(m.order.length)}`,
    );
    for (const u of differ.slice(0, ROWS_PER_CLASS))
      out.push(
        `| ${md(u.endpoint)} | ${md(u.member)} | ${m.order.map((i) => (u.columns.includes(i) ? 'sent' : '–')).join(' | ')} |`,
      );
    if (differ.length > ROWS_PER_CLASS)
      out.push('', `…and ${differ.length - ROWS_PER_CLASS} more (matrix.json and matrix.html list them all).`);
    out.push('');
  }
  const same = all.length - differ.length;
  out.push(`${same} undocumented member${same === 1 ? ' is' : 's are'} sent by every version.`);
  return out;
}

export function matrixToMarkdown(m: Matrix): string {
  const byClass = CHANGE_CLASSES.map((c) => `${CHANGE_LABEL[c]}: ${m.classes[c]}`).join(', ');
  const out = [
    '## synconf version matrix',
    '',
    m.changed
      ? `**${m.changed}** of ${m.rows.length} checks changed across ${m.columns.length} versions: ${byClass}.`
      : `No verdict differs across ${m.columns.length} runs (${m.rows.length} checks).`,
    '',
    '| version | mode | started | exit | pass | fail | expected fail | unexpected pass | skip |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|',
    ...m.order
      .map((i) => m.columns[i])
      .map(
        (c) =>
          `| ${md(c.label)} | ${md(c.mode)} | ${md(c.startedAt)} | ${c.exitCode} | ${c.totals.pass} | ${c.totals.fail} | ${c.totals['expected-fail']} | ${c.totals['unexpected-pass']} | ${c.totals.skip} |`,
      ),
  ];
  const verdicts = (r: MatrixRow) =>
    m.order.map((i) => (r.cells[i] === null ? 'not run' : VERDICT_LABEL[r.cells[i]!])).join(' → ');
  const why = (r: MatrixRow) =>
    r.changes.map((c) => `${m.columns[c.from].label} → ${m.columns[c.to].label}: ${c.note}`).join('; ');
  for (const cls of CHANGE_CLASSES) {
    const rows = m.rows.filter((r) => r.class === cls);
    if (!rows.length) continue;
    out.push(
      '',
      `### ${CHANGE_HEADING[cls]} (${rows.length})`,
      '',
      `_${CHANGE_MEANING[cls]}_`,
      '',
      `| check | ${m.order.map((i) => md(m.columns[i].label)).join(' → ')} | why |`,
      '|---|---|---|',
    );
    for (const r of rows.slice(0, ROWS_PER_CLASS)) out.push(`| ${md(r.id)} | ${md(verdicts(r))} | ${md(why(r))} |`);
    if (rows.length > ROWS_PER_CLASS)
      out.push('', `…and ${rows.length - ROWS_PER_CLASS} more (matrix.json and matrix.html list them all).`);
  }
  out.push('', `${m.rows.length - m.changed} checks have the same verdict in every run that has them.`);
  out.push(...undocumentedSection(m));
  return out.join('\n') + '\n';
}
