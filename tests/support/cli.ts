// Running the synconf CLI as a user does, from the sources (tsx), and collecting what it prints.
import { spawnSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../src/paths.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const MAIN = join(ROOT, 'src', 'cli', 'main.ts');
// tsx by its resolved URL: `--import tsx` would be looked up from the working folder, which a test may move
const TSX = import.meta.resolve('tsx');

export function cli(args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): CliResult {
  const r = spawnSync(process.execPath, ['--import', TSX, MAIN, ...args], {
    input: opts.input,
    encoding: 'utf8',
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
    timeout: 600_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** the same, without blocking the event loop (for tests that serve something meanwhile) */
export function cliAsync(args: string[], opts: { env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', TSX, MAIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', ...opts.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** the built command, what `synconf` runs once installed; SYNCONF_TEST_BIN names another build (e.g. of main) */
export const BUILT = process.env.SYNCONF_TEST_BIN ?? join(ROOT, 'dist', 'bin', 'synconf.js');

export interface BuiltResult extends CliResult {
  /** the signal that ended it (a timeout kills it with SIGKILL) */
  signal: NodeJS.Signals | null;
}

/**
 * Runs the built command without blocking the event loop; killed after `timeoutMs` (then `signal` is SIGKILL).
 * `onStart` gets the child, e.g. to send it a signal once it has printed something.
 */
export function builtCli(
  args: string[],
  opts: {
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    timeoutMs?: number;
    onStart?: (child: import('node:child_process').ChildProcess) => void;
  } = {},
): Promise<BuiltResult> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...opts.env };
    delete env.FORCE_COLOR; // Node warns when both are set
    const child = spawn(process.execPath, [BUILT, ...args], { cwd: opts.cwd ?? ROOT, env });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 10_000);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    opts.onStart?.(child);
  });
}
