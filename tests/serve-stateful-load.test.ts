// serve --stateful under load (issue 38): 50 clients at once, 1,000 mixed reads and writes, against the built command
// of the 2.1.2 recordings. Each client adds a folder of its own, relabels it eight times and reads each label back
// (its own writes, seen by its next read), and posts an error to the one list all of them share. The final state
// must be the state of the same writes applied one after another by a second serve (no write lost, none doubled),
// every answer the right one, and the serve must stop cleanly with every request in its log. Correctness only: no
// timing is asserted (bench/stateful-load.mjs measures the rate).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/paths.js';
import { startServe } from './support/serving.js';
import { tempFolder } from './support/temp.js';
import type { Listening } from './support/syncthing-cli.js';

const work = tempFolder('serve-stateful-load');
const REC = join(ROOT, 'recordings', 'syncthing-2.1.2');
const CLIENTS = 50;
const RELABELS = 8;

type Folder = { id: string; label: string; path: string };

/** one request; its status and parsed body */
async function ask(s: Listening, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(s.url + path, {
    method,
    headers: { 'X-API-Key': s.key },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
  };
}

/** client `i`'s twenty requests, each answer checked; the number sent */
async function client(s: Listening, i: number): Promise<number> {
  const id = `load-${i}`;
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await ask(s, method, path, body);
    assert.equal(r.status, 200, `client ${i}: ${method} ${path}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  await ok('POST', '/rest/config/folders', { id, path: `/tmp/${id}`, label: `${id} new` });
  await ok('POST', '/rest/system/error', `error of ${id}`);
  for (let k = 0; k < RELABELS; k++) {
    await ok('PATCH', `/rest/config/folders/${id}`, { label: `${id} label ${k}` });
    assert.equal((await ok('GET', `/rest/config/folders/${id}`)).label, `${id} label ${k}`, `client ${i}'s own write`);
  }
  assert.equal((await ok('GET', `/rest/config/folders/${id}`)).path, `/tmp/${id}`);
  const errors = (await ok('GET', '/rest/system/error')).errors as { message: string }[];
  assert.ok(
    errors.some((e) => e.message.includes(`error of ${id}`)),
    `client ${i} reads the error it posted`,
  );
  return 4 + 2 * RELABELS;
}

/** what the state holds at the end: the load's folders and the errors posted, in an order of their own */
async function finalState(s: Listening) {
  const folders = ((await ask(s, 'GET', '/rest/config/folders')).body as Folder[])
    .filter((f) => f.id.startsWith('load-'))
    .map((f) => ({ id: f.id, label: f.label, path: f.path }))
    .sort((a, b) => a.id.localeCompare(b.id));
  const errors = ((await ask(s, 'GET', '/rest/system/error')).body.errors as { message: string }[])
    .map((e) => e.message)
    .sort();
  return { folders, errors };
}

async function stop(s: Listening): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => s.child.on('exit', (code) => resolve(code)));
  s.child.kill('SIGTERM');
  return exited;
}

test(
  `serve --stateful: ${CLIENTS} clients at once, 1,000 reads and writes, the state of the writes in order`,
  { timeout: 300_000 },
  async () => {
    const together = await startServe([REC, '--stateful', '--log', 'together.har'], work());
    const inTurn = await startServe([REC, '--stateful', '--log', 'in-turn.har'], work());
    try {
      const sent = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(together, i)));
      assert.equal(
        sent.reduce((a, b) => a + b, 0),
        1000,
      );
      for (let i = 0; i < CLIENTS; i++) await client(inTurn, i);
      const [got, want] = [await finalState(together), await finalState(inTurn)];
      assert.equal(got.folders.length, CLIENTS, 'every folder added is there once');
      assert.equal(got.errors.length, CLIENTS, 'every error posted is there once');
      assert.ok(
        got.folders.every((f) => f.label === `${f.id} label ${RELABELS - 1}`),
        'each folder its last label',
      );
      assert.deepEqual(got, want, 'the same state as the writes applied one after another');
    } finally {
      assert.equal(await stop(together), 0, together.stderr());
      assert.equal(await stop(inTurn), 0, inTurn.stderr());
    }
    const log = JSON.parse(readFileSync(join(work(), 'together.har'), 'utf8')) as { log: { entries: unknown[] } };
    assert.equal(log.log.entries.length, 1000 + 2, 'every request in the log (the load and the two final reads)');
  },
);
