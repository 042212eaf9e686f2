// `synconf spec --boundaries` as users run it (issue 36): each version statement told by the releases that straddle it.
// No build here: a smaller release table (SYNCONF_RELEASES_FILE) whose releases around 1.18.0 are the installed Debian
// builds 1.12.1 and 1.19.2, in a cache of their own; the straddling releases computed on the whole table are
// tests/straddle.test.ts. The 1.18.0 statements run only their scenarios on the two and agree, naming them; the 1.12.0
// one is straddled by 1.11.1, not installed: named, never built without --install; with --install and a go that
// fails, one line and "cannot tell"; statements older than the table say so; --json is its schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { validate } from '../../src/schema/registry.js';
import { RELEASES_FILE } from '../../src/agents/releases.js';
import type { SpecBoundaryRow } from '../../src/schema/generated/types.js';
import { agentBinary } from '../support/agents.js';
import { cliAsync } from '../support/cli.js';
import { makeTemp, removeTemp } from '../support/temp.js';

const PENDING = /^bracketed by 1\.12\.1 and 1\.19\.2: /;

test('spec --boundaries: the 1.18.0 statements run on the releases straddling it and agree, naming them; the rest say why', async () => {
  const dir = makeTemp('spec-boundaries');
  const cache = join(dir, 'cache');
  const table = JSON.parse(await readFile(RELEASES_FILE, 'utf8'));
  table.releases = table.releases.filter((r: { version: string }) =>
    ['1.1.4', '1.11.1', '1.12.1', '1.19.2'].includes(r.version),
  );
  const tableFile = join(dir, 'releases.json');
  const go = join(dir, 'go');
  try {
    await writeFile(tableFile, JSON.stringify(table));
    await writeFile(go, '#!/bin/sh\necho "go: the module proxy is unreachable" >&2\nexit 1\n', { mode: 0o755 });
    await mkdir(cache);
    for (const v of ['1.12.1', '1.19.2']) await symlink(dirname(agentBinary(v)), join(cache, v));
    const env = { SYNCONF_AGENTS_DIR: cache, SYNCONF_RELEASES_FILE: tableFile, SYNCONF_GO: go };
    const res = await cliAsync(['spec', '--boundaries', '--install', '--json'], { cwd: dir, env, timeout: 300_000 });
    assert.equal(res.code, 0, res.out);
    const rows = JSON.parse(res.stdout) as SpecBoundaryRow[];
    assert.deepEqual(validate('spec-boundaries', rows), []);
    const row = (id: string) => rows.find((r) => r.statement === id)!;
    for (const id of [
      'pending-devices.delete.since',
      'pending-folders.delete.since',
      'versioning.notes.pending-delete',
    ]) {
      const r = row(id);
      assert.equal(r.state, 'agrees', `${id}: ${r.why}`);
      assert.match(r.why, PENDING, id);
      assert.match(r.why, /does not hold on 1\.12\.1 \(.*\), holds on 1\.19\.2 \(.*\) — as the spec says$/, id);
      assert.deepEqual(
        r.cells!.map((c) => [c.version, c.observed]),
        [
          ['1.12.1', 'does not hold'],
          ['1.19.2', 'holds'],
        ],
      );
    }
    // 1.11.1 could not be installed (the go given fails): said in one line, and the statement cannot be told
    const config = row('system-config.deprecated');
    assert.equal(config.state, 'cannot tell');
    assert.match(config.why, /^bracketed by 1\.11\.1 and 1\.12\.1; 1\.11\.1 not installed: /);
    assert.match(res.stderr, /^synconf spec --boundaries: installing 1\.11\.1$/m);
    assert.equal(row('debug.since').why, 'no release before 0.12.0 in the release table (its oldest is 1.1.4)');
    assert.match(row('status.lastDialStatus.since').why, /^no release before 1\.2\.0 synconf can have: 1\.1\.4 /);
    assert.equal(row('versioning.release').state, 'not checkable');
    // only the pair's scenarios ran, a report folder for the pair, one for each release
    const reports = join(dir, 'reports', 'boundaries', '1.12.1-1.19.2');
    assert.deepEqual(
      readdirSync(reports)
        .filter((f) => /^\d/.test(f))
        .sort(),
      ['1.12.1', '1.19.2'],
    );
    const ran = JSON.parse(await readFile(join(reports, '1.19.2', 'report.json'), 'utf8'));
    assert.ok(ran.scenarios.length < 26, `${ran.scenarios.length} scenarios`);

    // without --install nothing is built: the releases missing are named, with the command that would build them
    const text = await cliAsync(['spec', '--boundaries'], {
      cwd: dir,
      env: { ...env, SYNCONF_AGENTS_DIR: join(dir, 'none') },
    });
    assert.equal(text.code, 0, text.out);
    assert.match(
      text.stdout,
      /^system-config\.deprecated \(spec: from 1\.12\.0\): not installed: bracketed by 1\.11\.1 and 1\.12\.1; 1\.11\.1 and 1\.12\.1 not installed: synconf spec --boundaries --install \(or synconf agents install 1\.11\.1 1\.12\.1\) builds them$/m,
    );
    assert.doesNotMatch(text.stderr, /installing/);
    assert.match(
      text.stdout,
      /^17 version statements: 0 agrees, 0 disagrees, \d+ cannot tell, \d+ not installed, 5 not checkable$/m,
    );
    const usage = await cliAsync(['spec', '--install'], { cwd: dir, env });
    assert.equal(usage.code, 2);
    assert.equal(usage.stderr.trim(), 'synconf: --install builds the releases of --boundaries: give both');
  } finally {
    removeTemp(dir);
  }
});
