// node-syncthing 3.3.7 (npm), a client nobody here wrote, against `synconf serve --stateful --faults` of the bundled
// 1.29.5 and 2.1.2 recordings (the built command, from a scratch folder): its event listener sees the events of its
// own writes (issue 38: on the serve of recordings alone it saw none, nothing newer than the recorded ones ever came),
// and an agent restart (the `restart` fault) ends its long poll: the listener sees the error, polls again and still
// sees the events of the next write.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import syncthing from 'node-syncthing';
import { ROOT } from '../src/paths.js';
import { startServe } from './support/serving.js';
import { tempFolder } from './support/temp.js';
import type { Listening } from './support/syncthing-cli.js';

const work = tempFolder('serve-node-syncthing');

/** the control endpoint on a connection of its own (a restart resets every connection the server holds) */
const control = (s: Listening, method: string, body?: unknown) =>
  new Promise<{ status: number; json: { openLongPolls: number } }>((resolve, reject) => {
    const req = request(`${s.url}/__synconf/faults`, { method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });

/** until the server holds a long poll open (a state the server reports, not a time) */
async function pollOpen(s: Listening): Promise<void> {
  while ((await control(s, 'GET')).json.openLongPolls === 0);
}

const ask = <T>(f: (cb: (err: unknown, body: T) => void) => void) =>
  new Promise<T>((resolve, reject) => f((err, body) => (err ? reject(err) : resolve(body))));

type Folder = { id: string; label: string; paused: boolean };
type Config = { folders: Folder[] };
type Data = { id?: string; folders?: Folder[] };

for (const version of ['1.29.5', '2.1.2'])
  describe(`node-syncthing against serve --stateful of the ${version} recordings`, () => {
    test('its event listener sees the events of its own writes, and polls on after an agent restart', async () => {
      const s = await startServe(
        [
          join(ROOT, 'recordings', `syncthing-${version}`),
          '--stateful',
          '--faults',
          '--log',
          join(work(), `${version}.har`),
        ],
        work(),
      );
      const url = new URL(s.url);
      const st = syncthing({
        hostname: url.hostname,
        port: Number(url.port),
        apiKey: s.key,
        https: false,
        eventListener: true,
        retries: 2,
      });
      // every event and error seen, kept by listeners never removed: node-syncthing stops polling when any listener
      // is removed (its removeListener handler counts listeners of no event: 0), so events.once would stop it
      const seen: [type: string, data: Data][] = [];
      const errors: unknown[] = [];
      const waiters = new Set<() => void>();
      const tell = () => [...waiters].forEach((w) => w());
      for (const type of ['folderPaused', 'folderResumed', 'configSaved'])
        st.on(type, (data: Data) => {
          seen.push([type, data]);
          tell();
        });
      st.on('error', (e: unknown) => {
        errors.push(e);
        tell();
      });
      const until = (holds: () => boolean) =>
        new Promise<void>((resolve) => {
          const check = () => {
            if (!holds()) return;
            waiters.delete(check);
            resolve();
          };
          waiters.add(check);
          check();
        });
      // a ConfigSaved whose configuration holds the folder with the label only this write set: no recorded event does
      const saved = (label: string, paused: boolean) =>
        seen.some(([t, d]) => t === 'configSaved' && d.folders?.some((f) => f.label === label && f.paused === paused));
      const saw = (type: string, id: string) => seen.some(([t, d]) => t === type && d.id === id);
      try {
        // its first poll takes the recorded events without emitting them; the second waits for newer ones
        await pollOpen(s);
        const config = await ask<Config>((cb) => st.system.getConfig(cb));
        const folder = config.folders[0];
        assert.ok(folder, 'the seeded configuration holds a folder');
        Object.assign(folder, { paused: true, label: `paused by node-syncthing on ${version}` });
        await ask((cb) => st.system.setConfig(config, cb));
        await until(() => saved(folder.label, true) && saw('folderPaused', folder.id));
        assert.deepEqual(errors, []);

        // an agent restart ends the open long poll without an answer: the listener sees an error and polls again
        await pollOpen(s);
        assert.equal(
          (await control(s, 'POST', { mode: 'restart', next: 1, endpoint: '/rest/system/ping' })).status,
          200,
        );
        await assert.rejects(
          ask((cb) => st.system.ping(cb)),
          'the request that met the restart is reset',
        );
        await until(() => errors.length > 0);
        await pollOpen(s);
        Object.assign(folder, { paused: false, label: `resumed by node-syncthing on ${version}` });
        await ask((cb) => st.system.setConfig(config, cb));
        await until(() => saved(folder.label, false) && saw('folderResumed', folder.id));
      } finally {
        const exited = new Promise((resolve) => s.child.on('exit', resolve));
        s.child.kill('SIGTERM');
        await exited;
      }
    });
  });
