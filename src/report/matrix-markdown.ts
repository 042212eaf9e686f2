// The version matrix as Markdown (a GitHub job summary): the answer first — the worst in the heading, and apart from
// it the conformance of the versions — then the ship table, a row a pair, worst first: what the newer version does to
// clients of the older in words, the causes by level, the most urgent cause and the next ones folded; per version its
// verdict; then each pair's causes one line each (compatible collapsed), then the checks that changed grouped by
// class, collapsed (unchanged rows only counted; matrix.json has all). The ship table starts on the same line
// whatever the number of pairs. Within SUMMARY_BOUND whatever the number of versions: detail is left out level by
// level (compatible causes first) and said so.
import type { Matrix, MatrixCause, MatrixPair, MatrixRow } from '../schema/generated/types.js';
import { escapeMarkdown as md } from './text.js';
import { VERDICT_LABEL, runStatus } from '../verdict/verdicts.js';
import {
  checksLine,
  checksShort,
  listedNote,
  pairChecksLine,
  pairName,
  topCauses,
  urgent,
} from './matrix-causes-text.js';
import { TOP_CAUSES } from './matrix-ship.js';
import { CHANGE_CLASSES, CHANGE_HEADING, CHANGE_LABEL, CHANGE_MEANING } from '../verdict/change-class.js';
import { coverageByColumn } from './statements.js';
import { boundariesMarkdown } from './matrix-boundaries.js';
import { rowCount } from './matrix-json.js';
import { Budget, SUMMARY_BOUND, SUMMARY_BOUND_TEXT, linesBytes, within } from './bound.js';
import { RELATION, conformance, headline, pairAnswer, pairGrounds, pairsByAnswer } from './matrix-verdict.js';
import { plural, wordFor } from '../plural.js';

/** how much matrix.md shows; each level of DETAIL shows less than the one before */
interface Detail {
  /** compatible and accepted causes listed (else counted) */
  compatible: boolean;
  /** breaking and risky causes listed per pair (the rest counted) */
  urgent: number;
  /** rows shown per class of changed checks, and undocumented members */
  rows: number;
  /** the version boundaries' table and the statement coverage */
  tables: boolean;
  /** each pair's causes (else one line says where they are) */
  causes: boolean;
}

/** the levels of detail, tried in turn until the text fits: compatible causes go first, the answer never */
const DETAIL: Detail[] = [
  { compatible: true, urgent: Infinity, rows: 60, tables: true, causes: true },
  { compatible: false, urgent: Infinity, rows: 60, tables: true, causes: true },
  { compatible: false, urgent: Infinity, rows: 10, tables: true, causes: true },
  { compatible: false, urgent: Infinity, rows: 0, tables: false, causes: true },
  { compatible: false, urgent: TOP_CAUSES, rows: 0, tables: false, causes: true },
  { compatible: false, urgent: 0, rows: 0, tables: false, causes: false },
];

/** the line that says what was left out of matrix.md and where it is */
const leftOut = (what: string, where = 'matrix.json') =>
  `${what} left out to keep this summary within ${SUMMARY_BOUND_TEXT}: see ${where}.`;

/** undocumented members that not every run has (a version started or stopped sending them); the others counted */
function undocumentedSection(m: Matrix, detail: Detail): string[] {
  const all = m.undocumented ?? [];
  const differ = all.filter((u) => u.columns.length < m.columns.length);
  if (!all.length) return [];
  const out = ['', `### Undocumented members (${all.length}; ${differ.length} not in every version)`, ''];
  const shown = differ.slice(0, detail.rows);
  if (shown.length) {
    out.push(
      `| endpoint | member | ${m.order.map((i) => md(m.columns[i].label)).join(' | ')} |`,
      `|---|---|${'---|'.repeat(m.order.length)}`,
    );
    for (const u of shown)
      out.push(
        `| ${md(u.endpoint)} | ${md(u.member)} | ${m.order.map((i) => (u.columns.includes(i) ? 'sent' : '–')).join(' | ')} |`,
      );
    out.push('');
  }
  if (differ.length > shown.length)
    out.push(`…and ${differ.length - shown.length} more (matrix.json and matrix.html list them all).`, '');
  const same = all.length - differ.length;
  out.push(`${plural(same, 'undocumented member')} ${wordFor(same, 'is', 'are')} sent by every version.`);
  return out;
}

/** a cause in one line: rule, first endpoint (and how many more), where, what changed */
function causeText(c: MatrixCause): string {
  const k = c.cause;
  const more = k.endpoints.length > 1 ? ` (+${k.endpoints.length - 1})` : '';
  const where = k.at?.[0] ?? k.pointer;
  const members = k.members ? `: ${k.members.slice(0, 4).join(', ')}${k.members.length > 4 ? ', …' : ''}` : '';
  return `\`${k.rule}\` ${md(k.endpoints[0])}${more}${where ? ` ${md(where)}` : ''}: ${md(k.change)}${md(members)}`;
}

/** beside a cause that is also a listed known deviation of the newer version */
function listed(m: Matrix, p: MatrixPair, c: MatrixCause): string {
  const note = listedNote(m, p, c);
  return note ? ` **(${md(note)})**` : '';
}

/** the answer first: the worst in the heading, then the conformance (each pair's answer is its row of the table) */
function answerLines(m: Matrix): string[] {
  return [
    // with one pair, its row is the answer: the heading does not say it twice
    `## synconf version matrix${m.pairs?.length === 1 ? '' : `: ${md(headline(m))}`}`,
    '',
    `**Against the spec**: ${md(conformance(m))}. _${RELATION}_`,
  ];
}

/** the pair's most urgent cause, then the next top ones folded in the cell (a toggle on the line of what it opens) */
function topCell(m: Matrix, p: MatrixPair): string {
  const line = (c: MatrixCause) => `${c.cause.level} ${causeText(c)}${listed(m, p, c)} (${checksShort(c)})`;
  const [first, ...others] = topCauses(p, TOP_CAUSES);
  if (!first) return 'no breaking or risky cause';
  if (!others.length) return line(first);
  return `${line(first)}<details><summary>+${others.length} more</summary>${others.map(line).join('<br>')}</details>`;
}

/**
 * The ship table, a row a pair, worst answer first (cut down, the least urgent pairs are the ones counted): the
 * answer in the banner's words (src/report/matrix-verdict.ts), the causes by level, the top causes; then per version
 * its verdict; rows while they fit in `budget`.
 */
function shipTables(m: Matrix, budget: Budget): string[] {
  const pairRow = (p: MatrixPair) =>
    `| ${md(pairName(m, p))} | **${md(pairAnswer(m, p))}**: ${md(pairGrounds(p))} | ${p.counts.breaking} | ${p.counts.risky} | ${p.counts.compatible} | ${p.counts.accepted} | ${topCell(m, p)} |`;
  const versionRow = (i: number) => {
    const c = m.columns[i];
    return `| ${md(c.label)} | ${runStatus(c.exitCode)} (exit ${c.exitCode}) | ${c.totals.fail} | ${c.totals['expected-fail']} | ${c.totals['unexpected-pass']} | ${c.totals.skip} | ${c.totals.pass} | ${md(c.mode)} |`;
  };
  const rest = (what: string) => (n: number) => `\n${leftOut(plural(n, what))}`;
  return [
    '| versions | answer | breaking | risky | compatible | accepted | most urgent cause |',
    '|---|---|---:|---:|---:|---:|---|',
    ...within(pairsByAnswer(m), pairRow, budget, rest('more pair')),
    '',
    '| version | verdict | failures | listed deviations | unexpected passes | skipped | passing | run |',
    '|---|---|---:|---:|---:|---:|---:|---|',
    ...within(m.order, versionRow, budget, rest('more version')),
  ];
}

/** one pair's causes one line each: breaking and risky listed, compatible and accepted collapsed, as detail allows */
function pairCauses(m: Matrix, p: MatrixPair, detail: Detail): string[] {
  const line = (c: MatrixCause) =>
    `- **${c.cause.accepted ? 'accepted' : c.cause.level}** ${causeText(c)} — ${plural(c.cause.occurrences, 'difference')}; ${checksLine(c)}${listed(m, p, c)}.`;
  // in the order of urgency as matrix.html lists them; cut down, the pair's top causes as the ship table names them
  const shown = detail.urgent === Infinity ? p.causes.filter(urgent) : topCauses(p, detail.urgent);
  const urgentLeft = p.causes.filter(urgent).length - shown.length;
  const rest = p.causes.filter((c) => !urgent(c));
  const collapsed = detail.compatible
    ? [
        '',
        `<details><summary>${rest.length} compatible or accepted causes</summary>`,
        '',
        ...rest.map(line),
        '',
        '</details>',
      ]
    : ['', leftOut(plural(rest.length, 'compatible or accepted cause'))];
  return [
    '',
    `### Causes ${md(pairName(m, p))} (${p.causes.length}; checks changed: ${pairChecksLine(p)})`,
    '',
    ...shown.map(line),
    ...(urgentLeft ? ['', leftOut(plural(urgentLeft, 'more breaking or risky cause'))] : []),
    ...(rest.length ? collapsed : []),
  ];
}

/** statement coverage by version, folded away: how many statements of the spec each run's checks prove */
function statementLines(m: Matrix, detail: Detail): string[] {
  const counts = m.order.map((i) => m.columns[i].statements);
  if (counts.every((c) => c === undefined)) return [];
  if (!detail.tables) return ['', leftOut('The statement coverage by version is', 'matrix.json and matrix.html')];
  return [
    '',
    '<details><summary>Statement coverage by version</summary>',
    '',
    `| statements | ${m.order.map((i) => md(m.columns[i].label)).join(' | ')} |`,
    `|---|${'---:|'.repeat(m.order.length)}`,
    ...coverageByColumn(counts).map((cells) => `| ${cells.join(' | ')} |`),
    '',
    '</details>',
  ];
}

/** the version boundaries: the disagreements always (they are findings), the table as detail allows */
function boundaryLines(m: Matrix, detail: Detail): string[] {
  const lines = boundariesMarkdown(m);
  if (detail.tables || !lines.length) return lines;
  const table = lines.findIndex((l) => l.startsWith('<details>'));
  return [...lines.slice(0, table), leftOut('The table of version statements is', 'matrix.json and matrix.html')];
}

/** the changed checks by class, collapsed, as many rows per class as detail allows */
function changedChecks(m: Matrix, detail: Detail): string[] {
  if (!detail.rows && m.changed)
    return ['', leftOut(`The ${plural(m.changed, 'changed check')} by class are`, 'matrix.json and matrix.html')];
  const out = ['', '<details><summary>Changed checks by class</summary>'];
  const verdicts = (r: MatrixRow) =>
    m.order.map((i) => (r.cells[i] === null ? 'not run' : VERDICT_LABEL[r.cells[i]!])).join(' → ');
  const why = (r: MatrixRow) =>
    r.changes.map((c) => `${m.columns[c.from].label} → ${m.columns[c.to].label}: ${c.note}`).join('; ');
  for (const cls of CHANGE_CLASSES) {
    const rows = m.rows.filter((r) => r.class === cls);
    if (!rows.length) continue;
    out.push(
      '',
      `### ${CHANGE_HEADING[cls]} (${rows.length})`,
      '',
      `_${CHANGE_MEANING[cls]}_`,
      '',
      `| check | ${m.order.map((i) => md(m.columns[i].label)).join(' → ')} | why |`,
      '|---|---|---|',
    );
    for (const r of rows.slice(0, detail.rows)) out.push(`| ${md(r.id)} | ${md(verdicts(r))} | ${md(why(r))} |`);
    if (rows.length > detail.rows)
      out.push('', `…and ${rows.length - detail.rows} more (matrix.json and matrix.html list them all).`);
  }
  return [...out, '', '</details>'];
}

/** matrix.md at one level of detail; the ship tables' rows within `budget` */
function render(m: Matrix, detail: Detail, budget: Budget): string[] {
  const byClass = CHANGE_CLASSES.map((c) => `${CHANGE_LABEL[c]}: ${m.classes[c]}`).join(', ');
  const trimmed = detail !== DETAIL[0];
  return [
    ...answerLines(m),
    '',
    ...shipTables(m, budget),
    '',
    m.changed
      ? `**${m.changed}** of ${rowCount(m)} checks changed across ${m.columns.length} versions: ${byClass}.`
      : `No verdict differs across ${m.columns.length} runs (${rowCount(m)} checks).`,
    ...(trimmed
      ? [
          '',
          `_Detail is left out below to keep this summary within ${SUMMARY_BOUND_TEXT}; matrix.json has everything._`,
        ]
      : []),
    ...(detail.causes
      ? (m.pairs ?? []).flatMap((p) => pairCauses(m, p, detail))
      : ['', leftOut("Each pair's causes are")]),
    ...boundaryLines(m, detail),
    ...statementLines(m, detail),
    ...changedChecks(m, detail),
    '',
    `${m.rows.length - m.changed} checks have the same verdict in every run that has them.`,
    ...undocumentedSection(m, detail),
  ];
}

/** the ship tables' rows in as many bytes as the bound leaves at the least detail (many versions: a long table) */
function leastDetail(m: Matrix): string[] {
  const least = DETAIL[DETAIL.length - 1];
  const without = linesBytes(render(m, least, new Budget(0)));
  // what the table's left-out lines take, and the rows' newlines
  const reserve = 1024 + (m.pairs?.length ?? 0) + m.order.length;
  return render(m, least, new Budget(Math.max(0, SUMMARY_BOUND - without - reserve)));
}

export function matrixToMarkdown(m: Matrix): string {
  for (const detail of DETAIL) {
    const out = render(m, detail, new Budget(Infinity));
    if (linesBytes(out) <= SUMMARY_BOUND) return out.join('\n') + '\n';
  }
  return leastDetail(m).join('\n') + '\n';
}
