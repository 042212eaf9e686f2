// `synconf matrix` on the real agents: every installed version live (the live matrix every test that needs a whole
// live run reads, support/live-runs.ts), then replayed from the exchanges its reports keep: the same causes, the
// same gate. The classification of changes and the matrix of the bundled recordings: matrix.test.ts.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, symlink, unlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Report, Matrix } from '../../src/schema/generated/types.js';
import { validate, formatError, loadDocumentValidators } from '../../src/schema/registry.js';
import { cliAsync } from '../support/cli.js';
import { AGENT_VERSIONS, agentBinary } from '../support/agents.js';
import { liveMatrix } from '../support/live-runs.js';
import { makeTemp, removeTemp, tempFolder } from '../support/temp.js';

await loadDocumentValidators(); // the matrix validator

describe('synconf matrix on the real agents', () => {
  const work = tempFolder('matrix-live');

  /** the causes of each pair as comparable rows: rule id, level, endpoints, pointer */
  const causeRows = (m: Matrix) =>
    m.pairs!.map((p) => ({
      pair: `${m.columns[p.from].label} → ${m.columns[p.to].label}`,
      answer: p.answer,
      causes: p.causes.map((c) =>
        [c.cause.rule, c.cause.level, c.cause.endpoints.join(','), c.cause.pointer].join(' '),
      ),
    }));

  test('every installed version live, then replayed from the exchanges its reports keep: the same causes, the same gate', async () => {
    for (const v of AGENT_VERSIONS) agentBinary(v); // each installed, or this test fails saying how to install it
    // the live matrix every test that needs a whole live run reads: every version, --fail-on breaking
    const live = await liveMatrix();
    const out = live.reportDir;
    const m = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8')) as Matrix;
    assert.deepEqual(validate('matrix', m).map(formatError), []);
    assert.deepEqual(
      m.order.map((i: number) => m.columns[i].label),
      [...AGENT_VERSIONS],
      live.stdout + live.stderr,
    );
    assert.ok(m.columns.every((c) => c.mode === 'live'));
    for (const v of AGENT_VERSIONS) {
      for (const f of ['report.json', 'junit.xml', 'report.html', 'summary.md', 'recordings/_run.har'])
        assert.ok(existsSync(join(out, v, f)), `${v}/${f}`);
      const report = JSON.parse(await readFile(join(out, v, 'report.json'), 'utf8')) as Report;
      assert.equal(report.run.exchanges, 'recordings', `${v}: report.json names its exchanges`);
    }
    const row = (id: string) => m.rows.find((x) => x.id === id)!;
    const label = (i: number) => m.columns[i].label;
    // 1.29.5 lists directories without the trailing separator: conforms on 1.19.2, deviates on 1.29.5 (listed)
    const browse = row('system-browse/subdirectories/schema');
    assert.deepEqual(
      browse.changes.map((c) => [label(c.from), label(c.to), c.class]),
      [['1.19.2', '1.29.5', 'listed-regression']],
    );
    // causes come from the recorded exchanges: the browse change is one breaking cause, and no pair falls back to
    // a cause per changed check
    const newer = m.pairs!.find((p) => label(p.from) === '1.19.2')!;
    assert.equal(newer.answer, 'breaks');
    assert.ok(
      newer.causes.some((c) => c.cause.rule === 'response-value-format-changed' && c.cause.level === 'breaking'),
    );
    for (const p of m.pairs!) assert.notEqual(p.answer, 'cannot-tell', p.reason);
    assert.equal(live.code, 1, 'the gate trips: 1.29.5 breaks clients of 1.19.2');
    const summary = live.stdout.slice(live.stdout.lastIndexOf('\nversion matrix: ')).trim().split('\n');
    assert.ok(summary.length <= 40, `the summary fits a screen: ${summary.length} lines`);
    assert.match(summary.at(-1)!, /^synconf matrix: exit 1: .*; gate: --fail-on breaking tripped by \d+ causes/);

    // the same question asked of the exchanges the live reports keep, offline
    const again = join(work(), 'replayed');
    const replayed = await cliAsync([
      'matrix',
      '--recordings',
      AGENT_VERSIONS.map((v) => join(out, v, 'recordings')).join(','),
      '--fail-on',
      'breaking',
      '--report-dir',
      again,
    ]);
    const r = JSON.parse(await readFile(join(again, 'matrix.json'), 'utf8')) as Matrix;
    assert.deepEqual(causeRows(r), causeRows(m));
    assert.equal(replayed.code, 1, replayed.stdout + replayed.stderr);
    const gateLines = (text: string) => text.split('\n').filter((l) => / → .*: --fail-on breaking: /.test(l));
    assert.deepEqual(gateLines(replayed.stdout), gateLines(live.stdout), 'both name the same causes');
  });
});

test('without --syncthing only the default set runs: a release installed besides it is named, left out (exit as the set)', async () => {
  const dir = makeTemp('matrix-default-set');
  const cache = join(dir, 'cache');
  const env = { SYNCONF_AGENTS_DIR: cache };
  try {
    await mkdir(cache);
    // 1.29.5 of the default set, and a release installed by hand (its folder: the lab never starts it here)
    await symlink(dirname(agentBinary('1.29.5')), join(cache, '1.29.5'));
    await symlink(dirname(agentBinary('1.29.5')), join(cache, '1.17.0'));
    const out = join(dir, 'reports');
    const r = await cliAsync(['matrix', '--only', 'system-ping', '--report-dir', out], { cwd: dir, env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const lines = r.stdout.split('\n');
    assert.equal(
      lines[0],
      'synconf matrix: the default set only; installed besides it, not run: 1.17.0 (name versions to run with --syncthing, e.g. --syncthing 1.29.5,1.17.0)',
    );
    assert.match(lines[1], /^synconf matrix: 1 version \(1\.29\.5\),/);
    assert.ok(!existsSync(join(out, '1.17.0')), 'the release installed besides the set did not run');

    // only releases besides the set installed: one line naming them, nothing run (exit 2)
    await unlink(join(cache, '1.29.5'));
    const none = await cliAsync(['matrix', '--only', 'system-ping', '--report-dir', join(dir, 'r2')], {
      cwd: dir,
      env,
    });
    assert.equal(none.code, 2, none.stdout + none.stderr);
    assert.match(
      none.stderr,
      /^synconf: no agent to run the matrix against \(none of the default set \(1\.12\.1, .*\) is installed, and the versions installed besides it run only when named: --syncthing 1\.17\.0\)/,
    );
    assert.equal(none.stderr.trimEnd().split('\n').length, 1, none.stderr);
  } finally {
    removeTemp(dir);
  }
});
