// The lab against the real Syncthing binaries (the default set: 1.12.1, 1.19.2, 1.29.5; 2.1.2; and the default one): start,
// loopback settings in force, readiness bound, missing binary, restart, interrupt safety, CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { LabError, resolveBinary, startLab, stopLab, type LabInstance } from '../../src/lab/lab.js';
import { isAlive, runningProcesses } from '../../src/lab/procs.js';
import { installedAgents } from '../../src/agents/index.js';
import { labFetch, processesMentioning, withLab } from '../support/lab.js';
import semver from 'semver';
import { AGENT_VERSIONS, LAB_EXTRA_VERSIONS, agentBinary } from '../support/agents.js';
import { nonLoopback, socketsOf } from '../support/sockets.js';
import { cliAsync } from '../support/cli.js';
import { makeTemp, removeTemp } from '../support/temp.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A stand-in binary: the real `generate` and `--help`, then `body` as `serve`, each serve counted in `serves` (a line). */
async function fakeSyncthing(serveBody: string): Promise<{ dir: string; binary: string; serves: string }> {
  const real = await resolveBinary();
  const dir = makeTemp('fake');
  const binary = join(dir, 'syncthing');
  const serves = join(dir, 'serves');
  const counted = `echo serve >> ${serves}`;
  await writeFile(
    binary,
    `#!/bin/sh\ncase "$1" in generate|--help) exec ${real} "$@";; esac\n${counted}\n${serveBody}\n`,
  );
  await chmod(binary, 0o755);
  return { dir, binary, serves };
}

async function startTime(inst: LabInstance): Promise<string | undefined> {
  try {
    const res = await labFetch(inst, '/rest/system/status', { signal: AbortSignal.timeout(1000) });
    return res.ok ? ((await res.json()) as { startTime: string }).startTime : undefined;
  } catch {
    return undefined; // down while restarting
  }
}

/** the config version each agent writes (and the lab leaves alone: no migration) */
const CONFIG_VERSION: Record<string, number> = {
  '1.12.1': 32,
  '1.19.2': 36,
  '1.29.5': 37,
  '1.30.0': 37,
  '2.1.0': 52,
  '2.1.2': 52,
};

/**
 * The versions the lab is tested on: the default set, 1.30.0 (no QUIC: its quic-go panics under Go 1.26) and a 2.x
 * (the third command-line generation: `generate` without --no-default-folder, with --no-port-probing; the device ID
 * read from config.xml).
 */
const LAB_VERSIONS = [...new Set([...AGENT_VERSIONS, ...LAB_EXTRA_VERSIONS])].sort(semver.compare);

for (const version of LAB_VERSIONS) {
  test(
    `${version}: two instances start, answer ping with their own key, run loopback-only, and stop leaving no process`,
    { timeout: 60_000 },
    async (t) => {
      const binary = agentBinary(version);
      const t0 = performance.now();
      const lab = await startLab({ instances: 2, binary: version });
      const upMs = performance.now() - t0;
      let downMs = 0;
      try {
        const [a, b] = lab.instances;
        assert.deepEqual(
          lab.instances.map((i) => i.name),
          ['agent', 'peer'],
        );
        assert.equal(lab.ownsDir, true);
        for (const key of ['url', 'apiKey', 'deviceId', 'syncAddress', 'pid'] as const)
          assert.notEqual(a[key], b[key], key);
        for (const inst of lab.instances) {
          assert.equal(inst.binary, binary);
          assert.match(
            inst.version,
            new RegExp(`^v${version.replace(/\./g, '\\.')}(-ds1)?$`),
            'the version as the agent prints it',
          );
          assert.match(inst.url, /^http:\/\/127\.0\.0\.1:\d+$/);
          assert.match(inst.syncAddress, /^tcp:\/\/127\.0\.0\.1:\d+$/);
          assert.match(inst.apiKey, /^[0-9a-f]{48}$/);
          const ping = await labFetch(inst, '/rest/system/ping');
          assert.equal(ping.status, 200);
          assert.equal(ping.headers.get('x-syncthing-id'), inst.deviceId, "the device ID the lab read is the agent's");
          assert.deepEqual(await ping.json(), { ping: 'pong' });
          const other = inst === a ? b : a;
          const wrongKey = await fetch(`${inst.url}/rest/system/ping`, { headers: { 'X-API-Key': other.apiKey } });
          assert.equal(wrongKey.status, 403);
          await wrongKey.arrayBuffer();

          const config = (await (await labFetch(inst, '/rest/config')).json()) as {
            version: number;
            folders: unknown[];
            devices: { deviceID: string; name: string }[];
            options: Record<string, unknown>;
          };
          assert.equal(config.version, CONFIG_VERSION[version]);
          assert.deepEqual(config.folders, [], 'no default folder');
          assert.deepEqual(
            config.devices.map((d) => [d.deviceID, d.name]),
            [[inst.deviceId, inst.name]],
          );
          assert.deepEqual(config.options.listenAddresses, [inst.syncAddress]);
          for (const off of [
            'globalAnnounceEnabled',
            'localAnnounceEnabled',
            'relaysEnabled',
            'natEnabled',
            'crashReportingEnabled',
            'startBrowser',
          ]) {
            assert.equal(config.options[off], false, off);
          }
          assert.equal(config.options.urAccepted, -1);
          assert.equal(config.options.autoUpgradeIntervalH, 0);
          assert.equal(config.options.reconnectionIntervalS, 5);
          const v = (await (await labFetch(inst, '/rest/system/version')).json()) as {
            longVersion: string;
            tags: string[] | string;
          };
          assert.equal(
            v.tags.length,
            0,
            'no ST* variables leaked into the environment (1.12.1 has tags "", later ones [])',
          );
          assert.doesNotMatch(v.longVersion, /\[/);

          // in force, not only configured: the only sockets are the GUI and sync listeners (and connections) on 127.0.0.1;
          // no UDP at all (local discovery, QUIC), no relay listener
          const pids = runningProcesses()
            .filter((p) => p.pgid === inst.pid)
            .map((p) => p.pid);
          const sockets = socketsOf(pids);
          assert.deepEqual(nonLoopback(sockets), [], 'every socket is on loopback');
          assert.deepEqual(
            sockets.filter((s) => s.proto.startsWith('udp')),
            [],
            'no UDP socket',
          );
          const listening = sockets
            .filter((s) => s.state === '0A')
            .map((s) => s.port)
            .sort();
          assert.deepEqual(listening, [Number(new URL(inst.url).port), Number(new URL(inst.syncAddress).port)].sort());
          const status = (await (await labFetch(inst, '/rest/system/status')).json()) as {
            connectionServiceStatus?: Record<string, unknown>;
          };
          assert.deepEqual(
            Object.keys(status.connectionServiceStatus ?? {}),
            [inst.syncAddress],
            'one listener: TCP on loopback, no relay',
          );

          assert.deepEqual(readdirSync(inst.dataDir), []);
          assert.ok(!(await readFile(inst.logFile, 'utf8')).includes(inst.apiKey), 'the API key is not logged');
        }
        const state = JSON.parse(await readFile(join(lab.dir, 'lab.json'), 'utf8')) as { instances: LabInstance[] };
        assert.deepEqual(state.instances, lab.instances);
      } finally {
        const t1 = performance.now();
        await lab.down();
        downMs = performance.now() - t1;
      }
      t.diagnostic(`${version}: lab up (2 instances): ${upMs.toFixed(0)} ms, down: ${downMs.toFixed(0)} ms`);
      for (const inst of lab.instances) assert.equal(isAlive(inst.pid), false, `${inst.name} pid ${inst.pid} is gone`);
      assert.deepEqual(processesMentioning(lab.dir), []);
      assert.equal(existsSync(lab.dir), false, 'the temp lab dir is removed');
      await lab.down(); // idempotent
    },
  );

  test(
    `${version}: POST /rest/system/restart comes back with a new startTime, and down still leaves nothing`,
    { timeout: 60_000 },
    async (t) => {
      let dir = '';
      await withLab(
        1,
        async (lab) => {
          dir = lab.dir;
          const [agent] = lab.instances;
          const childOf = (pid: number) =>
            runningProcesses()
              .filter((p) => p.pgid === pid && p.pid !== pid)
              .map((p) => p.pid);
          const before = await startTime(agent);
          const childBefore = childOf(agent.pid);
          assert.ok(before);
          assert.equal(childBefore.length, 1, 'the monitor has one child, in its process group');

          const t0 = performance.now();
          const res = await labFetch(agent, '/rest/system/restart', { method: 'POST' });
          assert.equal(res.status, 200);
          await res.arrayBuffer();
          // until the agent answers with a new startTime, however long a loaded machine takes (the test's timeout
          // ends an agent that never comes back)
          let after = await startTime(agent);
          while ((!after || after === before) && !t.signal.aborted) {
            await sleep(100);
            after = await startTime(agent);
          }
          t.diagnostic(`${version}: restart: new startTime after ${(performance.now() - t0).toFixed(0)} ms`);
          assert.ok(after && after !== before, `startTime changed (${before} -> ${after})`);
          assert.ok(isAlive(agent.pid), 'the monitor PID stays');
          const childAfter = childOf(agent.pid);
          assert.equal(childAfter.length, 1);
          assert.notEqual(childAfter[0], childBefore[0], 'a new child');
        },
        { binary: agentBinary(version) },
      );
      assert.deepEqual(processesMentioning(dir), []);
    },
  );
}

test('the socket check sees a socket bound to all interfaces (what the loopback tests rule out)', async () => {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  try {
    const port = (server.address() as { port: number }).port;
    const wide = nonLoopback(socketsOf([process.pid])).filter((s) => s.port === port);
    assert.deepEqual(
      wide.map((s) => [s.proto, s.address, s.state]),
      [['tcp', '0.0.0.0', '0A']],
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

// serve bodies that never answer: a loop (its processes still carry --home), and a program exec'd in its place (no
// --home left to know it by: once left running when start-up gave up)
const NEVER_ANSWERS: [string, string][] = [
  ['a loop', 'while :; do sleep 1; done'],
  ['an exec of another program', 'exec sleep 3017'],
];
for (const [what, serveBody] of NEVER_ANSWERS)
  test(
    `an instance whose API never answers (${what}) fails within its bound, naming it, and is killed`,
    { timeout: 30_000 },
    async () => {
      const fake = await fakeSyncthing(serveBody);
      const dir = makeTemp('labtest');
      try {
        const t0 = Date.now();
        await assert.rejects(startLab({ dir, binary: fake.binary, readyTimeoutMs: 1500 }), (err: Error) => {
          assert.ok(err instanceof LabError, err.stack);
          assert.match(err.message, /^agent: /);
          assert.match(err.message, /within 1500 ms/);
          assert.match(err.message, /http:\/\/127\.0\.0\.1:\d+/);
          assert.match(err.message, /agent\.log/);
          return true;
        });
        // not given up before its bound (the lab's deadline is on the same clock: no machine is too fast or slow for
        // this); not waited past it either: the bound named is the one given, the agent started once (no retry
        // behind the message), and an unbounded wait ends in the test's timeout
        const elapsed = Date.now() - t0;
        assert.ok(elapsed >= 1500, `gave up after ${elapsed} ms, before its bound`);
        assert.equal(await readFile(fake.serves, 'utf8'), 'serve\n', 'the agent was started once');
        assert.deepEqual(processesMentioning(dir), []);
        assert.deepEqual(processesMentioning(fake.dir), []);
        assert.deepEqual(processesMentioning('sleep 3017'), [], "nothing it exec'd runs on");
        assert.equal(existsSync(join(dir, 'lab.json')), false, 'no state for a lab that did not start');
        assert.equal(existsSync(join(dir, 'agent')), false, 'the home it made in the user dir is removed');
        assert.ok(existsSync(join(dir, 'agent.log')), 'the log is kept');
      } finally {
        removeTemp(dir);
        await rm(fake.dir, { recursive: true, force: true });
      }
    },
  );

test('an instance that exits at once is reported with its exit code and log tail', { timeout: 30_000 }, async () => {
  const fake = await fakeSyncthing('echo "fake: cannot bind" >&2; exit 7');
  try {
    // a bound of twice the test's timeout: a lab that waited for it rather than for the exit fails by that timeout
    await assert.rejects(startLab({ instances: 2, binary: fake.binary, readyTimeoutMs: 60_000 }), (err: Error) => {
      assert.ok(err instanceof LabError, err.stack);
      assert.match(err.message, /agent: syncthing exited \(exit code 7\)/);
      assert.match(err.message, /peer: syncthing exited \(exit code 7\)/);
      assert.match(err.message, /fake: cannot bind/);
      return true;
    });
    assert.deepEqual(processesMentioning(fake.dir), []);
  } finally {
    await rm(fake.dir, { recursive: true, force: true });
  }
});

test('a missing binary gives a LabError that says how to install it', async () => {
  const saved = { bin: process.env.SYNCONF_SYNCTHING, path: process.env.PATH, agents: process.env.SYNCONF_AGENTS_DIR };
  const emptyDir = makeTemp('nopath');
  try {
    process.env.SYNCONF_SYNCTHING = '/nonexistent/syncthing';
    await assert.rejects(startLab(), (err: Error) => {
      assert.ok(err instanceof LabError);
      assert.match(
        err.message,
        /\/nonexistent\/syncthing does not exist or is not executable \(from SYNCONF_SYNCTHING\)/,
      );
      assert.match(err.message, /synconf agents install/);
      assert.match(err.message, /apt-get install -y syncthing/);
      return true;
    });
    process.env.SYNCONF_AGENTS_DIR = emptyDir;
    await assert.rejects(startLab({ binary: '1.12.1' }), (err: Error) => {
      assert.ok(err instanceof LabError);
      assert.match(
        err.message,
        new RegExp(`Syncthing 1\\.12\\.1 is not installed in ${emptyDir}: run \`synconf agents install 1\\.12\\.1\``),
      );
      assert.match(err.message, /npm run setup/);
      assert.match(err.message, /\(from --syncthing\)/);
      return true;
    });
    await assert.rejects(
      startLab({ binary: '1.20.0' }),
      /synconf knows how to fetch only 1\.12\.1, 1\.19\.2, 1\.29\.5, 1\.30\.0, 2\.1\.0, 2\.1\.2: give the PATH of a 1\.20\.0 binary/,
    );
    delete process.env.SYNCONF_SYNCTHING;
    process.env.PATH = emptyDir;
    await assert.rejects(startLab(), (err: Error) => {
      assert.ok(err instanceof LabError);
      assert.match(err.message, /no `syncthing` on PATH and no agent in /);
      assert.match(err.message, /synconf agents install/);
      assert.match(err.message, /apt-get install -y syncthing/);
      assert.match(err.message, /SYNCONF_SYNCTHING/);
      return true;
    });
  } finally {
    for (const [name, value] of [
      ['SYNCONF_SYNCTHING', saved.bin],
      ['PATH', saved.path],
      ['SYNCONF_AGENTS_DIR', saved.agents],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    removeTemp(emptyDir);
  }
});

test(
  'without --syncthing, SYNCONF_SYNCTHING or syncthing on PATH, the lab starts the newest installed agent',
  { timeout: 30_000 },
  async () => {
    const saved = process.env.PATH;
    agentBinary(LAB_VERSIONS.at(-1)!); // the versions the lab is tested on are installed (or this fails saying how)
    const binary = installedAgents().at(-1)!.path;
    try {
      process.env.PATH = '/nonexistent';
      assert.equal(await resolveBinary(), binary);
    } finally {
      process.env.PATH = saved;
    }
  },
);

test(
  'an agent that does not take the loopback settings is caught through its REST config, and killed',
  { timeout: 30_000 },
  async () => {
    // a wrapper that turns global discovery back on in config.xml just before `serve`
    const real = agentBinary('1.29.5');
    const dir = makeTemp('leaky');
    const binary = join(dir, 'syncthing');
    await writeFile(
      binary,
      `#!/bin/sh\nif [ "$1" = serve ]; then sed -i 's|<globalAnnounceEnabled>false<|<globalAnnounceEnabled>true<|' "$HOME/config.xml"; fi\nexec ${real} "$@"\n`,
    );
    await chmod(binary, 0o755);
    try {
      await assert.rejects(startLab({ binary, dir: join(dir, 'lab') }), (err: Error) => {
        assert.ok(err instanceof LabError, err.stack);
        assert.match(
          err.message,
          /agent: .* did not take the loopback-only settings of its config\.xml \(options\.globalAnnounceEnabled is true, not false\)/,
        );
        return true;
      });
      assert.deepEqual(processesMentioning(dir), []);
    } finally {
      removeTemp(dir);
    }
  },
);

test("the command-line generation is read from each real binary's --help (and generate --help)", async () => {
  const { cliArgsOf, generationOfHelp, generationOfGenerateHelp } = await import('../../src/lab/generation.js');
  const expected: Record<string, [string, string | undefined, string]> = {
    '1.12.1': ['flags', undefined, 'flags'],
    '1.19.2': ['subcommands', 'subcommands', 'subcommands'],
    '1.29.5': ['subcommands', 'subcommands', 'subcommands'],
    '1.30.0': ['subcommands', 'subcommands', 'subcommands'],
    '2.1.0': ['subcommands', 'subcommands-2', 'subcommands-2'],
    '2.1.2': ['subcommands', 'subcommands-2', 'subcommands-2'],
  };
  for (const version of LAB_VERSIONS) {
    const binary = agentBinary(version);
    const help = async (args: string[]) =>
      (await execa(binary, args, { env: { HOME: tmpdir() }, all: true, reject: false })).all ?? '';
    const top = generationOfHelp(await help(['--help']));
    const generate = top === 'subcommands' ? generationOfGenerateHelp(await help(['generate', '--help'])) : undefined;
    assert.deepEqual([top, generate, (await cliArgsOf(binary)).generation], expected[version], version);
  }
  assert.equal(generationOfGenerateHelp('Usage: syncthing generate [flags]\n\n  --home=PATH\n'), undefined);
  // releases with a default `serve` command but no `generate` one take the (two-dash) flags
  assert.equal(
    generationOfHelp(
      'Usage: syncthing <command>\n\nCommands:\n  serve\n    Run Syncthing\n\n  cli\n\nRun "syncthing <command> --help"',
    ),
    'flags',
  );
  assert.equal(generationOfHelp('usage: frobnicate [-x]'), undefined);
});

test('a binary that is not Syncthing is refused before anything starts', async () => {
  const dir = makeTemp('notst');
  const binary = join(dir, 'syncthing');
  await writeFile(binary, '#!/bin/sh\necho "usage: frobnicate [-x]"\n');
  await chmod(binary, 0o755);
  try {
    await assert.rejects(
      startLab({ binary }),
      /--help shows neither Syncthing's subcommands \(generate, serve\) nor its flags \(-generate, -home\): is it Syncthing\? \(usage: frobnicate/,
    );
    // a `generate` command whose options are neither 1.x's nor 2.x's: the lab does not guess
    const other = join(dir, 'other');
    await writeFile(
      other,
      '#!/bin/sh\nif [ "$1" = generate ]; then echo "Usage: syncthing generate --frob"; else printf "Usage: syncthing\\n\\nCommands:\\n  generate    Make a home\\n"; fi\n',
    );
    await chmod(other, 0o755);
    await assert.rejects(
      startLab({ binary: other, dir: join(dir, 'lab') }),
      /other generate --help shows neither --no-default-folder \(Syncthing 1\.x\) nor --no-port-probing \(2\.x\): the lab does not know how to generate a home with it \(Usage: syncthing generate --frob\)/,
    );
    assert.equal(existsSync(join(dir, 'lab', 'agent', 'config.xml')), false, 'nothing generated');
  } finally {
    removeTemp(dir);
  }
});

test(
  'an interrupted or crashing test process leaves no syncthing behind (both command-line generations)',
  { timeout: 90_000 },
  async (t) => {
    const labModule = join(ROOT, 'src/lab/lab.ts');
    // the default binary (generate/serve) ends one way, 1.12.1 (flags, -home=) the other, then the reverse
    const runs = [
      ['SIGINT', undefined],
      ['throw', '1.12.1'],
      ['SIGINT', '1.12.1'],
      ['throw', undefined],
    ] as const;
    for (const [ending, version] of runs) {
      const binary = version === undefined ? undefined : agentBinary(version);
      const script = `
      import { startLab } from ${JSON.stringify(labModule)};
      const lab = await startLab({ instances: 1, binary: ${JSON.stringify(binary)} });
      console.log(JSON.stringify({ dir: lab.dir, pid: lab.instances[0].pid }));
      ${ending === 'throw' ? "process.stdin.once('data', () => { throw new Error('a failing test'); });" : 'setInterval(() => {}, 1000);'}
    `;
      const child = execa('node', ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: ROOT,
        reject: false,
        timeout: 30_000,
      });
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', (d: Buffer) => resolve(d.toString()));
        void child.then((r) => reject(new Error(`child ended early: ${r.stderr}`)));
      });
      const { dir, pid } = JSON.parse(line) as { dir: string; pid: number };
      try {
        assert.ok(isAlive(pid)); // the child throws only when told to, below
        if (ending === 'SIGINT') child.kill('SIGINT');
        else child.stdin!.write('throw\n');
        const result = await child;
        if (ending === 'SIGINT') assert.equal(result.signal, 'SIGINT', 'the signal still ends the process');
        else assert.equal(result.exitCode, 1);
        // SIGKILLed by the exit handler; on a loaded machine its end can take a moment to show (one the exit handler
        // missed runs on, and the test's timeout ends the wait)
        while (isAlive(pid) && !t.signal.aborted) await sleep(20);
        assert.equal(isAlive(pid), false, `${ending} (${version ?? 'default'}): monitor pid ${pid} is gone`);
        assert.deepEqual(processesMentioning(dir), [], `${ending} (${version ?? 'default'})`);
      } finally {
        removeTemp(dir); // the killed process could not remove its temp dir
      }
    }
  },
);

test(
  'CLI: lab up --syncthing 1.12.1 --json prints the instances, lab down stops them, lab down on a folder without a lab exits 2',
  { timeout: 60_000 },
  async () => {
    const synconf = (...args: string[]) => cliAsync(args, { timeout: 60_000 });
    const dir = makeTemp('labcli');
    try {
      const up = await synconf('lab', 'up', '--syncthing', '1.12.1', '--json', '-n', '2', '--dir', dir);
      assert.equal(up.code, 0, up.stderr);
      const instances = JSON.parse(up.stdout) as LabInstance[];
      assert.equal(instances.length, 2);
      for (const inst of instances) {
        for (const key of [
          'name',
          'url',
          'apiKey',
          'deviceId',
          'syncAddress',
          'pid',
          'home',
          'dataDir',
          'logFile',
        ] as const)
          assert.ok(inst[key], key);
        assert.equal(inst.version, 'v1.12.1-ds1');
        assert.equal(inst.binary, agentBinary('1.12.1'));
        assert.equal((await labFetch(inst, '/rest/system/ping')).status, 200, 'still running after `lab up` exited');
      }
      assert.match(up.stderr, new RegExp(`synconf lab down --dir ${dir}`));

      const down = await synconf('lab', 'down', '--dir', dir);
      assert.equal(down.code, 0, down.stderr);
      for (const inst of instances) assert.equal(isAlive(inst.pid), false);
      assert.deepEqual(processesMentioning(dir), []);
      assert.ok(existsSync(join(dir, 'agent.log')), 'a user-given dir keeps its logs');

      const none = await synconf('lab', 'down', '--dir', '/nonexistent');
      assert.equal(none.code, 2);
      assert.match(none.stderr, /no lab in \/nonexistent: there is no \/nonexistent\/lab\.json/);
    } finally {
      await stopLab(dir).catch(() => {}); // only does something if an assertion above failed
      removeTemp(dir);
    }
  },
);

test('CLI: lab --help lists up and down', async () => {
  const help = await cliAsync(['lab', '--help']);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /lab up/);
  assert.match(help.stdout, /lab down/);
  const up = await cliAsync(['lab', 'up', '--help']);
  assert.match(up.stdout, /--syncthing +a VERSION installed by `synconf agents install`/);
});
