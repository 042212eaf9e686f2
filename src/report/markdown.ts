// report.json as a Markdown summary (summary.md, the GitHub job summary, a pull-request comment):
// the verdict line, the listed known deviations in a line (how many, where), the failures with
// their evidence in a few lines each, the comparison with a baseline, flaky checks, the known
// deviations as one table (checks that deviate alike, what the agent does, why), and the scenarios
// and coverage in a collapsed <details>. It renders the run's view (view.ts). Within SUMMARY_BOUND
// bytes; text is never cut mid-sentence: a long list is shortened by dropping rows, and says how many.
import type { Report } from '../schema/generated/types.js';
import { escapeMarkdown as md, platform, noteLine } from './text.js';
import { VERDICTS, VERDICT_LABEL } from '../verdict/verdicts.js';
import {
  BASELINE_CLASS_LABEL,
  type CheckView,
  type DeviationRow,
  type RunView,
  type ScenarioView,
  viewOf,
} from './view.js';
import { COVERAGE_STATES, coverageByKind, coverageLine } from './statements.js';
import { foldedCount, moreLine } from './fold.js';
import { SUMMARY_BOUND, SUMMARY_BOUND_TEXT, linesBytes } from './bound.js';
import { plural } from '../plural.js';

/**
 * Bytes of the bound kept for what the lists do not count: the headings of sections after a full one and their
 * "… and N more" lines.
 */
const RESERVE = 4096;
/** what is left of the bound for the lists, given the lines so far */
type Room = (out: string[]) => number;
/** endpoints named in the line on the known deviations at the top; the table has them all */
const KNOWN_INDEX = 30;
/** scenario rows of the folded table: a third of the bound at most */
const SCENARIO_ROOM = SUMMARY_BOUND / 3;
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

/** lines appended while they fit in `left` bytes; the rest counted in `more` */
function bounded(out: string[], items: string[][], left: number, more: (n: number, shown: number) => string): void {
  let shown = 0;
  for (const lines of items) {
    const size = linesBytes(lines);
    if (size > left) break;
    out.push(...lines);
    left -= size;
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

function baselineLines(view: RunView, out: string[], room: Room): void {
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
      room(out),
      (n) => `- … and ${n} more (report.html)`,
    );
  }
}

/** the undocumented members of the run's responses, one line each, while they fit */
function undocumentedLines(view: RunView, out: string[], room: Room): void {
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
    room(out),
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
function harnessErrorLines(view: RunView, out: string[], room: Room): void {
  if (!view.harnessErrors.length) return;
  out.push('', `### Harness errors (${foldedCount(view.harnessErrors)})`, '');
  bounded(
    out,
    view.harnessErrors.map(({ item: e, more }) => {
      const where = [e.file, e.scenario, e.step].filter(Boolean).join(' ');
      return [`- ${where ? `${md(where)}: ` : ''}${cell(e.message)}`, ...(more ? [`  ${moreLine(more)}`] : [])];
    }),
    room(out),
    (_, shown) => `- … and ${foldedCount(view.harnessErrors.slice(shown))} more (report.html)`,
  );
}

/** the failures, within a third of the bound so that the rest of the summary still shows */
function failureSection(view: RunView, out: string[], room: Room): void {
  if (!view.problems.length) return;
  out.push('', `### Failures (${foldedCount(view.problems)})`, '');
  bounded(
    out,
    view.problems.map(failureLines),
    Math.min(room(out), SUMMARY_BOUND / 3),
    (_, shown) => `- … and ${foldedCount(view.problems.slice(shown))} more failures (report.html)`,
  );
}

/** --repeat: how many checks gave the same verdict in every run, and the flaky ones */
function stabilityLines(report: Report, view: RunView, out: string[], room: Room): void {
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
    room(out),
    (n) => `- … and ${n} more (report.html)`,
  );
}

/**
 * The known deviations of this agent version, one table row for the checks that deviate alike (what the agent does
 * and why said once), while they fit.
 */
function deviationLines(report: Report, view: RunView, out: string[], room: Room): void {
  if (!view.deviations.length) return;
  const rows = view.deviations.flatMap((g) => g.rows);
  const ids = (r: DeviationRow) =>
    r.checks.map((c) => `${md(c.check.id)}${c.more ? ` (${moreLine(c.more)})` : ''}`).join(', ');
  out.push(
    '',
    `### Known deviations (${view.deviations.reduce((n, g) => n + g.count, 0)})`,
    '',
    `Accepted for this agent version${report.run.expectations ? ` (${md(report.run.expectations)})` : ''}; they do not fail the run.`,
    '',
    '| checks | what the agent does | why |',
    '|---|---|---|',
  );
  bounded(
    out,
    rows.map((r) => [`| ${ids(r)} | ${cell(r.observed)} | ${cell(r.reason)} |`]),
    room(out),
    (_, shown) =>
      `\n${rows.slice(shown).reduce((n, r) => n + foldedCount(r.checks), 0)} more known deviations are listed in report.html (this summary keeps within ${SUMMARY_BOUND_TEXT}).`,
  );
}

/**
 * The known deviations at the top, by endpoint, most first: a run that conforms must not hide them below the fold.
 * One run cannot know whether a deviation breaks a client of another version; the matrix does, and the line says so.
 */
function knownLines(view: RunView): string[] {
  const n = view.report.totals['expected-fail'];
  if (!n) return [];
  const groups = [...view.deviations].sort((a, b) => b.count - a.count);
  const named = groups.slice(0, KNOWN_INDEX).map((g) => `${md(g.endpoint)} ${g.count}`);
  const more = groups.length > KNOWN_INDEX ? ` and ${groups.length - KNOWN_INDEX} more endpoints` : '';
  return [
    '',
    `**${plural(n, 'listed known deviation')}** on ${plural(groups.length, 'endpoint')}, accepted for this version: they do not fail the run, but one can still break a client of another version (synconf matrix says which). Most first: ${named.join(', ')}${more}.`,
  ];
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
  // a proxy session's "scenarios" are the endpoints the client called: it covers nothing, it calls or does not
  const coverageLine =
    view.report.run.mode === 'proxy'
      ? `Coverage: the client called ${cov.covered} of ${cov.spec} spec endpoints${cov.notCovered ? `; ${cov.notCovered} not called in this session` : ''}.`
      : `Coverage: ${cov.covered} of ${cov.spec} spec endpoints covered${cov.notRun ? `, ${cov.notRun} not run (not selected)` : ''}${cov.notCovered ? `, **${cov.notCovered} not covered** by any scenario` : ''}.`;
  out.push(
    '',
    '<details><summary>Scenarios and coverage</summary>',
    '',
    coverageLine,
    '',
    `| scenario | verdict | ${VERDICTS.map((v) => VERDICT_LABEL[v]).join(' | ')} | time | endpoints |`,
    `|---|---|${'---:|'.repeat(VERDICTS.length + 1)}---|`,
  );
  const row = (sv: ScenarioView) => {
    const s = sv.scenario;
    return [
      `| ${md(s.id)} | **${VERDICT_LABEL[s.verdict]}** | ${VERDICTS.map((v) => sv.counts[v]).join(' | ')} | ${(s.durationMs / 1000).toFixed(1)} s | ${md(firstItems(s.spec, 200))} |`,
    ];
  };
  bounded(out, view.scenarios.map(row), SCENARIO_ROOM, (n) => `\n… and ${n} more scenarios (report.html).`);
  out.push('', '</details>');
}

/**
 * The summary, within SUMMARY_BOUND bytes: the folded tail (scenarios, statement coverage) is made first and its
 * bytes kept aside, then each list takes what is left; `view` is the run's view when the caller has it already.
 */
export function toMarkdown(report: Report, view: RunView = viewOf(report)): string {
  const out = [...headLines(report, view), ...knownLines(view)];
  // the rest, for whoever wants it, folded away
  const tail: string[] = [];
  scenarioTable(view, tail);
  statementLines(report, tail);
  const stale: string[] = [];
  staleLines(report, stale);
  const aside = linesBytes(tail) + linesBytes(stale);
  const room: Room = (lines) => SUMMARY_BOUND - RESERVE - aside - linesBytes(lines);
  harnessErrorLines(view, out, room);
  failureSection(view, out, room);
  baselineLines(view, out, room);
  stabilityLines(report, view, out, room);
  deviationLines(report, view, out, room);
  out.push(...stale);
  undocumentedLines(view, out, (lines) => room(lines) + linesBytes(stale));
  return [...out, ...tail].join('\n') + '\n';
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
