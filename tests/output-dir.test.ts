// One helper creates every output folder: a bad location is one line naming the path and the cause (exit 2), at once.
// Each case runs in a child process with a kill timeout: a recursive mkdir under /proc spins at full CPU and would
// never return, so a regression ends as a killed child, not a hung test file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from '../src/paths.js';
import { cli } from './support/cli.js';
import { makeTemp, removeTemp } from './support/temp.js';

const KILL_AFTER_MS = 20_000;
/** tsx by its location: the children run from scratch folders, where the bare name does not resolve */
const TSX = import.meta.resolve('tsx');

function run(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const r = spawnSync(process.execPath, ['--import', TSX, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
    encoding: 'utf8',
    timeout: KILL_AFTER_MS,
    killSignal: 'SIGKILL',
  });
  assert.equal(r.signal, null, `killed after ${KILL_AFTER_MS} ms (a spinning mkdir?): ${args.join(' ')}`);
  return r;
}

/** makeOutputDir(dir, "--x") in a child process: its one-line message, or "ok <abs path>" */
function helper(dir: string): string {
  const url = new URL('../src/output-dir.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(url)}).then((m) => { try { console.log('ok ' + m.makeOutputDir(${JSON.stringify(dir)}, '--x')); } catch (e) { console.log(e.name + ': ' + e.message); } })`;
  const r = run(['-e', code]);
  assert.equal(r.stderr, '');
  return r.stdout.trim();
}

const FILE_DIR = makeTemp('outdir');
const A_FILE = join(FILE_DIR, 'a-file');
await writeFile(A_FILE, 'x');

const BAD: [name: string, dir: string, want: RegExp][] = [
  [
    'a missing folder under /proc',
    '/proc/x/y',
    /^InputError: --x \/proc\/x\/y: cannot create \/proc\/x \(ENOENT: [^)]+\)$/,
  ],
  [
    'a path under a regular file',
    join(A_FILE, 'sub'),
    /^InputError: --x \S+a-file\/sub: \S+a-file is a file, not a folder$/,
  ],
  ['a regular file', A_FILE, /^InputError: --x \S+a-file: it is a file, not a folder$/],
  [
    'a folder nobody can write into (/proc)',
    '/proc',
    /^InputError: --x \/proc: the folder is not writable \(E[A-Z]+: [^)]+\)$/,
  ],
  [
    'a folder nobody can create (/sys/x)',
    '/sys/x',
    /^InputError: --x \/sys\/x: cannot create \/sys\/x \(E[A-Z]+: [^)]+\)$/,
  ],
  ['an empty string', '', /^InputError: --x "": the path is empty$/],
  ['blanks only', '  ', /^InputError: --x " {2}": the path is empty$/],
];

for (const [name, dir, want] of BAD) {
  test(`output folder, ${name}: one line naming the path and the cause`, () => {
    assert.match(helper(dir), want);
  });
}

test('output folder: missing levels are made, and the test write leaves nothing behind', async () => {
  const dir = join(FILE_DIR, 'new', 'a', 'b');
  assert.equal(helper(dir), `ok ${dir}`);
  assert.deepEqual(readdirSync(dir), []);
  assert.equal(helper(dir), `ok ${dir}`, 'an existing folder is fine');
});

// every place that creates an output folder goes through the helper
const CALLERS: [name: string, args: string[], env: NodeJS.ProcessEnv, want: RegExp][] = [
  [
    'replay --report-dir',
    ['replay', '--only', 'system-ping', '--report-dir', '/proc/x/y'],
    {},
    /^synconf: --report-dir \/proc\/x\/y: cannot create \/proc\/x /,
  ],
  [
    'matrix --replay --report-dir',
    ['matrix', '--replay', '--report-dir', '/proc/x/y'],
    {},
    /^synconf: --report-dir \/proc\/x\/y: cannot create \/proc\/x /,
  ],
  [
    'serve --log',
    ['serve', '--log', '/proc/x/y/requests.har'],
    {},
    /^synconf: the folder of --log \/proc\/x\/y: cannot create \/proc\/x /,
  ],
  [
    'lab up --dir',
    ['lab', 'up', '--dir', '/proc/x/y', '--syncthing', '1.29.5'],
    {},
    /^synconf: --dir \/proc\/x\/y: cannot create \/proc\/x /,
  ],
  [
    'agents install with SYNCONF_AGENTS_DIR',
    ['agents', 'install', '1.29.5'],
    { SYNCONF_AGENTS_DIR: '/proc/x/y' },
    /^synconf: SYNCONF_AGENTS_DIR \/proc\/x\/y: cannot create \/proc\/x /,
  ],
];

for (const [name, args, env, want] of CALLERS) {
  test(`${name} under /proc: exit 2 with one line, from a scratch folder`, async () => {
    const scratch = makeTemp('scratch');
    try {
      const r = cli(args, { cwd: scratch, env, timeout: KILL_AFTER_MS });
      assert.equal(r.signal, null, `killed after ${KILL_AFTER_MS} ms (a spinning mkdir?): ${args.join(' ')}`);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, want);
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
      assert.deepEqual(readdirSync(scratch), [], 'nothing written in the current folder');
    } finally {
      removeTemp(scratch);
    }
  });
}

test('cleanup', async () => {
  removeTemp(FILE_DIR);
  assert.equal(existsSync(FILE_DIR), false);
});
