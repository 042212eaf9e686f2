// Every command works from any folder (issue 22): each command and subcommand of the built command, run from a
// scratch folder outside the package, with the user's paths relative to that folder and the package's own files
// (suites, recordings, expectations, schemas, statements, rules) found in the package. Each row: the argv (or several,
// run one after the other in the same folder), the exit code, the files it must write into the folder (outputs land
// relative to the working folder), and what stdout says where it matters. A walk over the yargs definitions fails
// when a command has no row (a command added later included). Live rows start one version's lab.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yargs, { type CommandModule } from 'yargs';
import { ROOT } from '../../src/paths.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { cli, cliAsync, spawnCli } from '../support/cli.js';
import { processesMentioning } from '../support/lab.js';
import { withTemp } from '../support/temp.js';

const LIVE = '1.29.5';

/** what the scratch folder holds before each row: the user's own files, named relative to it */
function userFiles(dir: string): void {
  const copy = (from: string, to: string) => {
    mkdirSync(join(dir, to, '..'), { recursive: true });
    copyFileSync(join(ROOT, from), join(dir, to));
  };
  copy('suites/system/ping.yaml', 's.yaml');
  for (const [version, to] of [
    ['1.19.2', 'rec'],
    ['1.29.5', 'rec2'],
  ])
    for (const f of ['_run.har', 'system-ping.har']) copy(`recordings/syncthing-${version}/${f}`, `${to}/${f}`);
  copy('expectations/syncthing-1.19.yaml', 'e.yaml');
  copy('tests/fixtures/reports/pass.json', 'r.json');
  copy('tests/fixtures/reports/fail.json', 'r2.json');
  writeFileSync(join(dir, 'p.json'), '{"ping": "pong"}');
  // a check that fails: its report links the cassette (in rec/, relative to this folder)
  writeFileSync(
    join(dir, 'bad.yaml'),
    readFileSync(join(dir, 's.yaml'), 'utf8').replace(/equals: pong }$/m, 'equals: x }'),
  );
}

interface Step {
  argv: string[];
  code: number;
  /** files (relative to the scratch folder) that must exist afterwards */
  writes?: string[];
  stdout?: RegExp;
  env?: Record<string, string>;
  input?: string;
}

const ROWS: Record<string, Step | Step[]> = {
  // the proxy in front of recordings (relative), stopped by --until-idle with no client: its report folder here
  // (exit 2: nothing passed, so there is no verdict)
  'proxy --recordings DIR --until-idle --report-dir (relative)': {
    argv: ['proxy', '--recordings', 'rec', '--until-idle', '1', '--report-dir', 'px'],
    code: 2,
    writes: ['px/report.json', 'px/recordings/_run.har'],
  },
  // the package's own suites and recordings; the report in ./reports/latest
  'replay (every default)': {
    argv: ['replay', '--only', 'system-ping'],
    code: 0,
    writes: ['reports/latest/report.json', 'reports/latest/report.html'],
  },
  'replay DIR --suite --expectations --report-dir --baseline (relative)': {
    argv: [
      'replay',
      'rec',
      '--suite',
      's.yaml',
      '--expectations',
      'e.yaml',
      '--report-dir',
      'out',
      '--baseline',
      'r.json',
    ],
    code: 0,
    writes: ['out/report.json', 'out/junit.xml', 'out/report.html', 'out/summary.md'],
  },
  'replay of a failing check: the report links the cassette in this folder': {
    argv: ['replay', 'rec', '--suite', 'bad.yaml', '--report-dir', 'out'],
    code: 1,
    writes: ['out/report.html'],
  },
  'run (a lab of one version), --suite, --record and --report-dir relative': {
    argv: ['run', '--syncthing', LIVE, '--suite', 's.yaml', '--record', 'fresh', '--report-dir', 'out'],
    code: 0,
    writes: ['out/report.json', 'fresh/_run.har', 'fresh/system-ping.har'],
  },
  'matrix --replay (every default)': {
    argv: ['matrix', '--replay', '--only', 'system-ping'],
    code: 0,
    writes: ['reports/matrix/matrix.json', 'reports/matrix/1.19.2/report.json'],
  },
  'matrix --recordings (relative, twice) --suite --report-dir': {
    argv: ['matrix', '--recordings', 'rec', '--recordings', 'rec2', '--suite', 's.yaml', '--report-dir', 'm'],
    code: 0,
    writes: ['m/matrix.json', 'm/1.19.2/report.json', 'm/1.29.5/report.json'],
  },
  'drift A B (relative)': { argv: ['drift', 'rec', 'rec2', '--only', 'system-ping'], code: 0, stdout: /cause/ },
  'drift DIR (relative) against a lab, --suite relative': {
    argv: ['drift', 'rec2', '--syncthing', LIVE, '--suite', 's.yaml'],
    code: 0,
    stdout: /system-ping/,
  },
  // stdout holds the document alone (the run's progress and verdict lines go to stderr): a CI step parses it
  'drift DIR --json against a lab: stdout is the JSON document alone': {
    argv: ['drift', 'rec2', '--syncthing', LIVE, '--suite', 's.yaml', '--json'],
    code: 0,
    stdout: /^\{\n {2}"from": [\s\S]*\n\}\n$/,
  },
  'validate scenario': { argv: ['validate', 'scenario', 's.yaml'], code: 0, stdout: /valid/ },
  'validate expectations': { argv: ['validate', 'expectations', 'e.yaml'], code: 0, stdout: /valid/ },
  'validate cassette': { argv: ['validate', 'cassette', 'rec/system-ping.har'], code: 0, stdout: /valid/ },
  'validate report': { argv: ['validate', 'report', 'r.json'], code: 0, stdout: /valid/ },
  'validate RESOURCE FILE': { argv: ['validate', 'ping', 'p.json'], code: 0, stdout: /^valid ping/ },
  'validate RESOURCE - (standard input)': {
    argv: ['validate', 'ping', '-'],
    input: '{"ping": "pong"}',
    code: 0,
    stdout: /^valid ping/,
  },
  'lab up --dir (relative), lab down --dir': [
    { argv: ['lab', 'up', '--dir', 'lab', '--syncthing', LIVE], code: 0, writes: ['lab/lab.json'] },
    { argv: ['lab', 'down', '--dir', 'lab'], code: 0, stdout: /^Stopped agent\. Kept \/.*\/lab \(/m },
  ],
  'agents list': { argv: ['agents', 'list'], code: 0, stdout: new RegExp(`^${LIVE.replace(/\./g, '\\.')} `, 'm') },
  'agents list, SYNCONF_AGENTS_DIR relative': {
    argv: ['agents', 'list'],
    env: { SYNCONF_AGENTS_DIR: 'cache' },
    code: 0,
    stdout: /^Agents cache: \/.*\/cache$/m,
  },
  'agents install (kept: already installed)': { argv: ['agents', 'install', LIVE], code: 0, stdout: /→/ },
  'report merge (relative) --out': {
    argv: ['report', 'merge', 'r.json', 'r2.json', '--out', 'mm'],
    code: 1, // the worst of the runs: r2.json has a failing check
    writes: ['mm/matrix.json', 'mm/matrix.html', 'mm/matrix.md'],
  },
  'report render --out': {
    argv: ['report', 'render', 'r.json', '--out', 'x'],
    code: 0,
    writes: ['x/report.json', 'x/report.html', 'x/junit.xml', 'x/summary.md'],
  },
  'mutate (every default)': {
    argv: ['mutate', '--only', 'system-ping', '--report-dir', 'mu'],
    code: 0,
    writes: ['mu/mutation.json'],
  },
  'mutate DIR --suite (relative)': {
    argv: ['mutate', 'rec', '--suite', 's.yaml', '--report-dir', 'mu'],
    code: 0,
    writes: ['mu/mutation.json', 'mu/mutation.html', 'mu/mutation.md'],
  },
  'spec (the package statements)': { argv: ['spec', '--kind', 'auth'], code: 0, stdout: /auth/ },
  'spec --coverage (relative)': { argv: ['spec', '--coverage', 'r.json'], code: 0, stdout: /./ },
  // nothing installed in the cache named: each statement says which releases straddle it, nothing is built or run
  'spec --boundaries --report-dir (relative), SYNCONF_AGENTS_DIR relative': {
    argv: ['spec', '--boundaries', '--report-dir', 'sb'],
    env: { SYNCONF_AGENTS_DIR: 'empty-cache' },
    code: 0,
    stdout:
      /^pending-devices\.delete\.since \(spec: from 1\.18\.0\): not installed: straddled by 1\.17\.0 and 1\.18\.0;/m,
  },
  // a client's contract from a cassette of the run (a proxy session's HAR is read the same way)
  'contract HAR -o (relative)': {
    argv: ['contract', 'rec/system-ping.har', '-o', 'c.json'],
    code: 0,
    writes: ['c.json'],
  },
  // both ends run in labs and agree on the check: nothing to bisect (exit 2), each end's report here
  'bisect --installed-only --report-dir (relative)': {
    argv: [
      'bisect',
      '--check',
      'system-ping/get-ping/status',
      '--from',
      LIVE,
      '--to',
      '1.30.0',
      '--installed-only',
      '--report-dir',
      'b',
    ],
    code: 2,
    writes: [`b/${LIVE}/report.json`, 'b/1.30.0/report.json'],
    stdout: /cannot bisect/,
  },
  // two recordings folders as the releases: the page and each release's report here, the results kept in c/; the
  // second run takes both from the cache
  'history --recordings --suite --report-dir --cache-dir (relative)': [
    {
      argv: ['history', '--recordings', 'rec,rec2', '--suite', 's.yaml', '--report-dir', 'h', '--cache-dir', 'c'],
      code: 0,
      writes: ['h/history.json', 'h/history.html', 'h/history.md', 'h/matrix.json', 'h/1.19.2/report.json'],
      stdout: /2 run, 0 from the cache/,
    },
    {
      argv: ['history', '--recordings', 'rec,rec2', '--suite', 's.yaml', '--report-dir', 'h', '--cache-dir', 'c'],
      code: 0,
      writes: ['h/history.json', 'h/1.29.5/report.json'],
      stdout: /0 run, 2 from the cache/,
    },
  ],
  'history with one release: exit 2': {
    argv: ['history', '--recordings', 'rec', '--suite', 's.yaml', '--cache-dir', 'c'],
    code: 2,
  },
  completion: { argv: ['completion'], code: 0, stdout: /synconf/ },
  '--help': { argv: ['--help'], code: 0, stdout: /Usage: synconf/ },
  '--version': { argv: ['--version'], code: 0, stdout: /^\d+\.\d+\.\d+/ },
};

/** every command path the definitions declare: ['run'], ['report', 'merge'], … */
function commandPaths(modules: { command: string; builder?: CommandModule['builder'] }[], path: string[] = []) {
  return modules.flatMap((m): string[][] => {
    const here = [...path, m.command.split(' ')[0]];
    const y = yargs([]);
    if (typeof m.builder === 'function') m.builder(y);
    const handlers = (
      y as unknown as {
        getInternalMethods(): {
          getCommandInstance(): { getCommandHandlers(): Record<string, { original: string; builder: never }> };
        };
      }
    )
      .getInternalMethods()
      .getCommandInstance()
      .getCommandHandlers();
    const subs = Object.values(handlers).map((h) => ({ command: h.original, builder: h.builder }));
    return subs.length ? commandPaths(subs, here) : [here];
  });
}

const steps = (row: Step | Step[]) => [row].flat();

test('every command and subcommand has a row (serve has its own test below)', () => {
  const covered = Object.values(ROWS).flatMap((r) => steps(r).map((s) => s.argv.join(' ')));
  const paths = [
    ...commandPaths(COMMANDS.map((c) => ({ command: String(c.command), builder: c.builder }))),
    ['completion'],
  ];
  assert.ok(paths.length >= 14, `${paths.length} commands`);
  const missing = paths
    .map((p) => p.join(' '))
    .filter((p) => p !== 'serve' && !covered.some((argv) => argv === p || argv.startsWith(`${p} `)));
  assert.deepEqual(missing, []);
});

describe('every command from a scratch folder, relative paths (the built command)', () => {
  for (const [name, row] of Object.entries(ROWS))
    test(name, { timeout: 120_000 }, () =>
      withTemp('any-folder', async (dir) => {
        userFiles(dir);
        mkdirSync(join(dir, 'tmp'));
        for (const step of steps(row)) {
          // a lab's folders in this folder too (TMPDIR), so that what it leaves running can be found
          const opts = { cwd: dir, env: { TMPDIR: join(dir, 'tmp'), ...step.env }, timeout: 100_000 };
          const r =
            step.input === undefined ? await cliAsync(step.argv, opts) : cli(step.argv, { ...opts, input: step.input });
          assert.equal(r.code, step.code, `${step.argv.join(' ')}\n${r.out}`);
          assert.doesNotMatch(r.out, /^synconf: internal error|ENOENT/m, r.out);
          for (const f of step.writes ?? []) assert.ok(existsSync(join(dir, f)), `${f} written\n${r.out}`);
          if (step.stdout) assert.match(r.stdout, step.stdout);
        }
        assert.deepEqual(processesMentioning(dir), [], 'no Syncthing left running');
        if (name.startsWith('replay of a failing check')) {
          // the link from the report to the cassette reaches the cassette in this folder, not one in the package
          const href = /href="([^"]*system-ping\.har)"/.exec(readFileSync(join(dir, 'out', 'report.html'), 'utf8'));
          assert.ok(href, 'the report links the cassette');
          assert.ok(existsSync(join(dir, 'out', href[1])), `${href[1]} (from out/) exists`);
        }
      }),
    );

  test('serve DIR (relative) --log (relative): started, one request, stopped', { timeout: 60_000 }, () =>
    withTemp('any-folder', async (dir) => {
      userFiles(dir);
      const child = spawnCli(['serve', 'rec', '--port', '0', '--api-key', 'key-of-k', '--log', 'l.har'], { cwd: dir });
      let stdout = '';
      const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      child.stderr!.resume();
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => {
          stdout += d;
          const m = /^URL +(\S+)$/m.exec(stdout);
          if (m && /Stop with Ctrl-C/.test(stdout)) resolve(m[1]);
        });
        void closed.then(() => reject(new Error(`serve ended: ${stdout}`)));
      });
      const answer = await fetch(`${url}/rest/system/ping`, { headers: { 'X-API-Key': 'key-of-k' } });
      assert.deepEqual(await answer.json(), { ping: 'pong' });
      child.kill('SIGTERM');
      assert.equal(await closed, 0, stdout);
      assert.ok(existsSync(join(dir, 'l.har')), 'the request log is in this folder');
    }),
  );
});

// the same rows from the package root would not tell a path read against the package from one read against the
// working folder: the scratch folder is outside it
test('the scratch folders lie outside the package', () =>
  withTemp('any-folder', (dir) => assert.ok(!dir.startsWith(ROOT), dir)));
