// The release table (data/releases.json): every upstream release since 1.12.0 with what the Go module proxy serves
// and how it builds, held to its schema, to itself (the 2.x formula) and to the measurement it comes from; and
// `synconf agents list --all` / `agents install LINE|--all` as users run them, against a small stand-in table and a
// stand-in `go` (no real build here: the default set's binaries play the builds).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import semver from 'semver';
import { KNOWN_AGENTS } from '../src/agents/known.js';
import {
  RELEASES_FILE,
  lineRelease,
  loadReleaseTable,
  moduleVersionOf,
  sumDbSkipped,
  tableProblems,
  unobtainable,
  type ReleaseTable,
} from '../src/agents/releases.js';
import { agentsDir } from '../src/agents/cache.js';
import { cliAsync } from './support/cli.js';
import { makeTemp, removeTemp } from './support/temp.js';

const table = loadReleaseTable();
const versions = (pred: (r: ReleaseTable['releases'][number]) => boolean) =>
  table.releases.filter(pred).map((r) => r.version);

test('the table holds the 86 release tags since 1.12.0 (65 v1.x, 21 v2.x) with their commits, oldest first', () => {
  const since112 = table.releases.filter((r) => semver.gte(r.version, '1.12.0'));
  assert.equal(since112.length, 86);
  assert.equal(since112.filter((r) => r.version.startsWith('1.')).length, 65);
  assert.equal(since112.filter((r) => r.version.startsWith('2.')).length, 21);
  assert.deepEqual(tableProblems(table), []);
  assert.deepEqual(
    versions((r) => semver.lt(r.version, '1.12.0')),
    ['1.1.4', '1.2.2', '1.11.1'],
  );
});

test('what the proxy serves is the measurement, never a guess: refusals named, unnamed ones unknown', () => {
  const notServed = versions((r) => r.proxy.status === 'not-served');
  assert.deepEqual(
    versions((r) => r.proxy.refusedAt === 'mod-or-zip'),
    ['1.16.0', '1.18.1', '1.18.4', '1.18.5', '1.19.1', '1.21.0'],
  );
  for (const v of ['1.16.1', '2.0.0', '2.0.8', '2.0.10', '2.0.13', '2.0.16', '2.1.1', '2.1.3'])
    assert.ok(notServed.includes(v), v);
  assert.deepEqual(
    versions((r) => r.version.startsWith('2.') && r.proxy.status === 'served'),
    ['2.0.9', '2.0.14', '2.0.15', '2.1.0', '2.1.2'],
  );
  // the measurement counted these lines without naming each release: 53 served whole since 1.12.0 in all
  const served = versions((r) => r.proxy.status === 'served' && semver.gte(r.version, '1.12.0'));
  const unknownLines = { '1.18': 3, '1.20': 4, '1.22': 2, '1.23': 6, '1.27': 11, '1.28': 1, '1.29': 6 };
  const inLine = (line: string, list: string[]) => list.filter((v) => v.startsWith(`${line}.`)).length;
  const unknownServed = Object.entries(unknownLines).reduce((n, [line, whole]) => n + whole - inLine(line, served), 0);
  assert.equal(served.length + unknownServed, 53);
  for (const [line, whole] of Object.entries(unknownLines)) {
    const unknown = versions((r) => r.proxy.status === 'unknown' && r.version.startsWith(`${line}.`));
    assert.ok(unknown.length > whole - inLine(line, served), `${line}: the unknown hold every release not named`);
  }
  for (const r of table.releases) assert.equal(r.proxy.measured, '2026-11-29', r.version);
});

test("a 2.x module version follows the formula (today's 2.1.0 and 2.1.2 pins, character for character)", () => {
  const pin = (v: string) => KNOWN_AGENTS.find((a) => a.version === v)!;
  for (const v of ['2.1.0', '2.1.2']) {
    const a = pin(v);
    if (a.from !== 'go') throw new Error(`${v} is built`);
    assert.equal(moduleVersionOf(a.tag, a.commit, a.commitTime), a.moduleVersion);
  }
  assert.equal(moduleVersionOf('v1.18.0', 'c84e8d1e097682ed018a72f98ef259094b7c249f', 'x'), 'v1.18.0');
  // a table whose 2.x row disagrees with the formula, or out of order, is refused, naming the row
  const broken = structuredClone(table);
  const row = broken.releases.find((r) => r.version === '2.0.9')!;
  row.moduleVersion = row.moduleVersion.replace(/-[0-9a-f]{12}$/, '-000000000000');
  broken.releases.reverse();
  const problems = tableProblems(broken);
  assert.ok(
    problems.some((p) => /^releases\[\d+\] \(2\.0\.9\): module version v1\.30\.0-rc\.1\.0\.\d{14}-0{12}, not /.test(p)),
    problems.join('\n'),
  );
  assert.ok(problems.some((p) => /not after/.test(p)));
});

test('the default set agrees with the table: the same commit, time, module version and hash', () => {
  for (const a of KNOWN_AGENTS) {
    const r = table.releases.find((x) => x.version === a.version);
    assert.ok(r, `${a.version} is in the table`);
    assert.equal(r.proxy.status, 'served', a.version);
    if (a.from !== 'go') continue;
    assert.deepEqual(
      [r.commit, r.commitTime, r.moduleVersion, r.moduleSum, r.goModEdits ?? [], table.recipes[r.recipe].tags],
      [a.commit, a.commitTime, a.moduleVersion, a.moduleSum, a.goModEdits, a.buildTags],
    );
  }
});

test('build recipes follow the build constraints: assets generated before 1.15.0, noquic for 1.12.x and 1.18.2-1.23.x', () => {
  const recipeOf = (v: string) => table.releases.find((r) => r.version === v)!.recipe;
  assert.equal(recipeOf('1.12.0'), 'generate-noquic');
  assert.equal(recipeOf('1.14.0'), 'generate');
  assert.equal(recipeOf('1.18.0'), 'noassets');
  assert.equal(recipeOf('1.18.2'), 'noassets-noquic');
  assert.equal(recipeOf('1.23.7'), 'noassets-noquic');
  assert.equal(recipeOf('1.24.0'), 'noassets');
  assert.equal(recipeOf('2.1.2'), 'noassets');
  assert.equal(table.recipes[recipeOf('1.2.2')].buildable, false);
});

test('a line names its newest release the proxy serves (unknown ones only when none is served)', () => {
  assert.equal(lineRelease('1.17')?.version, '1.17.0');
  assert.equal(lineRelease('1.18')?.version, '1.18.0', '1.18.1, .4, .5 refused; .2, .3, .6 unknown');
  assert.equal(lineRelease('1.29')?.version, '1.29.7');
  assert.equal(lineRelease('2.0')?.version, '2.0.15');
  assert.equal(lineRelease('1.20')?.version, '1.20.2', 'a line of unknowns: its newest go can verify (not 1.20.3/4)');
  assert.equal(lineRelease('1.24'), undefined, '1.24.0: the checksum database does not know it');
  assert.equal(lineRelease('1.16'), undefined);
  assert.equal(lineRelease('1.21'), undefined);
});

test("the checksum database's 404 is measured too: a release go cannot verify is not obtainable unless GONOSUMDB says so", () => {
  // asked 2026-11-29: served whole by the proxy, yet GOPROXY/sumdb/sum.golang.org/lookup answers 404 for these
  assert.deepEqual(
    versions((r) => r.proxy.status === 'served' && r.proxy.sumDb === 'not-found'),
    ['1.24.0', '1.26.0', '1.26.1'],
  );
  assert.equal(versions((r) => r.proxy.sumDb === 'not-found').length, 26);
  const r124 = table.releases.find((r) => r.version === '1.24.0')!;
  assert.equal(
    unobtainable(r124, table),
    'not verifiable: the Go checksum database answers 404 for github.com/syncthing/syncthing@v1.24.0 (measured 2026-11-29), so go refuses its download; GONOSUMDB=github.com/syncthing/syncthing installs it unverified',
  );
  const rows: [NodeJS.ProcessEnv, boolean][] = [
    [{}, false],
    [{ GOSUMDB: 'off' }, true],
    [{ GONOSUMDB: 'github.com/syncthing/syncthing' }, true],
    [{ GONOSUMDB: 'example.com/x, github.com/syncthing' }, true],
    [{ GOPRIVATE: 'github.com/*/syncthing' }, true],
    [{ GONOSUMDB: 'github.com/syncthing/syncthing-other' }, false],
    [{ GONOSUMDB: 'github.com/synct' }, false],
  ];
  for (const [env, skipped] of rows)
    assert.equal(sumDbSkipped('github.com/syncthing/syncthing', env), skipped, JSON.stringify(env));
  const saved = process.env.GONOSUMDB;
  process.env.GONOSUMDB = 'github.com/syncthing/syncthing';
  try {
    assert.equal(unobtainable(r124, table), undefined);
  } finally {
    if (saved === undefined) delete process.env.GONOSUMDB;
    else process.env.GONOSUMDB = saved;
  }
});

/** a table of five releases: three of the default set, 2.0.9 (whose stand-in build fails) and 2.1.1 (not served) */
async function smallTable(dir: string): Promise<string> {
  const keep = ['1.30.0', '2.0.9', '2.1.0', '2.1.1', '2.1.2'];
  const small = { ...table, releases: table.releases.filter((r) => keep.includes(r.version)) };
  const file = join(dir, 'releases.json');
  await writeFile(file, JSON.stringify(small));
  return file;
}

/**
 * A stand-in `go`: serves `mod download -json`, "builds" a release by copying the default set's binary of that
 * version, and fails 2.0.9's build once another build has started (so the builds did overlap). It logs each build's
 * start and end, to count how many ran at once.
 */
async function fakeGo(dir: string): Promise<{ go: string; log: string }> {
  const log = join(dir, 'go.log');
  const go = join(dir, 'go');
  const moduleDir = join(dir, 'module');
  await mkdir(moduleDir);
  const sums = table.releases.map((r) => `${r.moduleVersion}) sum='${r.moduleSum ?? 'h1:unpinned='}';;`);
  await writeFile(
    go,
    `#!/bin/sh
case "$1" in
env) echo go1.99.0-fake ;;
mod)
  if [ "$3" = -json ]; then
    version=\${4#*@}
    case "$version" in
    ${sums.join('\n    ')}
    esac
    if [ "$version" = "$FAKE_SUMDB_404" ]; then
      printf '{"Path":"github.com/syncthing/syncthing","Version":"%s","Error":"github.com/syncthing/syncthing@%s: verifying go.mod: github.com/syncthing/syncthing@%s/go.mod: reading https://proxy.golang.org/sumdb/sum.golang.org/lookup/github.com/syncthing/syncthing@%s: 404 Not Found"}\\n' "$version" "$version" "$version" "$version"
      exit 1
    fi
    dir="${moduleDir}"; [ "$version" = "$FAKE_NO_DIR" ] && dir=/nonexistent/synconf-module
    echo "module $version" >> ${log}
    printf '{"Path":"github.com/syncthing/syncthing","Version":"%s","Dir":"%s","Sum":"%s"}\\n' "$version" "$dir" "$sum"
  fi ;;
build)
  version=$(echo "$*" | sed -n 's/.*build\\.Version=v\\([^ ]*\\).*/\\1/p')
  out=; prev=
  for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
  echo "start $version" >> ${log}
  if [ -n "$FAKE_NO_DIR" ]; then
    # the other build lasts until the broken one has been downloaded, and a second beyond
    i=0
    while ! grep -q "^module $FAKE_NO_DIR" ${log} && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
    sleep 1
  fi
  if [ "$version" = 2.0.9 ]; then
    # it lasts until another build runs beside it (started, not ended): a peer that ended before it started is none
    i=0
    while [ $(( $(grep -c '^start' ${log}) - $(grep -c '^end' ${log}) )) -lt 2 ] && [ $i -lt 600 ]; do
      sleep 0.1; i=$((i+1))
    done
    echo "end $version" >> ${log}
    echo 'lib/db/set.go:3:1: syntax error: unexpected }'; exit 1
  fi
  cp "${agentsDir()}/$version/syncthing" "$out"
  echo "end $version" >> ${log} ;;
esac
`,
  );
  await chmod(go, 0o755);
  return { go, log };
}

/** the most builds between their start and end at any point of the log */
function mostAtOnce(log: string): number {
  let running = 0;
  let most = 0;
  for (const line of readFileSync(log, 'utf8').trim().split('\n')) {
    running += line.startsWith('start') ? 1 : line.startsWith('end') ? -1 : 0;
    most = Math.max(most, running);
  }
  return most;
}

test('agents list --all shows each release with its state; install --all builds the rest two at a time, one line per failure (exit 2)', async () => {
  const dir = makeTemp('releases');
  const cache = join(dir, 'cache');
  try {
    const env = { SYNCONF_AGENTS_DIR: cache, SYNCONF_RELEASES_FILE: await smallTable(dir) };
    const list = await cliAsync(['agents', 'list', '--all'], { env });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^Releases: 5 \(installed 0, obtainable 4, unknown 0, not served 1, not buildable 0\)$/m);
    assert.match(list.stdout, /^2\.0\.9 {2}obtainable: synconf agents install 2\.0\.9$/m);
    assert.match(list.stdout, /^2\.1\.1 {2}not served by the Go module proxy \(403 at \.info; measured 2026-11-29\)$/m);

    const { go, log } = await fakeGo(dir);
    const all = await cliAsync(['agents', 'install', '--all', '--jobs', '2'], { env: { ...env, SYNCONF_GO: go } });
    assert.equal(all.code, 2, all.out);
    assert.deepEqual(
      all.stdout.trim().split('\n'),
      ['1.30.0', '2.1.0', '2.1.2'].map((v) => `${v} → ${join(cache, v, 'syncthing')}`),
    );
    const stderr = all.stderr.trimEnd().split('\n');
    assert.deepEqual(
      stderr.filter((l) => l.startsWith('synconf: ')),
      ['synconf: 2.0.9: go build failed: lib/db/set.go:3:1: syntax error: unexpected }'],
    );
    assert.ok(
      stderr.includes(
        'synconf agents install: 2.1.1: skipped: not served by the Go module proxy (403 at .info; measured 2026-11-29)',
      ),
      all.stderr,
    );
    // a progress line per release as its build ends
    for (const v of ['1.30.0', '2.0.9', '2.1.0', '2.1.2'])
      assert.equal(
        stderr.filter((l) =>
          new RegExp(`^synconf agents install: ${v}: (installed|failed) \\(\\d of 4 builds ended\\)$`).test(l),
        ).length,
        1,
        `${v}\n${all.stderr}`,
      );
    assert.equal(mostAtOnce(log), 2, 'two builds at once, never more');
    assert.deepEqual(readdirSync(cache).sort(), ['1.30.0', '2.1.0', '2.1.2'], 'no half build left behind');

    // again: the cached builds are reused without Go; what failed fails again, one line
    const again = await cliAsync(['agents', 'install', '--all'], { env: { ...env, SYNCONF_GO: join(dir, 'no-go') } });
    assert.equal(again.code, 2, again.out);
    for (const v of ['1.30.0', '2.1.0', '2.1.2'])
      assert.match(again.stderr, new RegExp(`^synconf agents install: ${v}: already installed \\(v${v}\\)`, 'm'));
    assert.deepEqual(
      again.stderr
        .split('\n')
        .filter((l) => l.startsWith('synconf: '))
        .map((l) => l.slice(0, 62)),
      ['synconf: 2.0.9: built from the Go module proxy, which needs Go'],
    );
    const listed = await cliAsync(['agents', 'list', '--all'], { env });
    assert.match(
      listed.stdout,
      /^Releases: 5 \(installed 3, obtainable 1, unknown 0, not served 1, not buildable 0\)$/m,
    );
  } finally {
    removeTemp(dir);
  }
});

test('a fault of synconf in one build (exit 3) stops the pool: the build under way ends and is cleaned up, no other starts', async () => {
  const dir = makeTemp('releases-fault');
  const cache = join(dir, 'cache');
  try {
    const { go, log } = await fakeGo(dir);
    // 2.1.0's module folder is missing: copying it is no build failure but a fault of synconf (an ENOENT)
    const res = await cliAsync(['agents', 'install', '--jobs', '2', '1.30.0', '2.1.0', '2.1.2'], {
      env: {
        SYNCONF_AGENTS_DIR: cache,
        SYNCONF_RELEASES_FILE: await smallTable(dir),
        SYNCONF_GO: go,
        FAKE_NO_DIR: 'v1.30.0-rc.1.0.20260512055947-c0c401efebf2',
      },
    });
    assert.equal(res.code, 3, res.out);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    assert.ok(lines.includes('end 1.30.0'), `the other build was waited for to its end:\n${lines.join('\n')}`);
    // the old pool went on taking builds after the fault, unreported (with --all, for every release left)
    assert.ok(!lines.some((l) => l.includes('2.1.2') || l.includes('44cbfcad56db')), lines.join('\n'));
    assert.deepEqual(
      readdirSync(cache).filter((f) => f.startsWith('.build-')),
      [],
      'no build folder left behind',
    );
  } finally {
    removeTemp(dir);
  }
});

test("a download go refuses for the checksum database's 404 is named as that, not as the proxy's refusal (exit 2)", async () => {
  const dir = makeTemp('releases-sumdb');
  try {
    const { go } = await fakeGo(dir);
    const module = table.releases.find((r) => r.version === '2.0.9')!.moduleVersion;
    const res = await cliAsync(['agents', 'install', '2.0.9'], {
      env: {
        SYNCONF_AGENTS_DIR: join(dir, 'cache'),
        SYNCONF_RELEASES_FILE: await smallTable(dir),
        SYNCONF_GO: go,
        FAKE_SUMDB_404: module,
      },
    });
    assert.equal(res.code, 2, res.out);
    assert.deepEqual(
      res.stderr
        .trimEnd()
        .split('\n')
        .filter((l) => l.startsWith('synconf: ')),
      [
        `synconf: 2.0.9: the Go checksum database does not know github.com/syncthing/syncthing@${module} (404 at https://proxy.golang.org/sumdb/sum.golang.org/lookup/github.com/syncthing/syncthing@${module}), so go refuses its download though the proxy serves it; GONOSUMDB=github.com/syncthing/syncthing installs it unverified`,
      ],
    );
  } finally {
    removeTemp(dir);
  }
});

test('agents install of a release or line that cannot be had is one line naming it (exit 2); a bad table names its file', async () => {
  const res = await cliAsync(['agents', 'install', '1.16', '2.1.1', '1.24.0']);
  assert.equal(res.code, 2, res.out);
  assert.deepEqual(res.stderr.trimEnd().split('\n'), [
    'synconf: 1.16: no release of the line can be had (1.16.0 not served by the Go module proxy (.info answers, .mod or .zip refused; measured 2026-11-29); 1.16.1 not served by the Go module proxy (403 at .info; measured 2026-11-29))',
    'synconf: 2.1.1: not served by the Go module proxy (403 at .info; measured 2026-11-29)',
    'synconf: 1.24.0: not verifiable: the Go checksum database answers 404 for github.com/syncthing/syncthing@v1.24.0 (measured 2026-11-29), so go refuses its download; GONOSUMDB=github.com/syncthing/syncthing installs it unverified',
  ]);
  const dir = makeTemp('releases-bad');
  try {
    const file = join(dir, 'releases.json');
    await writeFile(file, JSON.stringify({ ...table, releases: [{ ...table.releases[0], commit: 'abc' }] }));
    const bad = await cliAsync(['agents', 'list', '--all'], { env: { SYNCONF_RELEASES_FILE: file } });
    assert.equal(bad.code, 2, bad.out);
    assert.match(bad.stderr, /release table \S+releases\.json: \/releases\/0\/commit: .*\(SYNCONF_RELEASES_FILE\)$/m);
  } finally {
    removeTemp(dir);
  }
  assert.ok(RELEASES_FILE.endsWith(join('data', 'releases.json')));
});

test('agents install refuses --all with versions, and a --jobs that is no whole number (exit 2)', async () => {
  const both = await cliAsync(['agents', 'install', '--all', '1.18.0']);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--all installs every release that can be had: give no VERSION with it \(got 1\.18\.0\)/);
  const jobs = await cliAsync(['agents', 'install', '--jobs', '0', '1.18.0']);
  assert.equal(jobs.code, 2);
  assert.match(jobs.stderr, /--jobs "0" is not a whole number ≥ 1/);
});
