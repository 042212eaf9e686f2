// N targets side by side (`synconf matrix`, and the releases `history`, `bisect` and `spec --boundaries` run): the
// agent versions given, a few at a time (`jobs`), each run once (run-once.ts) into its own report folder, written as
// it ends, then the matrix of them merged and written. The exit code is the worst of the versions. A signal stops the
// versions under way between steps: their reports say what they did so far, marked interrupted, and the matrix of
// the versions done is written. It prints nothing: the command hands it the process's signals (`SignalHook`).
import { join } from 'node:path';
import type { FailOn, Report } from '../schema/generated/types.js';
import type { Selection } from '../scenario/select.js';
import type { Shard } from '../scenario/shard.js';
import { selectionOf } from './scope.js';
import { finalize, interruptedReport } from '../verdict/totals.js';
import { writeReports, writeMatrix, WriteAbandoned } from './write-reports.js';
import { guard, STOP_WITHIN_MS, type SignalHook } from './guard.js';
import { mergeReports, type Matrix, type MergeOptions } from '../matrix/merge.js';
import { gateIndex } from '../matrix/gates.js';
import { loadStatements } from '../schema/statements.js';
import type { MatrixAgent } from '../matrix/agents.js';
import { faultReport, notRunReport, targetMaker, worstExit, type MatrixRunOptions } from '../matrix/versions.js';
import { runOnce } from './run-once.js';
import type { SessionListener } from './listener.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Target } from '../runner/run.js';
import { exchangesOf } from '../changes/exchanges.js';

export type { MatrixRunOptions };

/** what a matrix session tells its command: a version begins, a scenario of it ends, its report is written (the
 * command prints the end itself, with the answer of its gate) */
export type MatrixListener = SessionListener<MatrixAgent, MatrixResult>;

/** what the command gives a matrix session: its listener and the process's signals */
export interface MatrixIo {
  listener: MatrixListener;
  signals: SignalHook;
}

export interface MatrixResult {
  matrix: Matrix;
  reports: Report[];
  /** the report folder of each version, in the order of `agents` */
  dirs: string[];
  /** matrix.json, matrix.html, matrix.md */
  matrixFiles: string[];
  exitCode: number;
  wallMs: number;
}

/** a version's report says which shard it is (--shard) */
const withShard = (report: Report, shard?: Shard): Report => (shard ? Object.assign(report, { shard }) : report);

/** the matrix of reports kept in their report folders, named by `labels`: checks, causes (from the exchanges each
 * folder keeps), version gates and boundaries (matrix and history both make it so) */
export async function matrixOf(
  reports: Report[],
  dirs: string[],
  labels: string[],
  scenarios: Parameters<typeof gateIndex>[0],
  accepted?: MatrixRunOptions['accepted'],
  recordedCauses?: MergeOptions['recordedCauses'],
): Promise<Matrix> {
  return mergeReports(reports, {
    files: dirs,
    labels,
    gates: gateIndex(scenarios),
    statements: await loadStatements(),
    // the causes of the changes come from the exchanges each version's report folder keeps
    exchanges: reports.map((r, i) => exchangesOf(r, dirs[i])),
    accepted,
    recordedCauses,
  });
}

/** the matrix of the versions done, written */
async function finishMatrix(
  opts: MatrixRunOptions,
  reports: Map<MatrixAgent, Report>,
  dirs: string[],
  scenarios: Parameters<typeof gateIndex>[0],
  t0: number,
  abandon?: AbortSignal,
): Promise<MatrixResult> {
  const done = opts.agents.filter((a) => reports.has(a));
  const ordered = done.map((a) => reports.get(a)!);
  const doneDirs = done.map((a) => dirs[opts.agents.indexOf(a)]);
  const matrix = await matrixOf(
    ordered,
    doneDirs,
    done.map((a) => a.name),
    scenarios,
    opts.accepted,
  );
  const matrixFiles = await writeMatrix(matrix, opts.reportDir, abandon, true);
  return {
    matrix,
    reports: ordered,
    dirs: doneDirs,
    matrixFiles,
    exitCode: worstExit(ordered.map((r) => r.exitCode)),
    wallMs: Math.round(performance.now() - t0),
  };
}

/** one version: its target set up, its scenarios run, torn down (session/run-once.ts); its report */
async function runVersion(
  agent: MatrixAgent,
  selection: Selection,
  opts: MatrixRunOptions,
  run: {
    dir: string;
    partial: Map<MatrixAgent, Report>;
    targets: Map<MatrixAgent, Target>;
    signal: AbortSignal;
    listener: MatrixListener;
  },
): Promise<Report> {
  if (selection.errors.length)
    return finalize(notRunReport(agent, 'scenario files did not load; nothing was run', selection.errors), opts.failOn);
  const outcome = await runOnce({
    selection,
    makeTarget: targetMaker(agent),
    reportDir: run.dir,
    options: {
      expectations: opts.expectations,
      requestTimeoutMs: opts.requestTimeoutMs,
      runTimeoutMs: opts.runTimeoutMs,
      scenarioTimeoutMs: opts.scenarioTimeoutMs,
      failOn: opts.failOn,
      strict: opts.strict,
      signal: run.signal,
      onReport: (r) => run.partial.set(agent, r),
      onScenario: (s, i, total) => run.listener.scenario?.(agent, s, i, total),
    },
    onTarget: (t) => (t ? run.targets.set(agent, t) : run.targets.delete(agent)),
  });
  return 'report' in outcome ? outcome.report : notRunReport(agent, outcome.notSetUp);
}

/** the matrix's own interrupted line (a command that runs a matrix for its own ends names itself instead) */
const MATRIX_INTERRUPTED = { command: 'synconf matrix', doing: 'the reports of the versions done so far are written' };

/** the versions run side by side, their reports and the matrix written; `signals`: the process's, from the command */
export async function runMatrix(opts: MatrixRunOptions, { listener, signals }: MatrixIo): Promise<MatrixResult> {
  const t0 = performance.now();
  // the reports written, those of the versions under way as they fill in (for Ctrl-C), the targets set up
  const [reports, partial] = [new Map<MatrixAgent, Report>(), new Map<MatrixAgent, Report>()];
  const targets = new Map<MatrixAgent, Target>();
  const running = { partial, targets, listener };
  const dirs = opts.agents.map((a) => join(opts.reportDir, a.name));
  const queue = [...opts.agents];
  let workers: Promise<unknown> = Promise.resolve();
  const worker = async () => {
    for (let agent = queue.shift(); agent; agent = queue.shift()) {
      listener.targetStart?.(agent);
      let report: Report;
      const dir = dirs[opts.agents.indexOf(agent)];
      try {
        report = await runVersion(agent, selection!, opts, { dir, ...running, signal: interrupt.abort });
      } catch (e) {
        // A defect of synconf itself: this version's report says so (exit 3, with the stack), the others go on.
        report = faultReport(agent, e);
      }
      // stopped between two steps, or while its report was written: the report holds the scenario under way too,
      // and the interrupt writes it, marked interrupted
      if (interrupt.signal || !(await written(() => writeReports(withShard(report, shard), dir, { abandon, ...ONE }))))
        return void partial.set(agent, report);
      reports.set(agent, report);
      listener.targetEnd?.(agent, report, dir);
    }
  };
  const finish = (abandon?: AbortSignal) => finishMatrix(opts, reports, dirs, selection?.scenarios ?? [], t0, abandon);
  // Ctrl-C: the versions under way get the report of what they did so far, and the matrix of those is written.
  const interrupt = guard(signals, {
    line: opts.interruptLine ?? MATRIX_INTERRUPTED,
    stop: async (signal) => {
      await Promise.race([workers, sleep(STOP_WITHIN_MS)]); // the runs under way stop at their next step
      if (finished && (await finished)) return; // the matrix is in place: afterReport marks it interrupted
      await writeWhatRan({ partial, reports, targets, dirs, opts, shard }, signal);
      await finish().catch(() => {});
    },
  });
  const abandon = interrupt.abort;
  let finished: Promise<boolean> | undefined; // the matrix written (true), or given up for a signal
  listener.begin?.();
  // --shard: which shard of which plan every version's report is, a failed one too; loaded once Ctrl-C is heard
  let selection: Selection | undefined;
  let shard: Shard | undefined;
  try {
    ({ selection, shard } = await selectionOf({ suite: opts.suites, only: opts.only, shard: opts.shard }));
    if (shard) listener.shard?.(shard);
    await (workers = Promise.all(Array.from({ length: Math.max(1, Math.min(opts.jobs, opts.agents.length)) }, worker)));
    // a signal heard now or while the matrix is written wins: the interrupt writes it and ends the process
    if (!(await interrupt.heard())) {
      let result: MatrixResult | undefined;
      finished = written(async () => (result = await finish(abandon)));
      if (await finished) {
        const marking = { reports, dirs, agents: opts.agents, failOn: opts.failOn, finish };
        interrupt.afterReport(
          (signal) => markInterrupted(marking, signal, listener.say),
          'the reports written are marked interrupted',
        );
        return result!;
      }
    }
    return await interrupt.ending();
  } finally {
    interrupt.off();
  }
}

/** the reports of the versions a signal stopped, with what they did so far, marked so */
async function writeWhatRan(
  m: {
    partial: Map<MatrixAgent, Report>;
    reports: Map<MatrixAgent, Report>;
    targets: Map<MatrixAgent, Target>;
    dirs: string[];
    opts: MatrixRunOptions;
    shard?: Shard;
  },
  signal: NodeJS.Signals,
): Promise<void> {
  for (const [agent, report] of m.partial) {
    if (m.reports.has(agent)) continue;
    await m.targets
      .get(agent)
      ?.close()
      .catch(() => {}); // first: closing a recorder writes the run's _run.har
    report.harnessErrors.push({ message: `interrupted by ${signal} before the run ended` });
    m.reports.set(agent, finalize(withShard(report, m.shard), m.opts.failOn));
    await writeReports(report, m.dirs[m.opts.agents.indexOf(agent)], ONE).catch(() => {});
  }
}

/** the versions' reports and the matrix in place, rewritten marked interrupted: a signal came after them, before the exit */
async function markInterrupted(
  m: {
    reports: Map<MatrixAgent, Report>;
    dirs: string[];
    agents: MatrixAgent[];
    failOn: FailOn[];
    finish: () => Promise<MatrixResult>;
  },
  signal: NodeJS.Signals,
  say: (line: string) => void,
): Promise<void> {
  for (const [agent, report] of m.reports) {
    const marked = interruptedReport(report, signal, m.failOn, 'after the run ended, once its report was written');
    m.reports.set(agent, marked);
    await writeReports(marked, m.dirs[m.agents.indexOf(agent)], { rendered: true, ...ONE }).catch(() => {});
  }
  await m.finish().catch((e: Error) => say(`synconf matrix: the matrix could not be marked interrupted: ${e.message}`));
}

/** a version's report: its summary.md is not appended to the job summary, which is the matrix's (matrix.md) */
const ONE = { noStepSummary: true } as const;

/** false when a signal stopped the writing (WriteAbandoned): nothing was written */
async function written(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (e) {
    if (e instanceof WriteAbandoned) return false;
    throw e;
  }
}
