// synconf serve --stateful as its users run it (dist/bin/synconf.js from a scratch folder): each write family changes
// what the next read answers, in the version's shapes, with the version's events; a write the agent refuses is
// refused as it refuses it; the real `syncthing cli` of 1.29.5 and 2.1.2 edits, pauses and adds against it. Each test
// asserts what today's serve (recordings only) does not do: its answers never follow a write.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/paths.js';
import { agentBinary } from './support/agents.js';
import { startServe } from './support/serving.js';
import { tempFolder } from './support/temp.js';
import { syncthingCli, type Listening } from './support/syncthing-cli.js';

const work = tempFolder('serve-stateful');
const recordings = (version: string) => join(ROOT, 'recordings', `syncthing-${version}`);
const PEER = 'MFZWI3D-BONSGYC-YLTMRWG-C43ENR5-QXGZDMM-FZWI3DP-BONSGYY-LTMRWAD';

/** `synconf serve --stateful` of a version's recordings, once it printed where it listens */
export const serveStateful = (version: string, cwd: string, extra: string[] = []): Promise<Listening> =>
  startServe([recordings(version), '--stateful', ...extra], cwd);

async function stop(s: Listening): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => s.child.on('exit', (code) => resolve(code)));
  s.child.kill('SIGTERM');
  return exited;
}

const call = (s: Listening, method: string, path: string, body?: unknown) =>
  fetch(s.url + path, {
    method,
    headers: { 'X-API-Key': s.key },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
const read = async (s: Listening, path: string) => {
  const r = await call(s, 'GET', path);
  assert.equal(r.status, 200, `GET ${path}`);
  return (await r.json()) as Record<string, unknown>;
};
const write = async (s: Listening, method: string, path: string, body?: unknown) => {
  const r = await call(s, method, path, body);
  assert.equal(r.status, 200, `${method} ${path}: ${await r.text()}`);
};
type Folder = { id: string; label: string; paused: boolean };
type Event = { id: number; type: string; data: Record<string, unknown> };
const lastEventId = async (s: Listening) => {
  const events = (await (await call(s, 'GET', '/rest/events?since=0&timeout=0')).json()) as Event[];
  return events.at(-1)!.id;
};

for (const version of ['1.29.5', '2.1.2']) {
  describe(`serve --stateful of the ${version} recordings`, () => {
    let s: Listening;
    before(async () => {
      s = await serveStateful(version, work(), ['--log', join(work(), `requests-${version}.har`)]);
    });
    after(async () => {
      if (s) await stop(s);
    });

    test(`syncthing cli ${version} sets and reads back a folder label, pauses and resumes it, adds and removes a device`, () => {
      const stcli = (...args: string[]) => {
        const r = syncthingCli(agentBinary(version), s, s.key, ...args);
        assert.equal(r.status, 0, `syncthing cli ${args.join(' ')}: ${r.stderr}`);
        return r.stdout.trim();
      };
      const [folder] = stcli('config', 'folders', 'list').split('\n');
      assert.ok(folder, 'the seeded configuration holds a folder');
      stcli('config', 'folders', folder, 'label', 'set', 'Label from the cli');
      assert.equal(stcli('config', 'folders', folder, 'label', 'get'), 'Label from the cli');
      stcli('config', 'folders', folder, 'paused', 'set', 'true');
      assert.equal(stcli('config', 'folders', folder, 'paused', 'get'), 'true');
      stcli('config', 'folders', folder, 'paused', 'set', 'false');
      assert.equal(stcli('config', 'folders', folder, 'paused', 'get'), 'false');
      stcli('config', 'devices', 'add', '--device-id', PEER, '--name', 'peer-from-cli');
      assert.ok(stcli('config', 'devices', 'list').split('\n').includes(PEER));
      assert.equal(stcli('config', 'devices', PEER, 'name', 'get'), 'peer-from-cli');
      stcli('config', 'devices', PEER, 'delete');
      assert.ok(!stcli('config', 'devices', 'list').split('\n').includes(PEER));
    });

    test('folders: POST adds, PATCH edits, PUT replaces, DELETE removes; /rest/config and /rest/system/config agree', async () => {
      await write(s, 'POST', '/rest/config/folders', { id: 'st-new', path: '/tmp/st-new', label: 'New' });
      assert.equal((await read(s, '/rest/config/folders/st-new')).label, 'New');
      await write(s, 'PATCH', '/rest/config/folders/st-new', { label: 'Edited' });
      assert.equal((await read(s, '/rest/config/folders/st-new')).label, 'Edited');
      const again = await read(s, '/rest/config/folders/st-new');
      assert.equal(
        again.rescanIntervalS,
        ((await read(s, '/rest/config')).defaults as { folder: Folder & { rescanIntervalS: number } }).folder
          .rescanIntervalS,
      );
      const whole = (await read(s, '/rest/system/config')).folders as Folder[];
      assert.equal(whole.find((f) => f.id === 'st-new')?.label, 'Edited');
      await write(s, 'DELETE', '/rest/config/folders/st-new');
      assert.equal((await call(s, 'GET', '/rest/config/folders/st-new')).status, 404);
    });

    test('a folder paused by PATCH reads paused in config and db/status, and resumed again', async () => {
      const [folder] = (await read(s, '/rest/config')).folders as Folder[];
      await write(s, 'PATCH', `/rest/config/folders/${folder.id}`, { paused: true });
      assert.equal((await read(s, `/rest/config/folders/${folder.id}`)).paused, true);
      const paused = await read(s, `/rest/db/status?folder=${folder.id}`);
      assert.equal(paused.state, '', 'a paused folder has no runner: the agent answers an empty summary');
      await write(s, 'PATCH', `/rest/config/folders/${folder.id}`, { paused: false });
      assert.notEqual((await read(s, `/rest/db/status?folder=${folder.id}`)).state, '');
    });

    test('devices, options, gui and the defaults: each write is read back', async () => {
      await write(s, 'POST', '/rest/config/devices', { deviceID: PEER, name: 'peer' });
      await write(s, 'PATCH', `/rest/config/devices/${PEER}`, { name: 'renamed' });
      assert.equal((await read(s, `/rest/config/devices/${PEER}`)).name, 'renamed');
      await write(s, 'DELETE', `/rest/config/devices/${PEER}`);
      assert.equal((await call(s, 'GET', `/rest/config/devices/${PEER}`)).status, 404);
      await write(s, 'PATCH', '/rest/config/options', { maxSendKbps: 1234 });
      assert.equal((await read(s, '/rest/config/options')).maxSendKbps, 1234);
      await write(s, 'PATCH', '/rest/config/gui', { theme: 'dark' });
      assert.equal(
        (await read(s, '/rest/config')).gui && ((await read(s, '/rest/config/gui')).theme as string),
        'dark',
      );
      await write(s, 'PATCH', '/rest/config/defaults/folder', { rescanIntervalS: 777 });
      assert.equal((await read(s, '/rest/config/defaults/folder')).rescanIntervalS, 777);
      await write(s, 'PUT', '/rest/config/defaults/ignores', { lines: ['*.tmp'] });
      assert.deepEqual((await read(s, '/rest/config/defaults/ignores')).lines, ['*.tmp']);
    });

    test('the whole configuration: PUT /rest/config and the deprecated POST /rest/system/config', async () => {
      const config = await read(s, '/rest/config');
      await write(s, 'PUT', '/rest/config', { ...config, options: { ...(config.options as object), maxRecvKbps: 42 } });
      assert.equal(((await read(s, '/rest/system/config')).options as { maxRecvKbps: number }).maxRecvKbps, 42);
      await write(s, 'POST', '/rest/system/config', {
        ...config,
        options: { ...(config.options as object), maxRecvKbps: 43 },
      });
      assert.equal((await read(s, '/rest/config/options')).maxRecvKbps, 43);
    });

    test('errors: a posted error is listed in the version shape, clear removes them all', async () => {
      await write(s, 'POST', '/rest/system/error/clear');
      assert.equal((await read(s, '/rest/system/error')).errors, null, 'no errors: null, as recorded');
      await write(s, 'POST', '/rest/system/error', 'posted by the test');
      const errors = (await read(s, '/rest/system/error')).errors as { message: string; when: string }[];
      assert.equal(errors.length, 1);
      assert.match(errors[0].message, /posted by the test/);
      assert.ok(!Number.isNaN(Date.parse(errors[0].when)));
      await write(s, 'POST', '/rest/system/error/clear');
      assert.equal((await read(s, '/rest/system/error')).errors, null);
    });

    test('pending devices and folders: DELETE dismisses, with its event', async () => {
      const since = await lastEventId(s);
      const devices = await read(s, '/rest/cluster/pending/devices');
      const [device] = Object.keys(devices);
      assert.ok(device, 'the seed holds a pending device');
      await write(s, 'DELETE', `/rest/cluster/pending/devices?device=${device}`);
      assert.deepEqual(await read(s, '/rest/cluster/pending/devices'), {});
      const folders = await read(s, '/rest/cluster/pending/folders');
      const [folder] = Object.keys(folders);
      assert.ok(folder, 'the seed holds a pending folder');
      await write(s, 'DELETE', `/rest/cluster/pending/folders?folder=${folder}`);
      assert.ok(!(folder in (await read(s, '/rest/cluster/pending/folders'))));
      const events = (await (await call(s, 'GET', `/rest/events?since=${since}&timeout=0`)).json()) as Event[];
      assert.deepEqual(
        events.map((e) => e.type),
        ['PendingDevicesChanged', 'PendingFoldersChanged'],
      );
      assert.equal((await call(s, 'DELETE', '/rest/cluster/pending/devices?device=not-a-device-id')).status, 400);
    });

    test('a long poll waiting for events answers with the events of a write, numbered after the recorded ones', async () => {
      const since = await lastEventId(s);
      const [folder] = (await read(s, '/rest/config')).folders as Folder[];
      // a timeout far beyond the test's: the poll can only answer because the write's events came
      const poll = call(s, 'GET', `/rest/events?since=${since}&timeout=3600`);
      await write(s, 'PATCH', `/rest/config/folders/${folder.id}`, { paused: true });
      const events = (await (await poll).json()) as Event[];
      assert.deepEqual(
        events.map((e) => e.type),
        ['FolderPaused', 'ConfigSaved'],
      );
      assert.deepEqual(events[0].data, { id: folder.id, label: folder.label });
      assert.equal(events[0].id, since + 1);
      const filtered = (await (
        await call(s, 'GET', `/rest/events?events=FolderResumed&since=0&timeout=3600`)
      ).json()) as Event[];
      assert.ok(filtered.length > 0, 'the recorded FolderResumed events are there');
      const next = call(s, 'GET', `/rest/events?events=FolderResumed&since=${filtered.at(-1)!.id}&timeout=3600`);
      await write(s, 'PATCH', `/rest/config/folders/${folder.id}`, { paused: false });
      assert.deepEqual(
        ((await (await next).json()) as Event[]).map((e) => [e.type, e.data.id]),
        [['FolderResumed', folder.id]],
      );
    });

    test('writes the agent refuses are refused the same way (status, text/plain message)', async () => {
      const refusals: [string, string, unknown, number, RegExp][] = [
        ['POST', '/rest/config/folders', { path: '/tmp/x' }, 500, /^folder has empty ID\n$/],
        [
          'POST',
          '/rest/config/folders',
          { id: 'no-path', path: '' },
          500,
          /^folder "no-path": folder has empty path\n$/,
        ],
        [
          'PATCH',
          '/rest/config/options',
          { maxSendKbps: 'fast' },
          400,
          /^json: cannot unmarshal string into Go struct field OptionsConfiguration\.maxSendKbps of type int\n$/,
        ],
        ['PUT', '/rest/config', '{', 400, /^unexpected end of JSON input\n$/],
        ['PATCH', '/rest/config/folders/no-such-folder', {}, 404, /^No folder with given ID\n$/],
        ['GET', '/rest/config/devices/not-a-device', undefined, 400, /device ID invalid/],
      ];
      const before = JSON.stringify(await read(s, '/rest/config'));
      for (const [method, path, body, status, message] of refusals) {
        const r = await call(s, method, path, body);
        const text = await r.text();
        assert.equal(r.status, status, `${method} ${path}: ${text}`);
        assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
        assert.match(text, message, `${method} ${path}`);
      }
      assert.equal(JSON.stringify(await read(s, '/rest/config')), before, 'a refused write changes nothing');
    });

    test('the request log says which answers came from the state and which from the recordings', async () => {
      await read(s, '/rest/system/version');
      await read(s, '/rest/config/options');
      await stop(s);
      const log = JSON.parse(readFileSync(join(work(), `requests-${version}.har`), 'utf8')) as {
        log: { entries: { request: { url: string }; _served: string; comment?: string }[] };
      };
      const served = (path: string) =>
        log.log.entries.filter((e) => new URL(e.request.url).pathname === path).map((e) => e._served);
      assert.ok(served('/rest/system/version').every((x) => x === 'recorded'));
      assert.ok(served('/rest/config/options').every((x) => x === 'state'));
      s = undefined as unknown as Listening;
    });
  });
}
