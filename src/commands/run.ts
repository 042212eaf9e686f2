// The shared body of `run`, `replay` and `drift`: select scenarios, set up a target, run, write
// the reports, tear down. Whatever happens — a malformed scenario, an agent that dies, Ctrl-C —
// the report is written and the exit code says what happened.
import { relative, resolve } from 'node:path';
import type { FailOn, Report } from '../schema/generated/types.js';
import { runScenarios, type MakeTarget, type Target } from '../runner/run.js';
import { replayTarget } from '../runner/replay-target.js';
import { liveTargetMaker, type TargetOptions } from './targets.js';
import { DEFAULT_RECORDINGS } from '../paths.js';
import { selectScenarios } from '../scenario/select.js';
import { bundledRecordings, recordedDurations, shardLine, shardSelection, type ShardSpec } from '../scenario/shard.js';
import { verdictLine, finalize, emptyReport } from '../verdict/totals.js';
import { writeReports } from './write-reports.js';
import { makeOutputDir } from '../output-dir.js';
import { progress } from './run-progress.js';
import { onInterrupt } from './interrupt.js';
import { EXIT, SynconfError, UsageError } from '../errors.js';
import { isVersion } from '../schema/version.js';
import { readReport } from '../report/load.js';
import { compareWithBaseline } from '../verdict/baseline.js';
import { combineRuns, stabilityLine } from '../verdict/repeat.js';
import { recorderFor } from '../transport/recorder.js';
import type { LiveTransport } from '../transport/live.js';
import type { Transport } from '../transport/types.js';

/** what every running command (run, replay, drift) passes in */
export interface CommonRunOptions {
  suite?: string[];
  only?: string[];
  reportDir: string;
  agentVersion?: string;
  /** a file, false for --no-expectations, undefined to pick by agent version */
  expectations?: string | false;
  failOn: string[];
  timeout: number;
  /** a previous report.json to compare every check with */
  baseline?: string;
  /** run the suite this many times and report flaky checks (run only) */
  repeat?: number;
  /** undocumented members fail (otherwise they are notes) */
  strict?: boolean;
  /** --shard i/n: run only this shard of the selected scenarios (run, replay) */
  shard?: ShardSpec;
  /** the version a report names when the agent could not say (--syncthing 1.19.2 whose lab did not start) */
  knownVersion?: string;
}

export interface RecordOptions {
  dir: string;
  mode: 'all' | 'once' | 'new';
  redact: string[];
}

/** `synconf run`: the options of a live run */
export interface RunCommandOptions extends CommonRunOptions, TargetOptions {
  record?: string;
  recordMode: 'all' | 'once' | 'new';
  redact: string[];
}

/** `synconf run`: a live agent (a lab by default), recorded with --record */
export async function run(opts: RunCommandOptions): Promise<void> {
  const record = opts.record ? { dir: opts.record, mode: opts.recordMode, redact: opts.redact ?? [] } : undefined;
  const knownVersion = opts.agentVersion ?? (opts.syncthing && isVersion(opts.syncthing) ? opts.syncthing : undefined);
  process.exitCode = await executeRun({ ...opts, knownVersion }, liveTargetMaker(opts), record);
}

/** `synconf replay [DIR]`: the cassettes of DIR (default the bundled recordings), offline */
export async function replay(opts: CommonRunOptions & { dir?: string }): Promise<void> {
  process.exitCode = await executeRun(
    opts,
    async () => replayTarget(opts.dir ?? DEFAULT_RECORDINGS),
    undefined,
    'replay',
  );
}

// eslint-disable-next-line max-lines-per-function -- to be split (issue 19)
export async function executeRun(
  args: CommonRunOptions,
  makeTarget: MakeTarget,
  record?: RecordOptions,
  mode: Report['run']['mode'] = record ? 'record' : 'live',
): Promise<number> {
  const out = progress();
  const reportDir = resolve(args.reportDir);
  const failOn = args.failOn as FailOn[];
  const repeat = args.repeat ?? 1;
  // A report folder that cannot be written is one line now, not a lost report at the end.
  makeOutputDir(args.reportDir, '--report-dir');
  /** the recordings folder of a replay, named on the last line */
  let replayed: string | undefined;
  /** --shard: which shard of which plan this run is; every report it writes says so, a failed one too */
  let shard: Report['shard'];
  const finish = async (report: Report): Promise<number> => {
    if (shard) report.shard = shard;
    // a run that did not reach its agent still names the version it was for (a merge of shards groups by it)
    if (!report.agent.version && args.knownVersion)
      report.agent = { ...report.agent, version: args.knownVersion, versionSource: 'option' };
    const paths = await writeReports(report, reportDir);
    for (const id of report.staleExpectations ?? [])
      console.error(`synconf: known deviation "${id}" matched no check of this run: update ${report.run.expectations}`);
    for (const e of report.harnessErrors)
      console.error(
        `synconf: ${[e.file, e.scenario, e.step && `step "${e.step}"`].filter(Boolean).join(': ')}${e.file || e.scenario ? ': ' : ''}${e.message}`,
      );
    out.verdict(report.verdict, report.exitCode);
    console.log(
      `reports: ${paths.map((p) => p.replace(process.cwd() + '/', '')).join(', ')}${replayed ? `; replayed from ${relative(process.cwd(), replayed).startsWith('..') ? resolve(replayed) : relative(process.cwd(), replayed) || '.'}` : ''}`,
    );
    if (report.repeat) console.log(stabilityLine(report)); // the last line: what a CI log shows first
    return report.exitCode;
  };

  // A baseline that cannot be read is the user's input error: said before anything runs.
  const baseline = args.baseline ? await readReport(args.baseline) : undefined;
  if (repeat > 1 && record)
    throw new UsageError('--repeat and --record do not go together: record once, then repeat the run');
  if (failOn.includes('new-failure') && !baseline)
    throw new UsageError('--fail-on new-failure needs --baseline <previous report.json>');
  /** the gate: repeated runs combined, compared with the baseline, exit code decided */
  const gate = (reports: Report[]): Report => {
    const report = repeat > 1 ? combineRuns(reports) : reports[0];
    if (baseline) compareWithBaseline(report, baseline, args.baseline!);
    return finalize(report, failOn);
  };

  let selection = await selectScenarios(args.suite, args.only);
  if (args.shard) {
    ({ selection, shard } = shardSelection(selection, args.shard, recordedDurations(bundledRecordings())));
    console.log(shardLine(shard));
  }
  if (selection.errors.length) {
    const report = emptyReport(
      mode,
      'none: the scenarios did not load',
      'scenario files did not load; nothing was run',
    );
    report.harnessErrors = selection.errors;
    report.verdict = verdictLine(report, failOn);
    return finish(report);
  }

  let target: Target | undefined;
  const partial: { report?: Report } = {};
  const interrupt = onInterrupt(async (signal) => {
    console.error(`\nsynconf: ${signal}: stopping; the report of the scenarios done so far is written`);
    const report = partial.report ?? emptyReport(mode, target?.description ?? 'unknown', `interrupted by ${signal}`);
    if (partial.report) report.harnessErrors.push({ message: `interrupted by ${signal} before the run ended` });
    await finish(finalize(report, failOn)).catch(() => {});
    await target?.close().catch(() => {});
  });

  try {
    const needsPeer = selection.scenarios.some((s) => s.scenario.needs?.includes('peer'));
    let wrap: ((t: LiveTransport) => Transport) | undefined;
    if (record) wrap = recorderFor(record);
    const reports: Report[] = [];
    // --repeat: a fresh target each time (a new lab, or the same given agent)
    for (let run = 1; run <= repeat; run++) {
      if (repeat > 1) console.log(`run ${run} of ${repeat}`);
      try {
        target = await makeTarget(needsPeer, wrap);
        if (target.mode === 'replay') replayed = target.description;
      } catch (e) {
        if (e instanceof SynconfError) return await finish(emptyReport(mode, 'not set up', e.message));
        throw e;
      }
      reports.push(
        await runScenarios(selection, target, {
          agentVersion: args.agentVersion,
          expectations: args.expectations,
          requestTimeoutMs: args.timeout * 1000,
          failOn,
          strict: args.strict,
          onStart: out.onStart,
          onScenario: out.onScenario,
          onReport: (r) => (partial.report = r),
        }),
      );
      if (interrupt.signal) return EXIT.usage;
      await target.close();
      target = undefined;
    }
    return await finish(gate(reports));
  } catch (e) {
    // A defect of synconf itself: still leave a report behind that says so; the caller reports the
    // fault (exit 3, the stack trace in a log file).
    const report = emptyReport(
      mode,
      target?.description ?? 'unknown',
      `internal error (a bug in synconf): ${(e as Error).message ?? e}`,
      EXIT.internal,
    );
    await finish(report).catch(() => {});
    throw e;
  } finally {
    await target?.close().catch(() => {});
    interrupt.off();
  }
}
