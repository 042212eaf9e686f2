// `synconf history` over the bundled recordings (offline, the built command from a scratch folder): the page names
// each change with its release, its cause and where exactly it is (the folder-template change between 1.29.5 and
// 1.30.0 with 1.29.6 and 1.29.7 to bisect; its reversal between 2.1.0 and 2.1.2 across the unserved 2.1.1); the
// releases between as holes; a second run with nothing changed runs nothing (said by the output and by the reports,
// which are the first run's); a changed scenario file or a new release runs only what it changed. The live command is
// tests/live/history-live.test.ts.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { History, Matrix, Report } from '../src/schema/generated/types.js';
import { ROOT } from '../src/paths.js';
import { loadDocumentValidators, validate } from '../src/schema/registry.js';
import { cliAsync } from './support/cli.js';
import { makeTemp, removeTemp } from './support/temp.js';

const SCENARIO = 'system-config-defaults';
const read = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

describe('synconf history --replay', () => {
  let dir: string;
  const history = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    cliAsync(['history', '--replay', '--cache-dir', 'c', ...args], { cwd: dir, env, timeout: 120_000 });
  const doc = (out = 'h') => read<History>(join(dir, out, 'history.json'));
  before(async () => {
    dir = makeTemp('history');
    await loadDocumentValidators();
  });
  after(() => removeTemp(dir));

  test('three releases: each change with its release, cause and bisect hint; holes between; valid', async () => {
    const r = await history(['--syncthing', '1.29.5,1.30.0,2.1.2', '--only', SCENARIO, '--report-dir', 'h']);
    assert.equal(r.code, 0, r.out);
    const h = doc();
    assert.deepEqual(validate('history', h), []);
    assert.deepEqual(
      h.columns.map((c) => [c.version, c.cached]),
      [
        ['1.29.5', false],
        ['1.30.0', false],
        ['2.1.2', false],
      ],
    );
    const holes = h.releases.filter((x) => x.state === 'hole').map((x) => x.version);
    for (const v of ['1.29.6', '1.29.7', '2.0.9', '2.1.0', '2.1.1']) assert.ok(holes.includes(v), `${v} is a hole`);
    assert.match(h.releases.find((x) => x.version === '2.1.1')!.why!, /not served by the Go module proxy/);
    const [template, back] = h.changes;
    assert.deepEqual([template.from, template.to, back.from, back.to], ['1.29.5', '1.30.0', '1.30.0', '2.1.2']);
    assert.ok(
      template.causes.some((c) => c.rule === 'default-changed' && /rescanIntervalS: 1234 → 3600/.test(c.line)),
      JSON.stringify(template.causes),
    );
    assert.equal(template.bisect.kind, 'search');
    assert.match(template.bisect.text, /\(1\.29\.6, 1\.29\.7\)/);
    assert.match(template.bisect.command!, new RegExp(`--check '${SCENARIO}/.*' --from 1.29.5 --to 1.30.0`));
    // the terminal and the first lines of history.md answer "what changed, in which release"
    assert.match(r.stdout, /^in 1\.30\.0 \(after 1\.29\.5\): BREAKS clients of 1\.29\.5/m);
    const md = readFileSync(join(dir, 'h', 'history.md'), 'utf8').split('\n');
    assert.ok(
      md.slice(0, 10).some((l) => l.startsWith('| in 1.30.0 (after 1.29.5) |')),
      md.slice(0, 10).join('\n'),
    );
    assert.match(readFileSync(join(dir, 'h', 'history.html'), 'utf8'), /in 1\.30\.0 \(after 1\.29\.5\)/);
  });

  test('a second run with nothing changed runs nothing: every release from the cache, the same reports', async () => {
    const first = read<Report>(join(dir, 'h', '1.30.0', 'report.json')).run.startedAt;
    const pairs = read<Matrix>(join(dir, 'h', 'matrix.json')).pairs;
    assert.equal(readdirSync(join(dir, 'c', 'pairs')).length, 2, 'the causes of both pairs kept');
    const r = await history(['--syncthing', '1.29.5,1.30.0,2.1.2', '--only', SCENARIO, '--report-dir', 'h']);
    assert.equal(r.code, 0, r.out);
    assert.match(r.stdout, /\(0 run, 3 from the cache\)/);
    assert.doesNotMatch(r.stdout, /running|replaying/);
    assert.deepEqual(
      doc().columns.map((c) => c.cached),
      [true, true, true],
    );
    assert.equal(read<Report>(join(dir, 'h', '1.30.0', 'report.json')).run.startedAt, first, 'the cached report');
    assert.deepEqual(read<Matrix>(join(dir, 'h', 'matrix.json')).pairs, pairs, 'the kept causes, the same');
    assert.deepEqual(
      doc().changes.map((c) => c.to),
      ['1.30.0', '2.1.2'],
    );
  });

  test('a new release runs alone; a changed scenario file runs every release again', async () => {
    const suite = join(dir, 'defaults.yaml');
    copyFileSync(join(ROOT, 'suites', 'system', 'config-defaults.yaml'), suite);
    const args = ['--suite', suite, '--report-dir', 'h2'];
    assert.match((await history(['--syncthing', '1.29.5,1.30.0', ...args])).stdout, /\(2 run, 0 from the cache\)/);
    const added = await history(['--syncthing', '1.29.5,1.30.0,2.1.0', ...args]);
    assert.match(added.stdout, /\(1 run, 2 from the cache\)/, added.out);
    assert.match(added.stdout, /running 1 release \(2\.1\.0\)/);
    writeFileSync(suite, readFileSync(suite, 'utf8').replace(/^title: (.*)$/m, 'title: $1 (edited)'));
    const edited = await history(['--syncthing', '1.29.5,1.30.0,2.1.0', ...args]);
    assert.match(edited.stdout, /\(3 run, 0 from the cache\)/, edited.out);
  });

  test('2.1.0 → 2.1.2 cannot be narrowed (2.1.1 not served); neighbouring releases name the first', async () => {
    const args = ['--syncthing', '2.1.0,2.1.2', '--only', SCENARIO];
    await history([...args, '--report-dir', 'h3']);
    const [fix] = doc('h3').changes;
    assert.equal(fix.bisect.kind, 'cannot-narrow');
    assert.match(fix.bisect.text, /2\.1\.1 not served by the Go module proxy/);
    // a release table without 2.1.1: 2.1.0 and 2.1.2 are neighbouring releases
    const table = read<{ releases: { version: string }[] }>(join(ROOT, 'data', 'releases.json'));
    table.releases = table.releases.filter((x) => x.version !== '2.1.1');
    writeFileSync(join(dir, 'releases.json'), JSON.stringify(table));
    await history([...args, '--report-dir', 'h4'], { SYNCONF_RELEASES_FILE: join(dir, 'releases.json') });
    assert.deepEqual(doc('h4').changes[0].bisect, {
      kind: 'first',
      text: 'first in 2.1.2 (last before: 2.1.0): neighbouring releases',
    });
  });

  const usage: [string, string[], RegExp][] = [
    ['one release', ['--syncthing', '1.29.5', '--only', SCENARIO], /at least two releases, found 1 \(1\.29\.5\)/],
    ['--all with --replay', ['--all'], /--all: .*neither --syncthing nor --replay/],
    ['--install with --replay', ['--install'], /--install: installs the releases named/],
  ];
  for (const [name, args, line] of usage)
    test(`usage: ${name}: one line, exit 2`, async () => {
      const r = await history(args);
      assert.equal(r.code, 2, r.out);
      assert.match(r.stderr, line);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    });
});
