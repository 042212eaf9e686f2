// Process supervision helpers. Linux /proc is used because two things make `process.kill(pid, 0)` alone unreliable:
// an orphaned monitor that exited stays a zombie when PID 1 does not reap (kill(pid, 0) still succeeds), and a PID
// from an old lab.json may belong to an unrelated process by now. An instance's processes are recognised by their
// exact `--home=<home>` argument (the monitor and its child share the command line).
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ProcInfo {
  pid: number;
  pgid: number;
  state: string;
  args: string[];
}

/** The processes a lab instance consists of: the monitor (its pid is also its process group id) and its home. */
export interface Owned {
  pid: number;
  home: string;
}

const HAS_PROC = existsSync('/proc/self/stat');

function readProc(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name in (…) may contain spaces; the fields after it are: state ppid pgrp …
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return { pid, state: fields[0], pgid: Number(fields[2]), args };
  } catch {
    return undefined; // gone meanwhile, or not readable
  }
}

/** Running (non-zombie) processes, from /proc. Empty where there is no /proc. */
export function runningProcesses(): ProcInfo[] {
  if (!HAS_PROC) return [];
  const out: ProcInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const info = readProc(Number(entry));
    if (info && info.state !== 'Z') out.push(info);
  }
  return out;
}

/** True while pid is a running process (a zombie counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (!HAS_PROC) return true;
  const info = readProc(pid);
  return info !== undefined && info.state !== 'Z';
}

/** The running processes of an instance: those with its --home argument, plus the rest of the monitor's group. */
export function ownedProcesses(o: Owned): ProcInfo[] {
  if (!HAS_PROC) return isAlive(o.pid) ? [{ pid: o.pid, pgid: o.pid, state: '?', args: [] }] : [];
  const all = runningProcesses();
  const homeArg = `--home=${o.home}`;
  const mine = all.filter((p) => p.args.includes(homeArg));
  // The group is only ours if one of its members carries our --home (guards against a reused PID).
  const groupIsOurs = mine.some((p) => p.pgid === o.pid);
  return all.filter((p) => mine.includes(p) || (groupIsOurs && p.pgid === o.pid));
}

/** Sends sig to the instance's process group and to each of its processes. Synchronous, never throws. */
export function signalOwned(o: Owned, sig: NodeJS.Signals): void {
  const procs = ownedProcesses(o);
  if (procs.some((p) => p.pgid === o.pid)) trySignal(-o.pid, sig);
  for (const p of procs) trySignal(p.pid, sig);
}

/** Sends sig to the process group `pgid` leads; never throws */
export function trySignalGroup(pgid: number, sig: NodeJS.Signals): void {
  trySignal(-pgid, sig);
}

function trySignal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** Polls until none of the instance's processes runs; false when that took longer than timeoutMs. */
export async function waitGone(o: Owned, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (ownedProcesses(o).length === 0) return true;
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
}

// ---- interrupt safety: SIGKILL every tracked instance when this process ends in any way ----

const tracked = new Map<number, Owned>();
let handlersInstalled = false;

/** Kill this instance if the current process exits, is interrupted or terminated before untrack(). */
export function track(o: Owned): void {
  tracked.set(o.pid, o);
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', killTracked);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      // A command that hears the signal itself stops in order: its run ends at the next step and stops its lab, and
      // what is left is killed on exit. Killing the instances now would fail the step under way (the agent gone)
      // and turn a Ctrl-C into a fault of synconf (exit 3).
      if (process.listenerCount(sig) > 0) return;
      killTracked();
      // A listener replaces Node's default "terminate". Nobody else listens: re-raise so the process still ends
      // with the signal (once() has removed us, so the default disposition is back).
      process.kill(process.pid, sig);
    });
  }
}

export function untrack(pid: number): void {
  tracked.delete(pid);
}

/** Synchronous, so it also works inside process.on('exit'). */
function killTracked(): void {
  for (const o of tracked.values()) signalOwned(o, 'SIGKILL');
  tracked.clear();
}

// ---- lab folders of this process: removed when it exits, whatever the way (a second Ctrl-C's process.exit too) ----

const ownedDirs = new Set<string>();

/** removes `dir` when this process exits (after its instances are killed), unless the lab removed it before */
export function removeOnExit(dir: string): void {
  if (ownedDirs.size === 0) process.on('exit', removeOwnedDirs);
  ownedDirs.add(dir);
}

function removeOwnedDirs(): void {
  killTracked(); // first: a running instance would write into the folder being removed
  for (const dir of ownedDirs) rmSync(dir, { recursive: true, force: true });
  ownedDirs.clear();
}
