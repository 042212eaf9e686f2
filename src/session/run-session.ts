// One run session, the shell of `run`, `replay` and `drift`: select scenarios, set up a target, run, write the
// reports, tear down. Whatever happens (a malformed scenario, an agent that dies, Ctrl-C) the report is written and
// the exit code says what happened. It prints nothing: the command's listener (session/listener.ts) hears each
// scenario, line and the end; the process's signals come from the command (`SignalHook`, session/guard.ts).
import { resolve } from 'node:path';
import type { FailOn, Report } from '../schema/generated/types.js';
import type { MakeTarget, RunOptions, Target } from '../runner/run.js';
import { runOnce, type RunPlan } from './run-once.js';
import type { RecorderOptions } from '../transport/recorder.js';
import type { Selection } from '../scenario/select.js';
import type { ShardSpec } from '../scenario/shard.js';
import { boundsOf, selectionOf } from './scope.js';
import { verdictLine, finalize, emptyReport, interruptedReport } from '../verdict/totals.js';
import { writeReports, settled, UnwritableReport, verdictAsPrinted, WriteAbandoned } from './write-reports.js';
import { makeOutputDir } from '../output-dir.js';
import { guard, STOP_WITHIN_MS, type Guard, type SignalHook } from './guard.js';
import type { SessionListener } from './listener.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { EXIT, exitCodeOfSignal, SynconfError, UsageError } from '../errors.js';
import { readReport } from '../report/load.js';
import { compareWithBaseline } from '../verdict/baseline.js';
import { combineRuns } from '../verdict/repeat.js';

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
  /** --run-timeout: seconds the whole run may take (default runner/bounds.ts) */
  runTimeout?: number;
  /** --scenario-timeout: seconds each scenario may take */
  scenarioTimeout?: number;
  /** drift: the report folder is a temporary one, removed when the run ends (0 or 1) */
  temporaryReport?: boolean;
}

type RecordOptions = RecorderOptions;

/** a run's target: the n-th run of `of` (--repeat) */
export interface RunTurn {
  run: number;
  of: number;
}

/** how a run session ended: its report in place (or not: `unwritable`), as the listener prints it */
export interface RunEnding {
  report: Report;
  /** the files written */
  paths: string[];
  /** why a file could not be written (exit 2 then) */
  unwritable?: Error;
  /** the verdict line as printed, and the code it ends with */
  verdict: string;
  exitCode: number;
  /** the recordings folder of a replay */
  replayed?: string;
  /** the report folder was a temporary one and goes (drift): not named */
  removed: boolean;
}

export type RunListener = SessionListener<RunTurn, RunEnding>;

/** what the command gives a run session: its listener and the process's signals */
export interface RunIo {
  listener: RunListener;
  signals: SignalHook;
}

/** what the end of a run needs beside its report: where reports go, the progress output, what was replayed */
interface Ending {
  args: CommonRunOptions;
  reportDir: string;
  out: RunListener;
  /** the recordings folder of a replay, named on the last line */
  replayed?: string;
  /** --shard: which shard of which plan this run is; every report it writes says so, a failed one too */
  shard?: Report['shard'];
}

/** writes the report folder, says what went wrong and the verdict; the exit code (WriteAbandoned once `abandon` is) */
async function endRun(report: Report, end: Ending, abandon?: AbortSignal): Promise<number> {
  const { args, out, replayed } = end;
  if (end.shard) report.shard = end.shard;
  // a run that did not reach its agent still names the version it was for (a merge of shards groups by it)
  if (!report.agent.version && args.knownVersion)
    report.agent = { ...report.agent, version: args.knownVersion, versionSource: 'option' };
  // a file that cannot be written leaves the others and the verdict line, then the error (exit 2)
  const { paths, unwritable } = await settled(writeReports(report, end.reportDir, { abandon }));
  // a temporary report is named only when it is kept, as the evidence of a run that did not end (drift says so)
  const removed = !!args.temporaryReport && !unwritable && report.exitCode <= EXIT.nonConforming;
  const verdict = verdictAsPrinted(report.verdict, unwritable);
  const exitCode = unwritable ? EXIT.usage : report.exitCode;
  out.end?.({ report, paths, unwritable, verdict, exitCode, replayed, removed });
  if (unwritable) throw unwritable;
  return report.exitCode;
}

/** the options that do not go together, and the baseline: the user's input errors, said before anything runs */
async function baselineOf(args: CommonRunOptions, record: RecordOptions | undefined): Promise<Report | undefined> {
  // A baseline that cannot be read is the user's input error: said before anything runs.
  // one cut by hand would turn the checks it lost into "new checks": the same refusal as a merge's
  const baseline = args.baseline ? await readReport(args.baseline, { whole: true }) : undefined;
  if ((args.repeat ?? 1) > 1 && record)
    throw new UsageError('--repeat and --record do not go together: record once, then repeat the run');
  if ((args.failOn as FailOn[]).includes('new-failure') && !baseline)
    throw new UsageError('--fail-on new-failure needs --baseline <previous report.json>');
  return baseline;
}

/** how the runner runs the scenarios, from the command's options */
function runOptions(args: CommonRunOptions, out: RunListener, turn: RunTurn): RunOptions {
  return {
    agentVersion: args.agentVersion,
    expectations: args.expectations,
    requestTimeoutMs: args.timeout * 1000,
    failOn: args.failOn as FailOn[],
    strict: args.strict,
    onStart: (s, i, total) => out.scenarioStart?.(turn, s, i, total),
    onScenario: (r, i, total) => out.scenario?.(turn, r, i, total),
  };
}

/** one run under way: its target while one is set up, and its report as it fills in (for Ctrl-C) */
interface Session {
  selection: Selection;
  makeTarget: MakeTarget;
  record?: RecordOptions;
  mode: Report['run']['mode'];
  end: Ending;
  target?: Target;
  partial?: Report;
  /** aborted by Ctrl-C (its reason says which signal): the scenario under way stops between steps, no other starts */
  stop: AbortSignal;
  /** writes the report of a run `signal` stopped (marked so); the exit code, 128 + n */
  stopped: (report: Report, signal: NodeJS.Signals) => Promise<number>;
}

/**
 * The runs (--repeat: a fresh target each time, a new lab or the same given agent); their reports, or the reason
 * the target could not be set up. Ctrl-C ends the runs with the report of the one under way.
 */
async function runRepeats(s: Session): Promise<Report[] | { notSetUp: string }> {
  const { args } = s.end;
  const repeat = args.repeat ?? 1;
  const reports: Report[] = [];
  for (let run = 1; run <= repeat; run++) {
    const turn = { run, of: repeat };
    s.end.out.targetStart?.(turn);
    const plan: RunPlan = {
      selection: s.selection,
      makeTarget: s.makeTarget,
      reportDir: s.end.reportDir,
      record: s.record,
      options: {
        ...runOptions(args, s.end.out, turn),
        onReport: (r) => (s.partial = r),
        signal: s.stop,
        ...boundsOf(args),
      },
      say: s.end.out.say,
      onTarget: (t) => {
        s.target = t;
        if (t?.mode === 'replay') s.end.replayed = t.description;
      },
    };
    const outcome = await runOnce(plan);
    if ('notSetUp' in outcome) return outcome;
    reports.push(outcome.report);
    if (s.stop.aborted) break;
  }
  return reports;
}

/** loading, the runs and their report; the exit code (128 + n when signal n stopped them, whenever it landed) */
async function runSession(
  s: Session,
  interrupt: Guard,
  finish: (report: Report, abandon?: AbortSignal) => Promise<number>,
  gate: (reports: Report[]) => Report,
): Promise<number> {
  const failOn = s.end.args.failOn as FailOn[];
  const { stopped } = s;
  // the verdict's report, unless a signal lands while it is written: then the report of the run, interrupted
  const verdict = async (report: Report) => {
    try {
      return await finish(report, s.stop);
    } catch (e) {
      if (e instanceof WriteAbandoned && interrupt.signal) return stopped(report, interrupt.signal);
      throw e;
    }
  };
  const { selection, shard } = await selectionOf(s.end.args, s.stop);
  s.selection = selection;
  if (shard) s.end.out.shard?.((s.end.shard = shard)); // said on a line of its own
  const whileLoading = interrupt.signal;
  if (whileLoading)
    return stopped(
      emptyReport(s.mode, 'none: interrupted while loading', 'nothing ran: the scenarios were still loading'),
      whileLoading,
    );
  if (s.selection.errors.length) {
    const report = emptyReport(
      s.mode,
      'none: the scenarios did not load',
      'scenario files did not load; nothing was run',
    );
    report.harnessErrors = s.selection.errors;
    report.verdict = verdictLine(report, failOn);
    return verdict(report);
  }
  const done = await runRepeats(s);
  // a signal that landed while the last steps ran without a pause is heard here: it wins over the verdict
  const signal = await interrupt.heard();
  if (signal)
    return stopped(
      Array.isArray(done) && done.length ? gate(done) : (s.partial ?? emptyReport(s.mode, 'not set up', 'nothing ran')),
      signal,
    );
  if (!Array.isArray(done)) return verdict(emptyReport(s.mode, 'not set up', done.notSetUp));
  return verdict(gate(done));
}

const notWrittenLine = (dir: string, say: (line: string) => void) =>
  say(
    `synconf: the report of what ran was not written: it took more than ${STOP_WITHIN_MS} ms after the signal; ${dir} holds what it held before`,
  );

/**
 * The report of a run that ended, in place, rewritten once a signal came after it (whole or not at all: the folder
 * then holds the verdict's report, said on a line)
 */
async function markInterrupted(report: Report, signal: NodeJS.Signals, end: Ending, failOn: FailOn[]): Promise<void> {
  const dir = end.reportDir;
  const marked = interruptedReport(report, signal, failOn, 'after the run ended, once its report was written');
  try {
    await writeReports(marked, dir, { rendered: true });
  } catch (e) {
    end.out.say(`synconf: ${dir} could not be marked interrupted: ${(e as Error).message}`);
  }
}

/**
 * The one writer of the report folder: the run's own end, or (a run that does not stop in time after a signal) the
 * interrupt's, never both. `finish` writes a report (WriteAbandoned once `abandon` is: nothing written); `stopped`
 * the report of a run a signal stopped, whole or not at all: by the interrupt's deadline, STOP_WITHIN_MS after the
 * signal (a report of 50,000 checks renders for seconds), and once (the interrupt and the run may both come to it).
 */
function reportWriter(end: Ending, failOn: FailOn[], onVerdict: (report: Report) => void, deadline: () => AbortSignal) {
  let written = false;
  const finish = async (report: Report, abandon?: AbortSignal) => {
    if (written) return report.exitCode;
    written = true;
    try {
      const code = await endRun(report, end, abandon);
      if (code < 128) onVerdict(report); // its verdict's report is in place: a signal from now on rewrites it
      return code;
    } catch (e) {
      if (e instanceof WriteAbandoned) written = false; // nothing written: the interrupted report may be, in its place
      throw e;
    }
  };
  const stopped = async (report: Report, signal: NodeJS.Signals) => {
    if (written) return exitCodeOfSignal(signal);
    try {
      await finish(interruptedReport(report, signal, failOn), deadline());
    } catch (e) {
      if (!(e instanceof WriteAbandoned)) throw e;
      notWrittenLine(end.reportDir, end.out.say);
    }
    return exitCodeOfSignal(signal);
  };
  return { finish, stopped, written: () => written };
}

/** a run session: the exit code (a fault of synconf's is thrown, once its report is written) */
export async function executeRun(
  args: CommonRunOptions,
  makeTarget: MakeTarget,
  io: RunIo,
  record?: RecordOptions,
  mode: Report['run']['mode'] = record ? 'record' : 'live',
): Promise<number> {
  const failOn = args.failOn as FailOn[];
  const baseline = await baselineOf(args, record);
  // A report folder that cannot be written is one line now (after the usage errors), not a lost report at the end.
  makeOutputDir(args.reportDir, '--report-dir');
  const end: Ending = {
    args,
    reportDir: resolve(args.reportDir),
    out: io.listener,
  };
  const { finish, stopped, written } = reportWriter(
    end,
    failOn,
    (report) =>
      interrupt.afterReport(
        (signal) => markInterrupted(report, signal, end, failOn),
        'the report written is marked interrupted',
      ),
    () => interrupt.deadline,
  );
  /** the gate: repeated runs combined, compared with the baseline, exit code decided */
  const gate = (reports: Report[]): Report => {
    const report = (args.repeat ?? 1) > 1 ? combineRuns(reports) : reports[0];
    if (baseline) compareWithBaseline(report, baseline, args.baseline!);
    return finalize(report, failOn);
  };

  const session: Session = {
    selection: { scenarios: [], errors: [] },
    makeTarget,
    record,
    mode,
    end,
    stop: new AbortController().signal,
    stopped,
  };
  const { interrupt, ended } = guardRun(session, stopped, written, io.signals);
  try {
    return await runSession(session, interrupt, finish, gate);
  } catch (e) {
    if (e instanceof UnwritableReport) throw e; // the user's folder: the verdict is printed, exit 2
    if (e instanceof SynconfError) throw e; // the user's input (a bad --only pattern): one line, exit 2
    // A defect of synconf itself: still leave a report behind that says so; the caller reports the
    // fault (exit 3, the stack trace in a log file).
    const report = emptyReport(
      mode,
      session.target?.description ?? 'unknown',
      `internal error (a bug in synconf): ${(e as Error).message ?? e}`,
      EXIT.internal,
    );
    await finish(report).catch(() => {});
    throw e;
  } finally {
    await session.target?.close().catch(() => {});
    ended();
    interrupt.off();
  }
}

/**
 * Signals are heard from here on, loading included: the run stops between steps and writes the report of what ran
 * itself, by the interrupt's deadline. A run that has not begun to by half of it (stuck: a target being set up) has
 * what there is written here (`write`, by the same deadline; the run's own writer then writes nothing). `ended` says
 * the run has written its report (the interrupt then exits 128 + the signal's number).
 */
function guardRun(
  session: Session,
  write: (report: Report, signal: NodeJS.Signals) => Promise<unknown>,
  writing: () => boolean,
  signals: SignalHook,
) {
  let ended: () => void = () => {};
  const runEnded = new Promise<void>((r) => (ended = r));
  const endedWithin = (ms: number) => Promise.race([runEnded.then(() => true), sleep(ms).then(() => false)]);
  const interrupt = guard(signals, {
    line: { command: 'synconf', doing: 'stopping; the report of the scenarios done so far is written' },
    stop: async (signal) => {
      if (await endedWithin(STOP_WITHIN_MS / 2)) return;
      if (!writing()) {
        const { partial, target } = session;
        const report = partial ?? emptyReport(session.mode, target?.description ?? 'unknown', 'nothing ran');
        await target?.close().catch(() => {}); // first: closing a recorder writes the run's _run.har
        return void (await write(report, signal).catch(() => {}));
      }
      // the report under way gives up at the deadline (said by its writer); one still going then is not waited for:
      // the process exits, its staged files removed as it goes (the folder as it was)
      if (!(await endedWithin(STOP_WITHIN_MS / 2 + 100))) notWrittenLine(session.end.reportDir, session.end.out.say);
    },
  });
  session.stop = interrupt.abort;
  return { interrupt, ended: () => ended() };
}
