// The statement index as a listing (`synconf spec`): one row per statement (id, kind, section, whether the tested
// agents can decide it and if not why), as text. Pure: rows in, text out. Coverage per agent version is meant to
// become more columns of the same rows (`coverage`, by column name), filled from reports by the command.
import type { Statement, StatementCounts, StatementCoverage, StatementKind } from '../schema/generated/types.js';
import { plural } from '../plural.js';

export type Checkability = 'checkable' | 'not checkable' | 'restates';

export interface StatementRow {
  id: string;
  kind: StatementKind;
  /** the heading path of its spec line */
  section: string[];
  line: number;
  checkable: Checkability;
  /** why it is not checkable */
  reason?: string;
  /** the statements it restates (covered by what covers them) */
  sameAs?: string[];
  /** by column name (e.g. an agent version): what is known of the statement there */
  coverage?: Record<string, string>;
}

export function statementRows(statements: Statement[]): StatementRow[] {
  return statements.map((s) => ({
    id: s.id,
    kind: s.kind,
    section: s.section,
    line: s.line,
    checkable: s.notCheckable ? 'not checkable' : s.sameAs ? 'restates' : 'checkable',
    ...(s.notCheckable ? { reason: s.notCheckable } : {}),
    ...(s.sameAs ? { sameAs: s.sameAs } : {}),
  }));
}

const SECTION_WIDTH = 40;
/** the deepest heading, which names the resource or endpoint, cut to the column */
const sectionCell = (section: string[]) => {
  const last = section[section.length - 1];
  return last.length > SECTION_WIDTH ? `${last.slice(0, SECTION_WIDTH - 1)}…` : last;
};
const checkableCell = (r: StatementRow) =>
  r.checkable === 'checkable' ? 'yes' : r.checkable === 'restates' ? `as ${r.sameAs!.join(', ')}` : `no: ${r.reason}`;

/** the rows as an aligned table (the `columns` of `coverage` before the last column), then the totals */
export function statementsText(rows: StatementRow[], columns: string[] = []): string {
  const table = [
    ['ID', 'KIND', 'SECTION', ...columns.map((c) => c.toUpperCase()), 'CHECKABLE'],
    ...rows.map((r) => [
      r.id,
      r.kind,
      sectionCell(r.section),
      ...columns.map((c) => r.coverage?.[c] ?? '-'),
      checkableCell(r),
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((cells) => cells[i].length)));
  const lines = table.map((cells) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]))).join('  '),
  );
  return [...lines, '', ...statementsSummary(rows)].join('\n') + '\n';
}

/** counts: in all, by kind, and the reasons for "not checkable" with the statements that give each (most first) */
export function statementsSummary(rows: StatementRow[]): string[] {
  const count = (c: Checkability) => rows.filter((r) => r.checkable === c).length;
  const byKind = new Map<string, number>();
  for (const r of rows) byKind.set(r.kind, (byKind.get(r.kind) ?? 0) + 1);
  const byReason = new Map<string, string[]>();
  for (const r of rows) if (r.reason) byReason.set(r.reason, [...(byReason.get(r.reason) ?? []), r.id]);
  const mostFirst = <T>(entries: [string, T][], size: (v: T) => number) =>
    entries.sort((a, b) => size(b[1]) - size(a[1]) || a[0].localeCompare(b[0]));
  return [
    `${plural(rows.length, 'statement')}: ${count('checkable')} checkable, ${count('not checkable')} not checkable, ${count('restates')} restating others`,
    `by kind: ${mostFirst([...byKind], (n) => n)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ')}`,
    ...(byReason.size ? ['not checkable, by reason:'] : []),
    ...mostFirst([...byReason], (ids) => ids.length).flatMap(([reason, ids]) => [
      `  ${String(ids.length).padStart(3)}  ${reason}`,
      `       ${ids.join(', ')}`,
    ]),
  ];
}

/** the counts of a statement coverage in the order reports show them */
export const COVERAGE_STATES = ['checked', 'passed', 'deviating', 'failing', 'not checked', 'not checkable'] as const;

/** one line: how many statements a run's checks prove, and what of the rest */
export function coverageLine(cov: StatementCoverage): string {
  const c = cov.counts;
  return `Statements of the spec: ${c.checked} of ${cov.index} checked (${c.passed} passed, ${c.deviating} deviating as known, ${c.failing} failing), ${c['not checked']} not checked, ${c['not checkable']} not checkable.`;
}

/** one row per statement kind (and "all"): the kind, then the counts in COVERAGE_STATES order */
export function coverageByKind(cov: StatementCoverage): string[][] {
  const row = (name: string, c: StatementCounts) => [name, ...COVERAGE_STATES.map((s) => String(c[s]))];
  return [...Object.entries(cov.byKind).map(([kind, c]) => row(kind, c)), row('all', cov.counts)];
}

/** one row per coverage state (checked, passed, …), one cell per column's counts ("-" where a column has none) */
export function coverageByColumn(columns: (StatementCounts | undefined)[]): string[][] {
  return COVERAGE_STATES.map((state) => [state, ...columns.map((c) => (c ? String(c[state]) : '-'))]);
}
