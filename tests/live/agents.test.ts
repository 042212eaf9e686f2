// `synconf agents install|list` as users run them (the built dist/bin/synconf.js): a real install from Debian's
// archive and a real build from the Go module proxy into a temporary cache, the cache the tests use, and every way
// an install can fail (exit 2, what to do; the other versions still install).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { KNOWN_AGENTS, agentsDir, installedAgents, resolveSyncthing } from '../../src/agents/index.js';
import { debianArchives } from '../../src/agents/debian-sources.js';
import { AGENT_VERSIONS, GENERATION_2X, agentBinary } from '../support/agents.js';
import { cliAsync } from '../support/cli.js';
import { makeTemp, removeTemp } from '../support/temp.js';

// an install fetches from Debian's archive: the CA certificates the caller trusts go with it
const synconf = (args: string[], env: NodeJS.ProcessEnv = {}, timeout?: number) =>
  cliAsync(args, { env: { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS, ...env }, timeout });

test('the agents cache holds every version of the default set (npm run setup installs them), each printing its version', async () => {
  for (const version of AGENT_VERSIONS) {
    const binary = agentBinary(version);
    const v = await execa(binary, ['--version'], { env: { HOME: tmpdir() } });
    assert.match(v.stdout, new RegExp(`^syncthing v${version.replace(/\./g, '\\.')}(-ds1)? `));
  }
  const list = await synconf(['agents', 'list']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, new RegExp(`^Agents cache: ${agentsDir()}$`, 'm'));
  assert.match(list.stdout, /^1\.12\.1 {2}v1\.12\.1-ds1 {2}\S+\/1\.12\.1\/syncthing$/m);
  assert.match(list.stdout, /^1\.29\.5 {2}v1\.29\.5 {2}\S+\/1\.29\.5\/syncthing$/m);
  // the default set at least; a version built on request (agents install 2.1.2) is there too
  const installed = installedAgents().map((a) => a.version);
  assert.deepEqual(
    AGENT_VERSIONS.filter((v) => !installed.includes(v)),
    [],
  );
});

test('a test that needs a missing agent fails saying `npm run setup` installs it', async () => {
  const saved = process.env.SYNCONF_AGENTS_DIR;
  const empty = makeTemp('noagents');
  try {
    process.env.SYNCONF_AGENTS_DIR = empty;
    assert.throws(
      () => agentBinary('1.12.1'),
      /Syncthing 1\.12\.1 is not installed in .*: `npm run setup` installs every known agent/,
    );
    const list = await synconf(['agents', 'list', '--json'], { SYNCONF_AGENTS_DIR: empty });
    assert.equal(list.code, 0, list.stderr);
    const rows = JSON.parse(list.stdout) as {
      version: string;
      installed: boolean;
      path: string;
      inSetup: boolean;
      debian?: { suite: string; version: string };
      go?: { module: string; tag: string; commit: string; moduleVersion: string };
    }[];
    assert.deepEqual(
      rows.map((r) => [r.version, r.installed, r.inSetup, r.debian ?? r.go]),
      KNOWN_AGENTS.map((a) => [
        a.version,
        false,
        a.inSetup,
        a.from === 'debian'
          ? { suite: a.suite, version: a.debianVersion }
          : { module: 'github.com/syncthing/syncthing', tag: a.tag, commit: a.commit, moduleVersion: a.moduleVersion },
      ]),
    );
    const text = await synconf(['agents', 'list'], { SYNCONF_AGENTS_DIR: empty });
    assert.match(
      text.stdout,
      /^1\.12\.1 {2}missing \(Debian bullseye 1\.12\.1~ds1-4\): synconf agents install 1\.12\.1$/m,
    );
    assert.match(
      text.stdout,
      /^2\.1\.2 {2}missing \(built from github\.com\/syncthing\/syncthing v2\.1\.2, commit 44cbfcad56db\): synconf agents install 2\.1\.2$/m,
    );
  } finally {
    if (saved === undefined) delete process.env.SYNCONF_AGENTS_DIR;
    else process.env.SYNCONF_AGENTS_DIR = saved;
    removeTemp(empty);
  }
});

test(
  'agents install 1.12.1 fetches the Debian package into $SYNCONF_AGENTS_DIR and prints version → path',
  { timeout: 300_000 },
  async (t) => {
    const dir = makeTemp('agents');
    try {
      const t0 = performance.now();
      const res = await synconf(['agents', 'install', '1.12.1'], { SYNCONF_AGENTS_DIR: dir });
      t.diagnostic(`agents install 1.12.1: ${(performance.now() - t0).toFixed(0)} ms`);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, `1.12.1 → ${join(dir, '1.12.1', 'syncthing')}\n`);
      assert.match(res.stderr, /apt-get download syncthing=1\.12\.1~ds1-4/);
      assert.match(res.stderr, /--version: v1\.12\.1-ds1/);
      assert.deepEqual(readdirSync(dir), ['1.12.1'], 'no package lists, .deb or unpacked tree left behind');
      assert.deepEqual(readdirSync(join(dir, '1.12.1')), ['syncthing']);

      // again: kept without apt (none on PATH here); --force fetches again (and fails here, offline)
      const again = await synconf(['agents', 'install', '1.12.1'], { SYNCONF_AGENTS_DIR: dir, PATH: '/nonexistent' });
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.stdout, res.stdout);
      assert.match(again.stderr, /1\.12\.1: already installed \(v1\.12\.1-ds1\); --force fetches it again/);
      const forced = await synconf(['agents', 'install', '--force', '1.12.1'], {
        SYNCONF_AGENTS_DIR: dir,
        PATH: '/nonexistent',
      });
      assert.equal(forced.code, 2);
      assert.match(forced.stderr, /needs apt-get/);
      const saved = process.env.SYNCONF_AGENTS_DIR;
      process.env.SYNCONF_AGENTS_DIR = dir;
      try {
        assert.equal(resolveSyncthing('1.12.1'), join(dir, '1.12.1', 'syncthing'));
      } finally {
        if (saved === undefined) delete process.env.SYNCONF_AGENTS_DIR;
        else process.env.SYNCONF_AGENTS_DIR = saved;
      }
    } finally {
      removeTemp(dir);
    }
  },
);

test(
  "offline (archive unreachable): agents install exits 2 with apt's complaint, and leaves nothing behind",
  { timeout: 120_000 },
  async () => {
    const dir = makeTemp('agents');
    const sources = join(dir, 'offline.list');
    await writeFile(sources, 'deb http://127.0.0.1:9/debian bookworm main\n');
    const cache = join(dir, 'cache');
    try {
      const res = await synconf(['agents', 'install', '1.19.2'], {
        SYNCONF_AGENTS_DIR: cache,
        SYNCONF_DEBIAN_SOURCES: sources,
      });
      assert.equal(res.code, 2, res.stderr);
      assert.match(res.stderr, /^synconf: apt-get (update|download) .*http:\/\/127\.0\.0\.1:9\/debian.* failed/m);
      assert.match(res.stderr, /Could not connect to 127\.0\.0\.1:9/);
      assert.match(res.stderr, /fetch by hand: syncthing_1\.19\.2~ds1-1\+b4_<arch>\.deb/);
      assert.deepEqual(readdirSync(cache), [], 'the private apt folders are removed');
    } finally {
      removeTemp(dir);
    }
  },
);

test('without apt-get and dpkg-deb (and Go), or without a Debian source, agents install says what is missing and how to get it (exit 2)', async () => {
  const dir = makeTemp('agents');
  try {
    // the default set: Debian's three and the three built with Go, neither of which can be had here
    const noTools = await synconf(['agents', 'install'], {
      PATH: dir,
      SYNCONF_AGENTS_DIR: join(dir, 'cache'),
      SYNCONF_GO: join(dir, 'go'),
    });
    assert.equal(noTools.code, 2, noTools.stderr);
    assert.equal(noTools.stdout, '');
    assert.deepEqual(
      noTools.stderr
        .split('\n')
        .filter((l) => l.startsWith('synconf: '))
        .map((l) => l.slice(0, 50)),
      ['synconf: synconf agents install needs apt-get (Deb', 'synconf: 1.30.0, 2.1.0, 2.1.2: built from the Go m'],
      'one line for what Debian needs, one for what the builds need',
    );
    assert.match(
      noTools.stderr,
      /needs apt-get \(Debian package apt\) and dpkg-deb \(Debian package dpkg\), not found on PATH/,
    );
    assert.match(noTools.stderr, /apt-get install -y apt dpkg/);
    assert.match(
      noTools.stderr,
      /syncthing_1\.12\.1~ds1-4_<arch>\.deb \(Debian bullseye\): put its usr\/bin\/syncthing at \S+\/cache\/1\.12\.1\/syncthing/,
    );

    const foreign = join(dir, 'docker.sources');
    await writeFile(
      foreign,
      'Types: deb\nURIs: https://download.example.com/linux/debian\nSuites: bookworm\nComponents: stable\n',
    );
    const noSource = await synconf(['agents', 'install', '1.29.5'], {
      SYNCONF_DEBIAN_SOURCES: foreign,
      SYNCONF_AGENTS_DIR: join(dir, 'cache'),
    });
    assert.equal(noSource.code, 2, noSource.stderr);
    assert.match(noSource.stderr, /no Debian archive found in this machine's apt sources \(\S+docker\.sources\)/);

    const unknown = await synconf(['agents', 'install', '1.20.9']);
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /synconf knows no Syncthing release 1\.20\.9 \(did you mean 1\.20\.0\?\): `synconf agents list --all` lists every release since 1\.12\.0$/m,
    );
    assert.equal(existsSync(join(dir, 'cache')), false, 'nothing created before the checks pass');
  } finally {
    removeTemp(dir);
  }
});

/**
 * A stand-in `go` (SYNCONF_GO) that logs each call with the environment a build depends on, serves `mod download
 * -json` from a small module folder with the sum pinned in known.ts (or a wrong one, FAKE_SUM=wrong), and "builds"
 * 2.1.2 by copying the real 2.1.2 binary, while 2.1.0 fails to compile. The plumbing of a build, in seconds.
 */
async function fakeGo(dir: string, real212: string): Promise<{ go: string; log: string }> {
  const log = join(dir, 'go.log');
  const moduleDir = join(dir, 'module');
  await mkdir(join(moduleDir, 'cmd', 'syncthing'), { recursive: true });
  await writeFile(join(moduleDir, 'go.mod'), 'module github.com/syncthing/syncthing\n');
  const sums = KNOWN_AGENTS.flatMap((a) => (a.from === 'go' ? [`${a.moduleVersion}) sum='${a.moduleSum}';;`] : []));
  const go = join(dir, 'go');
  await writeFile(
    go,
    `#!/bin/sh
echo "go $* | GONOSUMDB=$GONOSUMDB CGO_ENABLED=$CGO_ENABLED GOWORK=$GOWORK GOFLAGS=$GOFLAGS" >> ${log}
case "$1" in
env) echo go1.99.0-fake ;;
mod)
  if [ "$2" = download ] && [ "$3" = -json ]; then
    version=\${4#*@}
    case "$version" in
    ${sums.join('\n    ')}
    esac
    [ "$FAKE_SUM" = wrong ] && sum='h1:wrong='
    printf '{"Path":"github.com/syncthing/syncthing","Version":"%s","Dir":"%s","Sum":"%s"}\\n' "$version" "${moduleDir}" "$sum"
  fi ;;
list) ;;
build)
  out=; prev=
  for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
  case "$*" in
  *build.Version=v2.1.0*) echo '# github.com/syncthing/syncthing/lib/db'; echo 'lib/db/set.go:3:1: syntax error: unexpected }'; exit 1 ;;
  esac
  cp ${real212} "$out" ;;
esac
`,
  );
  await chmod(go, 0o755);
  return { go, log };
}

test(
  'agents install builds with Go as Syncthing does; a version that fails is one line naming it (exit 2) and the others still install',
  { timeout: 120_000 },
  async () => {
    const dir = makeTemp('gobuild');
    const cache = join(dir, 'cache');
    try {
      const { go, log } = await fakeGo(dir, agentBinary(GENERATION_2X));
      const res = await synconf(['agents', 'install', '2.1.0', '2.1.2'], { SYNCONF_AGENTS_DIR: cache, SYNCONF_GO: go });
      assert.equal(res.code, 2, res.out);
      assert.equal(res.stdout, `2.1.2 → ${join(cache, '2.1.2', 'syncthing')}\n`);
      const stderr = res.stderr.trimEnd().split('\n');
      // progress: one line per step
      for (const step of [
        /^synconf agents install: 2\.1\.0: download github\.com\/syncthing\/syncthing@v1\.30\.0-rc\.1\.0\.20260512055947-c0c401efebf2 \(v2\.1\.0, commit c0c401efebf2\) and its dependencies from the Go module proxy$/,
        /^synconf agents install: 2\.1\.0: compile \.\/cmd\/syncthing with go1\.99\.0-fake \(cgo, -tags noassets; takes minutes\)$/,
        /^synconf agents install: 2\.1\.2: download github\.com\/syncthing\/syncthing@v1\.30\.0-rc\.1\.0\.20260626052240-44cbfcad56db \(v2\.1\.2, commit 44cbfcad56db\)/,
        /^synconf agents install: 2\.1\.2: check --version and the X-Syncthing-Version header of a brief start on loopback$/,
        /^synconf agents install: 2\.1\.2: built from commit 44cbfcad56db → \S+\/cache\/2\.1\.2\/syncthing \(--version: v2\.1\.2, X-Syncthing-Version: v2\.1\.2; download \d+ s, compile \d+ s, check [\d.]+ s\)$/,
      ])
        assert.equal(stderr.filter((l) => step.test(l)).length, 1, `${step}\n${res.stderr}`);
      // the failure: one line, naming the version and the cause
      assert.deepEqual(
        stderr.filter((l) => l.startsWith('synconf: ')),
        [
          'synconf: 2.1.0: go build failed: # github.com/syncthing/syncthing/lib/db; lib/db/set.go:3:1: syntax error: unexpected }',
        ],
      );
      assert.deepEqual(readdirSync(cache), ['2.1.2'], 'no module copy or half build left behind');

      // what the builds asked of Go: 2.1.0's go.mod edit (as known.ts says), the flags and stamps of Syncthing's build
      const calls = (await readFile(log, 'utf8')).trimEnd().split('\n');
      const cmds = calls.map((c) => c.replace(/ \|.*$/, ''));
      assert.ok(cmds.includes('go mod edit -dropreplace=github.com/mattn/go-sqlite3@v1.14.44'), cmds.join('\n'));
      assert.ok(cmds.includes('go mod download github.com/mattn/go-sqlite3'));
      assert.equal(cmds.filter((c) => c.startsWith('go mod edit')).length, 1, '2.1.2 needs no edit');
      assert.equal(cmds.filter((c) => c === 'go list -deps -tags noassets ./cmd/syncthing').length, 2);
      const build212 = calls.find((c) => c.includes('build.Version=v2.1.2'))!;
      assert.match(
        build212,
        /^go build -trimpath -tags noassets -o \S+\/syncthing -ldflags -w -buildid= -X github\.com\/syncthing\/syncthing\/lib\/build\.Version=v2\.1\.2 -X github\.com\/syncthing\/syncthing\/lib\/build\.Stamp=1782451360 -X github\.com\/syncthing\/syncthing\/lib\/build\.User=synconf -X github\.com\/syncthing\/syncthing\/lib\/build\.Host=synconf \.\/cmd\/syncthing \| /,
      );
      assert.match(
        build212,
        /GONOSUMDB=(\S+,)?github\.com\/syncthing\/syncthing CGO_ENABLED=1 GOWORK=off GOFLAGS=.*-buildvcs=false$/,
      );

      // a cached build is reused, without Go
      const again = await synconf(['agents', 'install', '2.1.2'], {
        SYNCONF_AGENTS_DIR: cache,
        SYNCONF_GO: join(dir, 'no-go'),
      });
      assert.equal(again.code, 0, again.out);
      assert.match(
        again.stderr,
        /^synconf agents install: 2\.1\.2: already installed \(v2\.1\.2\); --force builds it again$/m,
      );

      // no Go: one line naming the versions and where synconf looked
      const noGo = await synconf(['agents', 'install', '--force', '2.1.2', '1.30.0'], {
        SYNCONF_AGENTS_DIR: cache,
        SYNCONF_GO: join(dir, 'no-go'),
      });
      assert.equal(noGo.code, 2, noGo.out);
      assert.equal(noGo.stdout, '');
      assert.equal(
        noGo.stderr,
        `synconf: 1.30.0, 2.1.2: built from the Go module proxy, which needs Go (1.25 or later): no Go at ${join(dir, 'no-go')} (SYNCONF_GO) ` +
          '(install it from https://go.dev/dl/, or put its bin folder on PATH)\n',
      );

      // a module that is not the release's commit is refused before anything is compiled, and the cache kept
      const wrong = await synconf(['agents', 'install', '--force', '2.1.2'], {
        SYNCONF_AGENTS_DIR: cache,
        SYNCONF_GO: go,
        FAKE_SUM: 'wrong',
      });
      assert.equal(wrong.code, 2, wrong.out);
      assert.match(
        wrong.stderr,
        /^synconf: 2\.1\.2: the module the proxy gave for github\.com\/syncthing\/syncthing@v1\.30\.0-rc\.1\.0\.20260626052240-44cbfcad56db is not v2\.1\.2: go\.sum hash h1:wrong=, not h1:crh\/m2O\/9f0PwDHXffnuiq4G5sGlDuQ5\/mViASH3iDA=$/m,
      );
      assert.doesNotMatch(wrong.stderr, /compile/);
      assert.deepEqual(readdirSync(cache), ['2.1.2']);
      assert.deepEqual(readdirSync(join(cache, '2.1.2')), ['syncthing'], 'the installed build stays');
    } finally {
      removeTemp(dir);
    }
  },
);

test(
  'a version the Go module proxy refuses is one line naming it and the proxy (exit 2)',
  { timeout: 120_000 },
  async () => {
    const dir = makeTemp('goproxy');
    // a proxy that refuses every module as proxy.golang.org refuses a version it will not serve
    const server = createServer((req, res) => {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end('not found: This module version is not available\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const res = await synconf(['agents', 'install', '2.1.0'], {
        SYNCONF_AGENTS_DIR: join(dir, 'cache'),
        GOPROXY: proxy,
        GOMODCACHE: join(dir, 'gomod'), // an empty module cache: the proxy is asked
      });
      assert.equal(res.code, 2, res.out);
      assert.equal(res.stdout, '');
      const lines = res.stderr.trimEnd().split('\n');
      assert.equal(lines.filter((l) => l.startsWith('synconf: ')).length, 1, res.stderr);
      assert.match(
        lines.at(-1)!,
        new RegExp(
          `^synconf: 2\\.1\\.0: the Go module proxy \\(${proxy}\\) did not give github\\.com/syncthing/syncthing@v1\\.30\\.0-rc\\.1\\.0\\.20260512055947-c0c401efebf2: .*403 Forbidden`,
        ),
      );
      assert.deepEqual(readdirSync(join(dir, 'cache')), []);
    } finally {
      server.close();
      await execa('chmod', ['-R', 'u+w', dir], { reject: false }); // Go's module cache is read-only
      removeTemp(dir);
    }
  },
);

test(
  'agents install 2.1.2 builds the release from the Go module proxy (the machine Go, its caches), checked, into $SYNCONF_AGENTS_DIR',
  { timeout: 1_800_000 },
  async (t) => {
    const dir = makeTemp('gobuild-real');
    try {
      const t0 = performance.now();
      const res = await synconf(['agents', 'install', '2.1.2'], { SYNCONF_AGENTS_DIR: dir }, 1_800_000);
      t.diagnostic(
        `agents install 2.1.2 (Go caches as this machine has them): ${(performance.now() - t0).toFixed(0)} ms`,
      );
      for (const line of res.stderr.trimEnd().split('\n')) t.diagnostic(line);
      assert.equal(res.code, 0, res.out);
      assert.equal(res.stdout, `2.1.2 → ${join(dir, '2.1.2', 'syncthing')}\n`);
      assert.match(
        res.stderr,
        /2\.1\.2: built from commit 44cbfcad56db → .*\(--version: v2\.1\.2, X-Syncthing-Version: v2\.1\.2;/,
      );
      assert.deepEqual(readdirSync(dir), ['2.1.2']);
      const v = await execa(join(dir, '2.1.2', 'syncthing'), ['--version'], { env: { HOME: tmpdir() } });
      assert.match(
        v.stdout,
        /^syncthing v2\.1\.2 "Hafnium Hornet" \(go\S+ linux-\w+\) synconf@synconf 2026-06-26 05:22:40 UTC$/,
      );
    } finally {
      removeTemp(dir);
    }
  },
);

test('the built versions are pinned consistently: the pseudo-version names the commit and its time', () => {
  for (const a of KNOWN_AGENTS) {
    if (a.from !== 'go') continue;
    assert.match(a.commit, /^[0-9a-f]{40}$/, a.version);
    assert.equal(a.tag, `v${a.version}`);
    const pseudo = /^v\d+\.\d+\.\d+-(?:rc\.\d+\.)?0\.(\d{14})-([0-9a-f]{12})$/.exec(a.moduleVersion);
    if (pseudo) {
      assert.equal(a.commit.slice(0, 12), pseudo[2], `${a.version}: the pseudo-version's commit`);
      const time = pseudo[1].replace(/^(....)(..)(..)(..)(..)(..)$/, '$1-$2-$3T$4:$5:$6Z');
      assert.equal(a.commitTime, time, `${a.version}: the pseudo-version's time is the commit's`);
    } else assert.equal(a.moduleVersion, a.tag, `${a.version}: a tag the proxy serves as itself`);
    assert.match(a.moduleSum ?? '', /^h1:[A-Za-z0-9+/]{43}=$/, `${a.version}: the default set's builds are pinned`);
  }
});

test("the Debian archive is read from the machine's sources, deb822 and one-line, main archive only", async () => {
  const dir = makeTemp('sources');
  try {
    const deb822 = join(dir, 'debian.sources');
    await writeFile(
      deb822,
      '# comment\nTypes: deb\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\n' +
        'Types: deb\nURIs: http://mirror.example/debian-security\nSuites: bookworm-security\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\n' +
        'Types: deb\nURIs: https://download.example.com/linux/debian\nSuites: bookworm\nComponents: stable\n',
    );
    const oneLine = join(dir, 'sources.list');
    await writeFile(
      oneLine,
      'deb [arch=amd64 signed-by=/k.gpg] http://other.example/debian bullseye main contrib\n# deb http://commented.example/debian bullseye main\ndeb-src http://src.example/debian bullseye main\n',
    );
    assert.deepEqual(debianArchives([deb822]), [
      { uri: 'http://mirror.example/debian', signedBy: '/usr/share/keyrings/debian-archive-keyring.gpg' },
    ]);
    assert.deepEqual(debianArchives([oneLine]), [{ uri: 'http://other.example/debian', signedBy: '/k.gpg' }]);
  } finally {
    removeTemp(dir);
  }
});

test(
  'run --syncthing VERSION runs the scenarios against a lab of that version; an uninstalled one exits 2 saying how to install it',
  { timeout: 120_000 },
  async () => {
    const dir = makeTemp('run');
    try {
      const run = await synconf(['run', '--syncthing', '1.12.1', '--only', 'system-ping', '--report-dir', dir]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const report = JSON.parse(
        await import('node:fs/promises').then((fs) => fs.readFile(join(dir, 'report.json'), 'utf8')),
      ) as {
        agent: { version: string; versionSource: string };
        run: { mode: string; target: string };
      };
      assert.deepEqual(
        [report.agent.version, report.agent.versionSource, report.run.mode],
        ['v1.12.1-ds1', 'agent', 'live'],
      );
      assert.match(report.run.target, /^lab \(syncthing v1\.12\.1-ds1 at http:\/\/127\.0\.0\.1:\d+\)$/);

      const empty = join(dir, 'no-agents');
      const missing = await synconf(
        ['run', '--syncthing', '1.29.5', '--only', 'system-ping', '--report-dir', join(dir, 'r2')],
        { SYNCONF_AGENTS_DIR: empty },
      );
      assert.equal(missing.code, 2, missing.stdout + missing.stderr);
      assert.match(
        missing.stderr,
        /Syncthing 1\.29\.5 is not installed in \S+no-agents: run `synconf agents install 1\.29\.5` \(`npm run setup` installs every version of the default set: 1\.12\.1, 1\.19\.2, 1\.29\.5, 1\.30\.0, 2\.1\.0, 2\.1\.2\)/,
      );
      assert.doesNotMatch(missing.stderr, /REPLAYING/, 'an explicit --syncthing never falls back to the recordings');

      const twice = await synconf([
        'run',
        '--syncthing',
        '1.12.1',
        '--syncthing',
        '1.29.5',
        '--report-dir',
        join(dir, 'r3'),
      ]);
      assert.equal(twice.code, 2);
      assert.match(
        twice.stderr,
        /given twice \(1\.12\.1, 1\.29\.5\): one lab runs one Syncthing; `synconf matrix --syncthing A --syncthing B` runs several/,
      );
    } finally {
      removeTemp(dir);
    }
  },
);

test('agents --help explains install and list: the cache, the sources, --force', async () => {
  const top = await synconf(['agents', '--help']);
  assert.equal(top.code, 0, top.stderr);
  assert.match(top.stdout, /agents install \[versions\.\.\]/);
  assert.match(top.stdout, /agents list/);
  const install = await synconf(['agents', 'install', '--help']);
  assert.equal(install.code, 0, install.stderr);
  for (const text of [
    '--force',
    '$SYNCONF_AGENTS_DIR',
    '$XDG_CACHE_HOME',
    '$SYNCONF_DEBIAN_SOURCES',
    'apt-get and dpkg-deb',
    'synconf run --syncthing 1.12.1',
  ]) {
    assert.ok(install.stdout.includes(text), `install --help mentions ${text}`);
  }
  const list = await synconf(['agents', 'list', '--help']);
  assert.match(list.stdout, /--json/);
});
