// Issue 41: a signal in the first moments of the process. The entry (src/cli/bin.ts) listens before it loads anything
// else: from the moment it does, every signal ends the process with 128 + n and one "interrupted" line, the command
// not yet started included. That moment is seen in /proc/PID/status: SIGHUP is among the caught signals (Node's own
// start-up catches only SIGINT and SIGTERM, to reset the terminal and re-raise them). Before it no JavaScript runs:
// Node's start-up ends the process by the signal itself (the shell reports 128 + n; no line can be said). A signal
// sent as the process is spawned may land in either: never another exit code, never a hang.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { BIN, cliEnv } from './support/cli.js';
import { SIGNAL_CODES, type ShotSignal } from './support/signal-shots.js';
import { tempFolder } from './support/temp.js';

const scratch = tempFolder('signals-early');
const SIGHUP_BIT = 1n << 0n; // SigCgt's bit of signal 1

/** whether process `pid` catches SIGHUP (its entry's handlers are in place); false once it is gone */
function catchesSighup(pid: number): boolean {
  const status = existsSync(`/proc/${pid}/status`) ? readFileSync(`/proc/${pid}/status`, 'utf8') : '';
  const caught = /^SigCgt:\s*([0-9a-f]+)$/m.exec(status)?.[1];
  return caught !== undefined && (BigInt(`0x${caught}`) & SIGHUP_BIT) !== 0n;
}

/** synconf replay started in a folder of its own; `when` decides when the signal is sent */
async function shot(signal: ShotSignal, when: (pid: number) => Promise<void>) {
  const child = spawn(process.execPath, [BIN, 'replay', '--report-dir', 'r'], { cwd: scratch(), env: cliEnv({}) });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (out += d));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('exit', (code, sig) => resolve([code, sig])),
  );
  await when(child.pid!);
  const sent = child.exitCode === null && child.kill(signal);
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code, bySignal] = await exited;
  clearTimeout(guard);
  const lines = out.split('\n').filter((l) => l.includes(`interrupted (${signal})`)).length;
  return { sent, code, bySignal, lines, out };
}

describe('a signal in the first moments of the process', () => {
  for (const signal of Object.keys(SIGNAL_CODES) as ShotSignal[]) {
    test(`${signal} once the entry listens: exit ${SIGNAL_CODES[signal]}, one interrupted line`, async () => {
      const s = await shot(signal, async (pid) => {
        while (!catchesSighup(pid) && existsSync(`/proc/${pid}`)) await sleep(1);
      });
      assert.ok(s.sent, `the process ended before the signal:\n${s.out}`);
      assert.deepEqual([s.code, s.lines], [SIGNAL_CODES[signal], 1], s.out);
    });

    test(`${signal} as the process is spawned: ended by it (Node's start-up) or exit ${SIGNAL_CODES[signal]}`, async () => {
      const s = await shot(signal, async () => {});
      assert.ok(s.sent);
      const byNode = s.bySignal === signal && s.out === '';
      const bySynconf = s.code === SIGNAL_CODES[signal] && s.lines === 1;
      assert.ok(byNode || bySynconf, `exit ${s.code} (${s.bySignal}), ${s.lines} interrupted lines:\n${s.out}`);
    });
  }
});
