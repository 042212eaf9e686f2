// `synconf matrix`: the suite against several agent versions, each in its own lab (or from its own recordings),
// a few at a time, then one report per version and the merged version matrix. The exit code is the worst of
// the versions: 0 only when every version conforms or deviates only as listed.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { FailOn, Report, ScenarioResult } from '../schema/generated/types.js';
import { runScenarios, type Target } from '../runner/run.js';
import { selectScenarios, type Selection } from '../scenario/select.js';
import { emptyReport, finalize } from '../verdict/totals.js';
import { writeReports, writeMatrix } from '../report/write.js';
import { mergeReports, type Matrix } from './merge.js';
import { gateIndex } from './gates.js';
import { SynconfError, EXIT } from '../errors.js';
import type { MatrixAgent } from './agents.js';
import { replayTarget } from '../runner/replay-target.js';
import { labTarget } from '../runner/targets.js';

export interface MatrixRunOptions {
  agents: MatrixAgent[];
  /** how many versions run at once */
  jobs: number;
  suites?: string[];
  only?: string[];
  reportDir: string;
  failOn: FailOn[];
  /** undocumented members fail (otherwise they are notes) */
  strict?: boolean;
  requestTimeoutMs: number;
  /** an expectations file for every version, false for none; default: each version's own line */
  expectations?: string | false;
  /** progress: a version started, a scenario of a version ended, a version ended */
  onVersionStart?: (agent: MatrixAgent) => void;
  onScenario?: (agent: MatrixAgent, s: ScenarioResult, index: number, total: number) => void;
  onVersionEnd?: (agent: MatrixAgent, report: Report, dir: string) => void;
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

/**
 * A sensible number of versions at once: one more than the cores, since a lab's agents mostly wait (timeouts,
 * reconnection intervals). Measured on 2 cores, the three known versions: 3 at once 55 s, 2 at once 70 s, same verdicts.
 */
export function defaultJobs(versions: number): number {
  return Math.max(1, Math.min(versions, availableParallelism() + 1));
}

async function targetFor(agent: MatrixAgent, needsPeer: boolean): Promise<Target> {
  if (agent.recordings) return replayTarget(agent.recordings);
  return labTarget({ needsPeer, allowDestructive: true, binary: agent.binary });
}

/** a report of a version that did not run still names the version (known from the binary or the recordings) */
function withVersion(report: Report, agent: MatrixAgent): Report {
  if (agent.version)
    report.agent = {
      ...report.agent,
      version: agent.version,
      versionSource: agent.recordings ? 'recording' : 'option',
    };
  return report;
}

/** one version: its target, its run, its report (a target that cannot be set up is a report with a harness error) */
async function runVersion(
  agent: MatrixAgent,
  selection: Selection,
  opts: MatrixRunOptions,
  partial: Map<MatrixAgent, Report>,
): Promise<Report> {
  const mode = agent.recordings ? 'replay' : 'live';
  const description = agent.recordings ?? `lab (${agent.binary})`;
  if (selection.errors.length) {
    const report = emptyReport(mode, description, 'scenario files did not load; nothing was run');
    report.harnessErrors = selection.errors;
    return withVersion(finalize(report, opts.failOn), agent);
  }
  let target: Target;
  try {
    const needsPeer = selection.scenarios.some((s) => s.scenario.needs?.includes('peer'));
    target = await targetFor(agent, needsPeer);
  } catch (e) {
    if (e instanceof SynconfError) return withVersion(emptyReport(mode, description, (e as Error).message), agent);
    throw e;
  }
  try {
    return await runScenarios(selection, target, {
      expectations: opts.expectations,
      requestTimeoutMs: opts.requestTimeoutMs,
      failOn: opts.failOn,
      strict: opts.strict,
      onReport: (r) => partial.set(agent, r),
      onScenario: (s, i, total) => opts.onScenario?.(agent, s, i, total),
    });
  } finally {
    await target.close().catch(() => {});
  }
}

const worstExit = (codes: number[]) => codes.reduce((a, b) => Math.max(a, b), 0);

export async function runMatrix(opts: MatrixRunOptions): Promise<MatrixResult> {
  const t0 = performance.now();
  const selection = await selectScenarios(opts.suites, opts.only);
  const reports = new Map<MatrixAgent, Report>();
  const partial = new Map<MatrixAgent, Report>();
  const dirs = opts.agents.map((a) => join(opts.reportDir, a.name));
  const queue = [...opts.agents];
  const worker = async () => {
    for (let agent = queue.shift(); agent; agent = queue.shift()) {
      opts.onVersionStart?.(agent);
      let report: Report;
      try {
        report = await runVersion(agent, selection, opts, partial);
      } catch (e) {
        // A defect of synconf itself: this version's report says so (exit 3, with the stack), the others go on.
        report = withVersion(
          emptyReport(
            agent.recordings ? 'replay' : 'live',
            agent.recordings ?? agent.binary ?? 'unknown',
            `internal error (a bug in synconf): ${(e as Error).stack ?? e}`,
            EXIT.internal,
          ),
          agent,
        );
      }
      if (interrupted) return;
      reports.set(agent, report);
      const dir = dirs[opts.agents.indexOf(agent)];
      await writeReports(report, dir);
      opts.onVersionEnd?.(agent, report, dir);
    }
  };
  const finish = async (): Promise<MatrixResult> => {
    const done = opts.agents.filter((a) => reports.has(a));
    const ordered = done.map((a) => reports.get(a)!);
    const doneDirs = done.map((a) => dirs[opts.agents.indexOf(a)]);
    const matrix = mergeReports(ordered, {
      files: doneDirs,
      labels: done.map((a) => a.name),
      gates: gateIndex(selection.scenarios),
    });
    const matrixFiles = await writeMatrix(matrix, opts.reportDir);
    return {
      matrix,
      reports: ordered,
      dirs: doneDirs,
      matrixFiles,
      exitCode: worstExit(ordered.map((r) => r.exitCode)),
      wallMs: Math.round(performance.now() - t0),
    };
  };
  // Ctrl-C: the versions under way get the report of what they did so far, and the matrix of those is written.
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(EXIT.usage);
    interrupted = true;
    console.error(`\nsynconf matrix: ${signal}: stopping; the reports of the versions done so far are written`);
    void (async () => {
      for (const [agent, report] of partial) {
        if (reports.has(agent)) continue;
        report.harnessErrors.push({ message: `interrupted by ${signal} before the run ended` });
        reports.set(agent, finalize(report, opts.failOn));
        await writeReports(report, dirs[opts.agents.indexOf(agent)]).catch(() => {});
      }
      await finish().catch(() => {});
      process.exit(EXIT.usage);
    })();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.jobs, opts.agents.length)) }, worker));
    return await finish();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
