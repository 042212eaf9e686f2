// One row harness for the hostile-input and fault tables (issue 39): tests/hostile-cli, hostile-files, hostile-input
// and faults each list rows, the built command run from a scratch folder of its own. Here, once: the run (killed past
// its time bound and, when given, its memory bound; a signal sent once a state the row can see holds, never after a
// delay), the judgement every table shares (wrong: a hang, memory, the exit code, files; muddled: the message, its
// lines, a stack or an internal error), the rule that broken input never ends 0 or 1 and nothing ends 3, and the tally
// of rows by class that each file prints at its end.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnCli, type CliResult } from './cli.js';

export interface RowRun {
  argv: string[];
  cwd: string;
  /** added to the scrubbed environment (cliEnv) */
  env?: NodeJS.ProcessEnv;
  /** killed (SIGKILL) this long after it starts, and this long after its signal when `signal.rearm` */
  hangMs: number;
  /** killed (SIGKILL) once its resident memory passes this many bytes */
  rssLimit?: number;
  /** sent once `ready` holds (given the output so far): looked at on each output and every 10 ms */
  signal?: { name: NodeJS.Signals; ready: (out: string) => boolean; twice?: boolean; rearm?: boolean };
}

export interface RowResult extends CliResult {
  /** the most resident memory seen (bytes; 0 when not watched) */
  rss: number;
}

/** the peak resident memory of a process so far (VmHWM), 0 once it is gone */
function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** the row's command to its end: killed past its bounds, its signal sent when the row's state is reached */
export function runRow(run: RowRun): Promise<RowResult> {
  const child = spawnCli(run.argv, { cwd: run.cwd, env: run.env });
  const kill = () => child.kill('SIGKILL');
  let timer = setTimeout(kill, run.hangMs);
  let [stdout, stderr, rss, sent] = ['', '', 0, false];
  const send = () => {
    const s = run.signal;
    if (sent || !s || !s.ready(stdout + stderr)) return;
    sent = true;
    if (s.rearm) {
      clearTimeout(timer);
      timer = setTimeout(kill, run.hangMs);
    }
    child.kill(s.name);
    if (s.twice) child.kill(s.name);
  };
  const poll = setInterval(() => {
    send();
    if (run.rssLimit === undefined) return;
    rss = Math.max(rss, peakRss(child.pid!));
    if (rss > run.rssLimit) kill();
  }, 10);
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d;
    send();
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d;
    send();
  });
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearInterval(poll);
      resolve({ code, signal, stdout, stderr, out: stdout + stderr, rss });
    }),
  );
}

/** what a row expects of its command */
export interface Expected {
  code: number;
  message: RegExp;
  /** where a line must match `message`: the first line of stderr, any line of stderr (the default), or any line of
   * stdout or stderr (a verdict the run reaches is on stdout) */
  messageIn?: 'first' | 'stderr' | 'out';
  /** the most lines on stderr (not counted when absent) */
  lines?: number;
  /** files (relative to the scratch folder) that must be written, or must not */
  writes?: string[];
  writesNot?: string[];
  /** files that must be written and hold at most this many bytes */
  bounded?: Record<string, number>;
  /** the most lines on stdout */
  stdoutLines?: number;
  /** stdout must match */
  stdoutMatch?: RegExp;
}

export interface RowFault {
  kind: 'wrong' | 'muddled';
  why: string;
}

/** good (undefined), or what is wrong with the result: wrong (a hang, memory, the exit code, files) or muddled */
export function judgeRow(want: Expected, r: RowResult, scratch: string, bounds: RowRun): RowFault | undefined {
  const out = `exit ${r.code} (signal ${r.signal}, ${Math.round(r.rss / 1e6)} MB)\nstdout: ${r.stdout.slice(-1500)}\nstderr: ${r.stderr.slice(-1500)}`;
  const wrong = (why: string) => ({ kind: 'wrong' as const, why: `${why}\n${out}` });
  const muddled = (why: string) => ({ kind: 'muddled' as const, why: `${why}\n${out}` });
  if (bounds.rssLimit !== undefined && r.rss > bounds.rssLimit)
    return wrong(`held more than ${bounds.rssLimit / 2 ** 20} MB`);
  if (r.signal) return wrong(`ended by ${r.signal}: still running after ${bounds.hangMs} ms (a hang)`);
  if (r.code !== want.code) return wrong(`exit ${r.code}, want ${want.code}`);
  for (const f of want.writes ?? []) if (!existsSync(join(scratch, f))) return wrong(`${f} not written`);
  for (const f of want.writesNot ?? []) if (existsSync(join(scratch, f))) return wrong(`${f} written`);
  for (const [f, most] of Object.entries(want.bounded ?? {}))
    if (!existsSync(join(scratch, f)) || statSync(join(scratch, f)).size > most)
      return wrong(`${f} missing or over ${most} bytes`);
  const lines = r.stderr.trimEnd().split('\n');
  const where = want.messageIn ?? 'stderr';
  const candidates = where === 'first' ? [r.stderr.split('\n')[0]] : where === 'out' ? r.out.split('\n') : lines;
  if (!candidates.some((l) => want.message.test(l)))
    return muddled(`no line of ${where === 'first' ? 'stderr (its first)' : where} matches ${want.message}`);
  if (want.lines !== undefined && lines.length > want.lines) return muddled(`${lines.length} lines on stderr`);
  if (want.stdoutLines !== undefined && r.stdout.split('\n').length > want.stdoutLines)
    return muddled(`${r.stdout.split('\n').length} lines on stdout`);
  if (want.stdoutMatch && !want.stdoutMatch.test(r.stdout)) return muddled(`stdout does not match ${want.stdoutMatch}`);
  if (/\n\s+at .*[:(]\d+|internal error \(a bug/.test(r.out)) return muddled('a stack trace or an internal error');
  return undefined;
}

/** a table's rows: none expects exit 3 (a fault of synconf's), and only a row of valid input expects 0 or 1 */
export function assertExitCodes(rows: { name: string; code: number; valid?: boolean }[]): void {
  for (const row of rows) {
    assert.notEqual(row.code, 3, row.name);
    if (row.code === 0 || row.code === 1)
      assert.equal(row.valid, true, `${row.name}: exit ${row.code} for a broken input`);
  }
}

/** the rows of a table by class (good, muddled, wrong), under a key each (a cause, or the table's name) */
export class Tally {
  private readonly byKey = new Map<string, Record<'good' | RowFault['kind'], number>>();
  add(key: string, fault: RowFault | undefined): void {
    const c = this.byKey.get(key) ?? this.byKey.set(key, { good: 0, muddled: 0, wrong: 0 }).get(key)!;
    c[fault?.kind ?? 'good']++;
  }
  /** "# LABEL: N rows: a good, b muddled, c wrong", one line per key, `label` given each key */
  print(label: (key: string) => string): void {
    for (const [key, c] of [...this.byKey].sort())
      console.log(
        `# ${label(key)}: ${c.good + c.muddled + c.wrong} rows: ${c.good} good, ${c.muddled} muddled, ${c.wrong} wrong`,
      );
  }
}
