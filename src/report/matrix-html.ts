// The version matrix as a self-contained HTML page: changed rows first (regressions at the top) and
// highlighted, each with its class and why, so the checks whose verdict moved between agent versions
// are what a release engineer sees first. Columns run from the oldest agent version to the newest.
import type { Verdict } from '../schema/generated/types.js';
import { htmlPage } from './html-page.js';
import type { Matrix } from '../schema/generated/types.js';
import { escapeHtml, cut } from './text.js';
import { VERDICTS, VERDICT_LABEL, VERDICT_MEANING, runStatus } from '../verdict/verdicts.js';
import { CHANGE_CLASSES, CHANGE_LABEL, CHANGE_MEANING } from '../verdict/change-class.js';

const e = (s: string, max = 500) => escapeHtml(cut(s, max));
const n = (x: number) => e(String(x), 20);

const cell = (v: Verdict | null) =>
  v === null
    ? '<td class="muted" title="this run has no such check">not run</td>'
    : `<td><span class="badge v-${e(v, 40)}">${e(VERDICT_LABEL[v] ?? v, 40)}</span></td>`;

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
  return `<h2 id="undocumented">Undocumented members (${all.length}; ${differ} not in every version)</h2>
<p>Members of responses that their schema does not name, by version: one that only newer versions send is what a release started to send.</p>
<table><thead><tr><th scope="col">Endpoint</th><th scope="col">Member</th>${m.order.map((i) => `<th scope="col">${e(m.columns[i].label)}</th>`).join('')}</tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

export function matrixToHtml(m: Matrix): string {
  const columns = m.order.map((i) => m.columns[i]);
  const head = columns
    .map((c) => {
      const t = c.totals;
      const status = runStatus(c.exitCode);
      return `<th scope="col">${e(c.label)}<br><span class="muted">${e(c.mode, 20)} · ${e(c.startedAt, 60)}${c.file ? `<br>${e(c.file)}` : ''}<br>${status}: ${n(t.pass)} pass, ${n(t.fail)} fail, ${n(t['expected-fail'])} expected fail, ${n(t['unexpected-pass'])} unexpected pass, ${n(t.skip)} skip</span></th>`;
    })
    .join('');
  const why = (r: Matrix['rows'][number]) =>
    r.changes
      .map(
        (c) =>
          `<div class="muted">${e(m.columns[c.from].label, 80)} → ${e(m.columns[c.to].label, 80)}: ${r.changes.length > 1 ? `${e(CHANGE_LABEL[c.class], 40)}, ` : ''}${e(c.note)}</div>`,
      )
      .join('');
  const rows = m.rows
    .map(
      (r) =>
        `<tr class="row${r.changed ? ' changed' : ''}"><th scope="row" class="id">${e(r.id)}</th><td>${r.class ? `<span class="changed-mark">${e(CHANGE_LABEL[r.class], 40)}</span>${why(r)}` : ''}</td>${m.order.map((i) => cell(r.cells[i])).join('')}</tr>`,
    )
    .join('\n');
  const byClass = CHANGE_CLASSES.map((c) => `${m.classes[c]} ${CHANGE_LABEL[c]}`).join(', ');
  const summary = m.changed
    ? `${m.changed} of ${m.rows.length} checks changed across ${m.columns.length} versions (${byClass})`
    : `No verdict differs across ${m.columns.length} runs (${m.rows.length} checks)`;
  const body = `<header class="banner ${m.changed ? 'attention' : 'ok'}"><div><h1>synconf version matrix</h1><p class="line">${summary}</p></div></header>
<main>
<h2>Checks by run</h2>
<p>One row per check, one column per agent version, oldest first. Rows whose verdict changes between versions carry the class of the change and why, regressions first; "not run" means that run has no such check (e.g. the endpoint does not exist in that version).</p>
<form class="filters" id="filters" hidden><label><input type="checkbox" name="changed"> only changed rows</label></form>
<table><thead><tr><th scope="col">Check</th><th scope="col" class="nowrap">Change</th>${head}</tr></thead>
<tbody>
${rows}
</tbody></table>
${undocumentedSection(m)}
<h2>What the classes of change mean</h2>
<dl class="legend">${CHANGE_CLASSES.map((c) => `<dt><span class="changed-mark">${CHANGE_LABEL[c]}</span></dt><dd>${e(CHANGE_MEANING[c])}</dd>`).join('')}</dl>
<h2>What the verdicts mean</h2>
<dl class="legend">${VERDICTS.map((v) => `<dt><span class="badge v-${v}">${VERDICT_LABEL[v]}</span></dt><dd>${VERDICT_MEANING[v]}</dd>`).join('')}</dl>
</main>`;
  return htmlPage(`synconf version matrix: ${summary}`, body, SCRIPT);
}
