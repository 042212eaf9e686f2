// One version of `synconf matrix`: its target (a lab of its binary, or its recordings), its run and its report; a
// version that cannot be set up is a report with a harness error, so the matrix still has its column.
import { availableParallelism } from 'node:os';
import type { FailOn, Report, ScenarioResult } from '../schema/generated/types.js';
import { runScenarios, type Target } from '../runner/run.js';
import type { Selection } from '../scenario/select.js';
import type { ShardSpec } from '../scenario/shard.js';
import { emptyReport, finalize } from '../verdict/totals.js';
import { EXIT, SynconfError } from '../errors.js';
import type { MatrixAgent } from './agents.js';
import type { Acceptance } from '../changes/accept.js';
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
  /** reviewed changes (--ignore, --ignore-file): their causes are listed as accepted and do not trip the gate */
  accepted?: Acceptance[];
  /** undocumented members fail (otherwise they are notes) */
  strict?: boolean;
  /** --shard i/n: every version runs only this shard of the selected scenarios */
  shard?: ShardSpec;
  requestTimeoutMs: number;
  /** an expectations file for every version, false for none; default: each version's own line */
  expectations?: string | false;
  /** the shard of the plan every version runs (--shard), once, before any runs */
  onShard?: (shard: NonNullable<Report['shard']>) => void;
  /** the run begins: Ctrl-C is heard from here on (output before it could race the listener) */
  onBegin?: () => void;
  /** progress: a version started, a scenario of a version ended, a version ended */
  onVersionStart?: (agent: MatrixAgent) => void;
  onScenario?: (agent: MatrixAgent, s: ScenarioResult, index: number, total: number) => void;
  onVersionEnd?: (agent: MatrixAgent, report: Report, dir: string) => void;
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
export function withVersion(report: Report, agent: MatrixAgent): Report {
  if (agent.version)
    report.agent = {
      ...report.agent,
      version: agent.version,
      versionSource: agent.recordings ? 'recording' : 'option',
    };
  return report;
}

/** one version: its target, its run, its report (a target that cannot be set up is a report with a harness error) */
export async function runVersion(
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

export const worstExit = (codes: number[]) => codes.reduce((a, b) => Math.max(a, b), 0);

/** the report of a version a fault of synconf ended (exit 3, with the stack); the other versions go on */
export function faultReport(agent: MatrixAgent, e: unknown): Report {
  return withVersion(
    emptyReport(
      agent.recordings ? 'replay' : 'live',
      agent.recordings ?? agent.binary ?? 'unknown',
      `internal error (a bug in synconf): ${(e as Error).stack ?? e}`,
      EXIT.internal,
    ),
    agent,
  );
}
