// A release candidate gated before it ships (issue 36): 2.1.2's source from the Go module proxy, one member of
// /rest/system/status renamed, installed with `agents install --source DIR --as 2.1.3-rc.1` (one real build: Go's
// build cache, warm from 2.1.2's own build, makes it seconds; from empty caches minutes), then
// `matrix --syncthing 2.1.2,2.1.3-rc.1 --only system-status --fail-on breaking` names the rename as breaking
// (exit 1). Every refusal is one line (exit 2) before anything is built: a folder that is no Syncthing tree, a name
// a release has, a name out of order, a cache folder synconf did not make (left untouched); a build that fails names
// its log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { findGo } from '../../src/agents/go-build.js';
import { knownAgent } from '../../src/agents/known.js';
import { validate } from '../../src/schema/registry.js';
import { GENERATION_2X, agentBinary } from '../support/agents.js';
import { cliAsync } from '../support/cli.js';
import { makeTemp, removeTemp } from '../support/temp.js';

const BUILD_TIMEOUT = 1_800_000;

/** 2.1.2's module folder in Go's module cache (downloaded from the proxy when it is not there) */
async function sourceOf212(): Promise<string> {
  const agent = knownAgent(GENERATION_2X);
  if (agent?.from !== 'go') throw new Error(`${GENERATION_2X} is built from the module proxy`);
  const res = await execa(
    findGo()!,
    ['mod', 'download', '-json', `github.com/syncthing/syncthing@${agent.moduleVersion}`],
    {
      env: { GONOSUMDB: 'github.com/syncthing/syncthing', GOWORK: 'off' }, // a 2.x pseudo-version is not in the sum DB
      timeout: 600_000,
    },
  );
  return (JSON.parse(res.stdout) as { Dir: string }).Dir;
}

/** a writable copy of the tree with one replacement made in lib/api/api.go (it must be there exactly once) */
async function changedCopy(from: string, to: string, find: string, put: string): Promise<string> {
  await cp(from, to, { recursive: true });
  await execa('chmod', ['-R', 'u+w', to]);
  const file = join(to, 'lib', 'api', 'api.go');
  const text = await readFile(file, 'utf8');
  assert.equal(text.split(find).length, 2, `${find} once in ${file}`);
  await writeFile(file, text.replace(find, put));
  return to;
}

test(
  'agents install --source --as: a candidate built from a changed 2.1.2 tree is gated by the matrix (the renamed member breaking, exit 1); refusals one line each',
  { timeout: BUILD_TIMEOUT + 300_000 },
  async (t) => {
    const dir = makeTemp('candidate');
    const cache = join(dir, 'cache');
    const env = { SYNCONF_AGENTS_DIR: cache, GOMAXPROCS: process.env.GOMAXPROCS ?? '2' };
    const synconf = (args: string[], timeout?: number) => cliAsync(args, { cwd: dir, env, timeout });
    try {
      await mkdir(cache);
      await symlink(dirname(agentBinary(GENERATION_2X)), join(cache, GENERATION_2X));
      const module = await sourceOf212();
      const tree = await changedCopy(module, join(dir, 'tree'), 'res["uptime"]', 'res["upTime"]');
      const treeFiles = readdirSync(tree, { recursive: true }).length;
      await mkdir(join(dir, 'empty'));
      await mkdir(join(dir, 'other'));
      await writeFile(join(dir, 'other', 'go.mod'), 'module example.com/other\n\ngo 1.22\n');

      // refused before anything is built: one line each, exit 2
      const refusals: [string[], string][] = [
        [['--source', 'empty', '--as', '2.1.3-rc.1'], `--source empty: not a Syncthing source tree (no go.mod)`],
        [
          ['--source', 'other', '--as', '2.1.3-rc.1'],
          "--source other: not a Syncthing source tree (go.mod's module is example.com/other, not github.com/syncthing/syncthing)",
        ],
        [['--source', 'nowhere', '--as', '2.1.3-rc.1'], '--source nowhere: no such folder'],
        [
          ['--source', 'tree', '--as', '2.1.2'],
          '--as 2.1.2: a Syncthing release has that name (synconf agents install 2.1.2 gets it): name the candidate as one, e.g. 2.1.3-rc.1',
        ],
        [['--source', 'tree', '--as', 'next'], '--as next: not a version (name a candidate as one, like 2.1.3-rc.1)'],
        [
          ['--source', 'tree', '--as', '2.0.0-rc.1', '--after', '2.1.2'],
          '--as 2.0.0-rc.1: the candidate descends from 2.1.2, so its name must sort after it and before 2.1.3 (e.g. 2.1.3-rc.1)',
        ],
        [['--as', '2.1.3-rc.1'], '--as names a release candidate: give its tree with --source DIR'],
        [['--source', 'tree'], '--source builds a release candidate: name it with --as (e.g. --as 2.1.3-rc.1)'],
      ];
      for (const [args, line] of refusals) {
        const res = await synconf(['agents', 'install', ...args]);
        assert.equal(res.code, 2, `${args.join(' ')}\n${res.out}`);
        assert.equal(res.stderr, `synconf: ${line}\n`, args.join(' '));
      }

      // a folder of that name that synconf did not build is never written over
      const planted = join(cache, '2.1.3-rc.1');
      await mkdir(planted);
      await writeFile(join(planted, 'syncthing'), '#!/bin/sh\necho mine\n', { mode: 0o755 });
      const notOurs = await synconf(['agents', 'install', '--source', 'tree', '--as', '2.1.3-rc.1']);
      assert.equal(notOurs.code, 2, notOurs.out);
      assert.equal(
        notOurs.stderr,
        `synconf: --as 2.1.3-rc.1: ${planted} exists and synconf did not build it as a candidate (no valid candidate.json): synconf does not write over it; remove it or choose another name\n`,
      );
      assert.equal(readFileSync(join(planted, 'syncthing'), 'utf8'), '#!/bin/sh\necho mine\n');
      removeTemp(planted);

      // the candidate: built from the tree (only read), checked as a release is, its record beside it
      const t0 = performance.now();
      const built = await synconf(['agents', 'install', '--source', 'tree', '--as', '2.1.3-rc.1'], BUILD_TIMEOUT);
      t.diagnostic(
        `agents install --source (Go caches as this machine has them): ${(performance.now() - t0).toFixed(0)} ms`,
      );
      assert.equal(built.code, 0, built.out);
      assert.equal(built.stdout, `2.1.3-rc.1 → ${join(cache, '2.1.3-rc.1', 'syncthing')}\n`);
      assert.match(
        built.stderr,
        /^synconf agents install: 2\.1\.3-rc\.1: a candidate descending from 2\.1\.2 \(its name\): built with 2\.1\.2's recipe$/m,
      );
      assert.match(
        built.stderr,
        /2\.1\.3-rc\.1: built from \S+\/tree → \S+ \(--version: v2\.1\.3-rc\.1, X-Syncthing-Version: v2\.1\.3-rc\.1;/,
      );
      const record: unknown = JSON.parse(readFileSync(join(cache, '2.1.3-rc.1', 'candidate.json'), 'utf8'));
      assert.deepEqual(validate('candidate', record), []);
      assert.deepEqual(
        { ...(record as object), builtAt: 'x' },
        { name: '2.1.3-rc.1', source: tree, after: '2.1.2', afterFrom: 'name', builtAt: 'x' },
      );
      assert.equal(readdirSync(tree, { recursive: true }).length, treeFiles, 'nothing written into the tree');

      // the same name from another tree: refused unless --force
      const clash = await synconf(['agents', 'install', '--source', module, '--as', '2.1.3-rc.1']);
      assert.equal(clash.code, 2, clash.out);
      assert.equal(
        clash.stderr,
        `synconf: --as 2.1.3-rc.1: names the candidate built from ${tree}; --force replaces it with a build of ${module}\n`,
      );

      // a build that fails: one line naming the cause and the whole log; nothing goes into the cache
      await changedCopy(module, join(dir, 'broken'), 'res["uptime"] =', 'res["uptime"] = = ');
      const broken = await synconf(['agents', 'install', '--source', 'broken', '--as', '2.1.3-rc.2'], BUILD_TIMEOUT);
      assert.equal(broken.code, 2, broken.out);
      const log = join(cache, '.logs', '2.1.3-rc.2.log');
      const failure = broken.stderr.split('\n').filter((l) => l.startsWith('synconf: '));
      assert.equal(failure.length, 1, broken.stderr);
      assert.match(failure[0], /^synconf: 2\.1\.3-rc\.2: go build failed: .*lib\/api\/api\.go:\d+:\d+: syntax error/);
      assert.ok(failure[0].endsWith(` (whole log: ${log})`), failure[0]);
      assert.match(readFileSync(log, 'utf8'), /\$ go build -trimpath -tags noassets [^\n]*\n[^]*syntax error/);
      assert.equal(existsSync(join(cache, '2.1.3-rc.2')), false);

      // gated like any version: the rename is a breaking change of 2.1.2 → 2.1.3-rc.1 (the lab ran the candidate).
      // The scenario that reads /rest/system/status is enough to see it; the whole suite's matrix of every version,
      // gated the same way, is the shared live matrix (ci-plan-live.test.ts, support/live-runs.ts)
      const matrix = await synconf([
        'matrix',
        '--syncthing',
        '2.1.2,2.1.3-rc.1',
        '--only',
        'system-status',
        '--fail-on',
        'breaking',
        '--report-dir',
        'gate',
      ]);
      assert.equal(matrix.code, 1, matrix.out);
      assert.match(matrix.stdout, /^2\.1\.2 → 2\.1\.3-rc\.1: BREAKS clients of 2\.1\.2 /m);
      assert.match(
        matrix.stdout,
        /^ {2}breaking response-member-removed@GET \/rest\/system\/status \/uptime: removed/m,
      );
      assert.match(matrix.stdout, /^2\.1\.2 → 2\.1\.3-rc\.1: --fail-on breaking: 1 cause at or above breaking/m);
      assert.deepEqual(
        readdirSync(join(dir, 'gate'))
          .filter((f) => /^\d/.test(f))
          .sort(),
        ['2.1.2', '2.1.3-rc.1'],
      );
    } finally {
      removeTemp(dir);
    }
  },
);
