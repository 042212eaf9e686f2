// The JSON Schemas of schemas/ against documents captured live from a lab of two real Syncthing 1.19.2 instances:
// accepted where 1.19.2 conforms, exactly the known deviations where it does not (tests/support/schema-findings.ts;
// the recorded documents and the pure tables: tests/schemas.test.ts).
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { useLab, labFetch, type LabInstance } from '../support/lab.js';
import {
  AGENT,
  assertAsKnown,
  assertFindings,
  assertValid,
  absentUsageFields,
  EVENT_DATA,
  expectedFor,
  type Doc,
  type Finding,
} from '../support/schema-findings.js';

// ---------------------------------------------------------------------------------------------------------------
// Live: documents captured from a lab of two real instances, "agent" and "peer".
describe('real Syncthing 1.19.2 responses (lab)', { timeout: 180_000 }, () => {
  const shared = useLab(2);
  const live: Record<string, Doc> = {};
  let agent: LabInstance;
  let peer: LabInstance;

  async function call(inst: LabInstance, method: string, path: string, body?: unknown): Promise<Doc> {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers = { 'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json' };
    }
    const res = await labFetch(inst, path, init);
    const text = await res.text();
    assert.equal(res.status, 200, `${inst.name}: ${method} ${path} answered ${res.status} ${text}`);
    return text.trim() === '' ? undefined : JSON.parse(text);
  }
  const get = (inst: LabInstance, path: string) => call(inst, 'GET', path);

  async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(50);
    }
  }

  const scanned = (inst: LabInstance, folder: string, check: (s: Doc) => boolean) =>
    until(`${folder} scanned on ${inst.name}`, async () => {
      const s = await get(inst, `/rest/db/status?folder=${folder}`);
      return s.state === 'idle' && check(s) ? s : undefined;
    });

  before(async () => {
    [agent, peer] = shared.lab.instances;
    const q = encodeURIComponent;

    // Folders of the agent: send-receive, receive-only with a local change, simple versioning with planted versions.
    const dir = (name: string) => {
      const d = join(agent.dataDir, name);
      mkdirSync(d, { recursive: true });
      return d;
    };
    writeFileSync(join(dir('sr-1'), 'hello.txt'), 'hello\n');
    writeFileSync(join(dir('ro-1'), 'local.txt'), 'changed locally\n');
    mkdirSync(join(dir('vv-1'), '.stversions', 'sub'), { recursive: true });
    writeFileSync(join(agent.dataDir, 'vv-1', 'doc.txt'), 'current\n');
    writeFileSync(join(agent.dataDir, 'vv-1', '.stversions', 'doc~20240101-000000.txt'), 'first\n');
    writeFileSync(join(agent.dataDir, 'vv-1', '.stversions', 'doc~20240315-093000.txt'), 'second\n');
    writeFileSync(join(agent.dataDir, 'vv-1', '.stversions', 'sub', 'deep~20240404-040404.md'), 'deep\n');
    await call(agent, 'POST', '/rest/config/folders', {
      id: 'sr-1',
      label: 'SR',
      path: join(agent.dataDir, 'sr-1'),
      type: 'sendreceive',
    });
    await call(agent, 'POST', '/rest/config/folders', {
      id: 'ro-1',
      label: 'RO',
      path: join(agent.dataDir, 'ro-1'),
      type: 'receiveonly',
    });
    await call(agent, 'POST', '/rest/config/folders', {
      id: 'vv-1',
      label: 'VV',
      path: join(agent.dataDir, 'vv-1'),
      type: 'sendreceive',
      versioning: { type: 'simple', params: { keep: '5' }, cleanupIntervalS: 3600, fsPath: '', fsType: 'basic' },
    });
    live.statusSR = await scanned(agent, 'sr-1', (s) => s.localFiles === 1);
    live.statusRO = await scanned(agent, 'ro-1', (s) => s.receiveOnlyChangedFiles === 1);
    live.statusVV = await scanned(agent, 'vv-1', (s) => s.localFiles === 1);
    live.statusEarly = await get(agent, '/rest/system/status'); // no dials yet
    live.report = await get(agent, '/rest/svc/report'); // ~1.3 s; state: 3 folders, no remote device

    // Pending device: the peer knows the agent, the agent does not know the peer.
    await call(peer, 'POST', '/rest/config/devices', {
      deviceID: agent.deviceId,
      name: 'agent',
      addresses: [agent.syncAddress],
    });
    live.pendingDevices = await until('the peer pending on the agent', async () => {
      const p = await get(agent, '/rest/cluster/pending/devices');
      return peer.deviceId in p ? p : undefined;
    });
    // The agent ignores it (what the GUI's "ignore" does): a remoteIgnoredDevices entry.
    const config = await get(agent, '/rest/config');
    const seen = live.pendingDevices[peer.deviceId];
    config.remoteIgnoredDevices.push({
      time: seen.time,
      deviceID: peer.deviceId,
      name: seen.name,
      address: seen.address,
    });
    await call(agent, 'PUT', '/rest/config', config);
    live.configIgnoring = await get(agent, '/rest/config');

    // Then accepts it: both know each other and connect. The peer stops dialling first (address `dynamic`, and
    // discovery is off), so the connection is the agent's own dial: a successful lastDialStatus entry.
    await call(peer, 'PATCH', `/rest/config/devices/${agent.deviceId}`, { addresses: ['dynamic'] });
    await call(agent, 'POST', '/rest/config/devices', {
      deviceID: peer.deviceId,
      name: 'peer',
      addresses: [peer.syncAddress],
    });
    await until(
      'agent and peer connected',
      async () => (await get(agent, '/rest/system/connections')).connections[peer.deviceId]?.connected,
    );

    // Pending folder: the peer offers nq-1 (3 × 1 MiB, sent slowly so the agent's need list stays filled) and off-1.
    const nq = join(peer.dataDir, 'nq-1');
    mkdirSync(nq, { recursive: true });
    for (const i of [0, 1, 2]) writeFileSync(join(nq, `f${i}.bin`), randomBytes(1 << 20)); // random: no block can be copied locally
    await call(peer, 'PATCH', '/rest/config/options', { maxSendKbps: 32, limitBandwidthInLan: true });
    const shareWithAgent = [{ deviceID: peer.deviceId }, { deviceID: agent.deviceId }];
    await call(peer, 'POST', '/rest/config/folders', {
      id: 'nq-1',
      label: 'NQ',
      path: nq,
      type: 'sendonly',
      devices: shareWithAgent,
    });
    mkdirSync(join(peer.dataDir, 'off-1'), { recursive: true });
    await call(peer, 'POST', '/rest/config/folders', {
      id: 'off-1',
      label: 'Offered',
      path: join(peer.dataDir, 'off-1'),
      devices: shareWithAgent,
    });
    live.pendingFolders = await until('nq-1 and off-1 pending on the agent', async () => {
      const p = await get(agent, '/rest/cluster/pending/folders');
      return p['nq-1'] && p['off-1'] ? p : undefined;
    });

    // The agent accepts nq-1; the pull is throttled to 32 KiB/s, so db/need lists the files for many seconds.
    await call(agent, 'POST', '/rest/config/folders', {
      id: 'nq-1',
      label: 'NQ',
      path: join(agent.dataDir, 'nq-1'),
      type: 'receiveonly',
      order: 'alphabetic',
      devices: [{ deviceID: agent.deviceId }, { deviceID: peer.deviceId }],
    });
    live.need = await until('files needed in nq-1', async () => {
      const n = await get(agent, '/rest/db/need?folder=nq-1');
      return n.progress.length + n.queued.length + n.rest.length === 3 ? n : undefined;
    });
    live.prio = await call(agent, 'POST', '/rest/db/prio?folder=nq-1&file=f2.bin');

    // The DELETE endpoints and their events; the last two leave out the parameter (a 1.19.2 deviation: 200 and "").
    await call(agent, 'DELETE', `/rest/cluster/pending/folders?folder=off-1&device=${q(peer.deviceId)}`);
    await call(agent, 'DELETE', '/rest/cluster/pending/folders?folder=off-1');
    await call(agent, 'DELETE', `/rest/cluster/pending/devices?device=${q(peer.deviceId)}`);
    await call(agent, 'DELETE', '/rest/cluster/pending/devices');
    await call(agent, 'DELETE', '/rest/cluster/pending/folders');
    live.events = await until('the DELETE events', async () => {
      const events: Doc[] = await get(agent, '/rest/events?since=0&timeout=0');
      return events.some((e) => e.type === 'PendingFoldersChanged' && e.data.removed?.[0]?.folderID === '')
        ? events
        : undefined;
    });

    live.status = await get(agent, '/rest/system/status'); // the agent has dialled the peer: a lastDialStatus entry
    live.config = await get(agent, '/rest/config');
    live.systemConfig = await get(agent, '/rest/system/config');
  });

  test('config (GET /rest/config, GET /rest/system/config): 1.19.2 conforms', () => {
    assertValid('config', live.config);
    assertValid('config', live.systemConfig);
    assertValid('config', live.configIgnoring);
    assert.deepEqual(
      live.configIgnoring.remoteIgnoredDevices.map((r: Doc) => r.deviceID),
      [peer.deviceId],
    );
  });

  test('folder, folder-device, device, gui, ldap, options, remote-ignored-device', async () => {
    for (const id of ['sr-1', 'ro-1', 'vv-1', 'nq-1']) {
      const folder = await get(agent, `/rest/config/folders/${id}`);
      assertValid('folder', folder, AGENT, `folder ${id}`);
      for (const d of folder.devices) assertValid('folder-device', d);
    }
    for (const inst of [agent, peer])
      assertValid('device', await get(agent, `/rest/config/devices/${inst.deviceId}`), AGENT, `device ${inst.name}`);
    assertValid('gui', await get(agent, '/rest/config/gui'));
    assertValid('ldap', await get(agent, '/rest/config/ldap'));
    assertValid('options', await get(agent, '/rest/config/options'));
    for (const r of live.configIgnoring.remoteIgnoredDevices) assertValid('remote-ignored-device', r);
  });

  test('system-status: discovery*, themes and lastDialStatus `ok` deviate', () => {
    assert.deepEqual(live.statusEarly.lastDialStatus, {});
    assertFindings('system-status', live.statusEarly, [
      ['/discoveryEnabled', 'required'],
      ['/discoveryErrors', 'required'],
      ['/discoveryMethods', 'required'],
      ['/themes', 'required'],
    ]);
    const dialled = Object.entries(live.status.lastDialStatus as Record<string, Doc>).filter(
      ([, v]) => v.error === null,
    );
    assert.ok(dialled.length >= 1, 'the agent dialled the peer successfully');
    assertAsKnown('system-status', live.statusEarly, 'status before any dial');
    assertAsKnown('system-status', live.status, 'status after dialling the peer');
  });

  test('folder-status: receive-only conforms; send-receive lacks the receiveOnlyChanged* group', async () => {
    assertValid('folder-status', live.statusRO);
    const missing = ['Bytes', 'Deletes', 'Directories', 'Files', 'Symlinks'].map((k): Finding => [
      `/receiveOnlyChanged${k}`,
      'required',
    ]);
    for (const doc of [live.statusSR, live.statusVV]) {
      assertFindings('folder-status', doc, [...missing, ['/receiveOnlyTotalItems', 'required']]);
      assertAsKnown('folder-status', doc);
    }
    assertAsKnown('folder-status', await get(agent, '/rest/db/status?folder=nq-1'));
  });

  test('local-changed and file-info: `permissions` instead of `flags`', async () => {
    const doc = await get(agent, '/rest/db/localchanged?folder=ro-1');
    assert.deepEqual(
      doc.files.map((f: Doc) => f.name),
      ['local.txt'],
    );
    assertFindings('local-changed', doc, [['/files/0/flags', 'required']]);
    assertAsKnown('local-changed', doc);
    assertFindings('file-info', doc.files[0], [['/flags', 'required']]);
    assertAsKnown('file-info', doc.files[0]);
    assertValid('local-changed', await get(agent, '/rest/db/localchanged?folder=sr-1')); // files: []
  });

  test('need (GET /rest/db/need, POST /rest/db/prio)', () => {
    for (const doc of [live.need, live.prio]) {
      const items = [...doc.progress, ...doc.queued, ...doc.rest];
      assert.equal(items.length, 3);
      assertFindings('need', doc, expectedFor('need', doc));
      assert.equal(expectedFor('need', doc).length, 3, 'one finding per file: /<list>/<i>/flags required');
      assertAsKnown('need', doc);
    }
  });

  test('usage-report: zero-valued fields and uniqueID are left out', () => {
    assert.deepEqual(absentUsageFields(live.report), [
      '/uniqueID',
      '/totMiB',
      '/folderMaxMiB',
      '/usesRateLimit',
      '/upgradeAllowedManual',
      '/upgradeAllowedAuto',
      '/folderUses/ignorePerms',
      '/folderUses/sendonly',
      '/folderUses/ignoreDelete',
      '/deviceUses/compressAlways',
      '/deviceUses/compressNever',
      '/deviceUses/customCertName',
      '/deviceUses/staticAddr',
      '/deviceUses/introducer',
      '/announce/globalEnabled',
      '/announce/localEnabled',
      '/announce/defaultServersDNS',
      '/announce/defaultServersIP',
      '/relays/enabled',
      '/relays/defaultServers',
      '/relays/otherServers',
    ]);
    assertAsKnown('usage-report', live.report);
  });

  test('debug-facilities: `api` instead of `http`', async () => {
    const doc = await get(agent, '/rest/system/debug');
    assertFindings('debug-facilities', doc, [['/facilities/http', 'required']]);
    assertAsKnown('debug-facilities', doc);
  });

  test('browse, ping, system-version', async () => {
    assertValid('browse', await get(agent, '/rest/system/browse'));
    const dirs = await get(agent, `/rest/system/browse?current=${encodeURIComponent(agent.dataDir + '/')}`);
    assert.ok(dirs.length >= 3);
    assertValid('browse', dirs);
    assertValid('ping', await get(agent, '/rest/system/ping'));
    assertValid('ping', await call(agent, 'POST', '/rest/system/ping'));
    const version = await get(agent, '/rest/system/version');
    assert.match(version.version, /^v1\.19\.2/);
    assertValid('system-version', version);
  });

  test('versions and versions-restore-result', async () => {
    const versions = await get(agent, '/rest/folder/versions?folder=vv-1');
    assert.deepEqual(Object.keys(versions).sort(), ['doc.txt', 'sub/deep.md']);
    assertValid('versions', versions);
    const target = versions['doc.txt'].find((v: Doc) => v.versionTime.startsWith('2024-01-01')).versionTime;
    assertValid(
      'versions-restore-result',
      await call(agent, 'POST', '/rest/folder/versions?folder=vv-1', { 'doc.txt': target }),
    );
    const failed = await call(agent, 'POST', '/rest/folder/versions?folder=vv-1', {
      'nothing-here.txt': '2024-01-01T00:00:00Z',
    });
    assert.deepEqual(Object.keys(failed), ['nothing-here.txt']);
    assertValid('versions-restore-result', failed);
  });

  test('pending-devices and pending-folders conform', () => {
    assertValid('pending-devices', live.pendingDevices);
    assertValid('pending-folders', live.pendingFolders);
  });

  test('events and the data of Pending*Changed events; a DELETE without its parameter reports ""', () => {
    const events: Doc[] = live.events;
    assertAsKnown('events', events);
    const pending = events.filter((e) => EVENT_DATA[e.type]);
    for (const e of pending) {
      assertAsKnown('event', e, `event ${e.id} ${e.type}`);
      assertAsKnown(EVENT_DATA[e.type], e.data, `data of event ${e.id} ${e.type}`);
    }
    const removed = pending.filter((e) => e.data.removed?.length).map((e) => [e.type, e.data.removed]);
    // the DELETEs, in order (the peer's pending device was also removed when the agent ignored and accepted it)
    assert.deepEqual(removed.slice(-5), [
      ['PendingFoldersChanged', [{ deviceID: peer.deviceId, folderID: 'off-1' }]],
      ['PendingFoldersChanged', [{ folderID: 'off-1' }]],
      ['PendingDevicesChanged', [{ deviceID: peer.deviceId }]],
      ['PendingDevicesChanged', [{ deviceID: '' }]],
      ['PendingFoldersChanged', [{ folderID: '' }]],
    ]);
    const noDevice = pending.find((e) => e.data.removed?.[0]?.deviceID === '');
    assertFindings('pending-devices-changed', noDevice.data, [['/removed/0/deviceID', 'pattern']]);
    const noFolder = pending.find((e) => e.data.removed?.[0]?.folderID === '');
    assertFindings('pending-folders-changed', noFolder.data, [['/removed/0/folderID', 'pattern']]);
    assert.ok(
      pending.some((e) => e.type === 'PendingDevicesChanged' && e.data.added),
      'an added device event',
    );
    assert.ok(
      pending.some((e) => e.type === 'PendingFoldersChanged' && e.data.added?.length),
      'an added folder event',
    );
  });

  test('system-errors: a list; null after a clear', async () => {
    await call(agent, 'POST', '/rest/system/error', 'synconf schema test');
    const errors = await get(agent, '/rest/system/error');
    assert.ok(errors.errors.some((e: Doc) => e.message === 'synconf schema test'));
    assertValid('system-errors', errors);
    assert.equal(await call(agent, 'POST', '/rest/system/error/clear'), undefined);
    const cleared = await get(agent, '/rest/system/error');
    assertFindings('system-errors', cleared, [['/errors', 'type']]);
    assertAsKnown('system-errors', cleared);
  });

  test('control-reply: restart and shutdown (JSON text sent as text/plain)', { timeout: 60_000 }, async () => {
    const before = (await get(peer, '/rest/system/status')).startTime;
    const restart = await labFetch(peer, '/rest/system/restart', { method: 'POST' });
    assert.equal(restart.status, 200);
    const restartReply = JSON.parse(await restart.text());
    assert.deepEqual(restartReply, { ok: 'restarting' });
    assertValid('control-reply', restartReply);
    // startTime has second precision: wait for the new process, then let a second pass so it differs
    await until(
      'the peer back after its restart',
      async () => {
        try {
          const s = await get(peer, '/rest/system/status');
          return s.startTime !== before ? s : undefined;
        } catch {
          return undefined;
        }
      },
      30_000,
    );
    const shutdown = await labFetch(peer, '/rest/system/shutdown', { method: 'POST' });
    assert.equal(shutdown.status, 200);
    const shutdownReply = JSON.parse(await shutdown.text());
    assert.deepEqual(shutdownReply, { ok: 'shutting down' });
    assertValid('control-reply', shutdownReply);
  });
});
