// The release history as files: history.json (bounded), history.md and history.html. Their first screen answers
// "what changed, in which release": a row a change, its answer, its most urgent cause and where exactly (the release,
// or the bisect hint). Then each change's causes, then the grid: a row per check group or version statement, a column
// per release that ran, the releases between that did not run as a hole column. Pure: a history in, text out.
import type { History, HistoryChange, HistoryRow } from '../schema/generated/types.js';
import { REPORT_FILE_BOUND, boundedJson } from './bound.js';
import { escapeHtml as e, escapeMarkdown as md } from './text.js';
import { htmlPage } from './html-page.js';
import { changeAnswer, changeCounts, changeWhere, gapsOf, historyHeadline, holesPhrase } from './history-text.js';
import { plural } from '../plural.js';

/** history.json within the size bound: unchanged rows left out from the end first */
export function historyJson(h: History, limit = REPORT_FILE_BOUND): string {
  return boundedJson(h, limit, (share) => {
    const keep = Math.floor(h.rows.length * share);
    return { ...h, rows: h.rows.slice(0, keep), rowsLeftOut: h.rows.length - keep + (h.rowsLeftOut ?? 0) };
  });
}

const topLine = (c: HistoryChange) => c.causes[0]?.line.replace(/\s+/g, ' ') ?? 'no cause recorded';

/** the grid's header: a column per release that ran, a hole column where releases between did not */
function gridHeader(h: History): string[] {
  const gaps = gapsOf(h);
  return h.columns.flatMap((c, i) => [...(gaps[i].length ? [`⋯ ${holesPhrase(gaps[i])}`] : []), c.version]);
}

/** a row's cells, with the hole columns where the header has them */
function gridCells(h: History, r: HistoryRow): string[] {
  const gaps = gapsOf(h);
  return r.cells.flatMap((cell, i) => [
    ...(gaps[i].length ? ['·'] : []),
    `${cell ?? '—'}${i > 0 && r.changedIn.includes(h.columns[i].version) ? ' ◆' : ''}`,
  ]);
}

function markdownChange(c: HistoryChange): string[] {
  return [
    `### ${md(changeWhere(c))}: ${md(changeAnswer(c))}`,
    '',
    md(changeCounts(c)),
    '',
    ...c.causes.map((x) => `- ${md(x.line)}${x.listed ? ` (listed known deviation of ${md(c.to)})` : ''}`),
    ...(c.moreCauses ? [`- … and ${plural(c.moreCauses, 'more cause')} in the matrix`] : []),
    '',
    `Where: ${md(c.bisect.text)}${c.bisect.command ? `: \`${c.bisect.command.replace(/`/g, "'")}\`` : ''}`,
    '',
  ];
}

export function historyToMarkdown(h: History): string {
  const changed = h.rows.filter((r) => r.changedIn.length);
  const header = gridHeader(h);
  return [
    `# synconf release history: ${md(historyHeadline(h))}`,
    '',
    '## What changed, in which release',
    '',
    '| release | answer | most urgent cause | where exactly |',
    '|---|---|---|---|',
    ...h.changes.map(
      (c) => `| ${md(changeWhere(c))} | ${md(changeAnswer(c))} | ${md(topLine(c))} | ${md(c.bisect.text)} |`,
    ),
    ...(h.changes.length ? [] : ['| — | no change between neighbouring releases | | |']),
    '',
    '## The changes',
    '',
    ...h.changes.flatMap(markdownChange),
    `## What changed, row by row (${plural(changed.length, 'row')} of ${h.rows.length + (h.rowsLeftOut ?? 0)}; ◆ changed there, · releases not run)`,
    '',
    `| row | ${header.map(md).join(' | ')} |`,
    `|---|${header.map(() => '---').join('|')}|`,
    ...changed.map((r) => `| ${md(r.id)} | ${gridCells(h, r).map(md).join(' | ')} |`),
    '',
    `The ${plural(h.rows.length - changed.length, 'row')} that did not change are in history.html and history.json; every check and cause in ${md(h.matrix ?? 'the matrix')}.`,
    '',
    '## Releases',
    '',
    '| release | state |',
    '|---|---|',
    ...h.releases.map((r) => `| ${md(r.version)} | ${md(r.state === 'hole' ? `not run: ${r.why ?? ''}` : r.state)} |`),
    '',
  ].join('\n');
}

const BANNER: Record<string, string> = {
  breaks: 'breaks',
  'may-affect': 'may-affect',
  compatible: 'compatible',
  'cannot-tell': 'cannot-tell',
};

function htmlChange(c: HistoryChange, i: number): string {
  return `<section id="change-${i}"><h3>${e(changeWhere(c))}: ${e(changeAnswer(c))}</h3>
<p>${e(changeCounts(c))}</p>
<ul>${c.causes.map((x) => `<li><code>${e(x.line)}</code>${x.listed ? ` <em>(listed known deviation of ${e(c.to)})</em>` : ''}${x.checks.length ? `<br><small>${x.checks.map(e).join('; ')}</small>` : ''}</li>`).join('')}${c.moreCauses ? `<li>… and ${plural(c.moreCauses, 'more cause')} in the matrix</li>` : ''}</ul>
<p>Where: ${e(c.bisect.text)}${c.bisect.command ? `<br><code>${e(c.bisect.command)}</code>` : ''}</p></section>`;
}

function htmlGrid(h: History, rows: HistoryRow[]): string {
  const head = gridHeader(h);
  return `<table><thead><tr><th>row</th>${head.map((x) => `<th>${e(x)}</th>`).join('')}</tr></thead><tbody>
${rows
  .map(
    (r) =>
      `<tr><td class="id"${r.title ? ` title="${e(r.title)}"` : ''}>${e(r.id)}</td>${gridCells(h, r)
        .map((x) => `<td>${e(x)}</td>`)
        .join('')}</tr>`,
  )
  .join('\n')}
</tbody></table>`;
}

export function historyToHtml(h: History): string {
  const worst = ['breaks', 'cannot-tell', 'may-affect'].find((a) => h.changes.some((c) => c.answer === a));
  const changed = h.rows.filter((r) => r.changedIn.length);
  const unchanged = h.rows.filter((r) => !r.changedIn.length);
  const body = `<div class="banner matrix ${BANNER[worst ?? 'compatible']}"><div><h1>synconf release history</h1>
<p class="line">${e(historyHeadline(h))}</p></div></div>
<main class="matrix">
<h2>What changed, in which release</h2>
<table><thead><tr><th>release</th><th>answer</th><th>most urgent cause</th><th>where exactly</th></tr></thead><tbody>
${h.changes.map((c, i) => `<tr><td><a href="#change-${i}">${e(changeWhere(c))}</a></td><td>${e(changeAnswer(c))}</td><td><code>${e(topLine(c))}</code></td><td>${e(c.bisect.text)}</td></tr>`).join('\n')}
${h.changes.length ? '' : '<tr><td colspan="4">no change between neighbouring releases</td></tr>'}
</tbody></table>
<h2>The changes</h2>
${h.changes.map(htmlChange).join('\n')}
<h2>What changed, row by row (${changed.length} of ${h.rows.length}; ◆ changed there, · releases not run)</h2>
${htmlGrid(h, changed)}
<details><summary><h2>Rows that did not change (${unchanged.length})</h2></summary>${htmlGrid(h, unchanged)}</details>
<details><summary><h2>Releases (${h.releases.length})</h2></summary><table><tbody>
${h.releases.map((r) => `<tr><td>${e(r.version)}</td><td>${e(r.state === 'hole' ? `not run: ${r.why ?? ''}` : r.state)}</td></tr>`).join('\n')}
</tbody></table></details>
<p>Every check and cause: ${e(h.matrix ?? 'the matrix')}; each release's report: ${h.columns.map((c) => e(c.report)).join(', ')}.</p>
</main>`;
  return htmlPage(`synconf release history: ${historyHeadline(h)}`, body);
}
