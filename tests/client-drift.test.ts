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
import { startProxy, stopProxy, type Proxying } from './support/proxy.js';

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
