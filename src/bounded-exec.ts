// Every probe of a binary a user names (its --help, --version, `generate`) ends in bounded time. A timeout that kills
// only the process it started is not enough: a shell script's child (`sleep` under `sh`) keeps the output pipe open
// and the wait for the output never ends. So the probe runs in a process group of its own, and on its timeout, or
// shortly after it exits, the whole group is killed and whatever was printed is the answer.
import { spawn } from 'node:child_process';

export interface BoundedResult {
  /** standard output (at most `maxBytes`) */
  stdout: string;
  /** standard output and error as they came */
  all: string;
  /** why the probe failed (not started, timed out, a non-zero exit or a signal), undefined when it exited 0 */
  failed?: string;
}

export interface BoundedOptions {
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  cwd?: string;
  /** output kept of each stream (default 1 MiB): a binary that prints forever is cut, not buffered */
  maxBytes?: number;
}

/** after the process exits, how long its pipes may stay open (a child it left behind holds them) */
const AFTER_EXIT_MS = 500;

/** runs `file args` and resolves within `timeoutMs` (+ a moment), never rejecting */
export function runBounded(file: string, args: string[], opts: BoundedOptions): Promise<BoundedResult> {
  const max = opts.maxBytes ?? 1 << 20;
  return new Promise((resolve) => {
    let stdout = '';
    let all = '';
    let failed: string | undefined;
    let settled = false;
    const child = spawn(file, args, {
      env: opts.env,
      cwd: opts.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killGroup();
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ stdout, all, failed });
    };
    const timer = setTimeout(() => {
      failed ??= `timed out after ${opts.timeoutMs} ms`;
      finish();
    }, opts.timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      if (stdout.length < max) stdout += d.toString('utf8');
      if (all.length < max) all += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      if (all.length < max) all += d.toString('utf8');
    });
    child.on('error', (e) => {
      failed = e.message;
      finish();
    });
    child.on('exit', (code, signal) => {
      if (code !== 0) failed ??= signal ? `killed by ${signal}` : `exit code ${code}`;
      setTimeout(finish, AFTER_EXIT_MS).unref();
    });
    child.on('close', finish);
  });
}
