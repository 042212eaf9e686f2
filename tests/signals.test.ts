// Issue 41: no signal is ever lost. SIGINT, SIGTERM and SIGHUP take turns at twelve instants spread over a command's
// whole timeline (start-up, loading, the steps, the reports being written; tests/support/signal-shots.ts), and at
// every instant the outcome must be the same: exit 128 + n, one "interrupted (SIGNAME)" line, the report files whole
// and saying that code (or the previous ones untouched). Nothing here depends on the machine's speed: the timeline is
// measured first, and whatever phase an instant falls in, the outcome asked is the same. The bound on the time to end
// is a hang guard only; how soon a signal ends the process is measured by bench/signal-latency.mjs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Report } from '../src/schema/generated/types.js';
import { ROOT } from '../src/paths.js';
import { tempFolder } from './support/temp.js';
import { cli } from './support/cli.js';
import {
  fixtures,
  instants,
  shoot,
  shootAfterReport,
  shotFault,
  SIGNAL_CODES,
  timeline,
  type Command,
  type ShotSignal,
} from './support/signal-shots.js';

/** a process still running this long after its signal hangs (a signal heard seconds late is bench/'s to measure) */
const HANG_GUARD_MS = 30_000;
/**
 * Instants per command, spread over its timeline; the signals take turns over them, so each of the three is sent
 * from start-up to the last report file (which signal it is changes only its number and name, not the code path).
 */
const INSTANTS = 12;
/** shots run side by side (a 2-core machine): the timeline is measured the same way, two runs at once */
const SIDE_BY_SIDE = 2;
const SIGNALS = Object.keys(SIGNAL_CODES) as ShotSignal[];
const REC = join(ROOT, 'recordings', 'syncthing-1.19.2');
const RUN_FILES = ['report.json', 'junit.xml', 'report.html', 'summary.md'];
const scratch = tempFolder('signals');

/** `task` over `items`, at most SIDE_BY_SIDE at a time (`lane`: which of them); the results in the items' order */
async function sideBySide<T, R>(items: T[], task: (item: T, i: number, lane: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const lane = async (n: number) => {
    for (let i = next++; i < items.length; i = next++) results[i] = await task(items[i]!, i, n);
  };
  await Promise.all(Array.from({ length: SIDE_BY_SIDE }, (_, n) => lane(n)));
  return results;
}

/** the command with a report folder of its own in each lane */
const inLane = (cmd: Command, lane: number): Command => {
  const reportDir = `${cmd.reportDir}-${lane}`;
  return { ...cmd, reportDir, argv: cmd.argv.map((a) => (a === cmd.reportDir ? reportDir : a)) };
};

/** the signals taking turns over INSTANTS instants of the command's timeline; the shots' faults (none when all hold) */
async function shotsOver(cmd: Command): Promise<{ faults: string[]; landed: Record<ShotSignal, number> }> {
  const wholes = await sideBySide([0, 1], (_, i, lane) => timeline(inLane(cmd, lane)));
  const ms = wholes.reduce((sum, w) => sum + w.ms, 0) / wholes.length;
  const shots = await sideBySide(instants(ms, INSTANTS), (at, i, lane) =>
    shoot(inLane(cmd, lane), SIGNALS[i % SIGNALS.length]!, at),
  );
  const landed = { SIGINT: 0, SIGTERM: 0, SIGHUP: 0 };
  for (const s of shots) if (s.landed) landed[s.signal]++;
  const faults = shots.map((s) => shotFault(s, HANG_GUARD_MS)).filter((f): f is string => f !== undefined);
  return { faults, landed };
}

/** each signal landed at least once (a shot after the process ended judges nothing), and every landed shot held */
function assertHeld({ faults, landed }: Awaited<ReturnType<typeof shotsOver>>) {
  assert.deepEqual(faults, [], `${faults.length} shot(s) went wrong:\n${faults.join('\n\n')}`);
  for (const [signal, n] of Object.entries(landed)) assert.ok(n > 0, `no ${signal} landed before the process ended`);
}

describe('a signal at any instant ends the command with 128 + n, one line, whole reports', () => {
  // 20 steps: the phases of the 50 of issue 41 (loading in a worker, the steps, the folds of the failures, each
  // report file), each shorter; bench/signal-latency.mjs times the 50
  test('replay of one scenario of 20 steps × 1,000 each: rows (recordings/syncthing-1.19.2)', async () => {
    fixtures.eachRows(scratch(), 20);
    const cmd = {
      argv: ['replay', REC, '--suite', 'big.yaml', '--report-dir', 'r-each'],
      cwd: scratch(),
      reportDir: 'r-each',
      files: RUN_FILES,
    };
    assertHeld(await shotsOver(cmd));
  });

  // 100,000: the phases of the 200,000 of issue 41, each shorter; bench/signal-latency.mjs times the 200,000
  test('replay of a scenario of 100,000 steps', async () => {
    fixtures.longScenario(scratch(), 100_000, REC);
    const cmd = {
      argv: ['replay', 'rec', '--suite', 'suite', '--report-dir', 'r-long'],
      cwd: scratch(),
      reportDir: 'r-long',
      files: RUN_FILES,
    };
    assertHeld(await shotsOver(cmd));
  });

  // drift of two folders writes no report (the report folder holds the previous one, untouched); its interrupted line
  // names it, as every command's
  test('drift A B of two folders of 10 copies of the 1.19.2 and 2.1.0 cassettes', async () => {
    fixtures.manyCassettes(scratch(), 10, REC, join(ROOT, 'recordings', 'syncthing-2.1.0'));
    const cmd = {
      argv: ['drift', 'a', 'b'],
      cwd: scratch(),
      reportDir: 'untouched',
      files: ['untouched.json'],
      doneLine: /^\d+ causes: /m,
      named: 'synconf drift',
    };
    assertHeld(await shotsOver(cmd));
  });

  // report merge writes its matrix whole or not at all; its interrupted line names it (it was the entry's line,
  // 'synconf: interrupted', heard only between two reports read: the versions' pairs compared in one piece)
  test('report merge of 12 runs of the bundled 1.19.2 recordings, as 12 versions', async () => {
    const replayed = cli(['replay', REC, '--report-dir', 'one'], { cwd: scratch() });
    assert.equal(replayed.code, 0, replayed.stderr);
    fixtures.manyRuns(join(scratch(), 'runs'), 12, join(scratch(), 'one'));
    const cmd = {
      argv: ['report', 'merge', ...Array.from({ length: 12 }, (_, k) => `runs/v${k}/report.json`), '--out', 'merged'],
      cwd: scratch(),
      reportDir: 'merged',
      files: ['matrix.json', 'matrix.html', 'matrix.md'],
      codeless: true,
      named: 'synconf report merge',
    };
    assertHeld(await shotsOver(cmd));
  });

  // three scenarios: the same mutation loop (check mutants scenario by scenario, then the spec's, then the reports)
  // as over all of them, in a twentieth of the time; bench/signal-latency.mjs times all of them
  test('mutate of the bundled recordings (three system scenarios)', async () => {
    const only = ['system-ping', 'system-status', 'system-browse'].flatMap((id) => ['--only', id]);
    const cmd = {
      argv: ['mutate', ...only, '--report-dir', 'm'],
      cwd: scratch(),
      reportDir: 'm',
      files: ['mutation.json', 'mutation.html', 'mutation.md'],
      // an interrupted mutation run's report says so in its verdict (its exitCode is 2: not a verdict)
      interruptedMark: (doc: { verdict?: string }) => /INTERRUPTED/.test(doc.verdict ?? ''),
    };
    assertHeld(await shotsOver(cmd));
  });
});

// A signal that lands once the report is in place, before the process exits, wins too: the report is written again,
// marked interrupted (it said the verdict, exit 0, beside a process that exited 130). The shot holds the command
// between the two (its step summary a FIFO read only after the signal): no instant to aim at.
describe('a signal after the report is written, before the exit: the report says interrupted, as the exit code', () => {
  const replayCmd = (signal: ShotSignal): Command => ({
    argv: ['replay', '--only', 'system-ping', '--report-dir', `late-${signal}`],
    cwd: scratch(),
    reportDir: `late-${signal}`,
    files: RUN_FILES,
  });
  for (const signal of Object.keys(SIGNAL_CODES) as ShotSignal[])
    test(`replay, ${signal}`, async () => {
      const shot = await shootAfterReport(replayCmd(signal), signal);
      assert.ok(shot.landed, `the process ended before the signal:\n${shot.out}`);
      assert.equal(shotFault(shot, HANG_GUARD_MS), undefined);
    });

  // the verdict line says the process's exit code, whichever the signal (it said "exit 130" for SIGTERM)
  for (const signal of ['SIGTERM', 'SIGHUP'] as const)
    test(`mutate, ${signal}: INTERRUPTED (exit ${SIGNAL_CODES[signal]})`, async () => {
      const cmd = {
        argv: ['mutate', '--only', 'system-ping', '--report-dir', `late-m-${signal}`],
        cwd: scratch(),
        reportDir: `late-m-${signal}`,
        files: ['mutation.json', 'mutation.html', 'mutation.md'],
        interruptedMark: (doc: { verdict?: string }) => /INTERRUPTED/.test(doc.verdict ?? ''),
      };
      const shot = await shootAfterReport(cmd, signal);
      assert.ok(shot.landed, `the process ended before the signal:\n${shot.out}`);
      assert.equal(shotFault(shot, HANG_GUARD_MS), undefined);
      const doc = JSON.parse(readFileSync(join(cmd.cwd, cmd.reportDir, 'mutation.json'), 'utf8')) as {
        verdict: string;
      };
      assert.match(doc.verdict, new RegExp(`^synconf mutate: INTERRUPTED .*\\(exit ${SIGNAL_CODES[signal]}\\)$`));
    });
});

// matrix: its step summary is matrix.md, appended once matrix.json is in place, so the same FIFO holds it between its
// files and its exit. The signal wins there too: each version's report.json and the matrix's runs say 128 + n (they
// said the verdict, exit 0, beside a process that exited 128 + n).
describe('matrix: a signal after matrix.json is written, before the exit: every report says interrupted', () => {
  for (const signal of Object.keys(SIGNAL_CODES) as ShotSignal[])
    test(`matrix --recordings, ${signal}`, async () => {
      const code = SIGNAL_CODES[signal];
      const cmd: Command = {
        argv: ['matrix', '--recordings', REC, '--only', 'system-ping', '--report-dir', `late-x-${signal}`],
        cwd: scratch(),
        reportDir: `late-x-${signal}`,
        files: ['matrix.json', 'matrix.html', 'matrix.md'],
        interruptedMark: (doc) =>
          (doc as { columns: { exitCode: number }[] }).columns.every((r) => r.exitCode === code),
      };
      const shot = await shootAfterReport(cmd, signal);
      assert.ok(shot.landed, `the process ended before the signal:\n${shot.out}`);
      assert.equal(shotFault(shot, HANG_GUARD_MS), undefined);
      const matrix = JSON.parse(readFileSync(join(cmd.cwd, cmd.reportDir, 'matrix.json'), 'utf8')) as {
        columns: { file: string }[];
      };
      for (const run of matrix.columns) {
        const report = JSON.parse(readFileSync(join(resolve(cmd.cwd, run.file), 'report.json'), 'utf8')) as Report;
        assert.equal(report.exitCode, code, `${run.file}/report.json: ${report.verdict}`);
        assert.ok(report.harnessErrors.some((e) => e.message.startsWith(`interrupted by ${signal} after the run`)));
      }
    });
});
