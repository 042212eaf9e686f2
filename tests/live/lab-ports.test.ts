// The lab owns its environment: with Syncthing's default ports held by another process (a workstation's own
// Syncthing, or the generate of a neighbouring lab), every installed version still starts loopback-only.
import { after, before, describe, test } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';
import assert from 'node:assert/strict';
import { editMismatches, loopbackConfig } from '../../src/lab/config.js';
import { startLab } from '../../src/lab/lab.js';
import { releasePorts, reservePort } from '../../src/lab/ports.js';
import { AGENT_VERSIONS } from '../support/agents.js';
import { holdDefaultPorts, type HeldPorts } from '../support/default-ports.js';
import { labFetch, processesMentioning } from '../support/lab.js';
import { liveMatrix } from '../support/live-runs.js';
import { makeTemp, removeTemp } from '../support/temp.js';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DEVICE = 'JP2IAI4-C7N6ACG-FSFHFKA-GVZRAAF-GGOM5GA-GEVDGFQ-5MDRLHE-YRYAIAF';
const SETTINGS = {
  name: 'agent',
  deviceId: DEVICE,
  guiPort: 1111,
  syncPort: 2222,
  apiKey: 'key',
  reconnectionIntervalS: 5,
};

/** config.xml in the shape `generate` writes (cut down), with the given <gui> attributes and <options> children */
function generated(gui: string, options: string): string {
  return `<configuration version="32">
    <device id="${DEVICE}" name="host" compression="metadata" introducer="false">
        <address>dynamic</address>
    </device>
    <gui ${gui} debugging="false">
        <address>127.0.0.1:8384</address>
        <apikey>generated</apikey>
    </gui>
    <options>
${options}
        <globalAnnounceEnabled>true</globalAnnounceEnabled>
        <relaysEnabled>true</relaysEnabled>
    </options>
</configuration>
`;
}

const listen = (...addresses: string[]) =>
  addresses.map((a) => `        <listenAddress>${a}</listenAddress>`).join('\n');

const GENERATED: [string, string][] = [
  ['ports free (every version)', generated('enabled="true" tls="false"', listen('default'))],
  [
    '22000 taken (1.12.1): three explicit addresses',
    generated(
      'enabled="true" tls="false"',
      listen('tcp://0.0.0.0:33339', 'dynamic+https://relays.syncthing.net/endpoint', 'quic://0.0.0.0:33339'),
    ),
  ],
  ['no listen address at all', generated('enabled="true" tls="false"', '')],
  [
    'two announce servers and a STUN server list, GUI off and on TLS',
    generated(
      'enabled="false" tls="true"',
      listen('default') +
        '\n        <globalAnnounceServer>https://a/</globalAnnounceServer><globalAnnounceServer>https://b/</globalAnnounceServer>' +
        '\n        <stunServer>a:3478</stunServer>\n        <stunServer>b:3478</stunServer>',
    ),
  ],
];

for (const [name, xml] of GENERATED) {
  test(`config.xml edit, ${name}: every element the lab owns is there once with its value`, () => {
    assert.notDeepEqual(editMismatches(xml, SETTINGS), [], 'the check sees what generate wrote');
    const edited = loopbackConfig(xml, SETTINGS);
    assert.deepEqual(editMismatches(edited, SETTINGS), []);
    assert.deepEqual(
      [...edited.matchAll(/<listenAddress>([^<]*)</g)].map((m) => m[1]),
      ['tcp://127.0.0.1:2222'],
    );
    assert.match(edited, /<gui enabled="true" tls="false" debugging="false">/);
  });
}

test('the edit check catches an edit that leaves a second listen address (the first-only edit of old)', () => {
  const edited = loopbackConfig(GENERATED[1][1], SETTINGS);
  const firstOnly = edited.replace(
    '</options>',
    '    <listenAddress>quic://0.0.0.0:33339</listenAddress>\n    </options>',
  );
  assert.deepEqual(editMismatches(firstOnly, SETTINGS), [
    'options/listenAddress is ["tcp://127.0.0.1:2222","quic://0.0.0.0:33339"], not ["tcp://127.0.0.1:2222"]',
  ]);
  assert.match(editMismatches(edited.replace('</gui>', ''), SETTINGS)[0], /^it is no longer well-formed XML/);
});

let ports: HeldPorts;
before(async () => {
  ports = await holdDefaultPorts();
});
after(() => ports.release());

for (const version of AGENT_VERSIONS) {
  test(
    `${version}: with 22000 (TCP, UDP), 8384 and 21027 held by another process, a lab starts loopback-only`,
    { timeout: 60_000 },
    async (t) => {
      t.diagnostic(`held: ${ports.held.join(', ') || 'none'}`);
      if (ports.notHeld.length > 0)
        t.diagnostic(`already taken on this machine, not held by the test: ${ports.notHeld.join(', ')}`);
      const lab = await startLab({ instances: 1, binary: version });
      try {
        const [agent] = lab.instances;
        const config = (await (await labFetch(agent, '/rest/config')).json()) as {
          gui: { address: string };
          options: Record<string, unknown>;
        };
        assert.equal(config.gui.address, new URL(agent.url).host);
        assert.deepEqual(config.options.listenAddresses, [agent.syncAddress]);
        for (const off of ['globalAnnounceEnabled', 'localAnnounceEnabled', 'relaysEnabled', 'natEnabled'])
          assert.equal(config.options[off], false, off);
      } finally {
        await lab.down();
      }
      assert.deepEqual(processesMentioning(lab.dir), []);
    },
  );
}

/**
 * Every failing check of each version's report, whole (the summary cuts its values): the evidence of a failure seen
 * only now and then, e.g. the dial error a 2.1.2 lab listed in lastDialStatus when its peer's dial never came.
 */
function failingChecks(dir: string, versions: readonly string[]): string {
  const lines: string[] = [];
  for (const v of versions) {
    let report: { scenarios: { checks: { id: string; verdict: string; message: string; actual?: unknown }[] }[] };
    try {
      report = JSON.parse(readFileSync(join(dir, v, 'report.json'), 'utf8'));
    } catch {
      continue;
    }
    for (const c of report.scenarios.flatMap((s) => s.checks))
      if (c.verdict === 'fail') lines.push(`${v} ${c.id}: ${c.message} (actual: ${JSON.stringify(c.actual)})`);
  }
  return lines.join('\n');
}

// The done-when of issue 22: `synconf matrix` (the built command, every scenario) is green on every installed
// version with the ports held, its labs generating at once (--jobs: all versions together, as `npm run conformance`
// on a fresh machine). It is the live matrix every test that needs a whole live run reads (support/live-runs.ts),
// made with the default ports held by its own process and --fail-on breaking: green is every version's exit 0, the
// gate's breaking change between versions the only cause of the matrix's exit 1.
test(`synconf matrix on ${AGENT_VERSIONS.join(', ')} with the default ports held is green (every scenario)`, async (t) => {
  const r = await liveMatrix();
  t.diagnostic(`held: ${r.held.join(', ') || 'none'}`);
  if (r.notHeld.length > 0)
    t.diagnostic(`already taken on this machine, not held by the test: ${r.notHeld.join(', ')}`);
  const m = JSON.parse(readFileSync(join(r.reportDir, 'matrix.json'), 'utf8')) as {
    columns: { label: string; mode: string; exitCode: number }[];
  };
  assert.deepEqual(
    m.columns.map((c) => [c.label, c.mode, c.exitCode]),
    AGENT_VERSIONS.map((v) => [v, 'live', 0]),
    `${r.out}\n${failingChecks(r.reportDir, AGENT_VERSIONS)}`,
  );
  assert.equal(r.code, 1, r.out);
  assert.match(
    r.stdout.trimEnd().split('\n').at(-1)!,
    /^synconf matrix: exit 1: every version conforms \(worst exit 0\); gate: --fail-on breaking tripped by \d+ causes/,
  );
  assert.deepEqual(processesMentioning(r.labsDir), []);
});

// Ports are reserved across synconf processes (parallel shards, labs side by side), from the pick until the lab
// stops: the OS alone would hand a port out again in the second before Syncthing binds it or while it restarts, and
// two instances on one sync port share its connections (SO_REUSEPORT), so a peer of one lab reached the agent of
// another. Each case runs in its own temporary folder (the registry lives there).
describe('port reservations across processes', () => {
  const PORTS = new URL('../../src/lab/ports.ts', import.meta.url).href;
  const TSX = import.meta.resolve('tsx');
  /** a node process that reserves port `port` (for lab folder `dir`), prints "reserved", then runs `then` */
  function holder(tmp: string, port: number, dir: string, then: string): ChildProcess {
    const code = `import { reservePort, detachPorts } from ${JSON.stringify(PORTS)};
      if (!reservePort(${port}, ${JSON.stringify(dir)})) process.exit(9);
      console.log('reserved');
      ${then}`;
    return spawn(process.execPath, ['--import', TSX, '--input-type=module', '-e', code], {
      env: { ...process.env, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  }
  const reserved = (child: ChildProcess) =>
    new Promise<void>((resolve, reject) => {
      child.stdout!.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`the holder exited with ${code} before reserving`)));
    });
  const exited = (child: ChildProcess) => new Promise((resolve) => child.once('exit', resolve));
  /** whether this process may reserve the port, in the registry of `tmp` */
  function mayReserve(tmp: string, port: number): boolean {
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const ok = reservePort(port);
      if (ok) releasePorts([port]);
      return ok;
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  }
  const PORT = 1; // never handed out by the OS: the registry alone decides
  const RUNS = 'setInterval(() => {}, 1000);';
  const DETACHES = `detachPorts([${PORT}]);`;

  /** the case, what the holder does once it reserved, how it ends, whether its lab folder is removed, the answer */
  const CASES: [string, string, 'runs' | 'killed' | 'exits', boolean, boolean][] = [
    ['while its process runs', RUNS, 'runs', false, false],
    ['after its process was killed (no exit handler ran): stale, replaced', RUNS, 'killed', false, true],
    ['after its process exited: given up', '', 'exits', false, true],
    ['of a detached lab (lab up), after its process exited, while the folder exists', DETACHES, 'exits', false, false],
    ['of a detached lab whose folder is gone: stale', DETACHES, 'exits', true, true],
  ];
  test('the reservations of processes that died are removed by the next process that reserves any port', async () => {
    const tmp = makeTemp('ports');
    const lab = join(tmp, 'lab');
    mkdirSync(lab);
    const killed = holder(tmp, 2, lab, RUNS);
    const running = holder(tmp, 3, lab, RUNS);
    try {
      await Promise.all([reserved(killed), reserved(running)]);
      killed.kill('SIGKILL');
      await exited(killed);
      writeFileSync(join(tmp, 'synconf-ports', '4'), ''); // half written, just now: a process may be writing it
      const files = () => readdirSync(join(tmp, 'synconf-ports')).sort();
      assert.deepEqual(files(), ['2', '3', '4']);
      assert.equal(mayReserve(tmp, PORT), true);
      assert.deepEqual(files(), ['3', '4'], "the killed holder's file is gone; the running one's and a fresh one stay");
    } finally {
      killed.kill('SIGKILL');
      running.kill('SIGKILL');
      removeTemp(tmp);
    }
  });

  for (const [name, then, end, removeLab, free] of CASES)
    test(`a port reserved by another synconf process ${name}: ${free ? 'free' : 'refused'}`, async () => {
      const tmp = makeTemp('ports');
      const lab = join(tmp, 'lab');
      mkdirSync(lab);
      const child = holder(tmp, PORT, lab, then);
      try {
        await reserved(child);
        if (end === 'killed') child.kill('SIGKILL');
        if (end !== 'runs') await exited(child);
        if (removeLab) rmSync(lab, { recursive: true });
        assert.equal(mayReserve(tmp, PORT), free);
      } finally {
        child.kill('SIGKILL');
        removeTemp(tmp);
      }
    });
});
