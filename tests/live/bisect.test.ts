// `synconf bisect` as users run it, over installed versions only (--installed-only: no build here; the search
// itself is tests/bisect.test.ts): the folder-template regression between 1.29.5 and 2.1.0 is narrowed to
// "between 1.29.5 and 1.30.0" with 1.29.6 and 1.29.7 named as holes (exit 2: cannot tell which), the 2.0.x never run;
// ends that do not differ cannot be bisected (exit 2); bad options are one line (exit 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { validate } from '../../src/schema/registry.js';
import { agentBinary } from '../support/agents.js';
import { cliAsync } from '../support/cli.js';
import { makeTemp, removeTemp } from '../support/temp.js';

const TEMPLATE = 'system-config-defaults/tpl-folder-entry/assert:rescanIntervalS from the folder template';

test('bisect --installed-only narrows the folder-template regression to the holes between 1.29.5 and 1.30.0 (exit 2), JSON as its schema', async () => {
  const dir = makeTemp('bisect');
  const cache = join(dir, 'cache');
  const env = { SYNCONF_AGENTS_DIR: cache };
  const synconf = (args: string[]) => cliAsync(['bisect', ...args], { cwd: dir, env });
  try {
    await mkdir(cache);
    for (const v of ['1.29.5', '1.30.0', '2.1.0']) await symlink(dirname(agentBinary(v)), join(cache, v));
    const res = await synconf(['--check', TEMPLATE, '--from', '1.29.5', '--to', '2.1.0', '--installed-only']);
    assert.equal(res.code, 2, res.out);
    assert.equal(
      res.stdout,
      `${TEMPLATE}: cannot tell which release: between 1.29.5 and 1.30.0; 1.29.6 not installed (--installed-only); 1.29.7 not installed (--installed-only)\n` +
        'upstream: git bisect start v1.30.0 v1.29.5\n',
    );
    for (const line of ['1.29.5: pass', '2.1.0: fail', '1.30.0: fail'])
      assert.match(res.stderr, new RegExp(`^synconf bisect: ${line.replace(/\./g, '\\.')}$`, 'm'));
    assert.deepEqual(
      readdirSync(join(dir, 'reports', 'bisect'))
        .filter((f) => /^\d/.test(f))
        .sort(),
      ['1.29.5', '1.30.0', '2.1.0'],
    );

    const json = await synconf([
      '--check',
      TEMPLATE,
      '--from',
      '1.30.0',
      '--to',
      '2.1.0',
      '--installed-only',
      '--json',
    ]);
    assert.equal(json.code, 2, json.out);
    const doc = JSON.parse(json.stdout) as { answer: unknown };
    assert.deepEqual(validate('bisect', doc), []);
    assert.deepEqual(doc.answer, {
      kind: 'cannot-bisect',
      why: '1.30.0 and 2.1.0 both show fail: no change between them',
    });
  } finally {
    removeTemp(dir);
  }
});

test('bisect --cause without ends, as users run it: the installed releases where /rest/system/debug went (1.30.0 → 2.1.0), then the 2.0.x between as holes (exit 2)', async () => {
  const dir = makeTemp('bisect-cause');
  const cache = join(dir, 'cache');
  try {
    await mkdir(cache);
    for (const v of ['1.29.5', '1.30.0', '2.1.0']) await symlink(dirname(agentBinary(v)), join(cache, v));
    const cause = 'endpoint-removed GET /rest/system/debug';
    const res = await cliAsync(['bisect', '--cause', cause, '--installed-only'], {
      cwd: dir,
      env: { SYNCONF_AGENTS_DIR: cache },
    });
    assert.equal(res.code, 2, res.out);
    const [answer, upstream, ...rest] = res.stdout.trimEnd().split('\n');
    assert.deepEqual(rest, [], res.stdout);
    assert.match(
      answer,
      /^endpoint-removed GET \/rest\/system\/debug: cannot tell which release: between 1\.30\.0 and 2\.1\.0; 2\.0\.0 not served by the Go module proxy/,
    );
    assert.match(
      answer,
      /; 2\.0\.9 not installed \(--installed-only\);.*; 2\.0\.15 not installed \(--installed-only\); 2\.0\.16 not served/,
    );
    assert.equal(upstream, 'upstream: git bisect start v2.1.0 v1.30.0');
    // the ends were read from the three installed releases, each run once: absent, absent, then present on 2.1.0
    for (const line of ['1.29.5: absent', '1.30.0: absent', '2.1.0: present'])
      assert.match(res.stderr, new RegExp(`^synconf bisect: ${line.replace(/\./g, '\\.')}$`, 'm'));
    assert.equal(res.stderr.match(/: running /g)?.length, 3, res.stderr);
  } finally {
    removeTemp(dir);
  }
});

test('bisect refuses a check id, a version or missing options in one line (exit 2), before any run', async () => {
  const rows: [string[], RegExp][] = [
    [['--check', 'no-slashes', '--from', '1.29.5', '--to', '1.30.0'], /^synconf: --check no-slashes: not a check id/],
    [['--check', TEMPLATE, '--from', '1.29', '--to', '1.30.0'], /^synconf: --from 1\.29: not a release version/],
    [['--check', TEMPLATE, '--from', '1.29.5'], /^synconf: --from and --to: give both ends, or neither/],
  ];
  for (const [args, want] of rows) {
    const res = await cliAsync(['bisect', ...args]);
    assert.equal(res.code, 2, res.out);
    assert.match(res.stderr, want);
    assert.equal(res.stderr.trimEnd().split('\n').length, 1, res.stderr);
  }
});
