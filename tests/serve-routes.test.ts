// synconf serve routes a request as the agent's Go server routes it (transport/agent-route.ts targetRoute), the built
// command from a scratch folder, requests sent with their path as written (fetch would clean it first). Measured on
// the real agents 1.19.2, 1.29.5 and 2.1.2: a path clean once decoded is routed decoded (`/rest/%65vents` is the long
// poll, `/rest/events%2Fdisk` the disk events), one that is not is redirected to its cleaned form with the query
// (301; 307 from 1.30.0's builds on for a path written unclean), a `%` that starts no escape is 400. A path that
// differs from a route of its method in case or by a trailing slash is redirected by the router (GET 301, other
// methods 307, the query and an ID's spelling kept); with no route of its method there (POST /rest/System/Status) or
// outside /rest's router (/REST/...) it is 404; without a key, 403 first (curl --path-as-is on labs of 1.19.2, 1.29.5
// and 2.1.2). Each row but the plain ones and the 404s failed on the serve that matched the path as written (a miss).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { ROOT } from '../src/paths.js';
import { startServe } from './support/serving.js';
import { tempFolder } from './support/temp.js';
import type { Listening } from './support/syncthing-cli.js';

const work = tempFolder('serve-routes');
const recordings = (version: string) => join(ROOT, 'recordings', `syncthing-${version}`);

interface Answer {
  status: number;
  location?: string;
  type?: string;
  body: string;
}

/** `method target` sent with the path exactly as written, on a connection of its own */
const send = (s: Listening, method: string, target: string, body?: string, key: string | null = s.key) =>
  new Promise<Answer>((resolve, reject) => {
    const headers: Record<string, string> = key === null ? {} : { 'X-API-Key': key };
    const req = request({ host: s.host, port: s.port, method, path: target, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          location: res.headers.location,
          type: res.headers['content-type'],
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });

async function stop(s: Listening): Promise<void> {
  const exited = new Promise((resolve) => s.child.on('exit', resolve));
  s.child.kill('SIGTERM');
  await exited;
}

describe('serve --stateful --faults of the 2.1.2 recordings routes the path as the agent does', () => {
  let s: Listening;
  before(async () => {
    s = await startServe([recordings('2.1.2'), '--stateful', '--faults', '--log', join(work(), 'routes.har')], work());
  });
  after(async () => {
    if (s) await stop(s);
  });

  const same: [written: string, as: string][] = [
    ['/rest/%65vents?since=0&timeout=0', '/rest/events?since=0&timeout=0'],
    ['/%72est/events?since=0&timeout=0', '/rest/events?since=0&timeout=0'],
    ['/rest/events%2Fdisk?since=0&timeout=0', '/rest/events/disk?since=0&timeout=0'],
    ['/rest/events%2fdisk?since=0&timeout=0', '/rest/events/disk?since=0&timeout=0'],
    ['/rest/system/%76ersion', '/rest/system/version'],
    ['/rest/%63onfig/folders', '/rest/config/folders'],
  ];
  for (const [written, as] of same)
    test(`GET ${written} is answered as GET ${as}`, async () => {
      const plain = await send(s, 'GET', as);
      assert.equal(plain.status, 200);
      const r = await send(s, 'GET', written);
      assert.equal(r.status, 200, r.body);
      assert.deepEqual(JSON.parse(r.body), JSON.parse(plain.body));
    });

  const redirects: [method: string, written: string, status: number, location: string, key?: null][] = [
    ['GET', '//rest/events?since=0&timeout=0', 307, '/rest/events?since=0&timeout=0'],
    ['GET', '/rest/./events?since=5', 307, '/rest/events?since=5'],
    ['GET', '/rest/x/../events', 307, '/rest/events'],
    ['GET', '/rest/%2e/events?since=5', 301, '/rest/events?since=5'],
    ['GET', '/rest/events%2F..%2Fevents', 301, '/rest/events'],
    ['POST', '/rest/%2e/system/error/clear', 307, '/rest/system/error/clear'],
    ['POST', '//rest/system/error/clear', 307, '/rest/system/error/clear'],
    // the agent's CSRF guard reads the path as written: "//rest" is not under /rest, the redirect comes first
    ['GET', '//rest/events', 307, '/rest/events', null],
    // the router's fixed path: case and a trailing slash, in every version
    ['GET', '/rest/System/Status?x=1', 301, '/rest/system/status?x=1'],
    ['GET', '/rest/system/status/', 301, '/rest/system/status'],
    ['GET', '/rest/Events?since=0&timeout=0', 301, '/rest/events?since=0&timeout=0'],
    ['GET', '/rest/config/Folders/', 301, '/rest/config/folders'],
    ['GET', '/rest/stats/Folder', 301, '/rest/stats/folder'],
    ['POST', '/rest/system/Ping', 307, '/rest/system/ping'],
    ['POST', '/rest/config/folders/', 307, '/rest/config/folders'],
    ['PATCH', '/rest/Config/Folders/SomeID', 307, '/rest/config/folders/SomeID'],
    ['DELETE', '/rest/config/devices/AbC/', 307, '/rest/config/devices/AbC'],
  ];
  for (const [method, written, status, location, key] of redirects)
    test(`${method} ${written}${key === null ? ' without a key' : ''} is redirected (${status}) to ${location}`, async () => {
      const r = await send(s, method, written, undefined, key);
      assert.equal(r.status, status, r.body);
      assert.equal(r.location, location);
      if (method === 'GET') assert.match(r.body, /^<a href="[^"]*">(Temporary Redirect|Moved Permanently)<\/a>\.\n\n$/);
      else assert.equal(r.body, '');
    });

  test("without a key, a path under /rest that is not clean gets the agent's 403, not a redirect", async () => {
    assert.equal((await send(s, 'GET', '/rest/./events', undefined, null)).status, 403);
    assert.equal((await send(s, 'GET', '/rest/System/Status', undefined, null)).status, 403);
  });

  const notFound: [method: string, written: string][] = [
    ['POST', '/rest/System/Status'],
    ['POST', '/rest/system/status/'],
    ['GET', '/REST/system/status'],
    ['GET', '/rest/System/Nonexistent'],
  ];
  for (const [method, written] of notFound)
    test(`${method} ${written}: no route of the method fits it, 404 as the agent's router`, async () => {
      const r = await send(s, method, written);
      assert.equal(r.status, 404, r.body);
      assert.equal(r.location, undefined);
    });

  test('a % that starts no escape is the agent server\'s 400 "Bad Request"', async () => {
    const r = await send(s, 'GET', '/rest/%zzevents');
    assert.equal(r.status, 400);
    assert.equal(r.body, '400 Bad Request');
  });

  test('a long poll on /rest/%65vents waits for the events of a write sent to an escaped path', async () => {
    const all = JSON.parse((await send(s, 'GET', '/rest/events?since=0&timeout=0')).body) as { id: number }[];
    const folders = JSON.parse((await send(s, 'GET', '/rest/config/folders')).body) as { id: string }[];
    // a timeout far beyond the test's: the poll can only answer because the write's events came
    let settled = false;
    const poll = send(s, 'GET', `/rest/%65vents?since=${all.at(-1)!.id}&timeout=3600`).finally(() => (settled = true));
    // the poll is open once the server says so (a state, not a time); one answered at once ends the wait too
    while (!settled) {
      const open = JSON.parse((await send(s, 'GET', '/__synconf/faults')).body) as { openLongPolls: number };
      if (open.openLongPolls > 0) break;
    }
    const id = encodeURIComponent(folders[0].id);
    const patched = await send(s, 'PATCH', `/rest/%63onfig/folders/${id}`, JSON.stringify({ label: 'escaped' }));
    assert.equal(patched.status, 200, patched.body);
    const events = JSON.parse((await poll).body) as { type: string }[];
    assert.deepEqual(
      events.map((e) => e.type),
      ['ConfigSaved'],
    );
    const read = JSON.parse((await send(s, 'GET', `/rest/config/folders/${id}`)).body) as { label: string };
    assert.equal(read.label, 'escaped');
  });

  test('a fault for /rest/events touches /rest/%65vents', async () => {
    const added = await send(
      s,
      'POST',
      '/__synconf/faults',
      JSON.stringify({ mode: 'status', status: 503, next: 1, endpoint: '/rest/events' }),
    );
    assert.equal(added.status, 200, added.body);
    assert.equal((await send(s, 'GET', '/rest/%65vents?since=0&timeout=0')).status, 503);
    assert.equal((await send(s, 'GET', '/rest/%65vents?since=0&timeout=0')).status, 200);
  });
});

describe('serve of the 1.29.5 recordings (built with Go 1.24)', () => {
  test('a path written unclean is redirected with 301, GET and POST alike', async () => {
    const s = await startServe([recordings('1.29.5'), '--log', join(work(), 'routes-1.29.5.har')], work());
    try {
      for (const method of ['GET', 'POST']) {
        const r = await send(s, method, '//rest/events?timeout=1');
        assert.equal(r.status, 301, `${method}: ${r.body}`);
        assert.equal(r.location, '/rest/events?timeout=1');
      }
      // the router's fixed path says 307 for a method other than GET in 1.29.5 as in 2.1.2
      const fixed = await send(s, 'POST', '/rest/System/Ping');
      assert.equal(fixed.status, 307, fixed.body);
      assert.equal(fixed.location, '/rest/system/ping');
    } finally {
      await stop(s);
    }
  });
});
