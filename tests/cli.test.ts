// The built command (dist/bin/synconf.js, what `synconf` runs once installed) as a user meets it: every bad
// input answered in one clear line with its exit code and no stack trace. Run against the bundle, so a
// bundling fault (a lazily loaded chunk that breaks) fails here.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile, readFile } from 'node:fs/promises';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../src/paths.js';
import { copyRecording } from './support/recordings.js';
import { BIN, cli, cliEnv, spawnCli } from './support/cli.js';
import { tempFolder } from './support/temp.js';

const GOLDEN_DIR = join(ROOT, 'tests', 'fixtures', 'golden');

const synconf = (args: string[], env?: NodeJS.ProcessEnv) => cli(args, { env, timeout: 60_000 });

/** exit code, the message, at most `lines` lines on stderr, and never a stack trace */
function assertOneLine(r: ReturnType<typeof synconf>, code: number, message: RegExp, lines = 1) {
  assert.equal(r.code, code, r.out);
  assert.match(r.stderr, message);
  assert.ok(r.stderr.trim().split('\n').length <= lines, `at most ${lines} line(s) on stderr:\n${r.stderr}`);
  assert.doesNotMatch(r.out, /\n\s+at .*[:(]\d+/, 'no stack trace');
}

describe('the built command: every bad input is one clear line', () => {
  const work = tempFolder('cli');
  /** a whole report.json, as a replay of the bundled 1.19.2 recordings writes it (made once) */
  let replayed: string | undefined;
  const replayedReport = (): string => {
    if (replayed) return replayed;
    const dir = join(work(), 'replayed');
    const r = synconf(['replay', '--report-dir', dir]);
    assert.equal(r.code, 0, r.out);
    return (replayed = join(dir, 'report.json'));
  };

  for (const [what, body, where] of [
    ['an unknown key', 'statsu: 200', /bad\.yaml:8.*statsu/],
    ['a wrong type', 'status: "two hundred"', /bad\.yaml:8.*status/],
  ] as const) {
    test(`a scenario with ${what}: file:line and cause, exit 2, and the report is written`, async () => {
      const file = join(work(), 'bad.yaml');
      await writeFile(
        file,
        `id: my-bad\ntitle: a bad one\nspec: [GET /rest/system/ping]\nsteps:\n  - name: ping\n    request: { method: GET, path: /rest/system/ping }\n    expect:\n      ${body}\n`,
      );
      const r = synconf(['replay', '--suite', file, '--report-dir', join(work(), 'r-bad')]);
      assertOneLine(r, 2, where);
      assert.ok(existsSync(join(work(), 'r-bad', 'report.json')), 'report written');
    });
  }

  test('a recordings folder after --only is the folder, not a second pattern; the final line names it', async () => {
    const mine = await copyRecording(work(), 'my-recordings');
    const r = synconf(['replay', '--only', 'system-ping', mine, '--report-dir', join(work(), 'r-only')]);
    assert.equal(r.code, 0, r.out);
    assert.match(r.stdout, /: 1 scenario, /, 'one scenario, singular');
    assert.match(r.stdout.trim().split('\n').at(-1)!, /my-recordings/);
  });

  test('an --only pattern or a --suite path that matches nothing is an error naming it', () => {
    assertOneLine(
      synconf(['replay', '--only', 'system-ping,no-such-*', '--report-dir', join(work(), 'r-nomatch')]),
      2,
      /--only.*"no-such-\*"/,
    );
    assertOneLine(
      synconf(['replay', '--suite', 'suites/system,/nonexistent/x.yaml', '--report-dir', join(work(), 'r-nosuite')]),
      2,
      /--suite.*\/nonexistent\/x\.yaml/,
    );
  });

  test('drift gate input: a bad --fail-on, --ignore or --ignore-file is one line, exit 2, naming what', async () => {
    const bad = join(work(), 'bad-ignore.yaml');
    await writeFile(
      bad,
      'accepted:\n  - rule: endpoint-added\n    endpoint: GET /rest/x\n  - rule: nope\n    endpoint: GET /x\n    reason: r\n',
    );
    const pair = ['drift', join(ROOT, 'recordings', 'syncthing-1.19.2'), join(ROOT, 'recordings', 'syncthing-1.29.5')];
    for (const [args, message] of [
      [['--fail-on', 'fail'], /--fail-on: "fail" is not one of breaking, risky, compatible, any/],
      [['--ignore', 'nope@GET /x'], /--ignore "nope@GET \/x": unknown rule "nope"; rules: response-member-removed, /],
      [['--ignore', 'status-changed GET /x'], /--ignore "status-changed GET \/x": the form is RULE@METHOD \/path/],
      [['--ignore', 'status-changed@GET /x y'], /the pointer "y" does not start with \//],
      [['--ignore-file', join(work(), 'none.yaml')], /--ignore-file .*none\.yaml: ENOENT/],
      [
        ['--ignore-file', bad],
        /--ignore-file .*bad-ignore\.yaml:2: \/accepted\/0\/reason: required property "reason" is missing/,
      ],
    ] as const)
      assertOneLine(synconf([...pair, ...args]), 2, message);
  });

  test('--report-dir or report merge --out naming an existing file: one line, exit 2', async () => {
    const file = join(work(), 'a-file');
    await writeFile(file, 'x');
    assertOneLine(
      synconf(['replay', '--only', 'system-ping', '--report-dir', file]),
      2,
      /--report-dir .*a-file: it is a file, not a folder/,
    );
    assertOneLine(
      synconf(['report', 'merge', replayedReport(), '--out', join(file, 'sub')]),
      2,
      /--out .*a-file is a file, not a folder/,
    );
  });

  test('replay --report-dir /proc/x ends at once with one line (no recursive mkdir under /proc)', () => {
    const t0 = Date.now();
    assertOneLine(
      synconf(['replay', '--only', 'system-ping', '--report-dir', '/proc/synconf-x']),
      2,
      /--report-dir \/proc\/synconf-x: cannot create/,
    );
    assert.ok(Date.now() - t0 < 30_000);
  });

  // Usage errors of the arguments alone: the whole message, exactly, is the golden file tests/fixtures/golden/NAME.txt.
  const GOLDEN: [name: string, args: string[]][] = [
    ['unknown-command', ['repaly']],
    ['unknown-option', ['replay', '--onyl', 'x']],
    ['fail-on-not-a-choice', ['replay', '--fail-on', 'bogus']],
    ['unknown-subcommand', ['lab', 'upp']],
    ['missing-argument', ['validate', 'config']],
    ['no-command', []],
    ['agent-version-not-a-version', ['replay', '--agent-version', 'banana']],
    ['drift-takes-no-report-dir', ['drift', '--report-dir', 'D']], // drift writes no report
    ['drift-takes-no-expectations', ['drift', '--expectations', 'x.yaml']],
  ];
  for (const [name, args] of GOLDEN)
    test(`synconf ${args.join(' ')}: one line, not the whole help, exit 2 (golden ${name}.txt)`, () => {
      const r = synconf(args);
      assertOneLine(r, 2, /^synconf: /);
      assert.equal(r.stderr, readFileSync(join(GOLDEN_DIR, `${name}.txt`), 'utf8'));
    });

  test('every golden message has its row', () => {
    assert.deepEqual(readdirSync(GOLDEN_DIR).sort(), GOLDEN.map(([name]) => `${name}.txt`).sort());
  });

  test('set-up fails before any scenario: a sensible totals line', () => {
    const r = synconf([
      'run',
      '--agent',
      'http://127.0.0.1:9',
      '--api-key',
      'k',
      '--only',
      'system-ping',
      '--report-dir',
      join(work(), 'r-setup'),
    ]);
    assert.equal(r.code, 2, r.out);
    assert.doesNotMatch(r.out, /failing on: ;/);
    assert.match(r.stdout, /HARNESS ERROR: no scenario ran/);
    assert.doesNotMatch(r.out, /\n\s+at .*[:(]\d+/);
  });

  test('a corrupt cassette is counted as a harness error, not as a skip', async () => {
    const dir = await copyRecording(work(), 'corrupt');
    await writeFile(join(dir, 'system-ping.har'), '{ not json');
    const r = synconf(['replay', dir, '--only', 'system-ping', '--report-dir', join(work(), 'r-corrupt')]);
    assert.equal(r.code, 2, r.out);
    assert.match(r.stdout, /ERROR +system-ping/);
    assert.doesNotMatch(r.stdout, /SKIP +system-ping/);
    assert.match(r.stdout, /1 scenario \(1 not run: harness error\)/);
  });

  test('colour: FORCE_COLOR turns it on without a terminal, NO_COLOR keeps it off', () => {
    const args = ['replay', '--only', 'system-ping', '--report-dir', join(work(), 'r-colour')];
    assert.match(synconf(args, { FORCE_COLOR: '1', NO_COLOR: undefined }).stdout, /\x1b\[32m/);
    assert.doesNotMatch(synconf(args, { NO_COLOR: '1' }).stdout, /\x1b\[/);
    assert.doesNotMatch(synconf(args, { FORCE_COLOR: '0', NO_COLOR: undefined }).stdout, /\x1b\[/);
  });

  // On a terminal (a pseudo-terminal that script(1) gives it): TERM=dumb and NO_COLOR get no escape sequence and no
  // line redrawn in place (a carriage return not ending a line), one line per update; TERM=xterm gets both (issue 40)
  const ON_A_TERMINAL: [env: NodeJS.ProcessEnv, escapes: boolean][] = [
    [{ TERM: 'dumb', NO_COLOR: undefined }, false],
    [{ TERM: 'xterm', NO_COLOR: '1' }, false],
    [{ TERM: 'dumb', NO_COLOR: '1' }, false],
    [{ TERM: 'xterm', NO_COLOR: undefined }, true],
  ];
  for (const [env, escapes] of ON_A_TERMINAL)
    test(`on a terminal, TERM=${env.TERM}${env.NO_COLOR ? ' NO_COLOR=1' : ''}: ${escapes ? 'colour and redraws' : 'plain lines'}`, () => {
      const argv = [BIN, 'replay', '--only', 'system-ping', '--report-dir', join(work(), 'r-terminal')];
      const quoted = [process.execPath, ...argv].map((a) => `'${a}'`).join(' ');
      const r = spawnSync('script', ['-qfec', quoted, '/dev/null'], {
        encoding: 'utf8',
        env: cliEnv(env),
        cwd: work(),
        timeout: 60_000,
      });
      assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
      assert.match(r.stdout, /PASS/, r.stdout);
      assert.equal(/\x1b/.test(r.stdout), escapes, JSON.stringify(r.stdout));
      assert.equal(/\r(?!\n)/.test(r.stdout), escapes, JSON.stringify(r.stdout));
    });

  test('--help of every command has examples and its exit codes; --version; completion', async () => {
    for (const command of [
      [],
      ['run'],
      ['replay'],
      ['matrix'],
      ['drift'],
      ['validate'],
      ['lab'],
      ['lab', 'up'],
      ['lab', 'down'],
      ['agents'],
      ['agents', 'install'],
      ['agents', 'list'],
      ['report'],
      ['report', 'merge'],
      ['report', 'render'],
      ['spec'],
    ]) {
      const r = synconf([...command, '--help']);
      assert.equal(r.code, 0, `${command.join(' ')} --help: ${r.stderr}`);
      assert.match(r.stdout, /Examples:/, `${command.join(' ')} --help has examples`);
      assert.match(r.stdout, /Exit codes/, `${command.join(' ')} --help has its exit codes`);
    }
    assert.doesNotMatch(
      synconf(['replay', '--help']).stdout,
      /--(agent|lab|api-key|syncthing)\s/,
      'replay --help carries no live-only options',
    );
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
    assert.equal(synconf(['--version']).stdout.trim(), pkg.version);
    assert.match(synconf(['completion']).stdout, /synconf.*completion/s);
  });

  test('validate scenario|expectations|cassette|report: a linter with the messages of a run', async () => {
    const good = synconf(['validate', 'scenario', join(ROOT, 'suites', 'system', 'ping.yaml')]);
    assert.equal(good.code, 0, good.out);
    assert.match(good.stdout, /valid scenario: system-ping/);
    const file = join(work(), 'lint.yaml');
    await writeFile(
      file,
      'id: my-lint\ntitle: t\nspec: [GET /rest/system/ping]\nsteps:\n  - name: ping\n    request: { method: GET, path: /rest/system/ping }\n    expect:\n      statsu: 200\n',
    );
    const lint = synconf(['validate', 'scenario', file]);
    const run = synconf(['replay', '--suite', file, '--report-dir', join(work(), 'r-lint')]);
    assert.equal(lint.code, 2, lint.out);
    assert.equal(run.code, 2, run.out);
    assert.equal(lint.stderr.trim(), run.stderr.split('\n')[0], 'the same line and exit code as a run');
    const exp = join(work(), 'exp.yaml');
    await writeFile(
      exp,
      'agent: syncthing\nversions: ">=1.0.0"\ndescription: d\ndeviations:\n  - { check: a/b/c, observed: o, reason: r }\n  - { check: a/b/c, observed: o, reason: r }\n',
    );
    assert.match(synconf(['validate', 'expectations', exp]).stderr, /exp\.yaml:6: deviation "a\/b\/c": listed twice$/m);
    // A schema error inside an entry names the line where the entry starts, and its check.
    await writeFile(
      exp,
      'agent: syncthing\nversions: ">=1.0.0"\ndescription: d\ndeviations:\n- check: a/b/c\n  observed: o\n  reason: r\n- check: d/e/f\n  observed: o\n',
    );
    assert.match(
      synconf(['validate', 'expectations', exp]).stderr,
      /exp\.yaml:8: deviation "d\/e\/f": \/deviations\/1\/reason: required property "reason" is missing$/m,
    );
    assert.equal(synconf(['validate', 'expectations', join(ROOT, 'bench', 'known-deviations-1.19.2.yaml')]).code, 0);
    const dir = await copyRecording(work(), 'lint-cassettes');
    assert.equal(synconf(['validate', 'cassette', join(dir, 'system-ping.har')]).code, 0);
    await writeFile(join(dir, 'system-ping.har'), '{ not json');
    const cassette = synconf(['validate', 'cassette', join(dir, 'system-ping.har')]);
    assert.equal(cassette.code, 2);
    assert.match(cassette.stderr, /cassette .*system-ping\.har:1:3: not JSON/);
    assert.equal(synconf(['validate', 'report', replayedReport()]).code, 0);
    const report = synconf(['validate', 'report', join(dir, 'system-ping.har')]);
    assert.equal(report.code, 2);
    assertOneLine(
      synconf(['validate', 'scenario', join(work(), 'nope.yaml')]),
      2,
      /cannot read scenario ".*nope\.yaml": ENOENT/,
    );
  });

  test('lists: repeated flags and comma-separated values are the same', () => {
    const a = synconf([
      'replay',
      '--only',
      'system-ping',
      '--only',
      'system-status',
      '--report-dir',
      join(work(), 'r-l1'),
    ]);
    const b = synconf(['replay', '--only', 'system-ping,system-status', '--report-dir', join(work(), 'r-l2')]);
    assert.equal(a.code, 0, a.out);
    assert.match(a.stdout, /: 2 scenarios, /);
    assert.equal(a.stdout.replace(/\(\d+\.\d+s\)|r-l\d/g, ''), b.stdout.replace(/\(\d+\.\d+s\)|r-l\d/g, ''));
  });

  test('a reader that stops early (synconf replay | head): the run goes on, writes its reports, exits with its verdict', async () => {
    const dir = join(work(), 'r-closed-pipe');
    const child = spawnCli(['replay', '--report-dir', dir]);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d));
    child.stdout!.once('data', () => child.stdout!.destroy()); // like head -1: reads one chunk, closes the pipe
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /EPIPE|internal error/);
    for (const f of ['report.json', 'junit.xml', 'report.html', 'summary.md']) assert.ok(existsSync(join(dir, f)), f);
  });
});
