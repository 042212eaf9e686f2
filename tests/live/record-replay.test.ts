// Record and replay against the real agent: a replay gives the same checks and verdicts as the
// live run that recorded it; recordings hold no secret; misses, stale and broken cassettes are
// reported precisely; record modes; drift by shape.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, readFileSync, writeFileSync, readdirSync, cpSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { useLab } from '../support/lab.js';
import { cliAsync } from '../support/cli.js';
import { ROOT } from '../../src/paths.js';
import type { Report } from '../../src/schema/generated/types.js';
import { makeTemp, removeTemp } from '../support/temp.js';

const SCENARIOS = join(ROOT, 'tests', 'fixtures', 'replay');
const PASSWORD = 'synconf-known-password-4711'; // set by tests/fixtures/replay/secrets.yaml
let work: string;
let cassettes: string;
let live: Report;

const readReport = (dir: string): Report => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
const verdicts = (r: Report) => r.scenarios.flatMap((s) => s.checks.map((c) => `${c.id} ${c.verdict}`)).sort();
function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}
const replay = (dir: string, suite: string, reportDir: string, ...extra: string[]) =>
  cliAsync(['replay', dir, '--suite', suite, '--report-dir', reportDir, ...extra]);

describe('record and replay against a real agent', () => {
  const shared = useLab(1);
  const agentArgs = () => ['--agent', shared.lab.instances[0].url, '--api-key', shared.lab.instances[0].apiKey];

  before(async () => {
    work = makeTemp('rr');
    cassettes = join(work, 'cassettes');
    const r = await cliAsync([
      'run',
      ...agentArgs(),
      '--suite',
      SCENARIOS,
      '--record',
      cassettes,
      '--report-dir',
      join(work, 'live'),
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    live = readReport(join(work, 'live'));
  });
  after(() => removeTemp(work));

  describe('recording', () => {
    test('writes one HAR 1.2 cassette per scenario plus the run, with synconf metadata', () => {
      const files = readdirSync(cassettes).sort();
      assert.deepEqual(files, ['_run.har', 'rr-events.har', 'rr-identity.har', 'rr-secrets.har']);
      const har = JSON.parse(readFileSync(join(cassettes, 'rr-events.har'), 'utf8'));
      assert.equal(har.log.version, '1.2');
      assert.equal(har.log._synconf.scenario, 'rr-events');
      assert.match(har.log._synconf.agent.version, /^v1\.19\./);
      assert.ok(
        har.log.entries.some((e: { request: { url: string } }) =>
          e.request.url.startsWith('http://agent/rest/events?'),
        ),
        'the long-poll event requests are recorded',
      );
    });

    test('no secret is written: neither the API key, nor the password, nor its hash, in recordings or reports', () => {
      const key = shared.lab.instances[0].apiKey;
      const files = [...allFiles(cassettes), ...allFiles(join(work, 'live'))];
      assert.ok(files.length >= 8);
      for (const f of files) {
        const text = readFileSync(f, 'utf8');
        assert.ok(!text.includes(key), `${f} holds the API key`);
        assert.ok(!text.includes(PASSWORD), `${f} holds the password`);
        assert.doesNotMatch(text, /\$2[aby]\$\d\d\$/, `${f} holds a bcrypt password hash`);
      }
      const secrets = readFileSync(join(cassettes, 'rr-secrets.har'), 'utf8');
      assert.match(secrets, /<API_KEY>/);
      assert.match(secrets, /<PASSWORD_HASH>/);
    });
  });

  describe('replay', () => {
    test('gives the same checks and verdicts as the live run that recorded it', async () => {
      const r = await replay(cassettes, SCENARIOS, join(work, 'replay'));
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const replayed = readReport(join(work, 'replay'));
      assert.equal(replayed.run.mode, 'replay');
      assert.deepEqual(verdicts(replayed), verdicts(live));
      assert.equal(replayed.agent.version, live.agent.version);
      assert.deepEqual(replayed.unusedExchanges ?? [], []);
      // The same undocumented members as live (the real config carries some on every known version).
      assert.ok(live.undocumented?.length, 'the live run found undocumented members in the real config');
      assert.deepEqual(replayed.undocumented, live.undocumented);
    });

    test('a changed scenario fails loudly: the request, the closest recorded one and what differs', async () => {
      const suite = join(work, 'changed');
      cpSync(SCENARIOS, suite, { recursive: true });
      const file = join(suite, 'events.yaml');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(
          'AIR6LPZ-7K4PTTV-UXQSMUU-CPQ5YWH-OEDFIIQ-JUG777G-2YQXXR5-YD6AWQR',
          'P56IOI7-MZJNU2Y-IQGDREY-DM2MGTI-MGL3BXN-PQ6W5BM-TBBZ4TJ-XZWICQ2',
        ),
      );
      const r = await replay(cassettes, suite, join(work, 'changed-report'));
      assert.equal(r.code, 2, r.stdout + r.stderr);
      const report = readReport(join(work, 'changed-report'));
      const miss = report.harnessErrors.find((e) => e.scenario === 'rr-events');
      assert.ok(miss, JSON.stringify(report.harnessErrors));
      assert.match(
        miss.message,
        /step "delete": DELETE \/rest\/cluster\/pending\/devices\?device=P56IOI7\S* on agent is not in .*rr-events\.har/,
      );
      assert.match(
        miss.message,
        /closest recorded: DELETE \/rest\/cluster\/pending\/devices\?device=AIR6LPZ\S* on agent \(step "delete"\); differs in: query device=P56IOI7\S* vs recorded device=AIR6LPZ/,
      );
      assert.match(r.stderr, /rr-events.*is not in/);
      // the other scenarios still replay with their verdicts
      assert.equal(report.scenarios.find((s) => s.id === 'rr-identity')?.verdict, 'pass');
    });

    test('exchanges recorded but never asked for are listed (a stale cassette)', async () => {
      const suite = join(work, 'shorter');
      cpSync(SCENARIOS, suite, { recursive: true });
      const file = join(suite, 'identity.yaml');
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, text.slice(0, text.indexOf('  - name: clear')));
      const r = await replay(cassettes, suite, join(work, 'shorter-report'));
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const report = readReport(join(work, 'shorter-report'));
      assert.deepEqual(report.unusedExchanges, [
        { scenario: 'rr-identity', request: 'POST /rest/system/error/clear on agent (step "clear")' },
      ]);
    });

    for (const [what, corrupt, cause] of [
      [
        'a truncated cassette',
        (t: string) => t.slice(0, t.length / 2),
        /rr-events\.har:\d+:\d+: not JSON \(unterminated string, truncated\?\)/,
      ],
      [
        'a wrong HAR version',
        (t: string) => t.replace('"version": "1.2"', '"version": "1.1"'),
        /rr-events\.har: HAR version "1\.1"; synconf reads HAR 1\.2/,
      ],
      [
        'a cassette without entries',
        (t: string) => JSON.stringify({ log: { ...JSON.parse(t).log, entries: undefined } }),
        /rr-events\.har: not a synconf HAR 1\.2 cassette: \/log\/entries: required property "entries" is missing/,
      ],
    ] as const) {
      test(`${what} is reported with the file and the cause (exit 2), and the other scenarios still run`, async () => {
        const dir = join(work, `broken-${what.replace(/\W+/g, '-')}`);
        cpSync(cassettes, dir, { recursive: true });
        const file = join(dir, 'rr-events.har');
        writeFileSync(file, corrupt(readFileSync(file, 'utf8')));
        const reportDir = join(dir, 'report');
        const r = await replay(dir, SCENARIOS, reportDir);
        assert.equal(r.code, 2, r.stdout + r.stderr);
        const report = readReport(reportDir);
        assert.ok(
          report.harnessErrors.some((e) => cause.test(e.message)),
          JSON.stringify(report.harnessErrors),
        );
        assert.deepEqual(
          report.scenarios.filter((s) => s.id !== 'rr-events').map((s) => s.verdict),
          ['pass', 'pass'],
        );
      });
    }
  });

  describe('record modes', () => {
    test('once records only scenarios without a cassette; new adds what is missing and keeps the rest', async () => {
      const dir = join(work, 'modes');
      cpSync(cassettes, dir, { recursive: true });
      rmSync(join(dir, 'rr-identity.har'));
      const eventsBefore = readFileSync(join(dir, 'rr-events.har'), 'utf8');
      const once = await cliAsync([
        'run',
        ...agentArgs(),
        '--suite',
        SCENARIOS,
        '--record',
        dir,
        '--record-mode',
        'once',
        '--report-dir',
        join(dir, 'r-once'),
      ]);
      assert.equal(once.code, 0, once.stdout + once.stderr);
      assert.equal(
        readFileSync(join(dir, 'rr-events.har'), 'utf8'),
        eventsBefore,
        'an existing cassette is left alone',
      );
      assert.ok(statSync(join(dir, 'rr-identity.har')).size > 0, 'the missing cassette is recorded');

      const suite = join(work, 'longer');
      cpSync(SCENARIOS, suite, { recursive: true });
      writeFileSync(
        join(suite, 'events.yaml'),
        readFileSync(join(suite, 'events.yaml'), 'utf8') +
          '  - name: ping\n    request: { method: GET, path: /rest/system/ping }\n    expect: { status: 200 }\n',
      );
      const before = JSON.parse(eventsBefore).log.entries.length;
      const added = await cliAsync([
        'run',
        ...agentArgs(),
        '--suite',
        suite,
        '--only',
        'rr-events',
        '--record',
        dir,
        '--record-mode',
        'new',
        '--report-dir',
        join(dir, 'r-new'),
      ]);
      assert.equal(added.code, 0, added.stdout + added.stderr);
      const entries = JSON.parse(readFileSync(join(dir, 'rr-events.har'), 'utf8')).log.entries as { _step: string }[];
      assert.equal(entries.length, before + 1);
      assert.equal(entries.at(-1)?._step, 'ping');
    });
  });

  describe('drift', () => {
    test('a fresh recording of the same agent shows no difference; a removed field shows exactly that one', async () => {
      const same = await cliAsync(['drift', ...agentArgs(), cassettes, '--suite', SCENARIOS]);
      assert.equal(same.code, 0, same.stdout + same.stderr);
      assert.match(same.stdout, /^0 differences in 0 scenarios$/m);

      const dir = join(work, 'drifted');
      cpSync(cassettes, dir, { recursive: true });
      const file = join(dir, 'rr-identity.har');
      const har = JSON.parse(readFileSync(file, 'utf8'));
      const status = har.log.entries.find((e: { _step: string }) => e._step === 'status');
      const body = JSON.parse(status.response.content.text);
      delete body.goroutines;
      status.response.content.text = JSON.stringify(body);
      writeFileSync(file, JSON.stringify(har));
      const drift = await cliAsync(['drift', ...agentArgs(), dir, '--suite', SCENARIOS, '--differences']);
      assert.equal(drift.code, 1, drift.stdout + drift.stderr);
      assert.match(
        drift.stdout,
        /^rr-identity:\n  agent status: GET \/rest\/system\/status: field \/goroutines added\n/m,
      );
      assert.match(drift.stdout, /^1 difference in 1 scenario$/m);
      // seen from the old recording, the fresh agent sends a member it did not: one compatible cause
      assert.match(
        drift.stdout,
        /^compatible +response-member-added +GET \/rest\/system\/status \/: members added: goroutines/m,
      );
    });
  });
});
