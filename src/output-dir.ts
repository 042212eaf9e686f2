// The one way synconf creates a folder it writes into (report folders, serve's request log, mutate's writer,
// recordings, the agents cache, a lab's --dir): made and test-written before any work, so a bad location is one
// line up front (exit 2) and never a lost report at the end. Made one level at a time: Node 20's recursive mkdir
// spins at full CPU, deaf to SIGTERM, when a missing parent is under /proc.
import { mkdirSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { InputError } from './errors.js';

/**
 * Creates `dir` (and its missing parents) unless it exists, and proves it is a folder synconf can write into.
 * `what` names where the path came from in the message, e.g. "--report-dir" or "SYNCONF_AGENTS_DIR".
 * Returns the absolute path.
 */
export function makeOutputDir(dir: string, what: string): string {
  if (dir.trim() === '') throw new InputError(`${what} "${dir}": the path is empty`);
  const fail = (cause: string) => new InputError(`${what} ${dir}: ${cause}`);
  const abs = resolve(dir);
  const missing: string[] = [];
  for (let at = abs; ; at = dirname(at)) {
    const found = statOrUndefined(at, fail);
    if (found) {
      if (!found.isDirectory()) throw fail(`${at === abs ? 'it' : at} is a file, not a folder`);
      break;
    }
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw fail(`cannot create ${level} (${causeOf(e)})`);
    }
  }
  // a test write, not access(W_OK): root passes that check everywhere, also in /proc and /sys
  const probe = join(abs, `.synconf-write-test-${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (e) {
    throw fail(`the folder is not writable (${causeOf(e)})`);
  }
  return abs;
}

function statOrUndefined(path: string, fail: (cause: string) => InputError) {
  try {
    return statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined; // ENOTDIR: a parent is a file, found next
    throw fail(`cannot use ${path} (${causeOf(e)})`);
  }
}

/** "ENOENT: no such file or directory" from Node's "ENOENT: no such file or directory, mkdir '/proc/x'" */
function causeOf(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code ? `${err.code}: ${/^\w+: ([^,]*)/.exec(err.message)?.[1] ?? err.message}` : String(err.message ?? e);
}

/**
 * The system's temporary folder (TMPDIR, else /tmp), proved writable: a live run puts its lab homes and scenario
 * folders there, so a missing or read-only one is the user's environment, said in one line (exit 2) before any
 * work, not an internal error halfway through a run.
 */
export function usableTempDir(): string {
  const dir = tmpdir();
  const found = statOrUndefined(dir, tempDirProblem);
  if (!found) throw tempDirProblem('it does not exist');
  if (!found.isDirectory()) throw tempDirProblem('it is a file, not a folder');
  const probe = join(dir, `.synconf-write-test-${process.pid}`);
  try {
    // bytes, not an empty file: a full disk still makes an empty one (an inode, no block)
    writeFileSync(probe, Buffer.alloc(PROBE_BYTES));
  } catch (e) {
    throw tempDirProblem(`the folder is not writable (${causeOf(e)})`);
  } finally {
    rmSync(probe, { force: true });
  }
  return dir;
}

/** what the temporary folder's probe writes: a few of a disk's blocks */
const PROBE_BYTES = 64 * 1024;

/** a problem of the temporary folder (TMPDIR), as one line naming it */
function tempDirProblem(cause: string): InputError {
  const dir = tmpdir();
  const from = process.env.TMPDIR ? `TMPDIR ${dir}` : `the temporary folder ${dir}`;
  return new InputError(`${from}: ${cause}; set TMPDIR to a folder synconf can write into`);
}

/** a disk full (or over its quota, or read-only) */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT', 'EROFS']);

/**
 * `e` as the user's environment when it is a write into the temporary folder that found no room (a TMPDIR that filled
 * after the probe): one line naming TMPDIR and `what` was written (exit 2), never an internal error; else `e` itself
 */
export function tempDirWriteError(e: unknown, what: string): unknown {
  const code = (e as NodeJS.ErrnoException).code;
  return code && NO_ROOM.has(code) ? tempDirProblem(`cannot write ${what} (${causeOf(e)})`) : e;
}

/** what a failed start says when the disk it wrote to was full (Syncthing 2.x's database: "database or disk is full") */
const SAYS_FULL = /no space left on device|disk is full|\bENOSPC\b|\bEDQUOT\b/i;

/**
 * A lab agent that could not start in `dir`, a folder of the temporary folder, as that folder's problem when its disk
 * is full: less than a probe's room left there when the start failed, or the start's own words (`said`) say so (the
 * agent's log may be empty when even that found no room). Undefined when nothing says the disk is full.
 */
export function tempDirFullProblem(dir: string, said: string): InputError | undefined {
  let free: number | undefined;
  try {
    const fs = statfsSync(dir);
    free = fs.bavail * fs.bsize;
  } catch {
    free = undefined; // the folder is gone or cannot be asked: only the words can tell
  }
  if (!SAYS_FULL.test(said) && (free === undefined || free >= PROBE_BYTES)) return undefined;
  const room = free === undefined ? '' : `, ${Math.floor(free / 1024)} KiB left`;
  return tempDirProblem(`no room for a lab agent to start${room} (ENOSPC: no space left on device)`);
}
