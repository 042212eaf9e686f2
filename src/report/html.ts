// report.json as one self-contained HTML page for a release engineer. The first screen answers
// "can I ship this agent?": the verdict, the agent, what fails and why (with a curl command to
// repeat it), the listed known deviations counted and by endpoint, then what they are and why,
// coverage. Below: every scenario (passing ones collapsed), with its checks and, behind <details>,
// the evidence of each finding; the undocumented members and a fully covered endpoint table
// collapsed, so that a full run stays a page one can scroll (docs/reports.md gives its height).
// It renders the run's view (view.ts) and decides nothing itself. Every string from the report is
// escaped with `e()` and bounded with `cut()`; the page works without JS, which only adds search,
// filters and copy.
import { relative, resolve } from 'node:path';
import type { CheckResult, Report, ScenarioResult, Verdict } from '../schema/generated/types.js';
import { type EndpointEntry, sectionTitle } from './coverage.js';
import { htmlPage } from './html-page.js';
import { escapeHtml, concatenated, cut, duration, platform, showValue } from './text.js';
import { VERDICTS, VERDICT_LABEL, VERDICT_MEANING, isProblem } from '../verdict/verdicts.js';
import {
  BASELINE_CLASS_LABEL,
  type CheckView,
  type DeviationRow,
  type RunView,
  type ScenarioView,
  viewOf,
} from './view.js';
import { RUN_SCRIPT } from './assets.js';
import { ROOT } from '../paths.js';
import { COVERAGE_STATES, coverageByKind, coverageLine } from './statements.js';
import { foldedCount, moreLine } from './fold.js';
import { BOUND_TEXT, Budget, leftOut, within } from './bound.js';
import { plural, wordFor } from '../plural.js';

/** escaped and bounded: a 100 kB value cannot blow up the page */
const e = (s: string, max = 600) => escapeHtml(cut(s, max));
/** bodies and values: enough to diagnose, scrollable in a <pre> */
const BLOCK = 20_000;
/** endpoints named in the first screen's index of known deviations; the table below has them all */
const KNOWN_INDEX = 30;
/** checks named in a row of known deviations before the rest are folded away */
const IDS_SHOWN = 5;

const badgeOf = (v: Verdict) => `<span class="badge v-${e(v, 40)}">${e(VERDICT_LABEL[v] ?? v, 40)}</span>`;
/** a verdict's badge: a page shows thousands, of a few verdicts, each rendered once */
const BADGES = new Map(VERDICTS.map((v) => [v, badgeOf(v)]));
const badge = (v: Verdict) => BADGES.get(v) ?? badgeOf(v);

/** how the page links files it names (HAR cassettes): relative to the folder report.html is written to */
interface Links {
  harHref(file: string): string | null;
}

/** what the check items of a scenario share: how to link files, and the scenario's spec sections (rendered once) */
interface Shared {
  links: Links;
  spec: string;
}

/** the bytes of the page's long lists (bound.ts): problems and known deviations, checks, scenario sections */
interface Bounds {
  lists: Budget;
  checks: Budget;
  scenarios: Budget;
}
const bounds = (): Bounds => ({ lists: new Budget(2e6), checks: new Budget(5e6), scenarios: new Budget(1e6) });

/** "… and N more like it" after an item that stands for folded ones */
const more = (n: number) => (n ? `<div class="more muted">${e(moreLine(n))}</div>` : '');
/** the line that says how many items of a list were left out for the size bound */
const leftOutItem = (tag: string, what: string) => (n: number) =>
  `<${tag} class="left-out muted">${e(leftOut(n, what))}</${tag}>`;

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
    .map(
      (x) =>
        `<tr><td><code>${e(x.pointer || '/', 500)}</code></td><td>${e(x.rule, 100)}</td><td>${cell(x.expected)}</td><td>${cell(x.actual)}</td><td>${e(x.message)}${x.known ? ' <em>(known deviation)</em>' : ''}</td></tr>`,
    )
    .join('')}</tbody></table>`;
}

/** the spec sections of the endpoints a scenario covers, from endpoints.json */
function specSections(s: ScenarioResult, endpoints: Map<string, EndpointEntry>): string {
  return s.spec
    .map((id) => {
      const section = endpoints.get(id)?.section;
      return `<code>${e(id, 300)}</code>${section ? ` ${e(sectionTitle(section), 300)}` : ''}`;
    })
    .join('<br>');
}

function evidence(v: CheckView, { links, spec }: Shared): string {
  const c = v.check;
  const ev = c.evidence;
  const parts: string[] = [];
  const item = (label: string, html: string) => parts.push(`<dt>${label}</dt><dd>${html}</dd>`);
  // A problem's hint is shown with it in the failures list at the top, not again here.
  if (v.hint && !v.fails && !isProblem(v.check.verdict)) item('Note', e(v.hint, 1000));
  if (c.skipReason) item('Skipped because', e(c.skipReason));
  if (c.expected !== undefined) item('Expected', pre(showValue(c.expected)));
  if (c.actual !== undefined) item('Actual', pre(showValue(c.actual)));
  if (c.schemaErrors?.length) item('Schema errors', schemaErrorsTable(c.schemaErrors));
  if (c.deviation) {
    item(
      'Known deviation',
      `${e(c.deviation.reason)}<br><span class="muted">observed: ${e(c.deviation.observed, 500)}${c.deviation.file ? `; listed in <code>${e(c.deviation.file, 300)}</code>` : ''}</span>`,
    );
  }
  if (ev?.request) {
    item(
      'Request',
      `<code>${e(ev.request.method, 20)} ${e(ev.request.url, 2000)}</code>${headersTable(ev.request.headers)}${ev.request.body !== undefined ? pre(ev.request.body) : ''}`,
    );
  }
  if (v.curl) item('Repeat it', curlBlock(v.curl));
  if (ev?.har) {
    const href = links.harHref(ev.har.file);
    const name = `${e(ev.har.file, 500)}, entry ${e(String(ev.har.entry), 20)}`;
    item(
      'Recorded in',
      `${href ? `<a href="${escapeHtml(href)}">${name}</a>` : `<code>${name}</code>`} <span class="muted">(log.entries[${e(String(ev.har.entry), 20)}])</span>`,
    );
  }
  if (ev?.error !== undefined) item('Transport error', e(ev.error));
  if (ev?.attempts !== undefined) item('Attempts', e(String(ev.attempts), 40));
  if (ev?.response) {
    item('Status', `<code>${e(String(ev.response.status), 40)}</code>`);
    if (ev.response.headers && Object.keys(ev.response.headers).length)
      item('Response headers', headersTable(ev.response.headers));
    if (ev.response.body !== undefined) {
      item(
        `Body${ev.response.bodyTruncated ? ' (excerpt)' : ''}`,
        `<pre class="body">${e(ev.response.body, BLOCK)}</pre>`,
      );
    }
  }
  if (c.runs) item('Runs', c.runs.map((r, i) => `run ${i + 1}: ${badge(r)}`).join(' '));
  if (!parts.length) return '';
  item('Step', `<code>${e(v.location, 500)}</code>`);
  if (spec) item('Spec', spec);
  return `<details class="evidence"><summary>Evidence</summary><dl class="ev">${parts.join('')}</dl></details>`;
}

/** the curl command: readable and selectable without JS; the script adds a copy button */
function curlBlock(curl: string): string {
  return `<div class="curl"><pre class="curl-text">${e(curl, BLOCK)}</pre><button type="button" class="copy" hidden>Copy as curl</button></div>`;
}

/** lower-cased text the search box matches: id, message, endpoint, request path, step */
function searchText(v: CheckView): string {
  return [v.check.id, v.check.message, v.endpoint, v.check.evidence?.request?.url ?? '', v.location]
    .join(' ')
    .toLowerCase()
    .slice(0, 2000);
}

function checkItem(v: CheckView, shared: Shared): string {
  const c = v.check;
  const dur = c.durationMs !== undefined ? `<span class="dur">${e(duration(c.durationMs), 40)}</span>` : '';
  return `<li class="check v-${e(c.verdict, 40)}${v.fails ? ' fails' : ''}" id="${v.anchor}" data-verdict="${e(c.verdict, 40)}" data-search="${escapeHtml(searchText(v))}">
<div class="head">${badge(c.verdict)}${c.flaky ? '<span class="badge v-flaky">flaky</span>' : ''}<span class="id">${e(c.id, 500)}</span><span class="kind">${e(c.kind, 40)}</span><span class="msg">${e(c.message)}</span>${dur}</div>
${more(v.more)}${evidence(v, shared)}</li>`;
}

function checkList(checks: CheckView[], shared: Shared, budget: Budget): string {
  const items = within(checks, (c) => checkItem(c, shared), budget, leftOutItem('li', 'checks'));
  return checks.length ? `<ol class="checks">\n${concatenated(items, '\n')}\n</ol>` : '';
}

function scenarioSection(
  sv: ScenarioView,
  endpoints: Map<string, EndpointEntry>,
  links: Links,
  budget: Budget,
): string {
  const s = sv.scenario;
  const counts =
    VERDICTS.filter((v) => sv.counts[v])
      .map((v) => `${sv.counts[v]} ${VERDICT_LABEL[v]}`)
      .join(', ') || 'no checks';
  const meta = [
    `<span class="id">${e(s.id, 300)}</span>`,
    `<code>${e(s.file, 300)}</code>`,
    s.spec.length
      ? `covers ${s.spec.map((id) => `<code>${e(id, 300)}</code>`).join(', ')}`
      : 'covers no listed endpoint',
    s.mode === 'absent'
      ? 'checks that the endpoint is absent (the agent predates it)'
      : s.mode === 'skipped'
        ? 'skipped'
        : '',
    duration(s.durationMs),
    counts,
  ].filter(Boolean);
  const notes = [
    ...(s.skipReason ? [`Skipped: ${s.skipReason}`] : []),
    ...(s.notes ?? []),
    ...(sv.omitted ? [`${sv.omitted} checks were left out of report.json to keep it under ${BOUND_TEXT}.`] : []),
  ];
  // Passing checks behind one more click: an open scenario shows what needs a look first.
  const passing = sv.checks.filter((c) => c.check.verdict === 'pass');
  const shared: Shared = { links, spec: specSections(s, endpoints) };
  return `<details class="scenario v-${e(s.verdict, 40)}" id="${sv.anchor}" data-verdict="${e(s.verdict, 40)}" data-spec="${escapeHtml(JSON.stringify(s.spec))}"${sv.open ? ' open' : ''}>
<summary><h3>${badge(s.verdict)} ${e(s.title, 500)}</h3><span class="meta">${meta.join(' · ')}</span></summary>
${notes.map((t) => `<p class="note">${e(t)}</p>`).join('\n')}
${checkList(
  sv.checks.filter((c) => c.check.verdict !== 'pass'),
  shared,
  budget,
)}
${passing.length ? `<details class="passing"><summary>${plural(sv.counts.pass, 'passing check')}</summary>${checkList(passing, shared, budget)}</details>` : ''}
</details>`;
}

/** the answer to "can I ship this agent?", in a few boxes */
function glance(view: RunView): string {
  const r = view.report;
  const cov = view.coverage;
  const failing = foldedCount(view.problems.filter((p) => p.fails));
  const box = (cls: string, n: string, label: string, href: string) =>
    `<a class="box ${cls}" href="${href}"><span class="n">${e(n, 40)}</span> ${label}</a>`;
  const boxes = [
    box(
      failing ? 'bad' : 'ok',
      String(failing),
      `${wordFor(failing, 'check')} ${wordFor(failing, 'fails', 'fail')} the run`,
      '#failures',
    ),
    box('known', String(r.totals['expected-fail']), 'known deviations', '#known'),
    box(
      cov.notCovered ? 'warn' : 'ok',
      `${cov.covered}/${cov.spec}`,
      `spec endpoints covered${cov.notRun ? ` (${cov.notRun} not run)` : ''}`,
      '#coverage',
    ),
    box(
      'plain',
      String(r.totals.checks),
      `checks in ${r.totals.scenarios} scenarios, ${e(duration(r.run.durationMs), 40)}`,
      '#scenarios',
    ),
  ];
  if (view.undocumented.notes.length)
    boxes.push(
      box(
        view.undocumented.strict ? 'bad' : 'plain',
        String(view.undocumented.notes.length),
        'undocumented members',
        '#undocumented',
      ),
    );
  if (view.flaky.length) boxes.push(box('warn', String(view.flaky.length), 'flaky', '#flaky'));
  if (view.baseline)
    boxes.push(
      box(
        view.baseline.counts['new-failure'] ? 'bad' : 'ok',
        String(view.baseline.counts['new-failure']),
        'new failures vs baseline',
        '#baseline',
      ),
    );
  return `<nav class="glance" aria-label="At a glance">${boxes.join('')}</nav>`;
}

/**
 * The banner's word on the known deviations: a green banner must not hide them. The run cannot know whether one breaks
 * a client of another version (the matrix compares versions), so it says they are there, how many, and where.
 */
function knownLine(view: RunView): string {
  const n = view.report.totals['expected-fail'];
  if (!n) return '';
  const endpoints = view.deviations.length;
  return `\n<p class="line"><a href="#known">${plural(n, 'listed known deviation')}</a> on ${plural(endpoints, 'endpoint')}: accepted for this version, so they do not fail the run; one can still break a client of another version (synconf matrix says which).</p>`;
}

/** a section's count, which the search turns into "2 of 7" */
const count = (n: number) => `<span class="count" data-total="${n}">${n}</span>`;
/** shown by the search when it hides every item of a section */
const noneMatch = (what: string) => `<p class="none-match" hidden>No ${what} matches the search.</p>`;

function problemItem(p: CheckView): string {
  return `<li class="problem${p.fails ? ' fails' : ''}" data-search="${escapeHtml(searchText(p))}">${badge(p.check.verdict)}${p.check.flaky ? '<span class="badge v-flaky">flaky</span>' : ''} <a href="#${p.anchor}" class="id">${e(p.check.id, 500)}</a> <span class="msg">${e(p.check.message)}</span>${p.fails ? '' : ' <em>(does not fail the run with this --fail-on)</em>'}
${p.hint ? `<div class="hint">${e(p.hint, 1000)}</div>` : ''}<div class="where muted"><code>${e(p.endpoint, 300)}</code> · <code>${e(p.location, 300)}</code></div>${p.curl ? curlBlock(p.curl) : ''}${more(p.more)}</li>`;
}

function failuresSection(view: RunView, budget: Budget): string {
  const errors = view.harnessErrors;
  const harness = within(
    errors,
    ({ item: h, more: n }) =>
      `<li><strong>${e([h.file, h.scenario, h.step].filter(Boolean).join(' ') || 'harness', 500)}</strong>: ${e(h.message)}${more(n)}</li>`,
    budget,
    leftOutItem('li', 'harness errors'),
  );
  const items = within(view.problems, problemItem, budget, leftOutItem('li', 'failures'));
  const failures = foldedCount(view.problems);
  return [
    errors.length
      ? `<section id="harness-errors"><h2>Harness errors (${foldedCount(errors)})</h2><p>synconf itself could not run part of the suite; the results below are incomplete.</p><ul class="problems">${harness.join('\n')}</ul></section>`
      : '',
    `<section id="failures"><h2>Failures (${count(failures)})</h2>${items.length ? `<ul class="problems">${items.join('\n')}</ul>${noneMatch('failure')}` : '<p>No check failed.</p>'}</section>`,
  ].join('\n');
}

/** the deviations by endpoint, most first, each a link to its rows: the first screen says where they are */
function knownIndex(view: RunView): string {
  const groups = view.deviations.map((g, i) => ({ g, i })).sort((a, b) => b.g.count - a.g.count || a.i - b.i);
  const shown = groups.slice(0, KNOWN_INDEX);
  const rest = groups.length - shown.length;
  return `<p class="known-index">By endpoint, most first: ${shown.map(({ g, i }) => `<a href="#known-${i}"><code>${e(g.endpoint, 300)}</code></a>&nbsp;${g.count}`).join(' · ')}${rest ? ` and ${rest} more endpoints (the table below)` : ''}.</p>`;
}

/** one row of the known deviations: the checks that deviate alike, what the agent does and why, said once */
function knownRow(r: DeviationRow): string {
  const ids = r.checks.map((c) => `<a href="#${c.anchor}" class="id">${e(c.check.id, 500)}</a>${more(c.more)}`);
  // a deviation many checks show (a missing object: every assertion on its members) would make a row pages tall
  const rest = ids.length > IDS_SHOWN + 1 ? ids.splice(IDS_SHOWN) : [];
  const folded = rest.length
    ? ` <details class="more-ids"><summary>and ${rest.length} more checks</summary>${rest.join(', ')}</details>`
    : '';
  const search = r.checks.map(searchText).join(' ');
  return `<tr data-search="${escapeHtml(search)}" data-count="${foldedCount(r.checks)}"><td>${ids.join(', ')}${folded}</td><td>${e(r.observed, 800)}</td><td>${e(r.reason, 800)}</td></tr>`;
}

function knownSection(view: RunView, budget: Budget): string {
  const n = view.report.totals['expected-fail'];
  const file = view.report.run.expectations;
  if (!n)
    return `<section id="known"><h2>Known deviations (0)</h2><p>${file ? `None of the deviations listed in <code>${e(file, 300)}</code> occurred.` : 'No known-deviations file was applied.'}</p></section>`;
  const rows = view.deviations.map((g, i) => {
    const head = `<tr class="group" id="known-${i}" data-search="${escapeHtml(g.endpoint.toLowerCase())}"><th colspan="3" scope="rowgroup"><code>${e(g.endpoint, 300)}</code> (${g.count})</th></tr>`;
    const leftOutRows = (k: number) =>
      `<tr class="left-out"><td colspan="3" class="muted">${e(
        leftOut(
          g.rows.slice(-k).reduce((sum, r) => sum + foldedCount(r.checks), 0),
          'known deviations',
        ),
      )}</td></tr>`;
    return head + within(g.rows, knownRow, budget, leftOutRows).join('');
  });
  return `<section id="known"><h2>Known deviations (${count(n)})</h2>
<p>What this agent version does differently from the spec, accepted for it and why${file ? `, as listed in <code>${e(file, 300)}</code>` : ''}. They do not fail the run; one that stops occurring does.</p>
${knownIndex(view)}
<table class="known"><thead><tr><th>Checks</th><th>What the agent does</th><th>Why it is accepted</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>${noneMatch('known deviation')}</section>`;
}

function flakySection(view: RunView): string {
  const rep = view.report.repeat;
  if (!rep) return '';
  const items = view.flaky.map(
    (c) =>
      `<li><a href="#${c.anchor}" class="id">${e(c.check.id, 500)}</a>: ${(c.check.runs ?? []).map((v, i) => `run ${i + 1} ${badge(v)}`).join(' ')}</li>`,
  );
  return `<section id="flaky"><h2>Stability over ${rep.runs} runs</h2><p>${view.checks.length - view.flaky.length} of ${view.checks.length} checks gave the same verdict in every run; ${view.flaky.length} flaky${view.flaky.length ? ':' : '.'}</p>${items.length ? `<ul>${items.join('')}</ul>` : ''}</section>`;
}

function baselineSection(view: RunView): string {
  const b = view.baseline;
  if (!b) return '';
  const classes = ['new-failure', 'fixed', 'still-failing', 'new-check'] as const;
  const parts = classes.map((k) => {
    const checks = b.byClass[k];
    if (!checks.length) return '';
    const items = checks
      .slice(0, 200)
      .map(
        (c) =>
          `<li><a href="#${c.anchor}" class="id">${e(c.check.id, 500)}</a> ${c.check.baseline?.verdict ? `${badge(c.check.baseline.verdict)} → ` : ''}${badge(c.check.verdict)}</li>`,
      )
      .join('');
    return `<h3>${BASELINE_CLASS_LABEL[k]} (${checks.length})</h3><ul class="bl-${k}">${items}</ul>${checks.length > 200 ? `<p>… and ${checks.length - 200} more</p>` : ''}`;
  });
  const gone = b.gone.length
    ? `<h3>gone (${b.gone.length})</h3><ul class="bl-gone">${b.gone
        .slice(0, 200)
        .map((g) => `<li class="id">${e(g.id, 500)} ${badge(g.verdict)}</li>`)
        .join('')}</ul>`
    : '';
  const counts = (['new-failure', 'fixed', 'still-failing', 'new-check', 'gone'] as const)
    .map((k) => `${b.counts[k]} ${BASELINE_CLASS_LABEL[k]}`)
    .join(', ');
  return `<section id="baseline"><h2>Compared with the baseline</h2><p>Against <code>${e(b.file, 500)}</code>${b.startedAt ? ` (run of ${e(b.startedAt, 60)})` : ''}: ${e(counts, 500)}.</p>${parts.join('')}${gone}</section>`;
}

function coverageTable(view: RunView): string {
  const cov = view.coverage;
  const report = view.report;
  const versions = (ep: EndpointEntry | null) =>
    ep
      ? [
          ep.since && `since ${ep.since}`,
          ep.deprecated && `deprecated since ${ep.deprecated}`,
          ep.related && 'related path (shape not specified)',
        ]
          .filter((x): x is string => typeof x === 'string')
          .map((x) => e(x, 200))
          .join('<br>')
      : '<strong>not in endpoints.json</strong>';
  const body = cov.rows
    .map((r) => {
      const by = [
        ...r.scenarios.map(
          (si) => `<a href="#s${si}">${e(report.scenarios[si].id, 300)}</a> ${badge(report.scenarios[si].verdict)}`,
        ),
        ...r.notRun.map((id) => `<span class="muted">${e(id, 300)} (not selected)</span>`),
      ].join('<br>');
      const status = r.verdict
        ? badge(r.verdict)
        : r.state === 'not run'
          ? '<span class="badge v-notrun">not run</span>'
          : '<span class="badge v-none">not covered</span>';
      const cls = r.state === 'covered' ? 'covered' : r.state === 'not run' ? 'notrun' : 'uncovered';
      return `<tr class="${cls}" data-endpoint="${e(r.id, 500)}"><td><code>${e(r.id, 500)}</code></td><td>${e(sectionTitle(r.endpoint?.section), 300)}</td><td>${versions(r.endpoint)}</td><td>${by || '<span class="status">no scenario names this endpoint</span>'}</td><td>${status}</td></tr>`;
    })
    .join('\n');
  return `<section id="coverage"><h2>Endpoint coverage</h2>
${cov.listError ? `<p><strong>The endpoint list could not be read (${e(cov.listError, 500)}); only endpoints named by scenarios are shown.</strong></p>` : ''}
<p>${report.run.mode === 'proxy' ? `The client called ${cov.covered} of ${cov.spec} spec endpoints${cov.notCovered ? `; ${cov.notCovered} not called in this session` : ''}` : `${cov.covered} of ${cov.spec} spec endpoints are covered by this run${cov.notRun ? `; ${cov.notRun} not run (their scenarios were not selected)` : ''}${cov.notCovered ? `; <strong>${cov.notCovered} not covered</strong> by any scenario` : ''}`}. ${cov.related ? `Related paths the spec names without specifying them: ${cov.relatedCovered} of ${cov.related} covered.` : ''}${cov.unknown ? ` ${plural(cov.unknown, 'id')} named by scenarios ${cov.unknown === 1 ? 'is' : 'are'} not in the endpoint list.` : ''}</p>
<details${cov.notCovered || cov.listError ? ' open' : ''}><summary>Each endpoint, its spec section and the scenarios that cover it (${cov.rows.length})</summary>
<table><thead><tr><th>Endpoint</th><th>Spec section</th><th>Versions</th><th>Covered by</th><th>Result</th></tr></thead>
<tbody>
${body}
</tbody></table></details></section>`;
}

/** statement coverage, collapsed: the counts by kind, then each statement that is not passed, with its checks */
function statementSection(report: Report): string {
  const cov = report.statementCoverage;
  if (!cov) return '';
  const head = `<tr><th>Kind</th>${COVERAGE_STATES.map((s) => `<th>${s}</th>`).join('')}</tr>`;
  const kinds = coverageByKind(cov)
    .map(([kind, ...n]) => `<tr><td>${e(kind, 40)}</td>${n.map((x) => `<td>${x}</td>`).join('')}</tr>`)
    .join('');
  const open = cov.statements.filter((s) => s.state !== 'passed');
  const rows = open
    .map(
      (s) =>
        `<tr class="st-${s.state.replace(' ', '-')}"><td><code>${e(s.id, 200)}</code></td><td>${e(s.kind, 40)}</td><td>${e(s.state, 40)}</td><td>${e(s.reason ?? (s.checks ?? []).join(', '), 800)}</td></tr>`,
    )
    .join('\n');
  return `<section id="statements"><details><summary><h2>Statement coverage</h2> ${e(coverageLine(cov), 400)}</summary>
<table><thead>${head}</thead><tbody>${kinds}</tbody></table>
<p class="muted">Each statement of the spec's index (spec/statements.yaml) that is not passed: the reason, or its checks.</p>
<table><thead><tr><th>Statement</th><th>Kind</th><th>State</th><th>Reason or checks</th></tr></thead>
<tbody>
${rows}
</tbody></table></details></section>`;
}

function filters(view: RunView): string {
  const n = view.report.totals;
  const boxes = VERDICTS.map(
    (v) => `<label><input type="checkbox" name="verdict" value="${v}" checked> ${VERDICT_LABEL[v]} (${n[v]})</label>`,
  ).join('');
  const options = view.coverage.rows
    .filter((r) => r.scenarios.length)
    .map((r) => `<option value="${escapeHtml(r.id)}">${e(r.id, 200)}</option>`)
    .join('');
  // Hidden until the script runs: without JS every check is there and the controls would do nothing.
  return `<form class="filters" id="filters" role="search" hidden>
<label class="search">Search <input type="search" name="q" placeholder="check id, message, endpoint or path" autocomplete="off"></label>
<fieldset><legend>Verdict</legend>${boxes}</fieldset>
<label>Endpoint <select name="endpoint"><option value="">all endpoints</option>${options}</select></label>
<output id="shown" aria-live="polite"></output>
</form>`;
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
${fact('Duration', duration(r.durationMs))}
${fact('Known deviations', r.expectations ?? 'none applied', true)}
${fact('Recordings', r.recordings, true)}
${fact('Fails on', (r.failOn ?? []).join(', '))}
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

function timings(view: RunView): string {
  if (!view.slowest.length) return '';
  return `<section id="timings"><h2>Slowest scenarios</h2><table><tbody>${view.slowest.map((s) => `<tr><td><a href="#${s.anchor}">${e(s.scenario.id, 300)}</a></td><td class="num">${e(duration(s.scenario.durationMs), 40)}</td></tr>`).join('')}</tbody></table></section>`;
}

function undocumentedSection(view: RunView): string {
  const notes = view.undocumented.notes;
  return notes.length
    ? `<section id="undocumented"><details${view.undocumented.strict ? ' open' : ''}><summary><h2>Undocumented members (${notes.length})</h2></summary><p>Members of responses of ${e(view.agent, 100)} that their schema does not name: ${view.undocumented.strict ? 'failures (--strict)' : 'notes; --strict makes them failures'}.</p><table><thead><tr><th>endpoint</th><th>member</th><th>schema</th><th>scenarios</th></tr></thead><tbody>${notes.map((n) => `<tr><td><code>${e(n.endpoint, 300)}</code></td><td><code>${e(n.member, 300)}</code>${n.more ? ` and ${n.more.toLocaleString('en-US')} more not listed` : ''}</td><td>${e(n.resource, 100)}</td><td>${e(n.scenarios.join(', '), 500)}</td></tr>`).join('')}</tbody></table></details></section>`
    : '';
}

function extras(view: RunView): string {
  const report = view.report;
  const calls = Object.entries(report.expensiveCalls);
  const unused = report.unusedExchanges ?? [];
  const stale = report.staleExpectations ?? [];
  return [
    stale.length
      ? `<section id="stale"><h2>Stale known deviations (${stale.length})</h2><p>Entries of the known-deviations file whose check did not occur in a scenario that ran: the file needs an update.</p><ul>${stale.map((id) => `<li class="id">${e(id, 500)}</li>`).join('')}</ul></section>`
      : '',
    calls.length
      ? `<section id="expensive"><h2>Expensive calls</h2><p>Calls to endpoints the spec calls expensive (CPU and memory).</p><table><tbody>${calls.map(([k, n]) => `<tr><td><code>${e(k, 300)}</code></td><td class="num">${e(String(n), 40)}</td></tr>`).join('')}</tbody></table></section>`
      : '',
    unused.length
      ? `<section id="unused"><h2>Unused recorded exchanges (${unused.length})</h2><p>Recorded exchanges no step asked for: the recording is stale.</p><ul>${unused.map((u) => `<li>${e(u.scenario, 300)}: <code>${e(u.request, 500)}</code></li>`).join('')}</ul></section>`
      : '',
  ].join('\n');
}

/**
 * The scenario sections while they fit (their checks in a budget of their own), then how many were left out. The
 * sections' own bytes are counted only once they might not fit (until then: at most 3 bytes a UTF-16 code unit), in
 * the order they came: counting a section's bytes copies it whole, and a run's sections take megabytes.
 */
function scenarioSections(view: RunView, byId: Map<string, EndpointEntry>, links: Links, budget: Bounds): string {
  const shown: string[] = [];
  let uncounted: (() => number)[] = [];
  let most = 0; // the most bytes the uncounted sections take
  for (const sv of view.scenarios) {
    const { left, units } = budget.checks;
    const section = scenarioSection(sv, byId, links, budget.checks);
    // the section's own bytes, without the checks already counted in their budget
    const checks = left - budget.checks.left;
    const own = () => Buffer.byteLength(section) - checks;
    most += 3 * (section.length - (budget.checks.units - units));
    if (most > budget.scenarios.left) {
      for (const bytes of uncounted) budget.scenarios.take(bytes());
      [uncounted, most] = [[], 0];
      if (!budget.scenarios.take(own())) break;
    } else uncounted.push(own);
    shown.push(section);
  }
  const rest = view.scenarios.length - shown.length;
  return concatenated([...shown, ...(rest ? [leftOutItem('p', 'scenarios')(rest)] : [])], '\n');
}

export interface HtmlOptions {
  /** the endpoint catalog (default schemas/endpoints.json) */
  endpoints?: EndpointEntry[];
  /** the folder report.html goes to: cassette links are made relative to it */
  reportDir?: string;
  /** the run's view when the caller has it already */
  view?: RunView;
}

/** The HTML report. */
export function toHtml(report: Report, opts: HtmlOptions = {}): string {
  const view = opts.view ?? viewOf(report, opts.endpoints);
  const byId = new Map(view.coverage.rows.flatMap((r) => (r.endpoint ? [[r.id, r.endpoint] as const] : [])));
  const links: Links = {
    harHref: (file) => (opts.reportDir ? relative(resolve(opts.reportDir), resolve(ROOT, file)) : null),
  };
  const a = report.agent;
  const line = [
    platform(a),
    `${report.run.mode} run against ${report.run.target}`,
    report.run.startedAt,
    duration(report.run.durationMs),
  ]
    .filter(Boolean)
    .join(' · ');
  const budget = bounds();
  const body = `<header class="banner ${view.tone}"><div>
<h1>synconf: ${e(view.headline, 300)}</h1>
<p class="line">${e(line, 1000)}</p>${knownLine(view)}
</div></header>
<main>
${filters(view)}
${glance(view)}
${failuresSection(view, budget.lists)}
${baselineSection(view)}
${flakySection(view)}
${knownSection(view, budget.lists)}
${undocumentedSection(view)}
<section id="scenarios"><h2>Scenarios (${report.scenarios.length})</h2>
<p class="muted">${e(report.verdict, 1000)}. Scenarios with nothing to look at are collapsed.</p>
${scenarioSections(view, byId, links, budget)}
</section>
${coverageTable(view)}
${statementSection(report)}
${timings(view)}
${runFacts(report)}
${extras(view)}
<footer><p class="muted">Written by synconf ${e(report.synconf.version, 100)} from report.json. This file is self-contained and makes no network request.</p></footer>
</main>`;
  return htmlPage(`synconf: ${view.headline}`.slice(0, 300), body, RUN_SCRIPT);
}
