// The version matrix as Markdown (a GitHub job summary): the answer first — per pair of versions the causes by
// level and the top ones, per version its verdict — then each pair's causes one line each (compatible collapsed),
// then the checks that changed grouped by class, collapsed (unchanged rows only counted; matrix.json has all).
import type { Matrix, MatrixCause, MatrixPair, MatrixRow } from '../schema/generated/types.js';
import { escapeMarkdown as md } from './text.js';
import { VERDICT_LABEL, runStatus } from '../verdict/verdicts.js';
import { checksLine, pairChecksLine, pairName, topCauses, urgent } from './matrix-causes-text.js';
import { TOP_CAUSES } from './matrix-ship.js';
import { CHANGE_CLASSES, CHANGE_HEADING, CHANGE_LABEL, CHANGE_MEANING } from '../verdict/change-class.js';
import { coverageByColumn } from './statements.js';
import { boundariesMarkdown } from './matrix-boundaries.js';
import { rowCount } from './matrix-json.js';

/** rows shown per class; the rest are counted (matrix.json and matrix.html have every row) */
const ROWS_PER_CLASS = 60;

/** undocumented members that not every run has (a version started or stopped sending them); the others counted */
function undocumentedSection(m: Matrix): string[] {
  const all = m.undocumented ?? [];
  const differ = all.filter((u) => u.columns.length < m.columns.length);
  if (!all.length) return [];
  const out = ['', `### Undocumented members (${all.length}; ${differ.length} not in every version)`, ''];
  if (differ.length) {
    out.push(
      `| endpoint | member | ${m.order.map((i) => md(m.columns[i].label)).join(' | ')} |`,
      `|---|---|${'---|'.repeat(m.order.length)}`,
    );
    for (const u of differ.slice(0, ROWS_PER_CLASS))
      out.push(
        `| ${md(u.endpoint)} | ${md(u.member)} | ${m.order.map((i) => (u.columns.includes(i) ? 'sent' : '–')).join(' | ')} |`,
      );
    if (differ.length > ROWS_PER_CLASS)
      out.push('', `…and ${differ.length - ROWS_PER_CLASS} more (matrix.json and matrix.html list them all).`);
    out.push('');
  }
  const same = all.length - differ.length;
  out.push(`${same} undocumented member${same === 1 ? ' is' : 's are'} sent by every version.`);
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

/** the answer first: per pair the causes by level and the top ones, per version its verdict */
function shipTables(m: Matrix): string[] {
  const answer = (p: MatrixPair) =>
    p.counts.breaking
      ? `**breaks clients** of ${md(m.columns[p.from].label)}`
      : p.counts.risky
        ? '**may affect clients**'
        : 'compatible';
  const tops = (p: MatrixPair) =>
    topCauses(p, TOP_CAUSES)
      .map((c) => `${c.cause.level} ${causeText(c)} (${checksLine(c)})`)
      .join('<br>') || 'no breaking or risky cause';
  return [
    '| versions | for clients of the older | breaking | risky | compatible | accepted | top causes |',
    '|---|---|---:|---:|---:|---:|---|',
    ...(m.pairs ?? []).map(
      (p) =>
        `| ${md(pairName(m, p))} | ${answer(p)} | ${p.counts.breaking} | ${p.counts.risky} | ${p.counts.compatible} | ${p.counts.accepted} | ${tops(p)} |`,
    ),
    '',
    '| version | verdict | failures | listed deviations | unexpected passes | skipped | passing | run |',
    '|---|---|---:|---:|---:|---:|---:|---|',
    ...m.order
      .map((i) => m.columns[i])
      .map(
        (c) =>
          `| ${md(c.label)} | ${runStatus(c.exitCode)} (exit ${c.exitCode}) | ${c.totals.fail} | ${c.totals['expected-fail']} | ${c.totals['unexpected-pass']} | ${c.totals.skip} | ${c.totals.pass} | ${md(c.mode)} |`,
      ),
  ];
}

/** each pair's causes one line each: breaking and risky listed, compatible and accepted collapsed */
function causeLists(m: Matrix): string[] {
  const line = (c: MatrixCause) =>
    `- **${c.cause.accepted ? 'accepted' : c.cause.level}** ${causeText(c)} — ${c.cause.occurrences} difference${c.cause.occurrences === 1 ? '' : 's'}; ${checksLine(c)}.`;
  return (m.pairs ?? []).flatMap((p) => {
    const rest = p.causes.filter((c) => !urgent(c));
    return [
      '',
      `### Causes ${md(pairName(m, p))} (${p.causes.length}; checks changed: ${pairChecksLine(p)})`,
      '',
      ...p.causes.filter(urgent).map(line),
      ...(rest.length
        ? [
            '',
            `<details><summary>${rest.length} compatible or accepted causes</summary>`,
            '',
            ...rest.map(line),
            '',
            '</details>',
          ]
        : []),
    ];
  });
}

/** statement coverage by version, folded away: how many statements of the spec each run's checks prove */
function statementLines(m: Matrix): string[] {
  const counts = m.order.map((i) => m.columns[i].statements);
  if (counts.every((c) => c === undefined)) return [];
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

export function matrixToMarkdown(m: Matrix): string {
  const byClass = CHANGE_CLASSES.map((c) => `${CHANGE_LABEL[c]}: ${m.classes[c]}`).join(', ');
  const out = [
    '## synconf version matrix',
    '',
    m.changed
      ? `**${m.changed}** of ${rowCount(m)} checks changed across ${m.columns.length} versions: ${byClass}.`
      : `No verdict differs across ${m.columns.length} runs (${rowCount(m)} checks).`,
    '',
    ...shipTables(m),
    ...causeLists(m),
    ...boundariesMarkdown(m),
    ...statementLines(m),
    '',
    '<details><summary>Changed checks by class</summary>',
  ];
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
    for (const r of rows.slice(0, ROWS_PER_CLASS)) out.push(`| ${md(r.id)} | ${md(verdicts(r))} | ${md(why(r))} |`);
    if (rows.length > ROWS_PER_CLASS)
      out.push('', `…and ${rows.length - ROWS_PER_CLASS} more (matrix.json and matrix.html list them all).`);
  }
  out.push(
    '',
    '</details>',
    '',
    `${m.rows.length - m.changed} checks have the same verdict in every run that has them.`,
  );
  out.push(...undocumentedSection(m));
  return out.join('\n') + '\n';
}
