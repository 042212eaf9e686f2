// Client contracts (issue 37): `synconf contract SESSION` writes the endpoints a client called with the members it
// received; pruned to what the client reads, `drift --against --contract` judges only what it names (an endpoint
// removed or a status changed always counts), and `proxy --contract` accepts the client's known quirks with their
// reasons. Offline: a client of the 1.29.5 recordings, asked again of the 2.1.2 recordings.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/paths.js';
import type { ClientContract, DriftCauses, HarEntry } from '../src/schema/generated/types.js';
import { replaySession } from '../src/proxy/replay-client.js';
import { Redactor } from '../src/transport/redact.js';
import { cli } from './support/cli.js';
import { tempFolder } from './support/temp.js';
import { call, checksOf, readReport, startProxy, stopProxy } from './support/proxy.js';

const REC = (v: string) => join(ROOT, 'recordings', `syncthing-${v}`);
const work = tempFolder('contract');
let session: string;

const lines = (doc: DriftCauses) => doc.causes.map((c) => `${c.level} ${c.rule} ${c.endpoints.join(',')} ${c.pointer}`);

function drift(extra: string[]): { code: number | null; doc: DriftCauses; out: string } {
  const r = cli(['drift', session, '--against', REC('2.1.2'), '--fail-on', 'breaking', '--json', ...extra], {
    cwd: work(),
  });
  assert.ok(r.code === 0 || r.code === 1, r.out);
  return { code: r.code, doc: JSON.parse(r.stdout) as DriftCauses, out: r.out };
}

function write(name: string, text: string | Buffer): string {
  const file = join(work(), name);
  writeFileSync(file, text);
  return file;
}

describe('synconf contract and drift --contract', () => {
  before(async () => {
    const p = await startProxy(work(), 'session', ['--recordings', REC('1.29.5')]);
    for (const path of ['/rest/system/status', '/rest/config', '/rest/system/debug', '/rest/system/version'])
      await (await call(p, path)).text();
    assert.equal(await stopProxy(p), 0, p.stderr());
    session = p.dir;
  });

  test('the contract lists each REST endpoint called with every member received; an existing file is kept', () => {
    const r = cli(['contract', session, '-o', 'all.json', '--client', 'a test client'], { cwd: work() });
    assert.equal(r.code, 0, r.out);
    const doc = JSON.parse(readFileSync(join(work(), 'all.json'), 'utf8')) as ClientContract;
    assert.equal(doc.format, 'synconf-contract/1');
    assert.equal(doc.client, 'a test client');
    assert.deepEqual(
      doc.endpoints.map((e) => e.endpoint),
      ['GET /rest/config', 'GET /rest/system/debug', 'GET /rest/system/status', 'GET /rest/system/version'],
    );
    assert.ok(doc.endpoints[0].members.includes('/options/databaseTuning'), 'every member received is listed');
    const again = cli(['contract', session, '-o', 'all.json'], { cwd: work() });
    assert.equal(again.code, 2, again.out);
    assert.match(again.stderr, /--out all\.json: the file exists; synconf does not write over it/);
  });

  test('without a contract every member received counts, and the answer says how many no contract confirmed', () => {
    const { doc, out } = drift([]);
    assert.ok(
      doc.causes.some(
        (c) => c.rule === 'response-member-removed' && [c.pointer, ...(c.members ?? [])].includes('/databaseTuning'),
      ) || doc.causes.some((c) => c.rule === 'response-member-removed' && c.members?.includes('databaseTuning')),
      out,
    );
    const atMembers = doc.causes.filter((c) => (c.pointer || c.members) && !c.accepted).length;
    assert.ok(atMembers > 0);
    assert.equal(doc.unconfirmed, atMembers, out);
    const text = cli(['drift', session, '--against', REC('2.1.2')], { cwd: work() });
    assert.match(
      text.stdout,
      new RegExp(
        `^${atMembers} causes of these are at members the client received that no contract has confirmed`,
        'm',
      ),
    );
  });

  test('a contract pruned to what the client reads: only what it names; an endpoint removed always counts', () => {
    const pruned: ClientContract = {
      format: 'synconf-contract/1',
      endpoints: [
        { endpoint: 'GET /rest/config', members: ['/folders/[]/id', '/devices/[]/deviceID'] },
        { endpoint: 'GET /rest/system/status', members: ['/myID'] },
      ],
    };
    const file = write('pruned.json', JSON.stringify(pruned));
    const { code, doc, out } = drift(['--contract', file]);
    // GET /rest/system/debug is not in the contract: its removal counts all the same (the client calls it)
    // and the risky charset=utf-8 2.0.14 dropped from every answer (a change of the endpoint, not of a member)
    assert.deepEqual(
      lines(doc),
      [
        'breaking endpoint-removed GET /rest/system/debug ',
        'risky media-type-parameters-changed GET /rest/config,GET /rest/system/status ',
      ],
      out,
    );
    assert.equal(code, 1);
    assert.equal(doc.unconfirmed, undefined);
    // the same contract without the debug call in the session would give no cause: the old code counted every member
    const all = drift([]);
    assert.ok(all.doc.counts.breaking > 1, 'without the contract, members the client never reads count');
  });

  const CONTRACT_ROWS: [string, () => string | Buffer, RegExp][] = [
    ['a report', () => readFileSync(join(session, 'report.json')), /this is a report, not a client contract/],
    ['invalid UTF-8', () => Buffer.from([0x7b, 0xff, 0x7d]), /invalid UTF-8 \(byte 0xff\)/],
    ['invalid JSON', () => '{"format": "synconf-contract/1", ', /not JSON/],
    [
      'schema violation',
      () => '{"format": "synconf-contract/1", "endpoints": [{"endpoint": "GET /rest/config"}]}',
      /\/endpoints\/0\/members: required property "members" is missing/,
    ],
    [
      'an endpoint twice',
      () =>
        '{"format": "synconf-contract/1", "endpoints": [{"endpoint": "GET /rest/config", "members": []}, {"endpoint": "GET /rest/config", "members": []}]}',
      /GET \/rest\/config is listed twice/,
    ],
    ['a drift ignore file', () => '{"accepted": []}', /this is a drift ignore file, not a client contract/],
  ];
  for (const [name, text, want] of CONTRACT_ROWS)
    test(`drift --contract with ${name}: one line naming the file, exit 2`, () => {
      const file = write(`bad-${name.replace(/\W+/g, '-')}.json`, text());
      const r = cli(['drift', session, '--against', REC('2.1.2'), '--contract', file], { cwd: work() });
      assert.equal(r.code, 2, r.out);
      const [line, ...rest] = r.stderr.trim().split('\n');
      assert.deepEqual(rest, [], r.stderr);
      assert.ok(line.includes(file), line);
      assert.match(line, want);
    });

  test('--contract without --against is a usage error', () => {
    const r = cli(['drift', REC('1.19.2'), REC('1.29.5'), '--contract', 'x.json'], { cwd: work() });
    assert.equal(r.code, 2, r.out);
    assert.match(r.stderr, /drift --contract .* SESSION --against/);
  });
});

describe('proxy --contract: a client quirk accepted with its reason', () => {
  // node-syncthing sends the body "" on every request, POST /rest/system/error/clear's included (which takes none)
  const clear = (p: { url: string; key: string }) =>
    call(p as never, '/rest/system/error/clear', { method: 'POST', body: '""' }).then((r) => r.text());

  test('without a contract the quirk is a client violation (exit 1); with it an expected failure and its reason', async () => {
    const plain = await startProxy(work(), 'quirk-plain', ['--recordings', REC('1.29.5')]);
    await clear(plain);
    assert.equal(await stopProxy(plain), 1, plain.stderr());

    const contract: ClientContract = {
      format: 'synconf-contract/1',
      endpoints: [],
      quirks: [
        { check: 'request:body', endpoint: 'POST /rest/system/error/clear', reason: 'node-syncthing sends "" always' },
      ],
    };
    const file = write('quirk.json', JSON.stringify(contract));
    const p = await startProxy(work(), 'quirk', ['--recordings', REC('1.29.5'), '--contract', file]);
    await clear(p);
    assert.equal(await stopProxy(p), 0, p.stderr());
    const body = checksOf(readReport(p.dir)).find((c) => c.id.endsWith('/request:body'));
    assert.equal(body?.verdict, 'expected-fail', JSON.stringify(body));
    assert.equal(body.deviation?.reason, 'node-syncthing sends "" always');
    assert.equal(body.deviation?.file, file);
  });

  test('a bad contract stops the proxy before it listens: one line, exit 2', () => {
    const file = write(
      'proxy-bad.json',
      '{"format": "synconf-contract/1", "endpoints": [], "quirks": [{"check": "x"}]}',
    );
    const r = cli(['proxy', '--recordings', REC('1.29.5'), '--contract', file, '--port', '0'], { cwd: work() });
    assert.equal(r.code, 2, r.out);
    assert.match(
      r.stderr.trim(),
      new RegExp(`^synconf: --contract ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: /quirks/0`),
    );
  });
});

test('drift does not ask again a long poll the proxy\'s stop cut: no answer to compare (it read "stopped → 200")', async () => {
  const entry = {
    request: { method: 'GET', url: 'http://agent/rest/events?since=3', headers: [] },
    response: { status: 0, headers: [], content: { size: 0, mimeType: '', text: '' } },
    _error: { code: 'stopped', message: 'cut by the stop' },
    _step: '#1',
    _target: 'agent',
  } as unknown as HarEntry;
  const out = await replaySession([entry], { url: 'http://127.0.0.1:9', apiKey: 'k' }, new Redactor(['k']));
  assert.deepEqual(out.entries, []);
  assert.match(out.skipped.join(), /the proxy's stop cut it in the session/);
});
