// synconf serve --stateful as its users run it (dist/bin/synconf.js from a scratch folder), the families modelled
// after the configuration's: a folder's ignores (GET/POST /rest/db/ignores, and the folder status's ignorePatterns),
// a rescan (POST /rest/db/scan: its StateChanged events), POST /rest/db/prio (the queue GET /rest/db/need answers),
// and the agent's life (POST /rest/system/restart: events numbered anew, errors gone, open long polls ended;
// /shutdown: nothing answers any more). Each test asserts what the serve of recordings alone does not do.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT } from '../src/paths.js';
import { startServe } from './support/serving.js';
import { tempFolder } from './support/temp.js';
import type { Listening } from './support/syncthing-cli.js';

const work = tempFolder('serve-stateful-db');

async function withServe(version: string, run: (s: Listening) => Promise<void>): Promise<void> {
  const log = join(work(), `${version}-${Math.random().toString(36).slice(2)}.har`);
  const s = await startServe(
    [join(ROOT, 'recordings', `syncthing-${version}`), '--stateful', '--faults', '--log', log],
    work(),
  );
  try {
    await run(s);
  } finally {
    const exited = new Promise((resolve) => s.child.on('exit', resolve));
    s.child.kill('SIGTERM');
    await exited;
  }
}

const call = (s: Listening, method: string, path: string, body?: unknown) =>
  fetch(s.url + path, {
    method,
    headers: { 'X-API-Key': s.key },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
async function ok(s: Listening, method: string, path: string, body?: unknown): Promise<unknown> {
  const r = await call(s, method, path, body);
  const text = await r.text();
  assert.equal(r.status, 200, `${method} ${path}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}
type Event = { id: number; type: string; data: Record<string, unknown> };
const events = (s: Listening, query = '') => ok(s, 'GET', `/rest/events?since=0&timeout=0${query}`) as Promise<Event[]>;
const firstFolder = async (s: Listening) => ((await ok(s, 'GET', '/rest/config/folders')) as { id: string }[])[0].id;

for (const version of ['1.29.5', '2.1.2'])
  describe(`serve --stateful of the ${version} recordings: ignores, scans, prio, restart, shutdown`, () => {
    test('ignores: set lines are read back with their expansion, and the folder status says ignorePatterns', () =>
      withServe(version, async (s) => {
        const folder = await firstFolder(s);
        const set = (await ok(s, 'POST', `/rest/db/ignores?folder=${folder}`, { ignore: ['*.tmp', '/build'] })) as {
          ignore: string[];
        };
        assert.deepEqual(set.ignore, ['*.tmp', '/build']);
        const read = (await ok(s, 'GET', `/rest/db/ignores?folder=${folder}`)) as Record<string, unknown>;
        assert.deepEqual(read.ignore, ['*.tmp', '/build']);
        assert.deepEqual(read.expanded, ['*.tmp', '**/*.tmp', '*.tmp/**', '**/*.tmp/**', 'build', 'build/**']);
        assert.equal(
          ((await ok(s, 'GET', `/rest/db/status?folder=${folder}`)) as Record<string, unknown>).ignorePatterns,
          true,
        );
        await ok(s, 'POST', `/rest/db/ignores?folder=${folder}`, { ignore: [] });
        const cleared = (await ok(s, 'GET', `/rest/db/ignores?folder=${folder}`)) as Record<string, unknown>;
        assert.equal(cleared.ignore, null);
        assert.equal(
          ((await ok(s, 'GET', `/rest/db/status?folder=${folder}`)) as Record<string, unknown>).ignorePatterns,
          false,
        );
      }));

    test('a rescan emits the StateChanged events of idle → scan-waiting → scanning → idle', () =>
      withServe(version, async (s) => {
        const folder = await firstFolder(s);
        const before = (await events(s, '&events=StateChanged')).length;
        await ok(s, 'POST', `/rest/db/scan?folder=${folder}`);
        const after = (await events(s, '&events=StateChanged')).slice(before);
        assert.deepEqual(
          after.map((e) => [e.data.folder, e.data.from, e.data.to]),
          [
            [folder, 'idle', 'scan-waiting'],
            [folder, 'scan-waiting', 'scanning'],
            [folder, 'scanning', 'idle'],
          ],
        );
      }));

    test('prio moves a queued file to the front of the queue, and GET /rest/db/need says so', () =>
      withServe(version, async (s) => {
        // the folder whose queue the recordings hold, added by the client as the scenario added it
        await ok(s, 'POST', '/rest/config/folders', { id: 'synconf-need-prio', path: join(work(), 'prio') });
        type Need = { queued: { name: string }[] };
        const queued = ((await ok(s, 'GET', '/rest/db/need?folder=synconf-need-prio')) as Need).queued.map(
          (f) => f.name,
        );
        const last = queued.at(-1)!;
        const moved = (await ok(s, 'POST', `/rest/db/prio?folder=synconf-need-prio&file=${last}`)) as Need;
        assert.deepEqual(
          moved.queued.map((f) => f.name),
          [last, ...queued.slice(0, -1)],
        );
        const need = (await ok(s, 'GET', '/rest/db/need?folder=synconf-need-prio')) as Need;
        assert.equal(need.queued[0].name, last);
      }));

    test('restart: the events start anew from Starting, the errors are gone, an open long poll ends', () =>
      withServe(version, async (s) => {
        await ok(s, 'POST', '/rest/system/error', 'an error before the restart');
        const recorded = (await ok(s, 'GET', '/rest/system/status')) as { startTime: string };
        const last = (await events(s)).at(-1)!.id;
        const poll = call(s, 'GET', `/rest/events?since=${last}&timeout=3600`).then(
          () => 'answered',
          () => 'ended',
        );
        // the poll held open by the server before the restart (a state it reports, not a time)
        const open = async () => ((await ok(s, 'GET', '/__synconf/faults')) as { openLongPolls: number }).openLongPolls;
        while ((await open()) === 0);
        const asked = Date.now();
        await ok(s, 'POST', '/rest/system/restart');
        assert.equal(await poll, 'ended');
        // started anew: the start is the restart's (between the ask and now, by the clocks seen), uptime counts from it
        const status = (await ok(s, 'GET', '/rest/system/status')) as { startTime: string; uptime: number };
        const [started, now] = [Date.parse(status.startTime), Date.now()];
        assert.notEqual(status.startTime, recorded.startTime);
        assert.ok(started >= asked - 1 && started <= now, `${status.startTime} not between the ask and now`);
        assert.ok(
          Number.isInteger(status.uptime) && status.uptime <= Math.ceil((now - started) / 1000),
          `${status.uptime}`,
        );
        assert.deepEqual(
          (await events(s)).map((e) => [e.id, e.type]),
          [
            [1, 'Starting'],
            [2, 'StartupComplete'],
          ],
        );
        const errors = (await ok(s, 'GET', '/rest/system/error')) as { errors: unknown[] | null };
        assert.ok(!errors.errors?.length, JSON.stringify(errors));
      }));

    test('shutdown: answered, then nothing answers (the agent does not restart)', () =>
      withServe(version, async (s) => {
        await ok(s, 'POST', '/rest/system/shutdown');
        await assert.rejects(call(s, 'GET', '/rest/system/status'));
        await assert.rejects(call(s, 'POST', '/rest/system/ping'));
      }));
  });
