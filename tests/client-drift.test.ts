// A client author's answer (issue 37): `synconf drift SESSION --against VERSION` asks again exactly what the client
// asked, so that a session checked against the agent version it was made with gives no cause. Live: a lab of 1.29.5
// behind the proxy, then a second lab of the same version asked again.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DriftCauses, HarEntry } from '../src/schema/generated/types.js';
import { replaySession } from '../src/proxy/replay-client.js';
import { Redactor } from '../src/transport/redact.js';
import { cli } from './support/cli.js';
import { tempFolder } from './support/temp.js';
import { call, checksOf, readReport, startProxy, stopProxy, type Proxying } from './support/proxy.js';
import { judgeSession } from '../src/proxy/judge-session.js';
import { ROOT } from '../src/paths.js';
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
