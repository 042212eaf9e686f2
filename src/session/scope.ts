// What every command that runs scenarios (run, replay, drift, matrix) is asked to run and for how long, read the same
// way by each: the scenarios (--suite, --only), one shard of them (--shard: split by the recorded durations of the
// bundled recordings, the same split on every machine), and the bounds of a run (--run-timeout) and of each scenario
// (--scenario-timeout). Matrix runs each version as run runs its one agent: each version's run has these bounds.
import type { RunOptions } from '../runner/run.js';
import { selectScenarios, type Selection } from '../scenario/select.js';
import { bundledRecordings, recordedDurations, shardSelection, type Shard, type ShardSpec } from '../scenario/shard.js';

/** the options that choose the scenarios */
export interface ScopeOptions {
  suite?: string[];
  only?: string[];
  /** --shard i/n: only this shard of the selected scenarios */
  shard?: ShardSpec;
}

/** the scenarios to run, and which shard of which plan they are (--shard: every report of the run says so) */
export async function selectionOf(
  opts: ScopeOptions,
  signal?: AbortSignal,
): Promise<{ selection: Selection; shard?: Shard }> {
  const selection = await selectScenarios(opts.suite, opts.only, signal);
  if (!opts.shard) return { selection };
  return shardSelection(selection, opts.shard, recordedDurations(bundledRecordings()));
}

/** --run-timeout and --scenario-timeout (seconds) as the runner takes them; unset, the runner's defaults */
export function boundsOf(opts: {
  runTimeout?: number;
  scenarioTimeout?: number;
}): Pick<RunOptions, 'runTimeoutMs' | 'scenarioTimeoutMs'> {
  return {
    runTimeoutMs: opts.runTimeout === undefined ? undefined : opts.runTimeout * 1000,
    scenarioTimeoutMs: opts.scenarioTimeout === undefined ? undefined : opts.scenarioTimeout * 1000,
  };
}
