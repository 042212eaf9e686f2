// The shared body of `run`, `replay` and `drift`: select scenarios, set up a target, run, write
// the reports, tear down. Whatever happens — a malformed scenario, an agent that dies, Ctrl-C —
// the report is written and the exit code says what happened.
import { relative, resolve } from 'node:path';
import type { Report, Verdict } from '../schema/generated/types.js';
import { selectScenarios, runScenarios, verdictLine, finalize, emptyReport, type Target } from './run.js';
import type { LiveTransport } from '../transport/live.js';
import type { Transport } from '../transport/types.js';
import { writeReports } from '../report/write.js';
import { prepareDir } from '../report/prepare-dir.js';
import { progress } from './progress.js';
import { EXIT, SynconfError } from '../errors.js';

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
  /** undocumented members fail (otherwise they are notes) */
  strict?: boolean;
}

export interface RecordOptions { dir: string; mode: 'all' | 'once' | 'new'; redact: string[]; }

export type MakeTarget = (needsPeer: boolean, wrap?: (t: LiveTransport) => Transport) => Promise<Target>;

export async function executeRun(args: CommonRunOptions, makeTarget: MakeTarget, record?: RecordOptions, mode: Report['run']['mode'] = record ? 'record' : 'live'): Promise<number> {
  const out = progress();
  const reportDir = resolve(args.reportDir);
  const failOn = args.failOn as Verdict[];
  // A report folder that cannot be written is one line now, not a lost report at the end.
  await prepareDir(args.reportDir, '--report-dir');
  /** the recordings folder of a replay, named on the last line */
  let replayed: string | undefined;
  const finish = async (report: Report): Promise<number> => {
    const paths = await writeReports(report, reportDir);
    for (const id of report.staleExpectations ?? []) console.error(`synconf: known deviation "${id}" matched no check of this run: update ${report.run.expectations}`);
    for (const e of report.harnessErrors) console.error(`synconf: ${[e.file, e.scenario, e.step && `step "${e.step}"`].filter(Boolean).join(': ')}${e.file || e.scenario ? ': ' : ''}${e.message}`);
    out.verdict(report.verdict, report.exitCode);
    console.log(`reports: ${paths.map((p) => p.replace(process.cwd() + '/', '')).join(', ')}${replayed ? `; replayed from ${relative(process.cwd(), replayed).startsWith('..') ? resolve(replayed) : relative(process.cwd(), replayed) || '.'}` : ''}`);
    return report.exitCode;
  };

  const selection = await selectScenarios(args.suite, args.only);
  if (selection.errors.length) {
    const report = emptyReport(mode, 'none: the scenarios did not load', 'scenario files did not load; nothing was run');
    report.harnessErrors = selection.errors;
    report.verdict = verdictLine(report, failOn);
    return finish(report);
  }

  let target: Target | undefined;
  let interrupted = false;
  const partial: { report?: Report } = {};
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(EXIT.usage);
    interrupted = true;
    console.error(`\nsynconf: ${signal}: stopping; the report of the scenarios done so far is written`);
    void (async () => {
      const report = partial.report ?? emptyReport(mode, target?.description ?? 'unknown', `interrupted by ${signal}`);
      if (partial.report) report.harnessErrors.push({ message: `interrupted by ${signal} before the run ended` });
      await finish(finalize(report, failOn)).catch(() => {});
      await target?.close().catch(() => {});
      process.exit(EXIT.usage);
    })();
  };
  // on(), not once(): the lab's own handler re-raises the signal when no other listener is left,
  // which would end the process before the report is written.
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    const needsPeer = selection.scenarios.some((s) => s.scenario.needs?.includes('peer'));
    let wrap: ((t: LiveTransport) => Transport) | undefined;
    if (record) {
      const { recorderFor } = await import('../transport/recorder.js');
      wrap = recorderFor(record);
    }
    try {
      target = await makeTarget(needsPeer, wrap);
      if (target.mode === 'replay') replayed = target.description;
    } catch (e) {
      if (e instanceof SynconfError) return finish(emptyReport(mode, 'not set up', e.message));
      throw e;
    }
    const report = await runScenarios(selection, target, {
      agentVersion: args.agentVersion,
      expectations: args.expectations,
      requestTimeoutMs: args.timeout * 1000,
      failOn,
      strict: args.strict,
      onStart: out.onStart,
      onScenario: out.onScenario,
      onReport: (r) => (partial.report = r),
    });
    if (interrupted) return EXIT.usage;
    await target.close();
    target = undefined;
    return await finish(report);
  } catch (e) {
    // A defect of synconf itself: still leave a report behind that says so; the caller reports the
    // fault (exit 3, the stack trace in a log file).
    const report = emptyReport(mode, target?.description ?? 'unknown', `internal error (a bug in synconf): ${(e as Error).message ?? e}`, EXIT.internal);
    await finish(report).catch(() => {});
    throw e;
  } finally {
    await target?.close().catch(() => {});
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
