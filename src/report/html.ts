// report.json as one self-contained HTML page for a release engineer: the verdict first, then
// what failed, what each verdict means, which spec endpoints were covered, and every scenario
// with its checks and, behind <details>, the evidence of each finding. Every string from the
// report is escaped with `e()` and bounded with `cut()`; the page works without JS, which only
// adds the filters.
import type { CheckResult, Report, ScenarioResult, Verdict } from '../schema/generated/types.js';
import { type CoverageRow, type EndpointEntry, coverage, loadEndpoints } from './coverage.js';
import { htmlPage } from './html-page.js';
import { escapeHtml, cut, platform, showValue } from './text.js';
import { VERDICTS, VERDICT_LABEL, VERDICT_MEANING, countVerdicts, isProblem, runStatus } from './verdicts.js';

/** escaped and bounded: a 100 kB value cannot blow up the page */
const e = (s: string, max = 600) => escapeHtml(cut(s, max));
/** bodies and values: enough to diagnose, scrollable in a <pre> */
const BLOCK = 20_000;

const badge = (v: Verdict) => `<span class="badge v-${e(v, 40)}">${e(VERDICT_LABEL[v] ?? v, 40)}</span>`;
const scenarioAnchor = (si: number) => `s${si}`;
const checkAnchor = (si: number, ci: number) => `s${si}-c${ci}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

function fact(label: string, value: string | null | undefined, mono = false): string {
  if (value === undefined || value === null || value === '') return '';
  return `<dt>${label}</dt><dd${mono ? ' class="mono"' : ''}>${e(value, 500)}</dd>`;
}

function headersTable(h: Record<string, string> | undefined): string {
  const rows = Object.entries(h ?? {});
  if (!rows.length) return '';
  return `<table><tbody>${rows.map(([k, v]) => `<tr><th scope="row" class="mono">${e(k, 200)}</th><td class="mono">${e(v)}</td></tr>`).join('')}</tbody></table>`;
}

const pre = (text: string) => `<pre>${e(text, BLOCK)}</pre>`;

function schemaErrorsTable(errors: NonNullable<CheckResult['schemaErrors']>): string {
  const cell = (v: unknown) => (v === undefined ? '' : `<code>${e(JSON.stringify(v) ?? '', 500)}</code>`);
  return `<table><thead><tr><th>pointer</th><th>rule</th><th>expected</th><th>actual</th><th>message</th></tr></thead><tbody>${errors
    .map((x) => `<tr><td><code>${e(x.pointer || '/', 500)}</code></td><td>${e(x.rule, 100)}</td><td>${cell(x.expected)}</td><td>${cell(x.actual)}</td><td>${e(x.message)}${x.known ? ' <em>(known deviation)</em>' : ''}</td></tr>`)
    .join('')}</tbody></table>`;
}

/** the spec sections of the endpoints a scenario covers, from endpoints.json */
function specSections(s: ScenarioResult, endpoints: Map<string, EndpointEntry>): string {
  return s.spec
    .map((id) => {
      const section = endpoints.get(id)?.section;
      return `<code>${e(id, 300)}</code>${section ? `: ${e(section, 300)}` : ''}`;
    })
    .join('<br>');
}

function evidence(c: CheckResult, s: ScenarioResult, endpoints: Map<string, EndpointEntry>): string {
  const ev = c.evidence;
  const parts: string[] = [];
  const item = (label: string, html: string) => parts.push(`<dt>${label}</dt><dd>${html}</dd>`);
  if (c.skipReason) item('Skipped because', e(c.skipReason));
  if (c.expected !== undefined) item('Expected', pre(showValue(c.expected)));
  if (c.actual !== undefined) item('Actual', pre(showValue(c.actual)));
  if (c.schemaErrors?.length) item('Schema errors', schemaErrorsTable(c.schemaErrors));
  if (c.deviation) {
    item('Known deviation', `${e(c.deviation.reason)}<br><span class="muted">observed: ${e(c.deviation.observed, 500)}${c.deviation.file ? `; listed in <code>${e(c.deviation.file, 300)}</code>` : ''}</span>`);
  }
  if (ev?.request) {
    item('Request', `<code>${e(ev.request.method, 20)} ${e(ev.request.url, 2000)}</code>${headersTable(ev.request.headers)}${ev.request.body !== undefined ? pre(ev.request.body) : ''}`);
  }
  if (ev?.error !== undefined) item('Transport error', e(ev.error));
  if (ev?.attempts !== undefined) item('Attempts', e(String(ev.attempts), 40));
  if (ev?.response) {
    item('Status', `<code>${e(String(ev.response.status), 40)}</code>`);
    if (ev.response.headers && Object.keys(ev.response.headers).length) item('Response headers', headersTable(ev.response.headers));
    if (ev.response.body !== undefined) {
      item(`Body${ev.response.bodyTruncated ? ' (excerpt)' : ''}`, `<pre class="body">${e(ev.response.body, BLOCK)}</pre>`);
    }
  }
  if (!parts.length) return '';
  if (s.spec.length) item('Spec', specSections(s, endpoints));
  return `<details class="evidence"><summary>Evidence</summary><dl class="ev">${parts.join('')}</dl></details>`;
}

function checkItem(c: CheckResult, ci: number, s: ScenarioResult, si: number, endpoints: Map<string, EndpointEntry>): string {
  return `<li class="check v-${e(c.verdict, 40)}" id="${checkAnchor(si, ci)}" data-verdict="${e(c.verdict, 40)}">
<div class="head">${badge(c.verdict)}<span class="id">${e(c.id, 500)}</span><span class="kind">${e(c.kind, 40)}</span><span class="msg">${e(c.message)}</span></div>
${evidence(c, s, endpoints)}</li>`;
}

function scenarioSection(s: ScenarioResult, si: number, endpoints: Map<string, EndpointEntry>): string {
  const n = countVerdicts(s.checks.map((c) => c.verdict));
  const counts = VERDICTS.filter((v) => n[v]).map((v) => `${n[v]} ${VERDICT_LABEL[v]}`).join(', ') || 'no checks';
  const meta = [
    `<span class="id">${e(s.id, 300)}</span>`,
    `file <code>${e(s.file, 300)}</code>`,
    s.spec.length ? `covers ${s.spec.map((id) => `<code>${e(id, 300)}</code>`).join(', ')}` : 'covers no listed endpoint',
    s.mode === 'absent' ? 'checks that the endpoint is absent (the agent predates it)' : s.mode === 'skipped' ? 'skipped' : '',
    seconds(s.durationMs),
    counts,
  ].filter(Boolean);
  const notes = [...(s.skipReason ? [`Skipped: ${s.skipReason}`] : []), ...(s.notes ?? [])];
  return `<section class="scenario v-${e(s.verdict, 40)}" id="${scenarioAnchor(si)}" data-verdict="${e(s.verdict, 40)}" data-spec="${escapeHtml(JSON.stringify(s.spec))}">
<h3>${badge(s.verdict)} ${e(s.title, 500)}</h3>
<p class="meta">${meta.join(' · ')}</p>
${notes.map((t) => `<p class="note">${e(t)}</p>`).join('\n')}
<ol class="checks">
${s.checks.map((c, ci) => checkItem(c, ci, s, si, endpoints)).join('\n')}
</ol>
</section>`;
}

function coverageTable(rows: CoverageRow[], report: Report, listError: string | null): string {
  const unknown = rows.filter((r) => !r.endpoint);
  const spec = rows.filter((r) => r.endpoint && !r.endpoint.related);
  const related = rows.filter((r) => r.endpoint?.related);
  const covered = (list: CoverageRow[]) => list.filter((r) => r.scenarios.length).length;
  const uncovered = spec.length - covered(spec);
  const versions = (ep: EndpointEntry | null) =>
    ep
      ? [ep.since && `since ${ep.since}`, ep.deprecated && `deprecated since ${ep.deprecated}`, ep.related && 'related path (shape not specified)']
          .filter((x): x is string => typeof x === 'string')
          .map((x) => e(x, 200))
          .join('<br>')
      : '<strong>not in endpoints.json</strong>';
  const body = rows
    .map((r) => {
      const by = r.scenarios.map((si) => `<a href="#${scenarioAnchor(si)}">${e(report.scenarios[si].id, 300)}</a> ${badge(report.scenarios[si].verdict)}`).join('<br>');
      const status = r.verdict ? badge(r.verdict) : '<span class="badge v-none">not covered</span>';
      return `<tr class="${r.scenarios.length ? 'covered' : 'uncovered'}" data-endpoint="${e(r.id, 500)}"><td><code>${e(r.id, 500)}</code></td><td>${e(r.endpoint?.section ?? '', 300)}</td><td>${versions(r.endpoint)}</td><td>${by || '<span class="status">no scenario names this endpoint</span>'}</td><td>${status}</td></tr>`;
    })
    .join('\n');
  return `<section id="coverage"><h2>Endpoint coverage</h2>
${listError ? `<p><strong>The endpoint list could not be read (${e(listError, 500)}); only endpoints named by scenarios are shown.</strong></p>` : ''}
<p>${covered(spec)} of ${spec.length} spec endpoints are covered by at least one scenario${uncovered ? `; <strong>${uncovered} not covered</strong>` : ''}. ${related.length ? `Related paths the spec names without specifying them: ${covered(related)} of ${related.length} covered.` : ''}${unknown.length ? ` ${unknown.length} id${unknown.length === 1 ? '' : 's'} named by scenarios ${unknown.length === 1 ? 'is' : 'are'} not in the endpoint list.` : ''}</p>
<table><thead><tr><th>Endpoint</th><th>Spec section</th><th>Versions</th><th>Covered by</th><th>Result</th></tr></thead>
<tbody>
${body}
</tbody></table></section>`;
}

function filters(report: Report, rows: CoverageRow[]): string {
  const n = countVerdicts(report.scenarios.flatMap((s) => s.checks.map((c) => c.verdict)));
  const boxes = VERDICTS.map((v) => `<label><input type="checkbox" name="verdict" value="${v}" checked> ${VERDICT_LABEL[v]} (${n[v]})</label>`).join('');
  const options = rows.filter((r) => r.scenarios.length).map((r) => `<option value="${escapeHtml(r.id)}">${e(r.id, 200)}</option>`).join('');
  // Hidden until the script runs: without JS every check is shown and the controls would do nothing.
  return `<form class="filters" id="filters" hidden>
<fieldset><legend>Verdict</legend>${boxes}</fieldset>
<label>Endpoint <select name="endpoint"><option value="">all endpoints</option>${options}</select></label>
<output id="shown" aria-live="polite"></output>
</form>`;
}

// Plain JS: hides checks (and scenarios left empty) whose verdict is unticked or whose scenario
// does not cover the chosen endpoint. Reads only data- attributes, never writes markup.
const SCRIPT = `(function () {
  var form = document.getElementById('filters');
  if (!form) return;
  form.hidden = false;
  var scenarios = Array.prototype.slice.call(document.querySelectorAll('.scenario'));
  function apply() {
    var on = {};
    Array.prototype.forEach.call(form.querySelectorAll('input[name=verdict]'), function (b) { on[b.value] = b.checked; });
    var endpoint = form.querySelector('select[name=endpoint]').value;
    var shown = 0, total = 0;
    scenarios.forEach(function (s) {
      var covers = endpoint === '' || JSON.parse(s.getAttribute('data-spec')).indexOf(endpoint) >= 0;
      var checks = s.querySelectorAll('.check');
      var any = false;
      Array.prototype.forEach.call(checks, function (c) {
        var visible = covers && on[c.getAttribute('data-verdict')] === true;
        c.hidden = !visible;
        total++;
        if (visible) { shown++; any = true; }
      });
      s.hidden = checks.length ? !any : !(covers && on[s.getAttribute('data-verdict')] === true);
    });
    document.getElementById('shown').textContent = 'showing ' + shown + ' of ' + total + ' checks';
  }
  form.addEventListener('change', apply);
  form.addEventListener('submit', function (ev) { ev.preventDefault(); });
  apply();
})();`;

function problemsList(report: Report): string {
  const items: string[] = [];
  report.scenarios.forEach((s, si) =>
    s.checks.forEach((c, ci) => {
      if (!isProblem(c.verdict)) return;
      const hint = c.verdict === 'unexpected-pass' ? ` <em>Listed as a known deviation (${e(c.deviation?.reason ?? 'no reason given', 500)}) but the agent conforms: remove the entry.</em>` : '';
      items.push(`<li>${badge(c.verdict)} <a href="#${checkAnchor(si, ci)}" class="id">${e(c.id, 500)}</a>: ${e(c.message)}${hint}</li>`);
    }),
  );
  const harness = report.harnessErrors.map((h) => `<li><strong>${e([h.file, h.scenario, h.step].filter(Boolean).join(' ') || 'harness', 500)}</strong>: ${e(h.message)}</li>`);
  return [
    harness.length ? `<section id="harness-errors"><h2>Harness errors (${harness.length})</h2><p>synconf itself could not run part of the suite; the results below are incomplete.</p><ul class="problems">${harness.join('\n')}</ul></section>` : '',
    `<section id="failures"><h2>Failures (${items.length})</h2>${items.length ? `<ul class="problems">${items.join('\n')}</ul>` : '<p>No check failed.</p>'}</section>`,
  ].join('\n');
}

function runFacts(report: Report): string {
  const a = report.agent;
  const r = report.run;
  return `<section id="run"><h2>Run</h2><dl class="facts">
${fact('Agent version', `${a.version ?? 'unknown'}${a.versionSource ? ` (from ${a.versionSource})` : ''}`)}
${fact('Agent build', a.longVersion)}
${fact('Platform', platform(a))}
${fact('Device ID', a.deviceId, true)}
${fact('Mode', r.mode)}
${fact('Target', r.target, true)}
${fact('Started', r.startedAt)}
${fact('Duration', seconds(r.durationMs))}
${fact('Known deviations', r.expectations ?? 'none applied', true)}
${fact('Recordings', r.recordings, true)}
${fact('synconf', report.synconf.version)}
</dl>
<ul class="totals">
<li><span class="n">${e(String(report.totals.scenarios), 40)}</span> scenarios</li>
<li><span class="n">${e(String(report.totals.checks), 40)}</span> checks</li>
${VERDICTS.map((v) => `<li class="v-${v}"><span class="n">${e(String(report.totals[v]), 40)}</span> ${VERDICT_LABEL[v]}</li>`).join('\n')}
</ul>
<h3>What the verdicts mean</h3>
<dl class="legend">${VERDICTS.map((v) => `<dt>${badge(v)}</dt><dd>${VERDICT_MEANING[v]}</dd>`).join('')}</dl>
</section>`;
}

function extras(report: Report): string {
  const calls = Object.entries(report.expensiveCalls);
  const unused = report.unusedExchanges ?? [];
  const stale = report.staleExpectations ?? [];
  const notes = report.undocumented ?? [];
  return [
    notes.length ? `<section id="undocumented"><h2>Undocumented members (${notes.length})</h2><p>Members of responses of agent ${e(report.agent.version ?? 'of unknown version', 100)} that their schema does not name: ${report.run.strict ? 'failures (--strict)' : 'notes; --strict makes them failures'}.</p><table><thead><tr><th>endpoint</th><th>member</th><th>schema</th><th>scenarios</th></tr></thead><tbody>${notes.map((n) => `<tr><td><code>${e(n.endpoint, 300)}</code></td><td><code>${e(n.member, 300)}</code></td><td>${e(n.resource, 100)}</td><td>${e(n.scenarios.join(', '), 500)}</td></tr>`).join('')}</tbody></table></section>` : '',
    stale.length ? `<section id="stale"><h2>Stale known deviations (${stale.length})</h2><p>Entries of the known-deviations file whose check did not occur in a scenario that ran: the file needs an update.</p><ul>${stale.map((id) => `<li class="id">${e(id, 500)}</li>`).join('')}</ul></section>` : '',
    calls.length ? `<section id="expensive"><h2>Expensive calls</h2><p>Calls to endpoints the spec calls expensive (CPU and memory).</p><table><tbody>${calls.map(([k, n]) => `<tr><td><code>${e(k, 300)}</code></td><td class="num">${e(String(n), 40)}</td></tr>`).join('')}</tbody></table></section>` : '',
    unused.length ? `<section id="unused"><h2>Unused recorded exchanges (${unused.length})</h2><p>Recorded exchanges no step asked for: the recording is stale.</p><ul>${unused.map((u) => `<li>${e(u.scenario, 300)}: <code>${e(u.request, 500)}</code></li>`).join('')}</ul></section>` : '',
  ].join('\n');
}

/**
 * The HTML report. `endpoints` defaults to schemas/endpoints.json; when it cannot be read the
 * coverage table lists only the endpoints scenarios name, and says so.
 */
export function toHtml(report: Report, endpoints?: EndpointEntry[]): string {
  let listError: string | null = null;
  if (!endpoints) {
    try {
      endpoints = loadEndpoints();
    } catch (err) {
      listError = (err as Error).message;
      endpoints = [];
    }
  }
  const byId = new Map(endpoints.map((ep) => [ep.id, ep]));
  const rows = coverage(report, endpoints);
  const status = runStatus(report.exitCode);
  const tone = report.exitCode === 0 ? 'ok' : report.exitCode === 1 ? 'bad' : 'error';
  // Failing scenarios first; the sort is stable, so suite order holds within a verdict.
  const order = report.scenarios.map((_, i) => i).sort((a, b) => VERDICTS.indexOf(report.scenarios[a].verdict) - VERDICTS.indexOf(report.scenarios[b].verdict));
  const agent = `agent ${report.agent.version ?? 'of unknown version'}`;
  const body = `<header class="banner ${tone}"><div>
<h1>synconf: ${e(agent, 200)} ${escapeHtml(status)}</h1>
<p class="line">${e(report.verdict, 1000)}</p>
</div></header>
<main>
${runFacts(report)}
${problemsList(report)}
${coverageTable(rows, report, listError)}
<section id="scenarios"><h2>Scenarios (${report.scenarios.length})</h2>
${filters(report, rows)}
${order.map((si) => scenarioSection(report.scenarios[si], si, byId)).join('\n')}
</section>
${extras(report)}
<footer><p class="muted">Written by synconf ${e(report.synconf.version, 100)} from report.json. This file is self-contained and makes no network request.</p></footer>
</main>`;
  return htmlPage(`synconf: ${agent} ${status}`.slice(0, 300), body, SCRIPT);
}
