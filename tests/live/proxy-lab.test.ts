// `synconf proxy` in front of real agents (live: Syncthing 1.19.2 from the agents cache, on loopback). The real
// `syncthing cli` and a long poll through `--lab 1.19.2`, judged as `synconf run` judges the same exchanges; and
// faults injected between the proxy and a lab agent, each reported with the statement it breaks.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { CheckResult } from '../../src/schema/generated/types.js';
import { cli } from '../support/cli.js';
import { tempFolder } from '../support/temp.js';
import { useLab } from '../support/lab.js';
import { agentBinary, GENERATION_2X } from '../support/agents.js';
import { startBreakingProxy, type Changed } from '../support/breaking-proxy.js';
import { CLI_COMMANDS, syncthingCli } from '../support/syncthing-cli.js';
import { call, checksOf, readReport, startProxy, stopProxy } from '../support/proxy.js';

const VERSION = '1.19.2';
const work = tempFolder('proxy-lab');

/** schema verdicts by resource: what a report says of each resource it validated */
function bySchema(checks: CheckResult[]): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const c of checks.filter((x) => x.kind === 'schema'))
    out.set(String(c.expected), (out.get(String(c.expected)) ?? new Set()).add(c.verdict));
  return new Map([...out].map(([k, v]) => [k, [...v].sort()]));
}

// the syncthing cli of the Debian 1.19.2 and of the 2.x the lab's third command-line generation is tested on
for (const version of [VERSION, GENERATION_2X])
  describe(`synconf proxy --lab ${version}`, () => {
    test('the real syncthing cli and a long poll: judged as `synconf run` judges them', async () => {
      const p = await startProxy(work(), `lab-cli-${version}`, ['--lab', version]);
      const binary = agentBinary(version);
      for (const c of CLI_COMMANDS) {
        const r = syncthingCli(binary, p, p.key, ...c);
        assert.equal(r.status, 0, `syncthing cli ${c.join(' ')}: ${r.stdout}${r.stderr}`);
      }
      // a long poll streams through: the agent holds it (timeout=3), a ping meanwhile is answered at once
      const events = (await (await call(p, '/rest/events?since=0&timeout=0')).json()) as { id: number }[];
      const last = events.at(-1)?.id ?? 0;
      const t0 = performance.now();
      const poll = call(p, `/rest/events?since=${last}&timeout=3`).then(async (r) => {
        await r.text();
        return performance.now() - t0;
      });
      const ping = await call(p, '/rest/system/ping', { method: 'POST' });
      assert.deepEqual(await ping.json(), { ping: 'pong' });
      const pingMs = performance.now() - t0;
      const pollMs = await poll;
      assert.ok(pingMs < 1500, `ping took ${pingMs} ms beside a long poll`);
      assert.ok(pollMs >= 2500, `the long poll ended after ${pollMs} ms, before the agent's timeout`);
      const code = await stopProxy(p);
      const report = readReport(p.dir);
      assert.equal(report.proxy!.exchanges.clientViolations, 0, p.stderr());
      assert.equal(report.run.target, `lab ${version}`);
      assert.ok(report.agent.version?.startsWith(`v${version}`), report.agent.version ?? 'no version');
      assert.ok(report.proxy!.footprint.some((f) => f.endpoint === 'GET /rest/events' && f.params.includes('timeout')));

      // the suite's scenario of the same client, live: each resource both validated gets the same verdicts
      const run = cli(
        ['run', '--syncthing', version, '--only', 'cli-client', '--report-dir', join(work(), `run-${version}`)],
        {
          cwd: work(),
        },
      );
      assert.ok(run.code === 0 || run.code === 1, run.out);
      const proxied = bySchema(checksOf(report));
      const ran = bySchema(checksOf(readReport(join(work(), `run-${version}`))));
      const shared = [...proxied.keys()].filter((k) => ran.has(k));
      // GET /rest/system/version is Syncthing's, not the spec's: the proxy does not judge it (a1c0a6c), the run does
      assert.ok(shared.length >= 2, `resources judged by both: ${shared.join(', ')}`);
      for (const resource of shared) assert.deepEqual(proxied.get(resource), ran.get(resource), resource);
      // what the proxy found beyond them is listed, each a violation of the agent's with its check
      const failing = checksOf(report).filter((c) => c.verdict === 'fail');
      assert.equal(code, failing.length ? 1 : 0);
      for (const c of failing) assert.equal(c.blame, 'agent', c.message);
    });
  });

describe('faults between the proxy and a lab agent', () => {
  const shared = useLab(1, { binary: VERSION });
  const drop = (member: string) => (doc: unknown) => {
    const copy = { ...(doc as Record<string, unknown>) };
    delete copy[member];
    return copy;
  };
  const set = (member: string, value: unknown) => (doc: unknown) => ({ ...(doc as object), [member]: value });
  // a valid device ID (the agent's own, filled in when the lab is up): an invalid one is removed as ""
  const device = 'DEVICE';
  // [fault (ASCII: it is sent as a header), its change of the agent's answer, the request, the statement it breaks]
  const faults: [string, Changed[string], [string, string], string][] = [
    ['member dropped', { json: drop('myID') }, ['GET', '/rest/system/status'], 'status.myID.type'],
    ['wrong type', { json: set('uptime', '12') }, ['GET', '/rest/system/status'], 'status.uptime.type'],
    ['status 200 to 500', { status: 500 }, ['GET', '/rest/system/status'], 'status.response'],
    ['status 200 to 201', { status: 201 }, ['GET', '/rest/system/status'], 'status.response'],
    ['body not JSON', { body: () => 'oops' }, ['GET', '/rest/system/status'], 'status.response'],
    ['pong to pang', { json: set('ping', 'pang') }, ['POST', '/rest/system/ping'], 'ping.post.pong'],
    [
      'no timestamp',
      { json: set('startTime', 'yesterday') },
      ['GET', '/rest/system/status'],
      'resources.timestamps.rfc3339',
    ],
    ['config member dropped', { json: drop('version') }, ['GET', '/rest/system/config'], 'config.version.type'],
    ['debug wrong type', { json: set('enabled', 'model') }, ['GET', '/rest/system/debug'], 'debug.enabled.type'],
    [
      'no trailing separator',
      { json: (doc) => (doc as string[]).map((d) => d.replace(/\/$/, '')) },
      ['GET', '/rest/system/browse?current=%2F'],
      'browse.entry.trailing-separator',
    ],
    [
      'a body on success',
      { body: () => 'removed' },
      ['DELETE', `/rest/cluster/pending/devices?device=${device}`],
      'pending-devices.delete.success',
    ],
    [
      'failure not plain text',
      { status: 500, contentType: 'application/json', body: () => '{"error":"x"}' },
      ['DELETE', `/rest/cluster/pending/devices?device=${device}`],
      'pending-devices.delete.failure',
    ],
  ];

  test(`${faults.length + 1} faults, each reported with its statement id; the same requests unbroken conform`, async (t) => {
    const agent = shared.lab.instances[0];
    const notFired = (doc: unknown) => (doc as { type: string }[]).filter((e) => e.type !== 'PendingDevicesChanged');
    const changes = Object.fromEntries(faults.map(([f, change]) => [f, change]));
    const layer = await startBreakingProxy(agent.url, {}, { ...changes, 'event not fired': { json: notFired } });
    try {
      const p = await startProxy(work(), 'faults', ['--agent', layer.url, '--api-key', agent.apiKey]);
      t.after(() => p.child.kill('SIGKILL')); // a failing assertion before the stop leaves no proxy behind
      const at = (path: string) => path.replace(device, agent.deviceId);
      for (const [fault, , [method, path]] of faults)
        await (await call(p, at(path), { method, headers: { 'X-Fault': fault } })).text();
      // the same requests without a fault: the baseline each fault is told apart from
      for (const [, , [method, path]] of faults) await (await call(p, at(path), { method })).text();
      // a session statement: the DELETE's event, hidden from the client's next poll
      const events = (await (await call(p, '/rest/events?since=0&timeout=0')).json()) as { id: number }[];
      const deleted = 2 * faults.length + 2;
      await (await call(p, at(`/rest/cluster/pending/devices?device=${device}`), { method: 'DELETE' })).text();
      const since = events.at(-1)!.id;
      await (
        await call(p, `/rest/events?since=${since}&timeout=1`, { headers: { 'X-Fault': 'event not fired' } })
      ).text();
      assert.equal(await stopProxy(p), 1, p.stderr());
      const checks = checksOf(readReport(p.dir));
      faults.forEach(([fault, , [method, path], statement], i) => {
        const failing = checks.filter((c) => c.step === `#${i + 1}` && c.verdict === 'fail');
        assert.ok(failing.length, `${fault}: not reported (${method} ${path})`);
        assert.ok(
          failing.some((c) => c.blame === 'agent' && (c.breaks ?? c.statements ?? []).includes(statement)),
          `${fault}: ${failing.map((c) => `${c.message} [${(c.breaks ?? c.statements ?? []).join(' ')}]`).join('; ')}`,
        );
      });
      const event = checks.find((c) => c.step === `#${deleted}` && c.kind === 'event')!;
      assert.equal(event.verdict, 'fail', event.message);
      assert.deepEqual(event.statements, ['pending-devices.delete.event', 'events.pending-devices-changed']);
      // the unbroken DELETE's event was seen in the poll from 0: proven
      assert.ok(
        checks.some((c) => c.kind === 'event' && c.verdict === 'pass'),
        'an event proven',
      );
      const step = (c: CheckResult) => Number(c.step.slice(1));
      const unbroken = checks.filter((c) => step(c) > faults.length && step(c) < deleted && c.verdict === 'fail');
      assert.deepEqual(
        unbroken.map((c) => c.message),
        [],
      );
    } finally {
      await layer.close();
    }
  });
});
