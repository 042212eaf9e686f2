// Known deviations follow releases, not lines (issue 36): an entry holds from the release that introduced it (`from`)
// to before the one that fixed it (`until`). The folder-template change (f7c8efd93, syncthing#10034) came in 1.29.6 and
// was fixed in 2.1.2: 1.29.6 fails the two checks it breaks (measured on a build of v1.29.6) while 1.29.5 passes them.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expectationsFor } from '../src/runner/expectations.js';
import { ROOT } from '../src/paths.js';
import { cli, cliAsync } from './support/cli.js';
import { tempFolder } from './support/temp.js';
import type { Report } from '../src/schema/generated/types.js';

const TEMPLATE = 'system-config-defaults/tpl-folder-entry/assert:rescanIntervalS from the folder template';
const PATH = 'system-config/get-system-config/assert:/defaults/folder/path equals';

/** the files and checks of the known deviations that hold on a release */
const listed = (release: string) =>
  new Map(expectationsFor(release).flatMap((f) => f.data.deviations.map((d) => [d.check, f.file] as const)));

describe('known deviations bounded by releases', () => {
  const work = tempFolder('bounds');
  test('the folder-template deviations hold from 1.29.6 on, the template one until 2.1.2, whatever the line', () => {
    const rows: [string, boolean, boolean][] = [
      // release, template deviation listed, "~" path deviation listed
      ['1.29.0', false, false],
      ['1.29.5', false, false],
      ['1.29.6', true, true],
      ['1.29.7', true, true],
      ['1.30.0', true, true],
      ['2.1.0', true, true],
      ['2.1.1', true, true],
      ['2.1.2', false, true],
    ];
    for (const [release, template, path] of rows) {
      const checks = listed(release);
      assert.equal(checks.has(TEMPLATE), template, `${release}: template deviation`);
      assert.equal(checks.has(PATH), path, `${release}: path deviation`);
    }
    // the other entries of the 1.29 file still hold on every 1.29.x
    assert.equal(listed('1.29.0').size + 2, listed('1.29.6').size);
    assert.equal(listed('1.29.6').get(TEMPLATE), 'expectations/syncthing-1.29.yaml');
  });

  test('1.29.5 answers standing in for a 1.29.6: both bounded entries apply there and pass, so the file is not true', async () => {
    // the recordings of the two scenarios, the version they claim made 1.29.6: answers 1.29.6 does not give
    const dir = work();
    const standIn = join(dir, 'as-1.29.6');
    await mkdir(standIn);
    for (const f of ['_run', 'system-config', 'system-config-defaults']) {
      const har = await readFile(join(ROOT, 'recordings', 'syncthing-1.29.5', `${f}.har`), 'utf8');
      await writeFile(join(standIn, `${f}.har`), har.replaceAll('v1.29.5', 'v1.29.6'));
    }
    const only = ['--only', 'system-config,system-config-defaults'];
    const out = join(dir, 'r');
    const r = await cliAsync(['replay', standIn, ...only, '--report-dir', out], { cwd: dir });
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    const unexpected = report.scenarios.flatMap((s) => s.checks.filter((c) => c.verdict === 'unexpected-pass'));
    assert.deepEqual(unexpected.map((c) => c.id).sort(), [TEMPLATE, PATH], r.stdout + r.stderr);
    assert.equal(r.code, 1);
    // as itself, 1.29.5 conforms with its line's file: the bounded entries do not apply to it
    const recordings = join(ROOT, 'recordings', 'syncthing-1.29.5');
    const own = await cliAsync(['replay', recordings, ...only, '--report-dir', join(dir, 'own')], { cwd: dir });
    assert.equal(own.code, 0, own.stdout + own.stderr);
  });

  test('bounds that hold no release of the file, or an until not after its from: one line naming the entry, exit 2', async () => {
    const dir = work();
    const file = join(dir, 'exp.yaml');
    const cases: [string, RegExp][] = [
      [
        'from: 1.31.0',
        /exp\.yaml:5: deviation "a\/b\/c": from\/until \(>=1\.31\.0\) hold no release of the file's versions ">=1\.29\.0 <1\.30\.0"$/m,
      ],
      [
        'until: 1.29.0',
        /exp\.yaml:5: deviation "a\/b\/c": from\/until \(<1\.29\.0\) hold no release of the file's versions/m,
      ],
      [
        '{ from: 1.29.6, until: 1.29.6 }',
        /exp\.yaml:5: deviation "a\/b\/c": until 1\.29\.6 is not after from 1\.29\.6$/m,
      ],
      ['from: 1.29', /exp\.yaml:5: deviation "a\/b\/c": \/deviations\/0\/from: /m],
    ];
    for (const [bounds, message] of cases) {
      const entry = bounds.startsWith('{') ? bounds.slice(1, -1).trim().replace(', ', '\n  ') : bounds;
      await writeFile(
        file,
        `agent: syncthing\nversions: ">=1.29.0 <1.30.0"\ndescription: d\ndeviations:\n- check: a/b/c\n  ${entry}\n  observed: o\n  reason: r\n`,
      );
      const r = cli(['validate', 'expectations', file], { cwd: dir });
      assert.equal(r.code, 2, `${bounds}: ${r.out}`);
      assert.match(r.stderr, message, bounds);
    }
    await writeFile(
      file,
      'agent: syncthing\nversions: ">=1.29.0 <1.30.0"\ndescription: d\ndeviations:\n- check: a/b/c\n  from: 1.29.6\n  until: 1.31.0\n  observed: o\n  reason: r\n',
    );
    assert.equal(cli(['validate', 'expectations', file], { cwd: dir }).code, 0);
  });
});
