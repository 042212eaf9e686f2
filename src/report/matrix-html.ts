// The version matrix as a self-contained HTML page: changed rows first and highlighted, so the
// checks whose verdict moved between agent versions are what a release engineer sees first.
import type { Verdict } from '../schema/generated/types.js';
import { htmlPage } from './html-page.js';
import type { Matrix } from './merge.js';
import { escapeHtml, cut } from './text.js';
import { VERDICTS, VERDICT_LABEL, VERDICT_MEANING, runStatus } from './verdicts.js';

const e = (s: string, max = 500) => escapeHtml(cut(s, max));
const n = (x: number) => e(String(x), 20);

const cell = (v: Verdict | null) =>
  v === null ? '<td class="muted" title="this run has no such check">not run</td>' : `<td><span class="badge v-${e(v, 40)}">${e(VERDICT_LABEL[v] ?? v, 40)}</span></td>`;

// Plain JS enhancement: a checkbox that leaves only the changed rows.
const SCRIPT = `(function () {
  var form = document.getElementById('filters');
  if (!form) return;
  form.hidden = false;
  var box = form.querySelector('input[name=changed]');
  function apply() {
    Array.prototype.forEach.call(document.querySelectorAll('tr.row'), function (r) {
      r.hidden = box.checked && !r.classList.contains('changed');
    });
  }
  box.addEventListener('change', apply);
  apply();
})();`;

export function matrixToHtml(m: Matrix): string {
  const head = m.columns
    .map((c) => {
      const t = c.totals;
      const status = runStatus(c.exitCode);
      return `<th scope="col">${e(c.label)}<br><span class="muted">${e(c.mode, 20)} · ${e(c.startedAt, 60)}${c.file ? `<br>${e(c.file)}` : ''}<br>${status}: ${n(t.pass)} pass, ${n(t.fail)} fail, ${n(t['expected-fail'])} expected fail, ${n(t['unexpected-pass'])} unexpected pass, ${n(t.skip)} skip</span></th>`;
    })
    .join('');
  const rows = m.rows
    .map((r) => `<tr class="row${r.changed ? ' changed' : ''}"><th scope="row" class="id">${e(r.id)}</th><td class="nowrap">${r.changed ? '<span class="changed-mark">changed</span>' : ''}</td>${r.cells.map(cell).join('')}</tr>`)
    .join('\n');
  const summary = m.changed
    ? `${m.changed} of ${m.rows.length} checks changed verdict across ${m.columns.length} runs`
    : `No verdict differs across ${m.columns.length} runs (${m.rows.length} checks)`;
  const body = `<header class="banner ${m.changed ? 'attention' : 'ok'}"><div><h1>synconf version matrix</h1><p class="line">${summary}</p></div></header>
<main>
<h2>Checks by run</h2>
<p>One row per check, one column per run. Rows whose verdict differs between runs are marked <span class="changed-mark">changed</span> and listed first; "not run" means that run has no such check (e.g. the endpoint does not exist in that version).</p>
<form class="filters" id="filters" hidden><label><input type="checkbox" name="changed"> only changed rows</label></form>
<table><thead><tr><th scope="col">Check</th><th scope="col" class="nowrap">Changed</th>${head}</tr></thead>
<tbody>
${rows}
</tbody></table>
<h2>What the verdicts mean</h2>
<dl class="legend">${VERDICTS.map((v) => `<dt><span class="badge v-${v}">${VERDICT_LABEL[v]}</span></dt><dd>${VERDICT_MEANING[v]}</dd>`).join('')}</dl>
</main>`;
  return htmlPage(`synconf version matrix: ${summary}`, body, SCRIPT);
}
