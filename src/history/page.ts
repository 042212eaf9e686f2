// The history of the suite across releases (synconf history): the version matrix of the releases that ran, read as
// "what changed, in which release". Every release of the release table between the oldest column and the newest that
// did not run is a hole, with why; every pair of neighbouring columns that differs is a change, with the causes the
// matrix found for it (src/changes/ through the matrix's pairs, not found again here) and a bisect hint: the
// release itself when the two are neighbouring releases, else the releases between that `synconf bisect` can probe,
// or the holes no install can fill. Pure: a matrix and what is known of the releases in, the document out.
import semver from 'semver';
import type {
  History,
  HistoryBisectHint,
  HistoryChange,
  HistoryRow,
  Matrix,
  MatrixPair,
  Verdict,
} from '../schema/generated/types.js';
import { causeLine } from '../report/causes-text.js';
import { isListedDeviation, topCauses, urgent } from '../report/matrix-causes-text.js';
import { runStatus, VERDICTS } from '../verdict/verdicts.js';

/** a release that did not run: why, and whether an install could fill it (then `synconf bisect` can probe it) */
export interface Hole {
  why: string;
  obtainable: boolean;
}

export interface HistoryInput {
  /** the matrix of the columns, oldest first */
  matrix: Matrix;
  /** per matrix column: its release, whether its results came from the cache, its report folder (relative) */
  columns: { version: string; cached: boolean; report: string }[];
  /** every release of the release table, oldest first */
  releases: string[];
  /** why a release of the table that is not a column did not run */
  holeOf: (version: string) => Hole;
  mode: History['mode'];
  suite: History['suite'];
  /** the matrix file beside the history */
  matrixFile: string;
}

/** causes kept whole in a change (matrix.json has them all), checks named per cause */
const CAUSES_KEPT = 10;
const CHECKS_NAMED = 5;

const between = (versions: string[], a: string, b: string) =>
  versions.filter((v) => semver.valid(v) && semver.gt(v, a) && semver.lt(v, b));

/** the releases from the oldest column to the newest: the table's, and the columns it does not list */
function spanOf(input: HistoryInput): History['releases'] {
  const cols = input.columns.map((c) => c.version);
  const [oldest, newest] = [cols[0], cols.at(-1)!];
  const inSpan = input.releases.filter((v) => semver.gte(v, oldest) && semver.lte(v, newest));
  const all = [...new Set([...inSpan, ...cols])].sort(semver.compare);
  return all.map((version) => {
    const column = cols.indexOf(version);
    if (column < 0) return { version, state: 'hole', why: input.holeOf(version).why };
    return { version, state: input.columns[column].cached ? 'cached' : 'ran', column };
  });
}

/** the check `synconf bisect --check` takes: one the most urgent cause explains, else the first that changed */
function checkToBisect(m: Matrix, p: MatrixPair): string | undefined {
  const explained = [...topCauses(p, p.causes.length), ...p.causes].find((c) => c.checks.length)?.checks[0].id;
  return explained ?? m.rows.find((r) => r.changes.some((c) => c.from === p.from && c.to === p.to))?.id;
}

/** a list of releases in a line: all of a few, the ends of many */
const releasesPhrase = (vs: string[]) => (vs.length <= 4 ? vs.join(', ') : `${vs[0]}, ${vs[1]} … ${vs.at(-1)}`);

/** where the change is: the release itself, a search `synconf bisect` can make, or holes it cannot fill */
function bisectHint(input: HistoryInput, p: MatrixPair, from: string, to: string): HistoryBisectHint {
  const inTable = between(input.releases, from, to);
  if (inTable.length === 0)
    return { kind: 'first', text: `first in ${to} (last before: ${from}): neighbouring releases` };
  const obtainable = inTable.filter((v) => input.holeOf(v).obtainable);
  if (obtainable.length === 0)
    return {
      kind: 'cannot-narrow',
      text: `between ${from} and ${to}, no release between can be run: ${inTable.map((v) => `${v} ${input.holeOf(v).why}`).join('; ')}`,
    };
  const check = checkToBisect(input.matrix, p);
  const text = `in ${to} or one of ${obtainable.length} obtainable releases between (${releasesPhrase(obtainable)})`;
  if (!check) return { kind: 'search', text: `${text}; no check changed verdict: compare them with synconf drift` };
  return {
    kind: 'search',
    text: `${text}: synconf bisect finds which`,
    command: `synconf bisect --check '${check.replace(/'/g, `'\\''`)}' --from ${from} --to ${to}`,
  };
}

/** a pair of neighbouring columns as a change, or nothing when nothing differs */
function changeOf(input: HistoryInput, p: MatrixPair): HistoryChange | undefined {
  const m = input.matrix;
  const checks = Object.values(p.checks).reduce((a, b) => a + b, 0);
  if (p.answer !== 'cannot-tell' && p.causes.length === 0 && checks === 0) return undefined;
  const [from, to] = [input.columns[p.from].version, input.columns[p.to].version];
  const ordered = [...topCauses(p, CAUSES_KEPT), ...p.causes.filter((c) => !urgent(c))].slice(0, CAUSES_KEPT);
  return {
    from,
    to,
    answer: p.answer,
    ...(p.reason ? { reason: p.reason } : {}),
    counts: p.counts,
    checks,
    holes: between(
      input.releases.filter((v) => !input.columns.some((c) => c.version === v)),
      from,
      to,
    ).map((version) => ({ version, why: input.holeOf(version).why })),
    bisect: bisectHint(input, p, from, to),
    causes: ordered.map((c) => ({
      level: c.cause.level,
      rule: c.cause.rule,
      line: causeLine(c.cause),
      listed: isListedDeviation(m, p, c),
      ...(c.cause.accepted ? { accepted: true } : {}),
      checks: c.checks.slice(0, CHECKS_NAMED).map((x) => x.id),
    })),
    moreCauses: p.causes.length - ordered.length,
  };
}

/** "<scenario>/<step>" of a check id */
const groupOf = (checkId: string) => checkId.split('/').slice(0, 2).join('/');

/** a check group's cell: its worst verdict, with how many of its checks have it when not all do */
function groupCell(verdicts: Verdict[]): string | null {
  if (verdicts.length === 0) return null;
  const worst = VERDICTS.find((v) => verdicts.includes(v))!;
  const n = verdicts.filter((v) => v === worst).length;
  return n === verdicts.length ? worst : `${worst} ${n}/${verdicts.length}`;
}

/** the releases where a row differs from the column before (by a signature per column) */
const changedIn = (signatures: string[], versions: string[]) =>
  versions.filter((_, i) => i > 0 && signatures[i] !== signatures[i - 1]);

/** a row per check group (<scenario>/<step>) and per version statement of the spec */
function rowsOf(input: HistoryInput): HistoryRow[] {
  const m = input.matrix;
  const versions = input.columns.map((c) => c.version);
  const groups = new Map<string, typeof m.rows>();
  for (const r of m.rows) groups.set(groupOf(r.id), [...(groups.get(groupOf(r.id)) ?? []), r]);
  const checkRows: HistoryRow[] = [...groups].map(([id, rows]) => {
    const sorted = [...rows].sort((a, b) => a.id.localeCompare(b.id));
    const signatures = versions.map((_, i) => sorted.map((r) => `${r.id}=${r.cells[i]}`).join('\n'));
    const cells = versions.map((_, i) => groupCell(rows.flatMap((r) => r.cells[i] ?? [])));
    return { id, kind: 'checks', cells, changedIn: changedIn(signatures, versions) };
  });
  const statementRows: HistoryRow[] = (m.boundaries ?? []).map((b) => {
    const cells = b.cells.map((c) => c.observed);
    return { id: b.statement, kind: 'statement', title: b.quote, cells, changedIn: changedIn(cells, versions) };
  });
  const firstChange = (r: HistoryRow) => (r.changedIn.length ? versions.indexOf(r.changedIn[0]) : versions.length);
  return [...checkRows, ...statementRows].sort((a, b) => firstChange(a) - firstChange(b));
}

/** the history of the matrix's columns */
export function historyOf(input: HistoryInput): History {
  const m = input.matrix;
  return {
    format: 'synconf-history/1',
    mode: input.mode,
    suite: input.suite,
    releases: spanOf(input),
    columns: input.columns.map((c, i) => ({
      version: c.version,
      cached: c.cached,
      exitCode: m.columns[i].exitCode,
      verdict: `${runStatus(m.columns[i].exitCode)} (exit ${m.columns[i].exitCode})`,
      report: c.report,
    })),
    changes: (m.pairs ?? []).flatMap((p) => changeOf(input, p) ?? []),
    rows: rowsOf(input),
    matrix: input.matrixFile,
  };
}
