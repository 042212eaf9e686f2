// The one way tests run synconf: the built command (dist/bin/synconf.js, what `synconf` runs once installed) in a
// given working folder, with the environment scrubbed the same way every time, and a timeout so nothing hangs.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../src/paths.js';

/** the built command, what `synconf` runs once installed; SYNCONF_TEST_BIN names another build (e.g. of main) */
export const BIN = process.env.SYNCONF_TEST_BIN ?? join(ROOT, 'dist', 'bin', 'synconf.js');
const MAIN = join(ROOT, 'src', 'cli', 'main.ts');
// tsx by its resolved URL: `--import tsx` would be looked up from the working folder, which a test may move
const TSX = import.meta.resolve('tsx');

export interface CliResult {
  /** the exit code; null when a signal (the timeout's included) ended it */
  code: number | null;
  /** the signal that ended it (SIGKILL: the timeout), or null */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr, for assertion messages */
  out: string;
}

export interface CliOptions {
  /** the working folder (default: the repository) */
  cwd?: string;
  /** added to the scrubbed environment; a key set to undefined is removed */
  env?: NodeJS.ProcessEnv;
  /** what goes to stdin (cli only) */
  input?: string;
  /** milliseconds before the command is killed with SIGKILL (default 300 s) */
  timeout?: number;
  /** another build of the command (a changed copy of dist/bin) */
  bin?: string;
  /** the sources through tsx instead of the build (only to compare the two) */
  source?: boolean;
}

/** what the caller's environment would change in synconf's behaviour or output, so no test inherits it */
const SCRUBBED = [
  'GITHUB_STEP_SUMMARY', // a CI step summary would get every test run's Markdown appended
  'SYNCONF_API_KEY',
  'SYNCONF_SYNCTHING',
  'SYNCONF_WRITE_CODE_CACHE',
  'FORCE_COLOR', // Node warns when both FORCE_COLOR and NO_COLOR are set
  'NODE_TEST_CONTEXT', // a child of `node --test` would report to the test runner
  'NODE_EXTRA_CA_CERTS', // ~50 ms on every start; only the agents install test fetches, and it passes it on
];

/** the environment every run of synconf in the tests gets: the caller's, scrubbed, no colours, then `extra` */
export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of SCRUBBED) delete env[name];
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** the arguments of node that start synconf */
function command(opts: CliOptions): string[] {
  if (opts.source) return ['--import', TSX, MAIN];
  const bin = opts.bin ?? BIN;
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`npm run build\` before the tests`);
  return [bin];
}

const DEFAULT_TIMEOUT = 300_000;

/** run synconf to its end, blocking (a test that serves something meanwhile takes cliAsync) */
export function cli(args: string[], opts: CliOptions = {}): CliResult {
  const r = spawnSync(process.execPath, [...command(opts), ...args], {
    input: opts.input,
    encoding: 'utf8',
    cwd: opts.cwd ?? ROOT,
    env: cliEnv(opts.env),
    timeout: opts.timeout ?? DEFAULT_TIMEOUT,
    killSignal: 'SIGKILL',
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, out: r.stdout + r.stderr };
}

/** start synconf and leave it running (serve, interrupts); the caller ends it */
export function spawnCli(args: string[], opts: CliOptions = {}): ChildProcess {
  return spawn(process.execPath, [...command(opts), ...args], {
    cwd: opts.cwd ?? ROOT,
    env: cliEnv(opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** run synconf to its end without blocking the event loop */
export function cliAsync(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawnCli(args, opts);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeout ?? DEFAULT_TIMEOUT);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, out: stdout + stderr });
    });
  });
}
