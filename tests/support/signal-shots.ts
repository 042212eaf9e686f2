// A signal sent at many instants of one command's timeline, without depending on the machine's speed: the command is
// run once unsignalled to learn its timeline (start-up to exit), then once per instant with SIGINT, SIGTERM or SIGHUP
// sent at that fraction of it. What each shot gives is judged the same whatever the instant: the exit code, how long
// the process took to end after the signal, how many "interrupted" lines it printed and what became of its report
// files (each parses and says the code the process exited with, or is the previous one, untouched). A signal sent
// after the process ended by itself did not land: that shot says so and is judged by nobody.
// Used by tests/signals.test.ts (the outcome) and bench/signal-latency.mjs (the latency figures).
import { execFileSync, spawn } from 'node:child_process';
import {
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { BIN, cliEnv } from './cli.js';

export const SIGNAL_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
export type ShotSignal = keyof typeof SIGNAL_CODES;

/** one command as a test runs it: its arguments, its folder, its report folder and the report files it writes */
export interface Command {
  argv: string[];
  cwd: string;
  /** the report folder (relative to cwd) */
  reportDir: string;
  /** the report files the command writes there (the first a JSON document with exitCode) */
  files: string[];
  /** how the first file says it was interrupted (default: its exitCode is the process's, 128 + n) */
  interruptedMark?: (doc: { exitCode?: number; verdict?: string }) => boolean;
  /** the first file says no exit code (report merge's matrix.json): parsing, whole and in place is all it must be */
  codeless?: boolean;
  /** the command its interrupted line names ("synconf drift: interrupted (SIGINT): ..."), when it must */
  named?: string;
  /** what the command prints once its work is done (default: the line naming its report's first file) */
  doneLine?: RegExp;
}

export interface Shot {
  signal: ShotSignal;
  /** when the signal was sent, ms after the start */
  atMs: number;
  /** false: the process had ended before the signal was sent (nothing to judge) */
  landed: boolean;
  /** the process had printed the line naming its report files when the signal was sent: it was ending */
  ending?: boolean;
  code: number | null;
  /** ms from the signal to the process's exit */
  latencyMs: number;
  /** lines of the output saying "interrupted (SIGNAME)" */
  interruptedLines: number;
  /** undefined when the report files are whole and consistent; otherwise what is wrong with them */
  reportFault?: string;
  out: string;
}

/** a previous report the command may replace: each file holds this text until then */
const PREVIOUS = 'the previous report\n';

function startCli(cmd: Command, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [BIN, ...cmd.argv], { cwd: cmd.cwd, env: cliEnv(env) });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (out += d));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, at: performance.now() })),
  );
  return { child, exited, out: () => out };
}

/** the command's whole timeline, unsignalled: ms from start to exit, and its exit code */
export async function timeline(cmd: Command): Promise<{ ms: number; code: number | null; out: string }> {
  const started = performance.now();
  const run = startCli(cmd);
  const { code, at } = await run.exited;
  return { ms: at - started, code, out: run.out() };
}

/** what is wrong with the report files after a shot that exited with `code`, or undefined */
function reportFault(cmd: Command, code: number | null): string | undefined {
  const dir = join(cmd.cwd, cmd.reportDir);
  const halves = readdirSync(dir).filter((n) => n.endsWith('.partial'));
  if (halves.length) return `files left half-written: ${halves.join(', ')}`;
  const texts = cmd.files.map((f) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : undefined));
  if (texts.every((t) => t === PREVIOUS)) return undefined; // the previous report, untouched
  if (texts.some((t) => t === undefined || t === PREVIOUS))
    return `a mix of new and previous (or missing) files: ${cmd.files.filter((_, i) => texts[i] !== PREVIOUS).join(', ')} new`;
  let json: { exitCode?: number; verdict?: string };
  try {
    json = JSON.parse(texts[0]!) as { exitCode?: number; verdict?: string };
  } catch (e) {
    return `${cmd.files[0]} does not parse: ${(e as Error).message}`;
  }
  const signalled = Object.values(SIGNAL_CODES).includes(code as 130);
  const consistent =
    cmd.codeless || (signalled && cmd.interruptedMark ? cmd.interruptedMark(json) : json.exitCode === code);
  if (!consistent) return `${cmd.files[0]} says exit ${json.exitCode} (${json.verdict}), the process exited ${code}`;
  const empty = cmd.files.filter((_, i) => !texts[i]!.trim());
  return empty.length ? `empty: ${empty.join(', ')}` : undefined;
}

/** the report folder holding a previous report (and nothing else) */
function seedPrevious(cmd: Command): void {
  const dir = join(cmd.cwd, cmd.reportDir);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const f of cmd.files) writeFileSync(join(dir, f), PREVIOUS);
}

/**
 * Whether the process still runs: its exit is seen here only once this process's event loop turns (seconds late on a
 * loaded machine), and a signal sent to a process that had exited (a zombie, not yet reaped) cannot land. Linux's
 * /proc says so at once; where there is none, the exit event alone decides.
 */
function stillRunning(child: ReturnType<typeof spawn>): boolean {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return false;
  try {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT' || !existsSync('/proc/self/stat');
  }
}

/** the signal sent if the process still runs: when it was sent, or undefined */
const sendIfRunning = (child: ReturnType<typeof spawn>, signal: ShotSignal): number | undefined =>
  stillRunning(child) && child.kill(signal) ? performance.now() : undefined;

/** the command run once with `signal` sent `atMs` after its start */
export async function shoot(cmd: Command, signal: ShotSignal, atMs: number): Promise<Shot> {
  seedPrevious(cmd);
  const started = performance.now();
  const run = startCli(cmd);
  const ended = await Promise.race([
    run.exited.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), atMs)),
  ]);
  const said = run.out();
  const sentAt = ended ? undefined : sendIfRunning(run.child, signal);
  const shot = await judged(cmd, run, signal, started, sentAt);
  return { ...shot, ending: cmd.doneLine?.test(said) ?? said.includes(`${cmd.reportDir}/${cmd.files[0]}`) };
}

/**
 * The command run once with `signal` sent after its report is in place, before it exits. Its GitHub step summary is
 * a FIFO no one reads yet: the command appends to it once its report files are renamed into place, and blocks in
 * opening it until a reader comes. The signal is sent once the report's first file holds the new report (a state
 * the test sees), then the FIFO is opened, so the signal lands between the report and the exit, on any machine.
 */
export async function shootAfterReport(cmd: Command, signal: ShotSignal): Promise<Shot> {
  seedPrevious(cmd);
  const fifo = join(cmd.cwd, `${cmd.reportDir}.summary.fifo`);
  rmSync(fifo, { force: true });
  execFileSync('mkfifo', [fifo]);
  const started = performance.now();
  const run = startCli(cmd, { GITHUB_STEP_SUMMARY: fifo });
  const first = join(cmd.cwd, cmd.reportDir, cmd.files[0]!);
  // a command that blocks before its report (a step summary appended earlier) is killed at last: a hang, not a wait
  const guard = setTimeout(() => run.child.kill('SIGKILL'), 60_000);
  while (run.child.exitCode === null && readFileSync(first, 'utf8') === PREVIOUS) await sleep(10);
  clearTimeout(guard);
  const sentAt = sendIfRunning(run.child, signal);
  // a reader for as long as the command runs, opened for writing too so that it never sees the end of the pipe:
  // each summary the command appends (its verdict's, the interrupted one's) is read and dropped
  const reader = new Socket({ fd: openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK), writable: false });
  reader.resume();
  try {
    return await judged(cmd, run, signal, started, sentAt);
  } finally {
    reader.destroy();
  }
}

/** what a shot gave, once its process ended */
async function judged(
  cmd: Command,
  run: ReturnType<typeof startCli>,
  signal: ShotSignal,
  started: number,
  sentAt: number | undefined,
): Promise<Shot> {
  // a second signal is never sent: a process that does not end by itself is killed at last (a hang)
  const guard = setTimeout(() => run.child.kill('SIGKILL'), 60_000);
  const { code, at } = await run.exited;
  clearTimeout(guard);
  const out = run.out();
  const named = (l: string) => !cmd.named || l.startsWith(`${cmd.named}: `);
  const interruptedLines = out.split('\n').filter((l) => l.includes(`interrupted (${signal})`) && named(l)).length;
  return {
    signal,
    atMs: Math.round((sentAt ?? at) - started),
    landed: sentAt !== undefined,
    code,
    latencyMs: sentAt === undefined ? 0 : Math.round(at - sentAt),
    interruptedLines,
    reportFault: reportFault(cmd, code),
    out,
  };
}

/** `count` instants spread over a timeline of `ms`, from its start-up to its last moments */
export const instants = (ms: number, count: number): number[] =>
  Array.from({ length: count }, (_, i) => Math.round((ms * (i + 0.5)) / count));

/** what is wrong with a shot that landed, or undefined: 128 + n, one interrupted line, whole report files */
export function shotFault(shot: Shot, boundMs: number): string | undefined {
  if (!shot.landed) return undefined;
  // A signal sent once the process has said where its reports are may find it committed to its exit (process.exit
  // running, the loop never turning again): no process can act on it then, and ending with the verdict's code,
  // no "interrupted" line and the report saying that code is whole and true. Between the report and the exit the
  // signal must still win: shootAfterReport holds the process there and judges it strictly.
  const signalled = Object.values(SIGNAL_CODES).includes(shot.code as 130);
  if (shot.ending && !signalled && shot.interruptedLines === 0 && !shot.reportFault) return undefined;
  const want = SIGNAL_CODES[shot.signal];
  const faults = [
    shot.code !== want && `exit ${shot.code}, want ${want}`,
    shot.interruptedLines !== 1 && `${shot.interruptedLines} "interrupted (${shot.signal})" lines, want 1`,
    shot.latencyMs > boundMs && `ended ${shot.latencyMs} ms after the signal (bound ${boundMs} ms)`,
    shot.reportFault,
  ].filter(Boolean);
  return faults.length ? `${shot.signal} at ${shot.atMs} ms: ${faults.join('; ')}\n${shot.out.slice(-800)}` : undefined;
}

/** scenarios and recordings for the shots, written into `dir` */
export const fixtures = {
  /** one scenario of `count` steps of 1,000 `each:` rows (50 by default: 50,000 requests), replayed from the bundled
   * 1.19.2 recordings */
  eachRows(dir: string, count = 50): void {
    const rows = (k: number) =>
      Array.from(
        { length: 1000 },
        (_, i) => `      - { name: t${k}-r${i}, request: { method: GET, path: /rest/system/ping } }\n`,
      );
    const steps = Array.from(
      { length: count },
      (_, k) =>
        `  - name: t${k}\n    expect: { status: 200, assert: [{ path: /ping, equals: pong }] }\n    each:\n${rows(k).join('')}`,
    );
    writeFileSync(
      join(dir, 'big.yaml'),
      `id: system-ping\ntitle: big\nspec: [GET /rest/system/ping]\nsteps:\n${steps.join('')}`,
    );
  },
  /** a/ and b/: every cassette of the recordings `older` and `newer`, `copies` times each (as scenarios of their own) */
  manyCassettes(dir: string, copies: number, older: string, newer: string): void {
    for (const [side, from] of [
      ['a', older],
      ['b', newer],
    ] as const) {
      mkdirSync(join(dir, side), { recursive: true });
      for (const file of readdirSync(from).filter((f) => f.endsWith('.har') && !f.startsWith('_'))) {
        const id = file.slice(0, -4);
        const har = readFileSync(join(from, file), 'utf8');
        for (let k = 0; k < copies; k++)
          writeFileSync(
            join(dir, side, `${id}-${k}.har`),
            har.replace(new RegExp(`"scenario": *"${id}"`, 'g'), `"scenario": "${id}-${k}"`),
          );
      }
    }
  },
  /** v0/ … v`copies - 1`/: the report folder `run` (report.json and its recordings/) as runs of as many versions */
  manyRuns(dir: string, copies: number, run: string): void {
    const report = readFileSync(join(run, 'report.json'), 'utf8');
    for (let k = 0; k < copies; k++) {
      const doc = JSON.parse(report) as { agent: { version: string }; run: { startedAt: string } };
      doc.agent.version = `v1.${20 + k}.0`;
      doc.run.startedAt = new Date(Date.UTC(2026, 0, 1, 0, k)).toISOString(); // not "the same run given twice"
      cpSync(run, join(dir, `v${k}`), { recursive: true });
      writeFileSync(join(dir, `v${k}`, 'report.json'), JSON.stringify(doc));
    }
  },
  /** suite/: a ping scenario, then one of `steps` pauses and a ping; rec/: their recordings */
  longScenario(dir: string, steps: number, recordings: string): void {
    mkdirSync(join(dir, 'suite'), { recursive: true });
    mkdirSync(join(dir, 'rec'), { recursive: true });
    const yaml = readFileSync(join(recordings, '..', '..', 'suites', 'system', 'ping.yaml'), 'utf8');
    const pauses = Array.from({ length: steps }, (_, i) => `  - name: pause-${i}\n    sleep: 1ms\n`).join('');
    writeFileSync(join(dir, 'suite', 'b-long.yaml'), yaml.replace(/^steps:\n/m, `steps:\n${pauses}`));
    writeFileSync(join(dir, 'suite', 'a-first.yaml'), yaml.replace(/^id: system-ping$/m, 'id: ping-first'));
    const har = readFileSync(join(recordings, 'system-ping.har'), 'utf8');
    cpSync(join(recordings, '_run.har'), join(dir, 'rec', '_run.har'));
    writeFileSync(join(dir, 'rec', 'system-ping.har'), har);
    writeFileSync(
      join(dir, 'rec', 'ping-first.har'),
      har.replace(/"scenario": *"system-ping"/g, '"scenario": "ping-first"'),
    );
  },
};
