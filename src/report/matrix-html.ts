// The version matrix as a self-contained HTML page. A banner gives the answer first, in its colour and in words
// (matrix-verdict.ts), and the versions' conformance apart. The first screen then answers "can version N ship?"
// (src/report/matrix-ship.ts): per pair of versions the causes by level and the top ones, per version its verdict;
// then each pair's causes, expandable; the checks by run (changed rows first), the undocumented members and the
// legends collapsed. Columns run from the oldest agent version to the newest.
import type { Verdict } from '../schema/generated/types.js';
import { htmlPage } from './html-page.js';
import { MATRIX_SCRIPT } from './assets.js';
import type { Matrix } from '../schema/generated/types.js';
import { escapeHtml, cut } from './text.js';
import { VERDICTS, VERDICT_LABEL, VERDICT_MEANING, runStatus } from '../verdict/verdicts.js';
import { CHANGE_CLASSES, CHANGE_LABEL, CHANGE_MEANING } from '../verdict/change-class.js';
import { causesSection, shipSection } from './matrix-ship.js';
import { coverageByColumn } from './statements.js';
import { boundariesHtml } from './matrix-boundaries.js';
import { Budget, leftOut, within } from './bound.js';
import { rowCount } from './matrix-json.js';
import {
  RELATION,
  conformance,
  headline,
  pairAnswer,
  pairGrounds,
  pairsByAnswer,
  worstAnswer,
} from './matrix-verdict.js';

const e = (s: string, max = 500) => escapeHtml(cut(s, max));

const cell = (v: Verdict | null) =>
  v === null
    ? '<td class="muted" title="this run has no such check">not run</td>'
    : `<td><span class="badge v-${e(v, 40)}">${e(VERDICT_LABEL[v] ?? v, 40)}</span></td>`;

/** every undocumented member and the versions that sent it; those not in every version first */
function undocumentedSection(m: Matrix): string {
  const all = m.undocumented ?? [];
  if (!all.length) return '';
  const differ = all.filter((u) => u.columns.length < m.columns.length).length;
  const rows = all
    .map(
      (u) =>
        `<tr><td><code>${e(u.endpoint, 300)}</code></td><td><code>${e(u.member, 300)}</code></td>${m.order.map((i) => `<td>${u.columns.includes(i) ? 'sent' : '–'}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<p id="undocumented">${all.length} members, ${differ} not in every version.</p>
<p>Members of responses that their schema does not name, by version: one that only newer versions send is what a release started to send.</p>
<table><thead><tr><th scope="col">Endpoint</th><th scope="col">Member</th>${m.order.map((i) => `<th scope="col">${e(m.columns[i].label)}</th>`).join('')}</tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

/** the checks by run, changed rows first: the whole table, collapsed (the causes above explain the changed ones) */
function checksSection(m: Matrix, summary: string): string {
  const head = m.order
    .map((i) => m.columns[i])
    .map((c) => `<th scope="col">${e(c.label)}<br><span class="muted">${e(runStatus(c.exitCode), 40)}</span></th>`)
    .join('');
  const why = (r: Matrix['rows'][number]) =>
    r.changes
      .map(
        (c) =>
          `<div class="muted">${e(m.columns[c.from].label, 80)} → ${e(m.columns[c.to].label, 80)}: ${r.changes.length > 1 ? `${e(CHANGE_LABEL[c.class], 40)}, ` : ''}${e(c.note)}</div>`,
      )
      .join('');
  const row = (r: Matrix['rows'][number]) =>
    `<tr class="row${r.changed ? ' changed' : ''}"><th scope="row" class="id">${e(r.id)}</th><td>${r.class ? `<span class="changed-mark">${e(CHANGE_LABEL[r.class], 40)}</span>${why(r)}` : ''}</td>${m.order.map((i) => cell(r.cells[i])).join('')}</tr>`;
  // rows while they fit in the size bound of the file (the least urgent last), then how many were left out
  const all = rowCount(m);
  const leftOutRow = (n: number) =>
    `<tr class="left-out"><td colspan="${m.order.length + 2}" class="muted">${e(leftOut(n + (m.rowsLeftOut ?? 0), 'rows'))}</td></tr>`;
  const shown = within(m.rows, row, new Budget(8e6), leftOutRow);
  const rows = (m.rowsLeftOut && shown.length === m.rows.length ? [...shown, leftOutRow(0)] : shown).join('\n');
  return `<details id="checks"><summary><h2>Checks by run (${all}; ${m.changed} changed)</h2></summary>
<p>${e(summary)}. One row per check, one column per agent version, oldest first. Rows whose verdict changes between versions carry the class of the change and why, regressions first; "not run" means that run has no such check (e.g. the endpoint does not exist in that version).</p>
<form class="filters" id="filters" hidden><label><input type="checkbox" name="changed"> only changed rows</label></form>
<table><thead><tr><th scope="col">Check</th><th scope="col" class="nowrap">Change</th>${head}</tr></thead>
<tbody>
${rows}
</tbody></table>
</details>`;
}

/** statement coverage by version, collapsed: how many statements of the spec each run's checks prove */
function statementSection(m: Matrix): string {
  const counts = m.order.map((i) => m.columns[i].statements);
  if (counts.every((c) => c === undefined)) return '';
  const head = `<tr><th>Statements</th>${m.order.map((i) => `<th>${e(m.columns[i].label)}</th>`).join('')}</tr>`;
  const rows = coverageByColumn(counts)
    .map(([state, ...cells]) => `<tr><td>${e(state)}</td>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`)
    .join('');
  return `<details id="statements"><summary><h2>Statement coverage by version</h2></summary><table><thead>${head}</thead><tbody>${rows}</tbody></table></details>`;
}

/**
 * The banner: the answer first, its colour the worst pair's (red breaks, blue cannot tell, amber may affect, green
 * compatible; with one version, the conformance's), then the conformance of the versions to the spec as a fact of
 * its own, and how the two relate. A first screen that is green while a version breaks clients misleads. Every pair's
 * answer, worst first, in columns (one bullet a line would push the ship table below the fold past four pairs). With
 * one pair, its line is the answer: the heading does not say it twice.
 */
function banner(m: Matrix): string {
  const worst = worstAnswer(m);
  const tone = worst ?? (m.columns.every((c) => c.exitCode === 0) ? 'compatible' : 'breaks');
  const pairs = pairsByAnswer(m);
  const answers = pairs.map((p) => `<li><strong>${e(pairAnswer(m, p))}</strong>: ${e(pairGrounds(p), 300)}</li>`);
  return `<header class="banner matrix ${tone}" id="answer"><div>
<h1>synconf version matrix${pairs.length === 1 ? '' : `: ${e(headline(m))}`}</h1>
${answers.length ? `<ul class="answers">${answers.join('')}</ul>` : ''}
<p class="line" id="conformance"><strong>Against the spec</strong>: ${e(conformance(m))}. <span class="relate">${e(RELATION)}</span></p>
</div></header>`;
}

export function matrixToHtml(m: Matrix): string {
  const byClass = CHANGE_CLASSES.filter((c) => m.classes[c])
    .map((c) => `${m.classes[c]} ${CHANGE_LABEL[c]}`)
    .join(', ');
  const summary = m.changed
    ? `${m.changed} of ${rowCount(m)} checks changed across ${m.columns.length} versions (${byClass})`
    : `No verdict differs across ${m.columns.length} runs (${rowCount(m)} checks)`;
  const body = `${banner(m)}
<main class="matrix">
${shipSection(m)}
${causesSection(m)}
${boundariesHtml(m)}
${checksSection(m, summary)}
${statementSection(m)}
${m.undocumented?.length ? `<details><summary><h2>Undocumented members (${m.undocumented.length})</h2></summary>${undocumentedSection(m)}</details>` : ''}
<details><summary><h2>What the classes, levels and verdicts mean</h2></summary>
<p>A cause's level is what a client of the older version feels: breaking (it can fail), risky (it may), compatible (it does not); the rules are docs/change-rules.md.</p>
<dl class="legend">${CHANGE_CLASSES.map((c) => `<dt><span class="changed-mark">${CHANGE_LABEL[c]}</span></dt><dd>${e(CHANGE_MEANING[c])}</dd>`).join('')}</dl>
<dl class="legend">${VERDICTS.map((v) => `<dt><span class="badge v-${v}">${VERDICT_LABEL[v]}</span></dt><dd>${VERDICT_MEANING[v]}</dd>`).join('')}</dl>
</details>
</main>`;
  return htmlPage(`synconf version matrix: ${headline(m)}`, body, MATRIX_SCRIPT);
}
