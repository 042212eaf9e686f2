// Writes every format of a run's report, of a version matrix or of a mutation run into one folder (and the
// Markdown to the GitHub job summary when there is one). The writers are pure; only this module touches the file
// system.
import { appendFileSync, copyFileSync, existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cassettePath, RUN_CASSETTE } from '../transport/cassette.js';
import { EXCHANGES_DIR, liveExchangesDir } from '../changes/exchanges.js';
import type { MutationReport, Report } from '../schema/generated/types.js';
import { mutationHtml, mutationMarkdown } from '../mutate/render.js';
import { toHtml } from '../report/html.js';
import { toJUnit } from '../report/junit.js';
import { toMarkdown } from '../report/markdown.js';
import type { History, Matrix } from '../schema/generated/types.js';
import { historyJson, historyToHtml, historyToMarkdown } from '../report/history-page.js';
import { matrixToHtml } from '../report/matrix-html.js';
import { matrixToMarkdown } from '../report/matrix-markdown.js';
import { pacedViewOf } from '../report/view.js';
import { pacedReportJson } from '../report/report-json.js';
import { matrixJson } from '../report/matrix-json.js';
import { makeOutputDir } from '../output-dir.js';
import { loadStatements } from '../schema/statements.js';
import { statementCoverage } from '../verdict/statement-coverage.js';
import { InputError } from '../errors.js';
import { hearSignals, nextTurn, pacer } from '../turns.js';
import { printable } from '../printable.js';

/** a report file that could not be written (the folder was proven writable up front): the others are */
export class UnwritableReport extends InputError {
  constructor(
    readonly path: string,
    cause: string,
    /** the files that were written */
    readonly written: string[],
  ) {
    super(
      written.length
        ? `cannot write ${path} (${cause}); the other report files are written`
        : `cannot write ${path} (${cause}); no report file was replaced: the folder holds what it held before`,
    );
  }
}

/** the paths a writer wrote; a file it could not write is returned (to throw after the verdict line), not thrown */
export async function settled(writing: Promise<string[]>): Promise<{ paths: string[]; unwritable?: UnwritableReport }> {
  try {
    return { paths: await writing };
  } catch (e) {
    if (e instanceof UnwritableReport) return { paths: e.written, unwritable: e };
    throw e;
  }
}

/** the verdict line as printed: when its report could not be written, the exit is 2 and the line says so (it said
 * "exit 0" above the error line once) */
export function verdictAsPrinted(line: string, unwritable?: UnwritableReport): string {
  return unwritable ? line.replace(/exit \d+\)$/, 'exit 2: its report could not be written, see below)') : line;
}

/** the "reports:" line: the files written, or that none was */
export function reportsLine(paths: string[]): string {
  const shown = paths.map((p) => p.replace(process.cwd() + '/', ''));
  return `reports: ${shown.length ? shown.join(', ') : 'none written'}`;
}

/** a report whose writing a signal stopped before its files were in place: the folder holds what it held before */
export class WriteAbandoned extends Error {
  override name = 'WriteAbandoned';
  constructor(readonly dir: string) {
    super(`the report in ${dir} was not written: interrupted while writing it; the folder holds what it held before`);
  }
}

/** a report file and how to render it (rendered when its turn comes, so that a signal lands between two renders) */
type ReportFile = [name: string, render: () => string | Promise<string>];

// Each file is rendered, then written synchronously (each asynchronous write waited a turn of the thread pool: ~3 ms
// of every run, bench/), to a temporary name beside its place; only when every one of them is complete are they
// renamed into place (a rename takes no space). A full disk or a lost folder therefore leaves the previous report
// whole, never report.json cut short beside empty files. A turn of the event loop between two files lets a signal
// land (a large report renders for seconds): once `abandon` is aborted the staged files are removed and nothing is
// renamed, and a process that exits meanwhile (a second signal, the interrupt's bound) removes them as it goes.
async function writeAll(dir: string, files: ReportFile[], abandon?: AbortSignal): Promise<string[]> {
  makeOutputDir(dir, 'the report folder');
  const staged: [tmp: string, path: string][] = [];
  const removeStaged = () => {
    for (const [tmp] of staged) rmSync(tmp, { force: true });
  };
  process.on('exit', removeStaged);
  try {
    for (const [name, render] of files) {
      await stopPoint(dir, abandon);
      const path = join(dir, name);
      const tmp = join(dir, `.${name}.${process.pid}.partial`);
      const text = await render();
      staged.push([tmp, path]);
      try {
        writeFileSync(tmp, text, 'utf8');
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        throw new UnwritableReport(path, err.code ?? err.message, []);
      }
    }
    await stopPoint(dir, abandon, hearSignals);
    return renameAll(staged);
  } finally {
    removeStaged();
    process.off('exit', removeStaged);
  }
}

/** a turn of the event loop (a signal lands), then WriteAbandoned if `abandon` is aborted */
async function stopPoint(dir: string, abandon: AbortSignal | undefined, turn = nextTurn): Promise<void> {
  await turn();
  if (abandon?.aborted) throw new WriteAbandoned(dir);
}

/** the complete files into place; one whose place is taken (a folder of its name) does not stop the others */
function renameAll(staged: [tmp: string, path: string][]): string[] {
  const written: string[] = [];
  let failed: [path: string, cause: string] | undefined;
  for (const [tmp, path] of staged) {
    try {
      renameSync(tmp, path);
      written.push(path);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      failed ??= [path, err.code ?? err.message];
    }
  }
  if (failed) throw new UnwritableReport(...failed, written);
  return written;
}

/** how a report is written */
export interface WriteOptions {
  /** a report written before, rendered again as it is (its coverage and exchanges as they are) */
  rendered?: boolean;
  /** once aborted (a signal), the report is not written: WriteAbandoned, the folder as it was */
  abandon?: AbortSignal;
  /** summary.md is not appended to the GitHub job summary (a version of a matrix: the job's summary is matrix.md) */
  noStepSummary?: boolean;
}

/**
 * report.json, junit.xml, report.html and summary.md in `dir`; the paths written, in that order. The statement
 * coverage of a run is computed here, where every run's report passes (run, replay, an interrupted run, each version
 * of a matrix).
 */
export async function writeReports(report: Report, dir: string, opts: WriteOptions = {}): Promise<string[]> {
  if (!opts.rendered) {
    report.statementCoverage = statementCoverage(await loadStatements(), report.scenarios);
    keepExchanges(report, dir);
  }
  // a turn now and then, where a signal lands and the writing stops once `abandon` is aborted
  const pace = pacer(() => stopPoint(dir, opts.abandon));
  const view = await pacedViewOf(report, pace); // computed once, rendered by each writer
  let markdown = '';
  const paths = await writeAll(
    dir,
    [
      ['report.json', () => pacedReportJson(report, pace)],
      ['junit.xml', () => toJUnit(report, view)],
      ['report.html', () => toHtml(report, { view, reportDir: dir })],
      ['summary.md', () => (markdown = printable(toMarkdown(report, view)))],
    ],
    opts.abandon,
  );
  // GitHub Actions shows this file on the run's page; appending keeps other steps' summaries.
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (summary && !opts.noStepSummary) appendFileSync(summary, markdown + '\n', 'utf8');
  return paths;
}

/**
 * The run's exchanges in the report folder (recordings/), named in report.json: a live run's recorder wrote them
 * beside it as it ran (session/run-once.ts), swapped in here; a replay's come from the folder it replayed, a --record run's from the
 * folder it recorded into (the cassettes of the scenarios it ran, and _run.har). A folder without _run.har (the run
 * exchanged nothing) is not named: whoever compares the report then says it cannot tell.
 */
function keepExchanges(report: Report, dir: string): void {
  const evidence = join(dir, EXCHANGES_DIR);
  // a live run's recorder wrote beside them (run-once.ts): its exchanges replace the old ones with its report
  const live = liveExchangesDir(dir);
  if (existsSync(live)) {
    rmSync(evidence, { recursive: true, force: true });
    renameSync(live, evidence);
  }
  const from = report.run.mode === 'replay' ? report.run.target : report.run.recordings;
  if (from && existsSync(from) && resolve(from) !== resolve(evidence)) {
    // copied beside the folder first and swapped in whole: a full disk leaves the old exchanges (and report) as they were
    const staged = `${evidence}.${process.pid}.partial`;
    rmSync(staged, { recursive: true, force: true });
    makeOutputDir(staged, 'the report folder');
    try {
      for (const id of [RUN_CASSETTE, ...report.scenarios.map((s) => s.id)])
        // a cassette that is no file (a folder of its name) is the replayed folder's fault, said as a harness error
        if (isFile(cassettePath(from, id))) copyFileSync(cassettePath(from, id), cassettePath(staged, id));
    } catch (e) {
      rmSync(staged, { recursive: true, force: true });
      const err = e as NodeJS.ErrnoException;
      throw new UnwritableReport(evidence, err.code ?? err.message, []);
    }
    rmSync(evidence, { recursive: true, force: true });
    renameSync(staged, evidence);
  }
  if (existsSync(cassettePath(evidence, RUN_CASSETTE))) report.run.exchanges = EXCHANGES_DIR;
  else delete report.run.exchanges;
}

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

/**
 * matrix.json, matrix.html and matrix.md in `dir`; the paths written, in that order. `stepSummary`: matrix.md is
 * appended to the GitHub job summary too (the matrix command's, as run appends summary.md)
 */
export async function writeMatrix(
  matrix: Matrix,
  dir: string,
  abandon?: AbortSignal,
  stepSummary = false,
): Promise<string[]> {
  let markdown = '';
  const paths = await writeAll(
    dir,
    [
      ['matrix.json', () => matrixJson(matrix)],
      ['matrix.html', () => matrixToHtml(matrix)],
      ['matrix.md', () => (markdown = printable(matrixToMarkdown(matrix)))],
    ],
    abandon,
  );
  if (stepSummary && process.env.GITHUB_STEP_SUMMARY)
    appendFileSync(process.env.GITHUB_STEP_SUMMARY, markdown + '\n', 'utf8');
  return paths;
}

/** history.json, history.html and history.md in `dir`; the paths written, in that order */
export async function writeHistory(history: History, dir: string, abandon?: AbortSignal): Promise<string[]> {
  return writeAll(
    dir,
    [
      ['history.json', () => historyJson(history)],
      ['history.html', () => historyToHtml(history)],
      ['history.md', () => printable(historyToMarkdown(history))],
    ],
    abandon,
  );
}

/** mutation.json, mutation.html and mutation.md in `dir`; the paths written, in that order */
export async function writeMutationReports(
  report: MutationReport,
  dir: string,
  abandon?: AbortSignal,
): Promise<string[]> {
  makeOutputDir(dir, '--report-dir');
  let markdown = '';
  const paths = await writeAll(
    dir,
    [
      ['mutation.json', () => JSON.stringify(report, null, 2) + '\n'],
      ['mutation.html', () => mutationHtml(report)],
      ['mutation.md', () => (markdown = printable(mutationMarkdown(report)))],
    ],
    abandon,
  );
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, markdown + '\n', 'utf8');
  return paths;
}
