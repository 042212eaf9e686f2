// `synconf agents install|list` as users run them (the built dist/bin/synconf.js): a real install from Debian's
// archive into a temporary cache, the cache the tests use, and every way an install can fail (exit 2, what to do).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { KNOWN_AGENTS, agentsDir, installedAgents, resolveSyncthing } from '../src/agents/index.js';
import { debianArchives } from '../src/agents/debian-sources.js';
import { AGENT_VERSIONS, agentBinary } from './support/agents.js';
import { cliAsync } from './support/cli.js';
import { makeTemp, removeTemp } from './support/temp.js';

// an install fetches from Debian's archive: the CA certificates the caller trusts go with it
const synconf = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  cliAsync(args, { env: { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS, ...env } });

test('the agents cache holds every known version (npm run setup installs them), each printing its version', async () => {
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
  assert.deepEqual(
    installedAgents().map((a) => a.version),
    [...AGENT_VERSIONS],
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
      debian: { suite: string; version: string };
    }[];
    assert.deepEqual(
      rows.map((r) => [r.version, r.installed, r.debian.suite, r.debian.version]),
      KNOWN_AGENTS.map((a) => [a.version, false, a.suite, a.debianVersion]),
    );
    const text = await synconf(['agents', 'list'], { SYNCONF_AGENTS_DIR: empty });
    assert.match(
      text.stdout,
      /^1\.12\.1 {2}missing \(Debian bullseye 1\.12\.1~ds1-4\): synconf agents install 1\.12\.1$/m,
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

test('without apt-get and dpkg-deb, or without a Debian source, agents install says what is missing and how to get it (exit 2)', async () => {
  const dir = makeTemp('agents');
  try {
    const noTools = await synconf(['agents', 'install'], { PATH: dir, SYNCONF_AGENTS_DIR: join(dir, 'cache') });
    assert.equal(noTools.code, 2, noTools.stderr);
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

    const unknown = await synconf(['agents', 'install', '1.20.0']);
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /synconf does not know how to fetch Syncthing 1\.20\.0 \(did you mean 1\.29\.5\?\); known versions: 1\.12\.1, 1\.19\.2, 1\.29\.5/,
    );
    assert.equal(existsSync(join(dir, 'cache')), false, 'nothing created before the checks pass');
  } finally {
    removeTemp(dir);
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
        /Syncthing 1\.29\.5 is not installed in \S+no-agents: run `synconf agents install 1\.29\.5` \(`npm run setup` installs every known version/,
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
