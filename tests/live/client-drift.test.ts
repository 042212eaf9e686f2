// A client author's answer (issue 37): `synconf drift SESSION --against VERSION` asks again exactly what the client
// asked, so that a session checked against the agent version it was made with gives no cause. Live: a lab of 1.29.5
// behind the proxy, then a second lab of the same version asked again.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cassette, DriftCauses, HarEntry } from '../../src/schema/generated/types.js';
import { readFileSync } from 'node:fs';
import { holdFolder, useLab } from '../support/lab.js';
import { replaySession } from '../../src/proxy/replay-client.js';
import { Redactor } from '../../src/transport/redact.js';
import { cli } from '../support/cli.js';
import { tempFolder } from '../support/temp.js';
import { call, checksOf, readReport, startProxy, stopProxy, type Proxying } from '../support/proxy.js';
import { judgeSession } from '../../src/proxy/judge-session.js';
import { ROOT } from '../../src/paths.js';
import { join } from 'node:path';

const VERSION = '1.29.5';
const work = tempFolder('client-drift');

/** a request as node-syncthing sends it: a JSON body on every method, a GET's included, with its Content-Length */
function withBody(p: Proxying, method: string, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      p.url + path,
      {
        method,
        headers: {
          'X-API-Key': p.key,
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const lines = (doc: DriftCauses) => doc.causes.map((c) => `${c.level} ${c.rule} ${c.endpoints.join(',')} ${c.pointer}`);

describe(`a client session on ${VERSION} asked again of ${VERSION}`, () => {
  test('a GET carrying the body "" (as node-syncthing sends it) is asked again framed alike: 0 causes', async () => {
    const p = await startProxy(work(), 'body-on-get', ['--lab', VERSION]);
    for (const path of ['/rest/system/status', '/rest/system/version', '/rest/config/folders'])
      assert.equal(await withBody(p, 'GET', path, '""'), 200, path);
    await stopProxy(p);
    const r = cli(['drift', p.dir, '--against', VERSION, '--fail-on', 'breaking', '--json'], { cwd: work() });
    assert.ok(r.code === 0 || r.code === 1, r.out);
    const doc = JSON.parse(r.stdout) as DriftCauses;
    assert.deepEqual(lines(doc), [], r.stderr);
    assert.equal(r.code, 0, r.out);
  });
});

test("an agent's HTTP server refusing the request asked again (Go's bare 400) is synconf's fault, not a cause", async () => {
  const server = createServer((_req, res) => {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    res.end('400 Bad Request');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entry = {
    request: { method: 'GET', url: `${url}/rest/system/status`, headers: [], postData: { mimeType: '', text: '""' } },
    response: { status: 200, headers: [], content: { size: 2, mimeType: 'application/json', text: '{}' } },
    _step: '#1',
    _target: 'agent',
  } as unknown as HarEntry;
  try {
    await assert.rejects(
      replaySession([entry], { url, apiKey: 'k' }, new Redactor(['k'])),
      /GET \/rest\/system\/status \(#1\) asked again was refused by the agent's HTTP server before any handler/,
    );
  } finally {
    server.close();
  }
});

// GET /rest/system/debug is gone on 2.1.x (its router's 404): `synconf run` lists that as 2.1's known deviation, and
// the proxy gives the same exchange the same verdict; on a version whose deviations do not list it, a violation
describe('an endpoint of the spec the agent version lacks', () => {
  test('2.1.2 (recordings): the known deviation `run` lists, never a pass; exit 0', async () => {
    const p = await startProxy(work(), 'debug-2.1.2', ['--recordings', join(ROOT, 'recordings', 'syncthing-2.1.2')]);
    const r = await call(p, '/rest/system/debug');
    assert.equal(r.status, 404);
    await r.text();
    assert.equal(await stopProxy(p), 0, p.stderr());
    const [check] = checksOf(readReport(p.dir)).filter((c) => c.step === '#1' && c.kind !== 'request');
    assert.equal(check?.verdict, 'expected-fail', JSON.stringify(check));
    assert.equal(check.kind, 'version-gate', 'the answer checked (a 4xx was not judged)');
    assert.match(check.message, /GET \/rest\/system\/debug is absent on agent v2\.1\.2/);
    assert.match(check.deviation!.reason, /syncthing#10220/);
  });

  test('a version without that deviation: the 404 is the agent violation, citing what the spec says of the path', () => {
    const entry = {
      startedDateTime: new Date().toISOString(),
      time: 1,
      request: { method: 'GET', url: 'http://agent/rest/system/debug', headers: [] },
      response: {
        status: 404,
        headers: [],
        content: { size: 19, mimeType: 'text/plain', text: '404 page not found\n' },
      },
      _step: '#1',
      _target: 'agent',
    } as unknown as HarEntry;
    const checks = judgeSession([entry], { agentVersion: 'v1.29.5', deviations: new Map(), harFile: 'x.har' });
    const failing = checks.filter((c) => c.verdict === 'fail');
    assert.deepEqual(
      failing.map((c) => `${c.blame} ${c.kind} ${(c.statements ?? []).join(' ')}`),
      ['agent version-gate debug.response'],
    );
    // a handler's own 404 (no such folder) says nothing of the endpoint's existence: not judged, as before
    const own = {
      ...entry,
      response: { ...entry.response, content: { ...entry.response.content, text: 'no such folder' } },
    };
    const ownChecks = judgeSession([own], { agentVersion: 'v1.29.5', deviations: new Map(), harFile: 'x.har' });
    assert.deepEqual(
      ownChecks.filter((c) => c.verdict === 'fail'),
      [],
    );
  });
});

/** a stand-in agent whose answers the test holds and breaks off: /rest/events waits for `release`, /rest/system/status
 * sends its headers and half a body then closes the connection */
async function heldAgent() {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let pollSeen = () => {};
  const polled = new Promise<void>((resolve) => (pollSeen = resolve));
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/rest/system/version') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(
        JSON.stringify({ version: 'v1.29.5', longVersion: 'syncthing v1.29.5', os: 'linux', arch: 'amd64' }),
      );
    }
    if (path === '/rest/events') {
      pollSeen();
      return void released.then(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('[]');
      });
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"myID":');
    setImmediate(() => res.socket?.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, release, polled, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** the first line of what the proxy at `url` answers a request that is not HTTP: Node's own 400, sent without the
 * proxy's request handler (no activity to the idle watch); its arrival shows the proxy's event loop turned after it */
function loopTurn(url: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.once('error', (e) => resolve(`error: ${e.message}`));
    socket.once('close', () => resolve(answer.split('\r\n')[0] || 'closed without an answer'));
    socket.end('NOT HTTP\r\n\r\n');
  });
}

describe('nothing changed on the wire', () => {
  test('--until-idle never cuts a long poll in flight: it completes, then the session stops', async (t) => {
    const agent = await heldAgent();
    t.after(() => agent.close());
    const p = await startProxy(work(), 'idle-poll', ['--agent', agent.url, '--api-key', 'k', '--until-idle', '1']);
    t.after(() => p.child.kill('SIGKILL'));
    const poll = call(p, '/rest/events?since=0&timeout=60').then(
      async (r) => [r.status, await r.text()],
      (e: Error) => ['cut', String((e.cause as Error | undefined)?.message ?? e.message)],
    );
    await agent.polled; // after the proxy took the poll as its last activity
    let exited = false;
    void p.exited.then(() => (exited = true));
    // the poll stays open past the idle time, and past the tick on which a proxy that cuts polls would stop (every
    // 100 ms, commands/proxy.ts idleWatch; a second allowed) ...
    const cutBy = Date.now() + 1000 + 1000;
    while (Date.now() < cutBy) await sleep(cutBy - Date.now());
    // ... and the proxy's event loop has turned twice since (each turn runs the timers due before it reads a socket):
    // so such a proxy has stopped, and the second answer is a reset, not the 400 of the request it never counts
    for (const turn of [1, 2]) assert.equal(await loopTurn(p.url), 'HTTP/1.1 400 Bad Request', `turn ${turn}`);
    assert.equal(exited, false, 'the proxy stopped with a long poll open');
    agent.release();
    assert.deepEqual(await poll, [200, '[]']);
    // the long poll, whole, is the session's one exchange; the spec does not describe /rest/events, so there is
    // nothing to judge: exit 2 saying so (a1c0a6c), never a verdict read from a session cut short
    assert.equal(await p.exited, 2, p.stderr());
    assert.match(p.stderr(), /1 forwarded, none judged/);
    assert.equal(readReport(p.dir).proxy!.exchanges.total, 1);
  });

  test('an answer the agent breaks off is broken off to the client, and recorded as aborted', async (t) => {
    const agent = await heldAgent();
    t.after(() => agent.close());
    const p = await startProxy(work(), 'aborted', ['--agent', agent.url, '--api-key', 'k']);
    t.after(() => p.child.kill('SIGKILL'));
    await assert.rejects(
      call(p, '/rest/system/status').then((r) => r.text()),
      'the client sees the abort, as it would straight from the agent',
    );
    assert.equal((await call(p, '/rest/system/version')).status, 200);
    assert.equal(await stopProxy(p), 0, p.stderr());
    const har = JSON.parse(readFileSync(join(p.dir, 'recordings', '_run.har'), 'utf8')) as Cassette;
    const [first] = har.log.entries;
    assert.equal(new URL(first.request.url).pathname, '/rest/system/status');
    assert.equal(first._error?.code, 'aborted');
    assert.equal(first.response.content.text, '{"myID":');
    const check = checksOf(readReport(p.dir)).find(
      (c) => c.step === '#1' && c.kind === 'request' && c.verdict === 'skip',
    );
    assert.match(check?.message ?? '', /^cannot tell: the agent broke off its answer after 8 byte/);
  });
});

// a folder the agent held before the client ran: its calls depend on it; drift sets it up on a lab of the other
// version first, or says "cannot tell" for them (recordings) — never "removed"
describe("the session's starting state", () => {
  const shared = useLab(1, { binary: VERSION });
  test('a folder held before the session: set up on the lab asked again (0 causes), cannot tell elsewhere', async () => {
    const agent = shared.lab.instances[0];
    await holdFolder(agent, join(work(), 'held-folder'), 'held-before');
    const p = await startProxy(work(), 'held', ['--agent', agent.url, '--api-key', agent.apiKey]);
    for (const path of ['/rest/db/status?folder=held-before', '/rest/config/folders', '/rest/system/status']) {
      const res = await call(p, path);
      assert.equal(res.status, 200, `${path}: ${await res.text()}`);
    }
    await stopProxy(p);
    assert.deepEqual(
      readReport(p.dir).proxy!.startState?.folders.map((f) => f.id),
      ['held-before'],
    );
    const r = cli(['drift', p.dir, '--against', VERSION, '--fail-on', 'breaking', '--json'], { cwd: work() });
    const doc = JSON.parse(r.stdout) as DriftCauses;
    assert.deepEqual(lines(doc), [], r.stderr);
    assert.equal(r.code, 0, r.out);

    const rec = cli(['drift', p.dir, '--against', join(ROOT, 'recordings', `syncthing-${VERSION}`), '--json'], {
      cwd: work(),
    });
    const other = JSON.parse(rec.stdout) as DriftCauses;
    const removed = lines(other).filter((l) => /removed/.test(l));
    assert.deepEqual(removed, [], 'what depends on the state the recordings lack is never "removed"');
  });
});
