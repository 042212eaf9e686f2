// One version of `synconf matrix`: how its target is set up (a lab of its binary, or its recordings) and the report
// of a version that could not run, so the matrix still has its column. The run itself is the one `runOnce` of every
// command (session/run-once.ts).
import { availableParallelism } from 'node:os';
import type { FailOn, Report } from '../schema/generated/types.js';
import type { MakeTarget } from '../runner/run.js';
import type { ShardSpec } from '../scenario/shard.js';
import { emptyReport } from '../verdict/totals.js';
import { EXIT } from '../errors.js';
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
  /** --run-timeout, --scenario-timeout: each version's run and each scenario bounded as run bounds its own */
  runTimeoutMs?: number;
  scenarioTimeoutMs?: number;
  /** an expectations file for every version, false for none; default: each version's own line */
  expectations?: string | false;
  /** who runs the matrix, as its interrupted line names it (default: synconf matrix, writing the versions done) */
  interruptLine?: { command: string; doing: string };
}

/**
 * A sensible number of versions at once: three per core, since a lab's agents mostly wait (timeouts, reconnection
 * intervals, restarts). Measured on 2 cores, the six versions of the default set: 6 at once 78 s, 3 at once 140 s,
 * the same verdicts (the three Debian versions: 3 at once 55 s, 2 at once 70 s).
 */
export function defaultJobs(versions: number): number {
  return Math.max(1, Math.min(versions, 3 * availableParallelism()));
}

/** how a version's target is set up: its recordings replayed, or a lab of its binary (destructive scenarios allowed) */
export function targetMaker(agent: MatrixAgent): MakeTarget {
  return async (needsPeer, wrap) =>
    agent.recordings
      ? replayTarget(agent.recordings)
      : labTarget({ needsPeer, allowDestructive: true, binary: agent.binary, wrap });
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

/** the report of a version whose scenarios did not load, or whose target could not be set up */
export function notRunReport(agent: MatrixAgent, message: string, errors: Report['harnessErrors'] = []): Report {
  const report = emptyReport(
    agent.recordings ? 'replay' : 'live',
    agent.recordings ?? `lab (${agent.binary})`,
    message,
  );
  if (errors.length) report.harnessErrors = errors;
  return withVersion(report, agent);
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
