// report.json as a Markdown summary (summary.md, the GitHub job summary, a pull-request comment):
// the verdict line, the failures with their evidence in a few lines each, the comparison with a
// baseline, flaky checks, the known deviations as one table (check, what the agent does, why),
// and the scenarios and coverage in a collapsed <details>. It renders the run's view (view.ts).
// Text is never cut mid-sentence: a long list is shortened by dropping rows, and says how many.
import type { Report } from '../schema/generated/types.js';
import { escapeMarkdown as md, platform, noteLine } from './text.js';
import { VERDICTS, VERDICT_LABEL } from '../verdict/verdicts.js';
import { BASELINE_CLASS_LABEL, type CheckView, type RunView, viewOf } from './view.js';
import { COVERAGE_STATES, coverageByKind, coverageLine } from './statements.js';
import { foldedCount, moreLine } from './fold.js';

/** the size a summary aims at: readable, and far below GitHub's 1 MiB per step */
const BUDGET = 60_000;
/** one cell or message: beyond this, whole sentences are dropped (the rest is in report.html) */
const MAX_TEXT = 600;

/**
 * `s` shortened to whole sentences within `max` characters (at least the first one, cut at a
 * word if it alone is longer), saying that the rest is in report.html.
 */
export function sentences(s: string, max = MAX_TEXT): string {
  const text = s.replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const end = Math.max(head.lastIndexOf('. '), head.lastIndexOf('; '), head.lastIndexOf('! '), head.lastIndexOf('? '));
  const cutAt = end > max / 4 ? end + 1 : Math.max(head.lastIndexOf(' '), max / 2);
  return `${text.slice(0, cutAt).trim()} … (${text.length - cutAt} more characters in report.html)`;
}

const cell = (s: string) => md(sentences(s));

/** as many items as fit in `max` characters, then how many were left out */
function firstItems(items: string[], max: number): string {
  let out = '';
  let n = 0;
  for (const item of items) {
    if (out.length + item.length + 2 > max && n > 0) break;
    out += (n ? ', ' : '') + item;
    n++;
  }
  return n < items.length ? `${out} and ${items.length - n} more` : out;
}

/** lines appended while they fit in what is left of the budget; the rest counted in `more` */
function bounded(
  out: string[],
  items: string[][],
  budget: { left: number },
  more: (n: number, shown: number) => string,
): void {
  let shown = 0;
  for (const lines of items) {
    const size = lines.reduce((n, l) => n + l.length + 1, 0);
    if (size > budget.left) break;
    out.push(...lines);
    budget.left -= size;
    shown++;
  }
  if (shown < items.length) out.push(more(items.length - shown, shown));
}

function failureLines(v: CheckView): string[] {
  const c = v.check;
  const req = c.evidence?.request;
  const res = c.evidence?.response;
  const evidence = [
    `\`${md(v.location)}\``,
    req
      ? `${md(`${req.method} ${req.url}`)}${res ? ` → ${res.status}` : c.evidence?.error ? ` → ${md(sentences(c.evidence.error, 200))}` : ''}`
      : '',
    c.schemaErrors
      ?.filter((e) => !e.known)
      .slice(0, 3)
      .map((e) => md(`${e.pointer || '/'} ${e.rule}`))
      .join(', ') ?? '',
  ].filter(Boolean);
  return [
    `- **${VERDICT_LABEL[c.verdict]}**${c.flaky ? ' (flaky)' : ''} ${md(c.id)}: ${cell(c.message)}`,
    `  ${evidence.join(' · ')}`,
    ...(v.hint ? [`  ${cell(v.hint)}`] : []),
    ...(v.more ? [`  ${moreLine(v.more)}`] : []),
  ];
}

function baselineLines(view: RunView, out: string[], budget: { left: number }): void {
  const b = view.baseline;
  if (!b) return;
  const keys = ['new-failure', 'fixed', 'still-failing', 'new-check', 'gone'] as const;
  out.push(
    '',
    `### Compared with the baseline`,
    '',
    `Baseline ${md(b.file)}${b.startedAt ? ` (${md(b.startedAt)})` : ''}`,
    '',
    `| ${keys.map((k) => BASELINE_CLASS_LABEL[k]).join(' | ')} |`,
    `|${' ---: |'.repeat(keys.length)}`,
    `| ${keys.map((k) => b.counts[k]).join(' | ')} |`,
  );
  for (const k of ['new-failure', 'fixed'] as const) {
    const list = b.byClass[k];
    if (!list.length) continue;
    out.push('', `**${BASELINE_CLASS_LABEL[k]}** (${list.length}):`, '');
    bounded(
      out,
      list.map((c) => [
        `- ${md(c.check.id)}: ${c.check.baseline?.verdict ? VERDICT_LABEL[c.check.baseline.verdict] : 'absent'} → ${VERDICT_LABEL[c.check.verdict]}`,
      ]),
      budget,
      (n) => `- … and ${n} more (report.html)`,
    );
  }
}

/** the undocumented members of the run's responses, one line each, while they fit */
function undocumentedLines(view: RunView, out: string[], budget: { left: number }): void {
  const u = view.undocumented;
  if (!u.notes.length) return;
  out.push(
    '',
    `### Undocumented members (${u.notes.length}, ${md(view.agent)}; ${u.strict ? 'failures under --strict' : 'notes; --strict makes them failures'})`,
    '',
  );
  bounded(
    out,
    u.notes.map((n) => [`- ${md(noteLine(n))} (${md(firstItems(n.scenarios, 200))})`]),
    budget,
    (n) => `- … and ${n} more (report.html)`,
  );
}

/** --shard: a shard's summary says it is one, so its totals are not read as the whole run's */
const shardNote = ({ shard }: Report) =>
  shard
    ? ` · **shard ${shard.index}/${shard.count}** of plan ${shard.plan} (${shard.scenarios.length}${shard.planScenarios === undefined ? '' : ` of ${shard.planScenarios}`} scenarios)`
    : '';

/** the title, the verdict line, the run's identity and the totals table */
function headLines(report: Report, view: RunView): string[] {
  const t = report.totals;
  const agent = `${report.agent.version ?? 'unknown version'}${platform(report.agent) ? ` (${platform(report.agent)})` : ''}`;
  return [
    `## synconf: ${view.status}`,
    '',
    md(report.verdict),
    '',
    `Agent **${md(agent)}** · ${md(report.run.mode)} · target ${md(report.run.target)} · started ${md(report.run.startedAt)} · ${(report.run.durationMs / 1000).toFixed(1)} s · synconf ${md(report.synconf.version)}${shardNote(report)}`,
    '',
    `| scenarios | checks | ${VERDICTS.map((v) => VERDICT_LABEL[v]).join(' | ')} |`,
    `|${' ---: |'.repeat(2 + VERDICTS.length)}`,
    `| ${t.scenarios} | ${t.checks} | ${VERDICTS.map((v) => t[v]).join(' | ')} |`,
  ];
}

/** errors of the harness itself (files that did not load, steps that could not run) */
function harnessErrorLines(view: RunView, out: string[], budget: { left: number }): void {
  if (!view.harnessErrors.length) return;
  out.push('', `### Harness errors (${foldedCount(view.harnessErrors)})`, '');
  bounded(
    out,
    view.harnessErrors.map(({ item: e, more }) => {
      const where = [e.file, e.scenario, e.step].filter(Boolean).join(' ');
      return [`- ${where ? `${md(where)}: ` : ''}${cell(e.message)}`, ...(more ? [`  ${moreLine(more)}`] : [])];
    }),
    budget,
    (_, shown) => `- … and ${foldedCount(view.harnessErrors.slice(shown))} more (report.html)`,
  );
}

/** the failures, within a third of the budget so that the rest of the summary still shows */
function failureSection(view: RunView, out: string[], budget: { left: number }): void {
  if (!view.problems.length) return;
  out.push('', `### Failures (${foldedCount(view.problems)})`, '');
  bounded(
    out,
    view.problems.map(failureLines),
    { left: Math.min(budget.left, BUDGET / 3) },
    (_, shown) => `- … and ${foldedCount(view.problems.slice(shown))} more failures (report.html)`,
  );
  budget.left = BUDGET - out.join('\n').length;
}

/** --repeat: how many checks gave the same verdict in every run, and the flaky ones */
function stabilityLines(report: Report, view: RunView, out: string[], budget: { left: number }): void {
  if (!report.repeat) return;
  out.push(
    '',
    `### Stability over ${report.repeat.runs} runs`,
    '',
    `${view.checks.length - view.flaky.length} of ${view.checks.length} checks gave the same verdict in every run; ${view.flaky.length} flaky.`,
  );
  if (!view.flaky.length) return;
  out.push('');
  bounded(
    out,
    view.flaky.map((c) => [`- ${md(c.check.id)}: ${(c.check.runs ?? []).map((v) => VERDICT_LABEL[v]).join(', ')}`]),
    budget,
    (n) => `- … and ${n} more (report.html)`,
  );
}

/** the known deviations of this agent version, a table row each, while they fit */
function deviationLines(report: Report, view: RunView, out: string[], budget: { left: number }): void {
  if (!view.deviations.length) return;
  const listed = view.deviations.flatMap((g) => g.checks);
  const rows = listed.map((c) => [
    `| ${md(c.check.id)}${c.more ? ` (${moreLine(c.more)})` : ''} | ${cell(c.check.deviation?.observed ?? c.check.message)} | ${cell(c.check.deviation?.reason ?? '')} |`,
  ]);
  out.push(
    '',
    `### Known deviations (${foldedCount(listed)})`,
    '',
    `Accepted for this agent version${report.run.expectations ? ` (${md(report.run.expectations)})` : ''}; they do not fail the run.`,
    '',
    '| check | what the agent does | why |',
    '|---|---|---|',
  );
  budget.left = BUDGET - out.join('\n').length;
  bounded(
    out,
    rows,
    budget,
    (_, shown) =>
      `\n${foldedCount(listed.slice(shown))} more known deviations are listed in report.html (this summary keeps under ${BUDGET / 1000} kB).`,
  );
}

/** expectations that matched no check and recorded exchanges no step asked for: both say the input is stale */
function staleLines(report: Report, out: string[]): void {
  const stale = report.staleExpectations ?? [];
  if (stale.length)
    out.push(
      '',
      `Stale known deviations (their check did not occur): ${stale.slice(0, 50).map(md).join(', ')}${stale.length > 50 ? `, and ${stale.length - 50} more` : ''}`,
    );
  if (report.unusedExchanges?.length)
    out.push('', `Unused recorded exchanges: ${report.unusedExchanges.length} (the recording is stale)`);
}

/** the scenarios table with the coverage line, folded away (the view lists scenarios needing attention first) */
function scenarioTable(view: RunView, out: string[]): void {
  if (!view.scenarios.length) return;
  const cov = view.coverage;
  const coverageLine = `Coverage: ${cov.covered} of ${cov.spec} spec endpoints covered${cov.notRun ? `, ${cov.notRun} not run (not selected)` : ''}${cov.notCovered ? `, **${cov.notCovered} not covered** by any scenario` : ''}.`;
  out.push(
    '',
    '<details><summary>Scenarios and coverage</summary>',
    '',
    coverageLine,
    '',
    `| scenario | verdict | ${VERDICTS.map((v) => VERDICT_LABEL[v]).join(' | ')} | time | endpoints |`,
    `|---|---|${'---:|'.repeat(VERDICTS.length + 1)}---|`,
  );
  for (const sv of view.scenarios) {
    const s = sv.scenario;
    out.push(
      `| ${md(s.id)} | **${VERDICT_LABEL[s.verdict]}** | ${VERDICTS.map((v) => sv.counts[v]).join(' | ')} | ${(s.durationMs / 1000).toFixed(1)} s | ${md(firstItems(s.spec, 200))} |`,
    );
  }
  out.push('', '</details>');
}

/** the summary; `view` is the run's view when the caller has it already */
export function toMarkdown(report: Report, view: RunView = viewOf(report)): string {
  const out = headLines(report, view);
  const budget = { left: BUDGET - out.join('\n').length };
  harnessErrorLines(view, out, budget);
  failureSection(view, out, budget);
  baselineLines(view, out, budget);
  stabilityLines(report, view, out, budget);
  deviationLines(report, view, out, budget);
  staleLines(report, out);
  budget.left = BUDGET - out.join('\n').length;
  undocumentedLines(view, out, budget);
  // the rest, for whoever wants it, folded away
  scenarioTable(view, out);
  statementLines(report, out);
  return out.join('\n') + '\n';
}

/** statement coverage, folded away: the line, then the counts by statement kind */
function statementLines(report: Report, out: string[]): void {
  const cov = report.statementCoverage;
  if (!cov) return;
  out.push(
    '',
    '<details><summary>Statement coverage</summary>',
    '',
    coverageLine(cov),
    '',
    `| kind | ${COVERAGE_STATES.join(' | ')} |`,
    `|---|${'---:|'.repeat(COVERAGE_STATES.length)}`,
    ...coverageByKind(cov).map((cells) => `| ${cells.join(' | ')} |`),
    '',
    '</details>',
  );
}
