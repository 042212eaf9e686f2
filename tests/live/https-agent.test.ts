// An agent whose GUI speaks TLS (issue 37): `synconf lab up --tls` starts a real one (1.29.5, 2.1.2) with the
// self-signed certificate Syncthing makes in its home. `run --agent https://…` trusts it only when --agent-ca names
// it (without it: one line naming --agent-ca and the cause, exit 2); `proxy` forwards to it and listens with TLS itself
// for clients that insist on it (node-syncthing with https: true, and node's https pinned to the proxy's certificate);
// `drift --against https://…` asks the session again of it. Every command is the built one, from a scratch folder.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { get } from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import syncthing from 'node-syncthing';
import { cli } from '../support/cli.js';
import { tempFolder } from '../support/temp.js';
import { readReport, startProxy, stopProxy } from '../support/proxy.js';

const work = tempFolder('https-agent');

/** the one line a certificate failure gives, naming the option to fix it */
const UNTRUSTED = (option: string) =>
  new RegExp(
    `^synconf: ${option} https://127\\.0\\.0\\.1:\\d+: its certificate is not trusted: self-signed certificate; .*--agent-ca FILE`,
    'm',
  );

/** no stack, no key: what an error of a command may never print */
function clean(out: string, key: string) {
  assert.doesNotMatch(out, /^\s+at /m, out);
  assert.ok(!out.includes(key), `the API key is printed: ${out}`);
  assert.ok(!out.includes('PRIVATE KEY'), `a private key is printed: ${out}`);
}

/** GET path over TLS trusting only `cert` (pinned: Syncthing's certificate names the host name, not 127.0.0.1) */
function pinnedGet(url: string, path: string, key: string, cert: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = get(new URL(path, url), {
      headers: { 'X-API-Key': key },
      ca: cert,
      checkServerIdentity: () => undefined,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
  });
}

for (const version of ['1.29.5', '2.1.2']) {
  describe(`a lab of ${version} whose GUI speaks TLS`, () => {
    let agent: { url: string; apiKey: string; home: string };
    let labDir = '';
    const cert = () => join(agent.home, 'https-cert.pem');
    const key = () => join(agent.home, 'https-key.pem');
    before(() => {
      labDir = join(work(), `lab-${version}`);
      const r = cli(['lab', 'up', '--tls', '--json', '--syncthing', version, '--dir', labDir], { cwd: work() });
      assert.equal(r.code, 0, r.out);
      [agent] = JSON.parse(r.stdout) as (typeof agent)[];
      assert.match(agent.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    });
    after(() => {
      if (labDir) cli(['lab', 'down', '--dir', labDir], { cwd: work() });
    });

    test('run --agent https:// without --agent-ca: one line naming --agent-ca, exit 2', () => {
      const r = cli(['run', '--agent', agent.url, '--api-key', agent.apiKey, '--only', 'system-ping'], {
        cwd: work(),
        env: { SYNCONF_API_KEY: undefined },
      });
      assert.equal(r.code, 2, r.out);
      assert.match(r.stderr, UNTRUSTED('--agent'));
      clean(r.out, agent.apiKey);
    });

    test("run --agent https:// --agent-ca <the agent's https-cert.pem>: the scenario runs and conforms", () => {
      const dir = join(work(), `run-${version}`);
      const args = ['run', '--agent', agent.url, '--api-key', agent.apiKey, '--agent-ca', cert(), '--report-dir', dir];
      const r = cli([...args, '--only', 'system-ping'], { cwd: work() });
      assert.equal(r.code, 0, r.out);
      const report = readReport(dir);
      assert.equal(report.totals.fail, 0, r.out);
      assert.ok(report.totals.pass > 0, r.out);
    });

    test('an http:// URL of the TLS GUI, a key file as --agent-ca: each one line, exit 2', () => {
      const http = agent.url.replace('https:', 'http:');
      const plain = cli(['run', '--agent', http, '--api-key', agent.apiKey, '--only', 'system-ping'], { cwd: work() });
      assert.equal(plain.code, 2, plain.out);
      assert.match(plain.stderr, /^synconf: --agent http:\S+: the agent's GUI speaks TLS .*give --agent https:/m);
      const notCert = ['run', '--agent', agent.url, '--api-key', agent.apiKey, '--agent-ca', key()];
      const wrong = cli([...notCert, '--only', 'system-ping'], { cwd: work() });
      assert.equal(wrong.code, 2, wrong.out);
      assert.match(wrong.stderr, /^synconf: --agent-ca \S+https-key\.pem: it holds no PEM certificate/m);
      clean(plain.out + wrong.out, agent.apiKey);
    });

    test('proxy in front of it, listening with TLS: node-syncthing (https: true) and a pinned client reach it', async () => {
      const refused = cli(['proxy', '--agent', agent.url, '--api-key', agent.apiKey, '--count', '1'], { cwd: work() });
      assert.equal(refused.code, 2, refused.out);
      assert.match(refused.stderr, UNTRUSTED('--agent'));
      clean(refused.out, agent.apiKey);

      const tls = ['--tls-cert', cert(), '--tls-key', key()];
      const args = ['--agent', agent.url, '--api-key', agent.apiKey, '--agent-ca', cert(), ...tls, '--count', '3'];
      const p = await startProxy(work(), `proxy-${version}`, args);
      assert.match(p.url, /^https:\/\//);
      const st = syncthing({ hostname: p.host, port: p.port, apiKey: p.key, https: true });
      const ask = <T>(f: (cb: (err: unknown, body: T) => void) => void) =>
        new Promise<T>((resolve, reject) => f((err, body) => (err ? reject(err) : resolve(body))));
      assert.deepEqual(await ask((cb) => st.system.ping(cb)), { ping: 'pong' });
      const status = await ask<{ myID: string }>((cb) => st.system.status(cb));
      assert.match(status.myID, /^[A-Z0-9-]{63}$/);
      // the proxy's certificate is the one it was given: a client trusting only it gets through
      const version2 = await pinnedGet(p.url, '/rest/system/version', p.key, readFileSync(cert(), 'utf8'));
      assert.equal(version2.status, 200);
      assert.equal((JSON.parse(version2.body) as { version: string }).version, `v${version}`);
      assert.equal(await p.exited, 0, p.stderr());
      const report = readReport(p.dir);
      assert.equal(report.proxy?.exchanges.total, 3);
      assert.ok((report.proxy?.exchanges.judged ?? 0) >= 2, JSON.stringify(report.proxy?.exchanges));

      // the session asked again of the same agent over TLS: trusted only with --agent-ca
      const drift = ['drift', p.dir, '--against', agent.url, '--api-key', agent.apiKey, '--json'];
      const untrusted = cli(drift, { cwd: work() });
      assert.equal(untrusted.code, 2, untrusted.out);
      assert.match(untrusted.stderr, UNTRUSTED('--against'));
      const same = cli([...drift, '--agent-ca', cert()], { cwd: work() });
      assert.equal(same.code, 0, same.out);
      assert.ok(Array.isArray((JSON.parse(same.stdout) as { causes: unknown[] }).causes), same.out);
    });

    test('--tls-cert without --tls-key, and --agent-ca without an https:// agent: one line each, exit 2', () => {
      const half = cli(['proxy', '--lab', version, '--tls-cert', cert(), '--count', '1'], { cwd: work() });
      assert.equal(half.code, 2, half.out);
      assert.match(half.stderr, /^synconf: --tls-cert needs --tls-key/m);
      const lab = cli(['proxy', '--lab', version, '--agent-ca', cert(), '--count', '1'], { cwd: work() });
      assert.equal(lab.code, 2, lab.out);
      assert.match(lab.stderr, /^synconf: --agent-ca \S+: trusts the certificate of an https:\/\/ agent/m);
      clean(half.out + lab.out, agent.apiKey);
    });
  });
}
