// Real clients nobody here wrote, through `synconf proxy` (issue 37): node-syncthing 3.3.7 (npm) on a lab of 1.29.5 and
// syncthingctl (Debian's syncthingtray) on 1.29.5 and 2.1.2; their sessions asked again with `drift --against`,
// kept to each client's contract. As few labs as the figures need: each drift --against VERSION starts one more.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import syncthing from 'node-syncthing';
import type { ClientContract, DriftCauses } from '../../src/schema/generated/types.js';
import { holdFolder, useLab } from '../support/lab.js';
import { cli } from '../support/cli.js';
import { tempFolder } from '../support/temp.js';
import { readReport, startProxy, stopProxy, type Proxying } from '../support/proxy.js';

const work = tempFolder('real-clients');
const run = promisify(execFile);
const lines = (doc: DriftCauses) => doc.causes.map((c) => `${c.level} ${c.rule} ${c.endpoints.join(',')} ${c.pointer}`);

/** drift SESSION --against VERSION [--contract FILE] --json */
function drift(session: string, version: string, contract?: string): { code: number | null; doc: DriftCauses } {
  const args = ['drift', session, '--against', version, '--fail-on', 'breaking', '--json'];
  const r = cli(contract ? [...args, '--contract', contract] : args, { cwd: work(), timeout: 180_000 });
  assert.ok(r.code === 0 || r.code === 1, r.out);
  return { code: r.code, doc: JSON.parse(r.stdout) as DriftCauses };
}

/** `synconf contract SESSION`, each endpoint's members pruned by `keep` (what the client reads of it) */
function pruned(session: string, name: string, keep: (endpoint: string, member: string) => boolean): string {
  const file = join(work(), `${name}.contract.json`);
  const r = cli(['contract', session, '-o', file], { cwd: work() });
  assert.equal(r.code, 0, r.out);
  const doc = JSON.parse(readFileSync(file, 'utf8')) as ClientContract;
  for (const e of doc.endpoints) e.members = e.members.filter((m) => keep(e.endpoint, m));
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}

describe('node-syncthing 3.3.7 through proxy --lab 1.29.5', () => {
  test('against 1.29.5: 0 causes; against 2.1.2 with a contract of its calls: GET /rest/system/debug removed', async () => {
    const p = await startProxy(work(), 'node-syncthing', ['--lab', '1.29.5']);
    const url = new URL(p.url);
    const st = syncthing({ hostname: url.hostname, port: Number(url.port), apiKey: p.key, https: false });
    const ask = <T>(f: (cb: (err: unknown, body: T) => void) => void) =>
      new Promise<T>((resolve, reject) => f((err, body) => (err ? reject(err) : resolve(body))));
    assert.deepEqual(await ask((cb) => st.system.ping(cb)), { ping: 'pong' });
    const status = await ask<{ myID: string }>((cb) => st.system.status(cb));
    const version = await ask<{ version: string }>((cb) => st.system.version(cb));
    assert.equal(version.version, 'v1.29.5');
    await ask((cb) => st.system.getConfig(cb));
    await ask((cb) => st.system.errors(cb));
    await ask((cb) => st.system.debug(cb));
    assert.match(status.myID, /^[A-Z0-9-]{63}$/);
    assert.equal(await stopProxy(p), 0, p.stderr());

    const same = drift(p.dir, '1.29.5');
    assert.deepEqual(lines(same.doc), []);
    // the contract of the methods it calls: what this client's code reads of their answers
    const reads: Record<string, string[]> = {
      'GET /rest/system/status': ['/myID'],
      'GET /rest/system/version': ['/version'],
    };
    const contract = pruned(p.dir, 'node-syncthing', (e, m) => (reads[e] ?? []).includes(m));
    const other = drift(p.dir, '2.1.2', contract);
    // beside it the risky charset=utf-8 dropped by 2.0.14 (media-type-parameters-changed), on every endpoint called
    assert.deepEqual(
      lines(other.doc).filter((l) => !l.startsWith('risky media-type-parameters-changed')),
      ['breaking endpoint-removed GET /rest/system/debug '],
    );
    assert.equal(other.code, 1);
    console.log(
      `node-syncthing 1.29.5 → 2.1.2 without a contract: ${drift(p.dir, '2.1.2').doc.counts.breaking} breaking`,
    );
  });
});

/** syncthingctl with the proxy's URL and key: its output (a non-zero exit rejects) */
async function ctl(p: Proxying, ...args: string[]): Promise<string> {
  const { stdout } = await run('syncthingctl', ['-u', p.url, '-k', p.key, '--no-color', ...args], {
    timeout: 60_000,
    env: { ...process.env, XDG_RUNTIME_DIR: work() },
  });
  return stdout;
}

/** what syncthingctl shows: folders' and devices' identities and their status, the agent's status and version; the
 * last event's id (it asks `GET /rest/events?limit=1` for where to start, not for the event's type) */
const CTL_READS =
  /^\/(folders|devices)\/\[\]\/(id|label|path|paused|deviceID|name|addresses|compression)|^\/(state|globalFiles|localFiles|globalBytes|localBytes|needFiles|myID|uptime|longVersion|version)$|^\/\[\]\/id$/;

describe('syncthingctl (syncthingtray) through the proxy', () => {
  const shared = useLab(1, { binary: '1.29.5' });
  test('on 1.29.5 (a folder held before): status, rescan, pause, resume, edit; a pruned contract: 0 breaking against 2.1.2', async () => {
    const agent = shared.lab.instances[0];
    await holdFolder(agent, join(work(), 'ctl-folder'), 'ctl-held');
    const p = await startProxy(work(), 'ctl-1.29.5', ['--agent', agent.url, '--api-key', agent.apiKey]);
    assert.match(await ctl(p, 'status'), /ctl-held/);
    await ctl(p, 'status', '--dir', 'ctl-held');
    await ctl(p, 'rescan', 'ctl-held');
    await ctl(p, 'pause', '--dir', 'ctl-held');
    await ctl(p, 'resume', '--dir', 'ctl-held');
    await ctl(p, 'edit', '--js-lines', "config.folders[0].label = 'Edited'; config");
    assert.match(await ctl(p, 'status', '--dir', 'ctl-held'), /Edited/);
    assert.equal(await stopProxy(p), 0, p.stderr());
    const contract = pruned(p.dir, 'syncthingctl', (_e, m) => CTL_READS.test(m));
    const other = drift(p.dir, '2.1.2', contract);
    assert.equal(
      other.doc.counts.breaking,
      0,
      JSON.stringify(other.doc.causes.map((c) => [c.rule, c.change, c.evidence])),
    );
    assert.equal(other.code, 0);
    console.log(
      `syncthingctl 1.29.5 → 2.1.2 without a contract: ${drift(p.dir, '2.1.2').doc.counts.breaking} breaking`,
    );
  });

  test('through proxy --lab 2.1.2: each command works, and the session conforms', async () => {
    const p = await startProxy(work(), 'ctl-2.1.2', ['--lab', '2.1.2']);
    const path = join(work(), 'ctl-new');
    mkdirSync(path);
    await ctl(p, 'edit', '--js-lines', `config.folders.push({id: 'ctl-new', label: 'New', path: '${path}'}); config`);
    assert.match(await ctl(p, 'status', '--dir', 'ctl-new'), /New/);
    await ctl(p, 'rescan', 'ctl-new');
    await ctl(p, 'pause', '--dir', 'ctl-new');
    await ctl(p, 'resume', '--dir', 'ctl-new');
    assert.equal(await stopProxy(p), 0, p.stderr());
    assert.ok(readReport(p.dir).proxy!.exchanges.judged > 0);
  });
});
