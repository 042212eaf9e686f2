// `synconf proxy` against recordings (no agent started): the built command from a scratch folder, as a client's CI
// runs it. A curl script and the real `syncthing cli` pass through it; a malformed request is blamed on the client
// with the statement it breaks; --errors refuse and mark; the exit codes 0/1/2/129/130; the report folder and its HAR.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/paths.js';
import type { Cassette } from '../src/schema/generated/types.js';
import { cli } from './support/cli.js';
import { tempFolder } from './support/temp.js';
import { agentBinary } from './support/agents.js';
import { CLI_COMMANDS, syncthingCli } from './support/syncthing-cli.js';
import { call, checksOf, readReport, startProxy, stopProxy, violationsOf } from './support/proxy.js';

const REC = join(ROOT, 'recordings', 'syncthing-1.19.2');
const work = tempFolder('proxy');

/** a client's script: curl only, every call with the key, as a shell user writes it */
const CURL_SCRIPT = `#!/bin/sh
set -e
H="X-API-Key: $KEY"
curl -sf -H "$H" "$URL/rest/system/version" >/dev/null
curl -sf -H "$H" "$URL/rest/system/status" >/dev/null
curl -sf -H "$H" -X POST "$URL/rest/system/ping" >/dev/null
curl -sf -H "$H" "$URL/rest/system/config" >/dev/null
curl -sf -H "$H" "$URL/rest/svc/report" >/dev/null
curl -sf -H "$H" "$URL/rest/system/debug" >/dev/null
`;

describe('synconf proxy --recordings', () => {
  test('a curl script through the proxy: every exchange judged, known deviations listed, the rest reported', async () => {
    const script = join(work(), 'client.sh');
    writeFileSync(script, CURL_SCRIPT);
    const p = await startProxy(work(), 'curl', ['--recordings', REC, '--count', '6']);
    const r = spawnSync('sh', [script], { env: { ...process.env, URL: p.url, KEY: p.key }, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const code = await p.exited; // --count 6 stops it
    const report = readReport(p.dir);
    // 1.19.2 leaves zero values out of its usage report (omitempty), that of a lab without folders too: a known
    // deviation with its reason, as every other difference of these exchanges from the spec
    assert.equal(code, 0, p.stderr());
    assert.deepEqual(violationsOf(report), []);
    const usage = checksOf(report).find((c) => c.kind === 'schema' && String(c.expected) === 'usage-report')!;
    assert.equal(usage.verdict, 'expected-fail');
    assert.match(usage.deviation!.reason, /omitempty/);
    assert.equal(report.run.mode, 'proxy');
    assert.deepEqual(report.proxy!.exchanges, {
      total: 6,
      judged: 6,
      beyondSpec: 0,
      outsideSpec: 0,
      notRest: 0,
      clientViolations: 0,
      agentViolations: 0,
    });
    // 1.19.2's status lacks members 2.1.0 added: a known deviation, with its reason, never a pass
    const status = checksOf(report).find((c) => c.id === 'get-rest-system-status/#2/schema')!;
    assert.equal(status.verdict, 'expected-fail');
    assert.match(status.deviation!.reason, /\S/);
    assert.deepEqual(
      report.proxy!.footprint.map((f) => `${f.endpoint} ${f.count}`),
      [
        'GET /rest/svc/report 1',
        'GET /rest/system/config 1',
        'GET /rest/system/debug 1',
        'GET /rest/system/status 1',
        'GET /rest/system/version 1',
        'POST /rest/system/ping 1',
      ],
    );
    assert.ok(report.proxy!.footprint.find((f) => f.endpoint === 'POST /rest/system/ping')!.members.includes('/ping'));
    // the session's HAR: a synconf cassette, every exchange, no key in clear
    const harText = readFileSync(join(p.dir, 'recordings', '_run.har'), 'utf8');
    const har = JSON.parse(harText) as Cassette;
    assert.equal(har.log.entries.length, 6);
    assert.equal(har.log._synconf.scenario, '_run');
    assert.ok(!harText.includes(p.key), 'the key is redacted');
    assert.match(harText, /<API_KEY>/);
    for (const f of ['report.json', 'junit.xml', 'report.html', 'summary.md']) assert.ok(existsSync(join(p.dir, f)), f);
  });

  test("malformed requests are the client's fault, each with the statement it breaks", async () => {
    const p = await startProxy(work(), 'malformed', ['--recordings', REC]);
    // [method, path, body, the statement the request breaks]
    const rows: [string, string, string | undefined, string][] = [
      ['GET', '/rest/db/status', undefined, 'db-status.folder'],
      ['GET', '/rest/db/localchanged', undefined, 'localchanged.folder.mandatory'],
      ['POST', '/rest/folder/versions', '{}', 'versions.folder.mandatory'],
      [
        'POST',
        '/rest/folder/versions?folder=f',
        '{"a.txt": "yesterday"}',
        'versions.body.form versions.body.timestamp',
      ],
      ['POST', '/rest/folder/versions?folder=f', '["a.txt"]', 'versions.body.form'],
      ['POST', '/rest/folder/versions?folder=f', 'a.txt', 'endpoints.json-bodies'],
      ['PUT', '/rest/system/status', undefined, 'status.method'],
      ['GET', '/rest/system/status?verbose=1', undefined, 'status.no-parameters'],
      ['POST', '/rest/system/error/clear', 'all', 'error-clear.empty-body'],
      ['DELETE', '/rest/cluster/pending/devices', undefined, 'pending-devices.delete.device'],
      ['DELETE', '/rest/cluster/pending/folders?device=X', undefined, 'pending-folders.delete.folder'],
      ['POST', '/rest/db/prio?folder=f', undefined, 'prio.file'],
    ];
    for (const [method, path, body] of rows) await (await call(p, path, { method, body })).text();
    assert.equal(await stopProxy(p), 1, p.stderr());
    const report = readReport(p.dir);
    assert.equal(report.proxy!.exchanges.clientViolations, rows.length);
    assert.equal(report.proxy!.exchanges.agentViolations, 0);
    rows.forEach(([method, path, , statement], i) => {
      const failing = checksOf(report).filter((c) => c.step === `#${i + 1}` && c.verdict === 'fail');
      assert.deepEqual(
        failing.map((c) => `${c.blame} ${(c.breaks ?? c.statements)?.join(' ')}`),
        [`client ${statement}`],
        `${method} ${path}`,
      );
      assert.equal(failing[0].evidence?.har?.entry, i);
    });
    assert.match(p.stderr(), /#1 CLIENT the client's request lacks the query parameter folder/);
  });

  test('--errors refuse answers a request against the spec itself; --errors mark flags a violating answer', async () => {
    const refuse = await startProxy(work(), 'refuse', ['--recordings', REC, '--errors', 'refuse']);
    const refused = await call(refuse, '/rest/db/status');
    assert.equal(refused.status, 400);
    assert.match(refused.headers.get('x-synconf-violation') ?? '', /request:query folder/);
    assert.match(await refused.text(), /lacks the query parameter folder/);
    assert.equal((await call(refuse, '/rest/system/version')).status, 200);
    // a request against the spec is exit 1, refused or not: in report.json (the client's, which statement) and the HAR
    assert.equal(await stopProxy(refuse), 1, refuse.stderr());
    const refusedReport = readReport(refuse.dir);
    assert.deepEqual(violationsOf(refusedReport), ['client request:query folder db-status.folder']);
    assert.equal(refusedReport.proxy!.exchanges.clientViolations, 1);
    assert.equal(refusedReport.proxy!.exchanges.total, 2);
    const entries = (JSON.parse(readFileSync(join(refuse.dir, 'recordings', '_run.har'), 'utf8')) as Cassette).log
      .entries;
    assert.deepEqual(
      entries.map((e) => [new URL(e.request.url).pathname, e.response.status, e._refused]),
      [
        ['/rest/db/status', 400, 'request:query folder'],
        ['/rest/system/version', 200, undefined],
      ],
    );
    // the agent never saw the refused request: the stand-in agent's own log has the one it was sent
    const upstream = JSON.parse(readFileSync(join(refuse.dir, 'upstream-requests.har'), 'utf8'));
    assert.deepEqual(
      upstream.log.entries.map((e: { request: { url: string } }) => new URL(e.request.url).pathname),
      ['/rest/system/version'],
    );

    const mark = await startProxy(work(), 'mark', ['--recordings', REC, '--errors', 'mark']);
    const marked = await call(mark, '/rest/system/status?verbose=1');
    assert.match(marked.headers.get('x-synconf-violation') ?? '', /no parameters \(status\.no-parameters\)/);
    const clean = await call(mark, '/rest/system/version');
    assert.equal(clean.headers.get('x-synconf-violation'), null);
    assert.equal((await clean.json()).version, 'v1.19.2-ds1');
    assert.equal(await stopProxy(mark), 1);
  });

  test('the real syncthing cli through the proxy: the verdicts of `synconf replay` on the same exchanges', async () => {
    const p = await startProxy(work(), 'stcli', ['--recordings', REC]);
    const binary = agentBinary('1.19.2');
    for (const c of CLI_COMMANDS) {
      const r = syncthingCli(binary, p, p.key, ...c);
      assert.equal(r.status, 0, `syncthing cli ${c.join(' ')}: ${r.stdout}${r.stderr}`);
    }
    assert.equal(await stopProxy(p), 0, p.stderr());
    const report = readReport(p.dir);
    assert.equal(report.proxy!.exchanges.clientViolations, 0);
    // `show usage` (the usage report of a lab without folders) included: conforming or a known deviation
    assert.deepEqual(violationsOf(report), []);
    assert.ok(report.proxy!.exchanges.judged >= 8, JSON.stringify(report.proxy!.exchanges));
    // the same recorded exchanges, judged by the suite's scenario: each resource gets the same verdict
    const replay = cli(['replay', REC, '--only', 'cli-client', '--report-dir', join(work(), 'replay')], {
      cwd: work(),
    });
    assert.ok(replay.code === 0 || replay.code === 1, replay.out);
    const bySchema = (checks: ReturnType<typeof checksOf>) => {
      const out = new Map<string, Set<string>>();
      for (const c of checks.filter((x) => x.kind === 'schema'))
        out.set(String(c.expected), (out.get(String(c.expected)) ?? new Set()).add(c.verdict));
      return out;
    };
    const proxied = bySchema(checksOf(report));
    const replayed = bySchema(checksOf(readReport(join(work(), 'replay'))));
    const shared = [...proxied.keys()].filter((k) => replayed.has(k));
    assert.ok(shared.length >= 3, `resources judged by both: ${shared.join(', ')}`);
    for (const resource of shared)
      assert.deepEqual([...proxied.get(resource)!], [...replayed.get(resource)!], `verdicts on ${resource}`);
  });

  // [arguments, exit code, what its one line says]
  const usage: [string[], number, RegExp][] = [
    [[], 2, /name the agent to forward to: --agent URL .*--lab VERSION or --recordings DIR/],
    [['--lab', '1.19.2', '--agent', 'http://127.0.0.1:1'], 2, /--agent and --lab: name one agent/],
    [['--recordings', 'no-such-folder'], 2, /recordings folder no-such-folder does not exist/],
    [['--recordings', REC, '--port', '70000'], 2, /--port "70000" is too large/],
    [['--agent', 'http://127.0.0.1:9'], 2, /--agent needs --api-key/],
    [['--agent', 'http://127.0.0.1:9', '--api-key', 'some-key-1'], 2, /--agent http:\/\/127.0.0.1:9: cannot reach/],
    [['--recordings', REC, '--errors', 'drop'], 2, /--errors/],
  ];
  for (const [args, code, line] of usage)
    test(`exit ${code}: proxy ${args.join(' ') || '(no agent)'}`, () => {
      const r = cli(['proxy', ...args], { cwd: work(), timeout: 60_000 });
      assert.equal(r.code, code, r.out);
      assert.match(r.stderr, line);
    });

  // [signal, requests, exit code]: Ctrl-C and SIGHUP interrupt (128 + n: 130, 129, as every command), SIGTERM stops in
  // order (the verdict; with nothing judged there is none: exit 2)
  const stops: [NodeJS.Signals, string[], number][] = [
    ['SIGTERM', [], 2],
    ['SIGTERM', ['/rest/system/version'], 0],
    ['SIGTERM', ['/rest/db/status'], 1],
    ['SIGINT', ['/rest/system/version'], 130],
    ['SIGHUP', ['/rest/db/status'], 129],
  ];
  for (const [signal, paths, code] of stops)
    test(`${signal} after ${paths.join(', ') || 'no request'}: exit ${code}, the report written`, async () => {
      const p = await startProxy(work(), `stop-${signal}-${code}`, ['--recordings', REC]);
      for (const path of paths) await (await call(p, path)).text();
      assert.equal(await stopProxy(p, signal), code, p.stderr());
      const report = readReport(p.dir);
      assert.equal(report.proxy!.exchanges.total, paths.length);
      assert.equal(report.exitCode, code, 'report.json holds the code the process exits with');
      assert.match(p.stderr(), code > 128 ? new RegExp(`interrupted \\(${signal}\\)`) : /stopped \(SIGTERM\)/);
      if (paths.length === 0) assert.match(p.stderr(), /no exchange the spec describes passed through the proxy/);
    });
});
