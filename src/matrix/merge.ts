// Several runs (agent versions, platforms) side by side: one row per check id, one column per
// run. A row whose verdict differs between runs is `changed`, and each change is classified
// (regression, fixed, version change, known, other: src/matrix/classify.ts): that is where a release moved.
import type { Report, Matrix, MatrixColumn, MatrixRow, Statement } from '../schema/generated/types.js';
import { platform } from '../report/text.js';
import { isVersion, versionLabel } from '../schema/version.js';
import { cellOf, classifyRow, rowClass, versionOrder, type Cell } from './classify.js';
import { CHANGE_CLASSES } from '../verdict/change-class.js';
import type { GateIndex } from './gates.js';
import { pairSteps, type PairOptions } from './causes.js';
import { drained, pacedDrain, type Pace } from '../turns.js';
import type { Acceptance } from '../changes/accept.js';
import type { RunExchanges } from '../changes/exchanges.js';
import { boundariesOf } from './boundaries.js';

export type { Matrix, MatrixColumn, MatrixRow };

const releaseOrNull = (v: string | null | undefined) => (v && isVersion(v) ? versionLabel(v) : null);

/** columns are named by agent version; the platform only when runs differ in it, the file name when two still read the same */
function labels(reports: Report[], files: (string | null)[], given?: string[]): string[] {
  if (given) return given;
  const platforms = new Set(reports.map((r) => platform(r.agent)).filter(Boolean));
  const base = reports.map((r) =>
    [
      releaseOrNull(r.agent.version) ?? r.agent.version ?? 'unknown version',
      platforms.size > 1 ? platform(r.agent) : null,
    ]
      .filter(Boolean)
      .join(' '),
  );
  const named = base.map((b, i) => (base.filter((x) => x === b).length > 1 ? (files[i] ?? `run ${i + 1}`) : b));
  // Same file name twice too (a/report.json, b/report.json given as bare names): number them.
  return named.map((n, i) => (named.filter((x) => x === n).length > 1 ? `${n} #${i + 1}` : n));
}

/** each undocumented member with the columns that had it: those not in every run first */
function undocumentedAcross(reports: Report[]): NonNullable<Matrix['undocumented']> {
  const found = new Map<string, NonNullable<Matrix['undocumented']>[number]>();
  reports.forEach((r, col) => {
    for (const n of r.undocumented ?? []) {
      const key = `${n.endpoint} ${n.member}`;
      const entry = found.get(key) ?? found.set(key, { endpoint: n.endpoint, member: n.member, columns: [] }).get(key)!;
      entry.columns.push(col);
    }
  });
  const everywhere = (u: { columns: number[] }) => Number(u.columns.length === reports.length);
  return [...found.values()].sort(
    (a, b) => everywhere(a) - everywhere(b) || a.endpoint.localeCompare(b.endpoint) || a.member.localeCompare(b.member),
  );
}

export interface MergeOptions {
  /** where each report came from; used for the label when runs look alike */
  files?: (string | null)[];
  /** the column labels, when the caller has better names (synconf matrix: its agents' names) */
  labels?: string[];
  /** the version gates behind each check (src/matrix/gates.ts); without them only the reports' own version gates count */
  gates?: GateIndex;
  /** the exchanges of each report (changes/exchanges.ts): the changes between versions grouped by cause */
  exchanges?: RunExchanges[];
  /** reviewed causes (--ignore, --ignore-file): listed as accepted */
  accepted?: Acceptance[];
  /** the recorded causes of a pair of columns, kept by the caller (src/matrix/causes.ts PairOptions) */
  recordedCauses?: PairOptions['recordedCauses'];
  /** the statement index: its version statements compared with what each version showed (matrix `boundaries`) */
  statements?: Statement[];
}

/** the column of one run: who ran, how, and its totals (and statement coverage, when its report has one) */
function columnOf(r: Report, label: string, file: string | null, version: string | null): Matrix['columns'][number] {
  return {
    label,
    file,
    agentVersion: r.agent.version,
    version,
    platform: platform(r.agent),
    mode: r.run.mode,
    startedAt: r.run.startedAt,
    exitCode: r.exitCode,
    totals: r.totals,
    ...(r.statementCoverage ? { statements: r.statementCoverage.counts } : {}),
  };
}

/** `files[i]` names where reports[i] came from (or give MergeOptions) */
export const mergeReports = (reports: Report[], filesOrOptions: (string | null)[] | MergeOptions = []): Matrix =>
  drained(mergeSteps(reports, Array.isArray(filesOrOptions) ? { files: filesOrOptions } : filesOrOptions));

/**
 * The same, a turn of the event loop now and then (`pace`): the pairs of many versions compare for seconds, which in
 * one piece left a signal unheard (issue 41)
 */
export const pacedMergeReports = (reports: Report[], opts: MergeOptions, pace: Pace): Promise<Matrix> =>
  pacedDrain(mergeSteps(reports, opts), pace);

/** the matrix, piece by piece: it yields where a paced caller may take a turn */
function* mergeSteps(reports: Report[], opts: MergeOptions): Generator<void, Matrix> {
  const files = reports.map((_, i) => opts.files?.[i] ?? null);
  const gates = opts.gates ?? (() => []);
  const ids = new Map<string, { scenario: string; cells: (Cell | null)[] }>();
  for (const [col, r] of reports.entries())
    for (const s of r.scenarios) {
      yield;
      for (const c of s.checks) {
        let row = ids.get(c.id);
        if (!row) ids.set(c.id, (row = { scenario: s.id, cells: reports.map(() => null) }));
        row.cells[col] = cellOf(c, s);
      }
    }
  const names = labels(reports, files, opts.labels);
  const versions = reports.map((r) => releaseOrNull(r.agent.version));
  const order = versionOrder(versions);
  const rows: MatrixRow[] = [];
  for (const [id, { scenario, cells }] of ids) {
    yield;
    const changes = classifyRow(id, cells, order, names, versions, gates);
    const verdicts = cells.map((c) => c?.verdict ?? null);
    rows.push({ id, scenario, cells: verdicts, changed: changes.length > 0, class: rowClass(changes), changes });
  }
  // Most urgent class first (regressions), unchanged rows last; stable: run order otherwise.
  const rank = (r: MatrixRow) => (r.class ? CHANGE_CLASSES.indexOf(r.class) : CHANGE_CLASSES.length);
  rows.sort((a, b) => rank(a) - rank(b));
  const undocumented = undocumentedAcross(reports);
  const classes = Object.fromEntries(
    CHANGE_CLASSES.map((c) => [c, rows.filter((r) => r.class === c).length]),
  ) as Matrix['classes'];
  const matrix: Matrix = {
    format: 'synconf-matrix/1',
    columns: reports.map((r, i) => columnOf(r, names[i], files[i], versions[i])),
    order,
    rows,
    changed: rows.filter((r) => r.changed).length,
    classes,
    ...(undocumented.length ? { undocumented } : {}),
  };
  yield;
  matrix.pairs = yield* pairSteps(
    matrix,
    reports.map((_, i) => opts.exchanges?.[i] ?? { missing: 'no exchanges were given with its report' }),
    {
      accepted: opts.accepted,
      errorsOf: (id, col) => ids.get(id)?.cells[col]?.errors ?? [],
      recordedCauses: opts.recordedCauses,
    },
  );
  if (opts.statements)
    matrix.boundaries = boundariesOf({ statements: opts.statements, reports, order, labels: names, versions, gates });
  return matrix;
}
