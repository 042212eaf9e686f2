// `synconf history` live, as users run it: two installed releases (1.29.5, 1.30.0) in labs with one scenario, the
// folder-template change named in 1.30.0 with 1.29.6 and 1.29.7 to bisect; then the same history again runs nothing
// (no lab started, every release from the cache, the reports those of the first run). The offline command, the
// holes and the bisect hints are tests/history.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { History, Report } from '../../src/schema/generated/types.js';
import { loadDocumentValidators, validate } from '../../src/schema/registry.js';
import { agentBinary } from '../support/agents.js';
import { cliAsync } from '../support/cli.js';
import { makeTemp, removeTemp } from '../support/temp.js';

const read = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

test('history of 1.29.5 and 1.30.0 live: the folder-template change in 1.30.0; a second run from the cache runs no lab', async () => {
  const dir = makeTemp('history-live');
  const agents = join(dir, 'agents');
  const env = { SYNCONF_AGENTS_DIR: agents, TMPDIR: dir };
  const history = () =>
    cliAsync(['history', '--only', 'system-config-defaults', '--cache-dir', 'c', '--report-dir', 'h'], {
      cwd: dir,
      env,
      timeout: 300_000,
    });
  try {
    await mkdir(agents);
    for (const v of ['1.29.5', '1.30.0']) await symlink(dirname(agentBinary(v)), join(agents, v));
    const first = await history();
    assert.equal(first.code, 0, first.out);
    assert.match(first.stdout, /starting a lab/);
    assert.match(first.stdout, /\(2 run, 0 from the cache\)/);
    const h = read<History>(join(dir, 'h', 'history.json'));
    await loadDocumentValidators();
    assert.deepEqual(validate('history', h), []);
    assert.equal(h.mode, 'live');
    const [change] = h.changes;
    assert.deepEqual([change.from, change.to], ['1.29.5', '1.30.0']);
    assert.ok(
      change.causes.some((c) => c.rule === 'default-changed' && /rescanIntervalS: 1234 → 3600/.test(c.line)),
      JSON.stringify(change.causes),
    );
    assert.match(change.bisect.text, /\(1\.29\.6, 1\.29\.7\)/);
    assert.match(
      h.releases.find((r) => r.version === '1.29.6')!.why!,
      /not installed \(synconf agents install 1\.29\.6\)/,
    );
    const startedAt = read<Report>(join(dir, 'h', '1.30.0', 'report.json')).run.startedAt;

    const second = await history();
    assert.equal(second.code, 0, second.out);
    assert.doesNotMatch(second.stdout, /starting a lab|running/);
    assert.match(second.stdout, /\(0 run, 2 from the cache\)/);
    assert.deepEqual(
      read<History>(join(dir, 'h', 'history.json')).columns.map((c) => c.cached),
      [true, true],
    );
    assert.equal(read<Report>(join(dir, 'h', '1.30.0', 'report.json')).run.startedAt, startedAt);
    assert.deepEqual(read<History>(join(dir, 'h', 'history.json')).changes, h.changes, 'the same page');
  } finally {
    removeTemp(dir);
  }
});
