// `synconf report merge|render`: the version matrix of several runs, and the report files of one run
// rewritten from its report.json.
import { copyFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FailOn, Report } from '../schema/generated/types.js';
import { readReport } from '../report/load.js';
import { InputError } from '../errors.js';
import { pacedMergeReports } from '../matrix/merge.js';
import { onInterrupt } from './terminal/interrupt.js';
import { pacer } from '../turns.js';
import { writeMatrix, writeReports } from '../session/write-reports.js';
import { makeOutputDir } from '../output-dir.js';
import { selectScenarios } from '../scenario/select.js';
import { gateIndex } from '../matrix/gates.js';
import { mergeShardSets, versionOf, type ReportFile } from '../matrix/shard-set.js';
import { exchangesOf, EXCHANGES_DIR, type RunExchanges } from '../changes/exchanges.js';
import { matrixGates, matrixSummary } from '../report/matrix-answer.js';
import { releaseGateOf } from '../matrix/release-gate.js';
import { finalize } from '../verdict/totals.js';
import { loadStatements } from '../schema/statements.js';
import { statementCoverage } from '../verdict/statement-coverage.js';
import { worstExit } from '../matrix/versions.js';
import { printableLine } from '../printable.js';

/** the options of `synconf report merge` */
export interface MergeCommandOptions {
  out: string;
  /** verdicts (each run's report judged again), a change level, boundary */
  failOn: string[];
  ignore?: string[];
  ignoreFile?: string;
}

/** the exchanges of one report, from the folder of its report.json */
const ownExchanges = (r: ReportFile): RunExchanges =>
  r.file ? exchangesOf(r.report, dirname(r.file)) : { missing: 'its report was read from no file' };

/**
 * The exchanges of a run of the merge: a whole run's own; a sharded version's, every shard's cassettes copied into
 * one folder under the merge's output (recordings/<label>/), or the shards that have none and why.
 */
function mergedExchanges(run: ReportFile, label: string, out: string): RunExchanges {
  if (!run.shards) return ownExchanges(run);
  const found = run.shards.map((s) => ({ s, x: ownExchanges(s) }));
  const missing = found.flatMap(({ s, x }) => ('missing' in x ? [`shard ${s.report.shard!.index}: ${x.missing}`] : []));
  if (missing.length) return { missing: missing.join('; ') };
  const dir = join(out, EXCHANGES_DIR, label.replace(/[^\w.-]+/g, '_'));
  rmSync(dir, { recursive: true, force: true });
  makeOutputDir(dir, '--out');
  for (const { x } of found)
    for (const f of readdirSync((x as { dir: string }).dir).filter((n) => n.endsWith('.har')))
      if (!existsSync(join(dir, f))) copyFileSync(join((x as { dir: string }).dir, f), join(dir, f));
  return { dir };
}

/** one warning for each run given more than once (60 copies: one line, not 59), shards aside */
function sameRuns(given: { report: Report; file: string }[]): string[] {
  const byRun = new Map<string, string[]>();
  for (const g of given) {
    if (g.report.shard) continue;
    const key = JSON.stringify(g.report.run);
    byRun.set(key, [...(byRun.get(key) ?? []), g.file]);
  }
  return [...byRun.values()]
    .filter((files) => files.length > 1)
    .map(([first, ...twins]) => {
      const shown =
        twins.length > 3 ? `${twins.slice(0, 3).join(', ')} and ${twins.length - 3} more` : twins.join(', ');
      return `synconf: warning: ${shown} ${twins.length === 1 ? 'is' : `(${twins.length} files) are`} the same run as ${first} (given twice?)`;
    });
}

/**
 * `synconf report merge`: the version matrix of the runs given; the shards of a version (--shard) put back
 * together first (their exchanges too), refused when one is missing, given twice or of another plan. The answer and
 * the exit code as `synconf matrix` gives them: the worst of the runs and of the gate asked for.
 */
export async function reportMerge(files: string[], opts: MergeCommandOptions): Promise<void> {
  const gate = releaseGateOf(opts);
  makeOutputDir(opts.out, '--out');
  // a signal ends the merge 128 + n at the next turn, until the process exits: the matrix's files are renamed into
  // place all at once or not at all (write-reports.ts), so --out holds the whole matrix or what it held before
  onInterrupt({ line: { command: 'synconf report merge', doing: 'nothing more is merged' }, stop: async () => {} });
  const given = [];
  const pace = pacer(); // a turn now and then: reading 40 reports takes seconds
  for (const file of files) {
    await pace();
    given.push({ report: await readReport(file, { whole: true }), file });
  }
  // a proxy session judges one client's exchanges, not the suite against a version: no column of a version matrix
  const session = given.find((g) => g.report.run.mode === 'proxy');
  if (session)
    throw new InputError(
      `${session.file}: the report of a synconf proxy session (a client's exchanges), not of a run of the suite: report merge compares runs of versions (run, replay, matrix)`,
    );
  for (const line of sameRuns(given)) console.error(printableLine(line));
  // the suite as it is here: its version gates tell a version change from a regression, its order the shards'
  const suite = (await selectScenarios(undefined, undefined)).scenarios;
  const { runs, crashed } = mergeShardSets(given, { order: suite.map((s) => s.scenario.id) });
  for (const line of crashed) console.error(`synconf: ${printableLine(line)}`);
  for (const { report } of runs) {
    if (!report.statementCoverage)
      report.statementCoverage = statementCoverage(await loadStatements(), report.scenarios);
    if (gate.verdicts.length) finalize(report, gate.verdicts as FailOn[]);
  }
  const labels = runs.map((r) => versionOf(r.report));
  const matrix = await pacedMergeReports(
    runs.map((r) => r.report),
    {
      files: runs.map((r) => r.file),
      gates: gateIndex(suite),
      exchanges: runs.map((r, i) => mergedExchanges(r, labels[i], opts.out)),
      accepted: gate.accepted,
      statements: await loadStatements(),
    },
    pace,
  );
  const written = await writeMatrix(matrix, opts.out);
  const outcome = matrixGates(matrix, gate.ask);
  const conformance = worstExit(runs.map((r) => r.report.exitCode));
  const where = [`matrix: ${written.join(', ')}`];
  for (const line of matrixSummary(matrix, { command: 'synconf report merge', conformance, gate: outcome, where }))
    console.log(printableLine(line)); // versions and files named by the reports
  process.exitCode = Math.max(conformance, outcome?.code ?? 0);
}

export async function reportRender(file: string, out?: string): Promise<void> {
  const loaded = await readReport(file, { whole: true });
  makeOutputDir(out ?? dirname(file), out ? '--out' : 'the folder of the report');
  for (const path of await writeReports(loaded, out ?? dirname(file), { rendered: true }))
    console.log(`wrote ${printableLine(path)}`);
}
