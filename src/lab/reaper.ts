// Labs a synconf process started and could not stop: it was killed (SIGKILL, an OOM kill, a CI runner's hard stop)
// before its exit handlers ran, leaving Syncthing processes running and a folder holding their API keys and private
// keys. Each lab folder synconf makes in the temporary folder names its owner (owner.json: the pid of the synconf
// process); the next live run finds the folders whose owner is gone, stops their processes and removes them.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runningProcesses } from './procs.js';

export const TEMP_PREFIX = 'synconf-lab-';
const OWNER_FILE = 'owner.json';

interface Owner {
  pid: number;
  /** the owner's process start (from /proc), so a pid reused by another process is not taken for the owner */
  started: string | null;
  /** `synconf lab up`: the lab is meant to outlive its process; never reaped */
  detached: boolean;
}

/** the start time of a process (field 22 of /proc/<pid>/stat), null where there is no /proc */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** names this process as the owner of a lab folder it made (written before any instance starts) */
export function claimLabDir(dir: string, detached: boolean): void {
  const owner: Owner = { pid: process.pid, started: processStart(process.pid), detached };
  writeFileSync(join(dir, OWNER_FILE), JSON.stringify(owner) + '\n', { mode: 0o600 });
}

/** a lab of `synconf lab up` outlives the command: once it has started, its folder says so */
export function detachLabDir(dir: string): void {
  claimLabDir(dir, true);
}

function ownerOf(dir: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as Owner;
  } catch {
    return undefined; // not one of ours, or written by a synconf before owners were: left alone
  }
}

const ownerAlive = (o: Owner) => o.started !== null && processStart(o.pid) === o.started;

export interface Reaped {
  dirs: string[];
  processes: number;
}

/** stops the processes of lab folders whose synconf process died, and removes the folders */
export function reapOrphanedLabs(): Reaped {
  const reaped: Reaped = { dirs: [], processes: 0 };
  let entries: string[];
  try {
    entries = readdirSync(tmpdir()).filter((e) => e.startsWith(TEMP_PREFIX));
  } catch {
    return reaped;
  }
  for (const entry of entries) {
    const dir = join(tmpdir(), entry);
    const owner = ownerOf(dir);
    if (!owner || owner.detached || ownerAlive(owner)) continue;
    // an instance runs with --home=<dir>/<name> (its monitor and the child alike)
    const inside = `--home=${dir}/`;
    for (const p of runningProcesses().filter((q) => q.args.some((a) => a.startsWith(inside)))) {
      try {
        process.kill(p.pid, 'SIGKILL');
        reaped.processes++;
      } catch {
        // gone meanwhile
      }
    }
    rmSync(dir, { recursive: true, force: true });
    reaped.dirs.push(dir);
  }
  return reaped;
}
