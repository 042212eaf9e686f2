// One run of a selection against one target, the same for every command that runs scenarios (run, replay, drift and
// each version of matrix): the target set up with a recorder between the runner and a live agent, the scenarios run,
// the target torn down. The recorder writes the run's exchanges (redacted HAR, one cassette a scenario) beside the
// report folder's recordings/ as they happen (liveExchangesDir), and they are swapped in with the report, so a run
// stopped halfway keeps the exchanges of what it did and a run killed leaves the old report and its exchanges whole;
// a replay's and a --record run's cassettes are copied there when the report is written (write-reports.ts). It prints
// nothing: what the user is to read is handed to the command (`say`).
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Report } from '../schema/generated/types.js';
import { runScenarios, type MakeTarget, type RunOptions, type Target } from '../runner/run.js';
import type { Selection } from '../scenario/select.js';
import { recorderFor, type RecorderOptions } from '../transport/recorder.js';
import { EXCHANGES_DIR, liveExchangesDir, removeDeadStages } from '../changes/exchanges.js';
import { SynconfError } from '../errors.js';
import { announceRecording, settleRecording } from './recording-commit.js';

export interface RunPlan {
  selection: Selection;
  makeTarget: MakeTarget;
  /** the report folder: the exchanges are recorded into its recordings/ */
  reportDir: string;
  /** --record: the exchanges are recorded into this folder (with its mode) instead, and copied with the report */
  record?: RecorderOptions;
  options: RunOptions;
  /** a line for the user (the command prints it): what a --record run's recording replaces, and whether it did */
  say?: (line: string) => void;
  /** the target once it is set up, and undefined once it is torn down (Ctrl-C tears down what is set up) */
  onTarget?: (target: Target | undefined) => void;
}

/** what a run gives: its report, or why its target could not be set up (the agent's or the user's fault, said so) */
export type RunOutcome = { report: Report } | { notSetUp: string };

/** a run's target set up, its scenarios run, the target torn down */
export async function runOnce(plan: RunPlan): Promise<RunOutcome> {
  const evidence = join(plan.reportDir, EXCHANGES_DIR);
  const live = liveExchangesDir(plan.reportDir);
  const needsPeer = plan.selection.scenarios.some((l) => l.scenario.needs?.includes('peer'));
  // --record stages its cassettes with the exchanges: the recordings folder changes only once the run completed
  const recorder = recorderFor(
    plan.record ? { ...plan.record, stage: evidence } : { dir: live, mode: 'all', redact: [] },
  );
  // A report folder holds the exchanges of its own run only, never those of an earlier one. A live run records
  // beside them as it goes and its exchanges replace them with its report; a replay's are swapped in whole with its
  // report; a --record run's stage replaces them as the recording starts.
  const wrap: typeof recorder = (agent) => {
    removeDeadStages(plan.reportDir);
    rmSync(plan.record ? evidence : live, { recursive: true, force: true });
    return recorder(agent);
  };
  const say = (line: string | undefined) => {
    if (line) plan.say?.(line);
  };
  if (plan.record) say(announceRecording(plan.record.dir));
  let target: Target;
  try {
    target = await plan.makeTarget(needsPeer, wrap);
  } catch (e) {
    if (e instanceof SynconfError) return { notSetUp: e.message };
    throw e;
  }
  plan.onTarget?.(target);
  // --record: the report names the folder from its start, so a report written on Ctrl-C finds its cassettes too
  const onReport = (report: Report) => {
    if (plan.record) Object.assign(report.run, { mode: 'record', recordings: evidence });
    plan.options.onReport?.(report);
  };
  let report: Report;
  try {
    report = await runScenarios(plan.selection, target, { ...plan.options, onReport });
  } finally {
    // closing writes the recorder's _run.har: before the report (and its exchanges) are written
    await target.close();
    plan.onTarget?.(undefined);
  }
  if (plan.record) say(settleRecording(report, evidence, resolve(plan.record.dir), !!plan.options.signal?.aborted));
  return { report };
}
