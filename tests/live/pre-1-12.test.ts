// An agent older than 1.12.0 in a lab (issue 36: 1.11.1 straddles the spec's "deprecated since 1.12.0"): it has no
// GET /rest/config, so the lab reads the loopback settings of its config at /rest/system/config, the same document.
// The one real old build of the tests: 1.11.1 from the Go module proxy (with warm Go caches, about 20 s), into a cache
// of this test's own; the install's brief start on loopback is the lab's, which refused it before ("GET /rest/config
// answered 404 right after start").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cliAsync } from '../support/cli.js';
import { makeTemp, removeTemp } from '../support/temp.js';

test(
  '1.11.1 is built, starts in a lab and answers: its config read at /rest/system/config',
  { timeout: 900_000 },
  async () => {
    const dir = makeTemp('pre-1-12');
    const env = { SYNCONF_AGENTS_DIR: join(dir, 'cache') };
    try {
      const install = await cliAsync(['agents', 'install', '1.11.1'], { cwd: dir, env, timeout: 900_000 });
      assert.equal(install.code, 0, install.out);
      assert.match(install.stderr, /1\.11\.1: built from commit 2b9cef3ae5ff .*X-Syncthing-Version: v1\.11\.1/);
      const run = await cliAsync(['run', '--syncthing', '1.11.1', '--only', 'system-ping', '--no-expectations'], {
        cwd: dir,
        env,
      });
      assert.equal(run.code, 0, run.out);
      assert.match(run.stdout + run.stderr, /CONFORMS/);
    } finally {
      removeTemp(dir);
    }
  },
);
