// The version matrix as Markdown: the runs, then the checks whose verdict changed between them
// (the unchanged rows are only counted; matrix.html and matrix.json have them all).
import type { Matrix } from './merge.js';
import { escapeMarkdown as md } from './text.js';
import { VERDICT_LABEL } from './verdicts.js';

export function matrixToMarkdown(m: Matrix): string {
  const out = [
    '## synconf version matrix',
    '',
    m.changed ? `**${m.changed}** of ${m.rows.length} checks changed verdict across ${m.columns.length} runs.` : `No verdict differs across ${m.columns.length} runs (${m.rows.length} checks).`,
    '',
    '| run | mode | started | pass | fail | expected fail | unexpected pass | skip |',
    '|---|---|---|---:|---:|---:|---:|---:|',
    ...m.columns.map((c) => `| ${md(c.label)} | ${md(c.mode)} | ${md(c.startedAt)} | ${c.totals.pass} | ${c.totals.fail} | ${c.totals['expected-fail']} | ${c.totals['unexpected-pass']} | ${c.totals.skip} |`),
  ];
  const changed = m.rows.filter((r) => r.changed);
  if (changed.length) {
    out.push('', '### Changed checks', '', `| check | ${m.columns.map((c) => md(c.label)).join(' | ')} |`, `|---|${'---|'.repeat(m.columns.length)}`);
    for (const r of changed) out.push(`| ${md(r.id)} | ${r.cells.map((v) => (v === null ? 'not run' : `**${VERDICT_LABEL[v]}**`)).join(' | ')} |`);
  }
  out.push('', `${m.rows.length - changed.length} checks have the same verdict in every run that has them.`);
  return out.join('\n') + '\n';
}
