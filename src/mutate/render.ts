// The mutation report as Markdown (mutation.md, also the GitHub job summary) and as one
// self-contained HTML page (mutation.html), both from mutation.json. Pure functions.
import type { MutationReport, MutantResult, Tally } from '../schema/generated/types.js';
import { escapeMarkdown as md, escapeHtml as h, cut } from '../report/text.js';
import { htmlPage } from '../report/html-page.js';
import { percent } from './score.js';
import { printableLine } from '../printable.js';

/** the score in three sentences (README and both reports say the same) */
export const SCORE_EXPLAINED = [
  'Each mutant is a recorded answer changed the way a non-conforming agent would change it (a required member dropped, a wrong type, status or media type, an event that never comes, a request that has no effect).',
  'A mutant is killed when some check of the replayed scenario fails, survives when the run still conforms, and is equivalent when a readable rule says no check could tell it apart (the schema admits the change, nothing changes, or a known deviation of the agent already fails the check).',
  'The score is killed / (killed + survived): 100% means every non-equivalent mutant is caught, and each survivor is a blind spot of the suite, named with its scenario line.',
  'Spec-derived mutants break one statement of the spec each (spec/statements.yaml), in every recorded answer it concerns, whichever checks exist: the statement score is caught / (caught + survived), the statements whose violation the suite catches; each survivor is named with its statement and spec line.',
];

/** proxy mode: the same statements, broken in a client's session and judged by the proxy's checks */
const PROXY_EXPLAINED = [
  "Each statement of the spec (spec/statements.yaml) is broken in the answers of a client's session recorded by synconf proxy, the way a non-conforming agent would break it, and the whole session is judged again by the proxy's checks.",
  "A statement is caught when a check of the proxy fails that did not on the session as recorded (or, failing already, now reports something else), masked when a check that already fails as a known deviation of the agent sees it, and without an operator when the client's traffic holds no answer it concerns.",
  'The statement score is caught / (caught + survived): the violations the proxy would report to this client; each survivor is one it would let pass, named with its statement, spec line and the endpoint it was broken in.',
];
const explained = (r: MutationReport) => (r.mode === 'proxy' ? PROXY_EXPLAINED : SCORE_EXPLAINED);
const source = (r: MutationReport) => (r.mode === 'proxy' ? 'Client session' : 'Recordings');

type StatementEntry = NonNullable<MutationReport['statements']>['entries'][number];
const entriesOf = (r: MutationReport, outcome: StatementEntry['outcome']) =>
  (r.statements?.entries ?? []).filter((e) => e.outcome === outcome);
/** the spec mutant of a statement (the what and where of a survivor) */
const mutantOf = (r: MutationReport, id: string) => r.mutants.find((m) => m.statement === id);
const statementLine = (r: MutationReport, e: StatementEntry) =>
  `${e.id} (spec line ${e.line}, ${e.kind})${e.reason ? `: ${e.reason}` : ''}${
    e.outcome === 'survived'
      ? `: ${mutantOf(r, e.id)?.target ?? ''}, in ${mutantOf(r, e.id)?.scenarios?.join(', ')}`
      : ''
  }`;
const STATEMENT_SECTIONS: [StatementEntry['outcome'], string][] = [
  ['survived', 'Statements whose violation no check catches'],
  ['masked', 'Statements masked by a known deviation of the agent'],
  ['no operator', 'Statements no operator breaks in these recordings'],
  ['not checkable', 'Statements not checkable (the index says why)'],
];

/** the statement score as Markdown: totals, then each group of statements that needs a word */
function statementsMarkdown(r: MutationReport): string[] {
  if (!r.statements) return [];
  const t = r.statements.totals;
  const out = [
    `### Statements: ${percent(t.score)} caught`,
    '',
    `${t.statements} statements: ${t.caught} caught, ${t.survived} survived, ${t.masked} masked, ${t.noOperator} without an operator here, ${t.notCheckable} not checkable, ${t.restating} restating others.`,
  ];
  for (const [outcome, title] of STATEMENT_SECTIONS) {
    const es = entriesOf(r, outcome);
    if (es.length)
      out.push('', `#### ${title} (${es.length})`, '', ...es.map((e) => `- ${md(cut(statementLine(r, e), 400))}`));
  }
  return [...out, ''];
}

function statementsHtml(r: MutationReport): string {
  if (!r.statements) return '';
  const t = r.statements.totals;
  const groups = STATEMENT_SECTIONS.map(([outcome, title]) => {
    const es = entriesOf(r, outcome);
    const items = es.map((e) => `<li>${h(cut(statementLine(r, e), 500))}</li>`).join('');
    return es.length ? `<h3>${h(title)} (${es.length})</h3><ul>${items}</ul>` : '';
  });
  return `<h2>Statements: ${h(percent(t.score))} caught</h2><p>${t.statements} statements: ${t.caught} caught, ${t.survived} survived, ${t.masked} masked, ${t.noOperator} without an operator here, ${t.notCheckable} not checkable, ${t.restating} restating others.</p>${groups.join('')}`;
}

const where = (m: MutantResult) => `${m.file}${m.line ? `:${m.line}` : ''}`;
const survivors = (r: MutationReport) => r.mutants.filter((m) => m.outcome === 'survived');

/** equivalent mutants grouped by the rule that makes them so (the rule text without its specifics) */
function equivalentRules(r: MutationReport): [string, number][] {
  const counts = new Map<string, number>();
  for (const m of r.mutants) {
    if (m.outcome !== 'equivalent') continue;
    const rule = (m.equivalentBecause ?? '?')
      .replace(/\s*\(.*\)\s*/g, ' ')
      .replace(/^masked: .*already fails?/, 'masked: its check already fails')
      .trim();
    counts.set(rule, (counts.get(rule) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]);
}

function mdTable(rows: [string, Tally][], head: string): string[] {
  return [
    `| ${head} | mutants | killed | survived | equivalent | score |`,
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      ([k, t]) => `| ${md(k)} | ${t.mutants} | ${t.killed} | ${t.survived} | ${t.equivalent} | ${percent(t.score)} |`,
    ),
  ];
}

/** what fails without a mutant: the recordings' problems, or what the proxy reports of the session as recorded */
function problemsMarkdown(r: MutationReport): string[] {
  const list = (title: string, items: string[]) => [
    `### ${title} (${items.length})`,
    '',
    ...items.slice(0, 50).map((p) => `- ${md(cut(p, 300))}`),
    ...(items.length > 50 ? [`- … and ${items.length - 50} more (mutation.json lists them all)`] : []),
    '',
  ];
  return [
    ...(r.baselineProblems?.length ? list('Checks that fail without a mutant', r.baselineProblems) : []),
    ...(r.sessionViolations?.length
      ? list('What the proxy reports of the session as recorded', r.sessionViolations)
      : []),
  ];
}

export function mutationMarkdown(r: MutationReport): string {
  const s = survivors(r);
  const out = [
    `## synconf mutate: ${percent(r.totals.score)}`,
    '',
    md(r.verdict),
    '',
    `${source(r)} ${md(r.recordings)} · agent ${md(r.agentVersion ?? 'unknown')} · ${(r.durationMs / 1000).toFixed(1)} s · synconf ${md(r.synconf.version)}`,
    '',
    ...explained(r).map(md),
    '',
  ];
  out.push(...problemsMarkdown(r), ...statementsMarkdown(r));
  out.push(`### Survivors (${s.length})`, '');
  if (!s.length) out.push('None: every non-equivalent mutant was killed.');
  for (const m of s)
    out.push(
      m.statement
        ? `- **statement ${md(m.statement)}** (spec line ${m.specLine}): ${md(m.target)}, in ${md(m.scenarios?.join(', ') ?? m.scenario)}`
        : `- **${md(m.scenario)}** step ${md(m.step)} (${md(where(m))}): ${md(m.operator)} of ${md(m.target)}${m.pointer ? ` at \`${md(m.pointer)}\`` : ''}: ${md(m.description)}`,
    );
  out.push(
    '',
    '### By scenario',
    '',
    ...mdTable(
      r.byScenario.map((x) => [x.scenario, x]),
      'scenario',
    ),
  );
  out.push(
    '',
    '### By endpoint',
    '',
    ...mdTable(
      r.byEndpoint.map((x) => [x.endpoint, x]),
      'endpoint',
    ),
  );
  out.push(
    '',
    '### By mutation operator',
    '',
    ...mdTable(
      r.byOperator.map((x) => [x.operator, x]),
      'operator',
    ),
  );
  const rules = equivalentRules(r);
  if (rules.length)
    out.push('', '### Equivalent mutants, by rule', '', ...rules.map(([rule, n]) => `- ${n} × ${md(rule)}`));
  return out.join('\n') + '\n';
}

function htmlTable(rows: [string, Tally][], head: string): string {
  const tr = ([k, t]: [string, Tally]) =>
    `<tr${t.survived ? ' class="uncovered"' : ''}><td>${h(k)}</td><td class="num">${t.mutants}</td><td class="num">${t.killed}</td><td class="num">${t.survived}</td><td class="num">${t.equivalent}</td><td class="num">${percent(t.score)}</td></tr>`;
  return `<table><thead><tr><th>${h(head)}</th><th class="num">mutants</th><th class="num">killed</th><th class="num">survived</th><th class="num">equivalent</th><th class="num">score</th></tr></thead><tbody>${rows.map(tr).join('')}</tbody></table>`;
}

const problemsHtml = (title: string, items: string[] | undefined) =>
  items?.length
    ? `<h2>${h(title)} (${items.length})</h2><ul class="problems">${items.map((p) => `<li>${h(cut(p, 500))}</li>`).join('')}</ul>`
    : '';

export function mutationHtml(r: MutationReport): string {
  const s = survivors(r);
  const cls = r.exitCode === 0 ? (s.length ? 'attention' : 'ok') : r.exitCode === 1 ? 'bad' : 'error';
  const mutantRow = (m: MutantResult) =>
    `<tr><td class="mono">${h(m.id)}</td><td>${h(m.outcome)}</td><td>${h(m.step)}<br><span class="muted mono">${h(where(m))}</span></td><td>${h(m.operator)}</td><td>${m.statement ? `statement <code>${h(m.statement)}</code> (spec line ${m.specLine})<br>` : ''}${h(m.target)}${m.pointer ? `<br><code>${h(m.pointer)}</code>` : ''}</td><td>${h(m.description)}</td><td>${m.killedBy ? m.killedBy.map((k) => `<code>${h(k.check)}</code>`).join('<br>') : h(m.equivalentBecause ?? '')}</td></tr>`;
  const body = `
<div class="banner ${cls}"><div><h1>synconf mutate: ${h(percent(r.totals.score))}</h1><p class="line">${h(r.verdict)}</p></div></div>
<main>
<dl class="facts"><dt>${source(r)}</dt><dd><code>${h(r.recordings)}</code></dd><dt>Agent</dt><dd>${h(r.agentVersion ?? 'unknown')}</dd><dt>Started</dt><dd>${h(r.startedAt)} (${(r.durationMs / 1000).toFixed(1)} s)</dd><dt>Gate</dt><dd>${r.minScore === null ? 'none (--min-score)' : h(percent(r.minScore))}</dd></dl>
${explained(r)
  .map((p) => `<p>${h(p)}</p>`)
  .join('\n')}
${problemsHtml('Checks that fail without a mutant', r.baselineProblems)}
${problemsHtml('What the proxy reports of the session as recorded', r.sessionViolations)}
${statementsHtml(r)}
<h2>Survivors (${s.length})</h2>
${s.length ? `<table><thead><tr><th>mutant</th><th>outcome</th><th>step</th><th>operator</th><th>what</th><th>mutation</th><th>caught by / rule</th></tr></thead><tbody>${s.map(mutantRow).join('')}</tbody></table>` : '<p>None: every non-equivalent mutant was killed.</p>'}
<h2>By scenario</h2>${htmlTable(
    r.byScenario.map((x) => [x.scenario, x]),
    'scenario',
  )}
<h2>By endpoint</h2>${htmlTable(
    r.byEndpoint.map((x) => [x.endpoint, x]),
    'endpoint',
  )}
<h2>By mutation operator</h2>${htmlTable(
    r.byOperator.map((x) => [x.operator, x]),
    'operator',
  )}
<h2>Equivalent mutants, by rule</h2><ul>${equivalentRules(r)
    .map(([rule, n]) => `<li>${n} × ${h(rule)}</li>`)
    .join('')}</ul>
<h2>Every mutant (${r.mutants.length})</h2>
<details><summary>show all</summary><table><thead><tr><th>mutant</th><th>outcome</th><th>step</th><th>operator</th><th>what</th><th>mutation</th><th>caught by / rule</th></tr></thead><tbody>${r.mutants.map(mutantRow).join('')}</tbody></table></details>
</main>`;
  return htmlPage(`synconf mutate: ${percent(r.totals.score)}`, body);
}

/** what `synconf mutate` prints: each survivor with its place, then the verdict line */
export function mutationText(r: MutationReport, max = 50): string {
  const s = survivors(r);
  const out = s
    .slice(0, max)
    .map((m) =>
      m.statement
        ? `survived statement ${m.statement} (spec line ${m.specLine}): ${m.target}, in ${m.scenarios?.join(', ')}`
        : `survived ${m.id} ${where(m)} step ${m.step}: ${m.operator} of ${m.target}${m.pointer ? ` at ${m.pointer}` : ''}: ${m.description}`,
    );
  if (s.length > max) out.push(`… and ${s.length - max} more survivors (mutation.md lists them all)`);
  const none = entriesOf(r, 'no operator');
  if (none.length)
    out.push(
      `${none.length} statements without an operator on ${r.mode === 'proxy' ? "the client's session" : 'these recordings'} (mutation.md says why)`,
    );
  if (r.sessionViolations?.length)
    out.push(
      `the proxy reports ${r.sessionViolations.length} violation(s) of the session as recorded (mutation.md lists them)`,
    );
  for (const p of r.baselineProblems ?? []) out.push(`fails without a mutant: ${p}`);
  out.push(r.verdict);
  // member names, steps and scenario ids come from answers and files: each stays within its line
  return out.map(printableLine).join('\n');
}
