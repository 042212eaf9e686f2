// `synconf serve`, the built command, as a client developer uses it: the real `syncthing cli` gets
// the recorded answers (and the agent's 403 with a wrong key), a synconf run against it gives the
// replay's verdicts check by check, long polls wait, misses are loud, --strict fails, the request
// log is valid HAR, and Ctrl-C leaves nothing behind.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync, cpSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { ROOT } from '../src/paths.js';
import { newestRecordings } from '../src/serve/recordings.js';
import { generateApiKey } from '../src/serve/stand-in.js';
import type { Cassette, Report } from '../src/schema/generated/types.js';
import { agentBinary, GENERATION_2X } from './support/agents.js';
import { cli } from './support/cli.js';
import { makeTemp, removeTemp } from './support/temp.js';
import { CLI_COMMANDS, syncthingCli } from './support/syncthing-cli.js';
import { startServe, type Serving } from './support/serving.js';

const REC = join(ROOT, 'recordings', 'syncthing-1.19.2');
const SYNCTHING = process.env.SYNCONF_SYNCTHING ?? 'syncthing';
let work: string;

/** start `synconf serve` and wait for the URL it prints */
const serve = (args: string[]): Promise<Serving> => startServe(args, work);

/** the orderly stop (SIGTERM, as `kill` and CI send it) or Ctrl-C (SIGINT), then the exit code and how long it took */
async function stop(s: Serving, signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; ms: number }> {
  const t0 = performance.now();
  const exited = new Promise<number | null>((resolve) => s.child.on('exit', (code) => resolve(code)));
  s.child.kill(signal);
  const code = await exited;
  return { code, ms: performance.now() - t0 };
}

const get = (s: Serving, path: string, key: string | null = s.key) =>
  fetch(s.url + path, { headers: key === null ? {} : { 'X-API-Key': key } });

const stcli = (s: Serving, key: string, ...command: string[]) => syncthingCli(SYNCTHING, s, key, ...command);
const stcliOf = (syncthing: string, s: Serving, key: string, ...command: string[]) =>
  syncthingCli(syncthing, s, key, ...command);

const cassette = (name: string): Cassette => JSON.parse(readFileSync(join(REC, `${name}.har`), 'utf8'));
const verdicts = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report).scenarios.flatMap((sc) =>
    sc.checks.map((c) => `${c.id} ${c.verdict}`),
  );
const readLog = (file: string) =>
  JSON.parse(readFileSync(file, 'utf8')) as {
    log: {
      entries: {
        request: { method: string; url: string };
        response: { status: number };
        _step: string;
        _served: string;
        _miss?: string;
      }[];
    };
  };

before(() => {
  work = makeTemp('serve');
});
after(() => removeTemp(work));

describe('synconf serve', () => {
  test("the real syncthing cli gets the recorded answers; with a wrong key the agent's 403", async () => {
    const log = join(work, 'cli.har');
    const s = await serve([REC, '--api-key', 'client-test-key', '--log', log, '--strict']);
    const recorded = cassette('cli-client').log.entries;
    const body = (step: string) =>
      JSON.parse(recorded.find((e) => e._step === step)!.response.content.text.replaceAll('<API_KEY>', s.key));
    try {
      const commands = CLI_COMMANDS;
      const outputs = commands.map((c) => {
        const r = stcli(s, s.key, ...c);
        assert.equal(r.status, 0, `syncthing cli ${c.join(' ')}: ${r.stdout}${r.stderr}`);
        return r.stdout;
      });
      assert.deepEqual(JSON.parse(outputs[0]), body('show-version'));
      assert.deepEqual(JSON.parse(outputs[1]), body('show-system'));
      assert.deepEqual(JSON.parse(outputs[3]), body('errors-show'));
      assert.deepEqual(JSON.parse(outputs[5]), body('show-usage'));
      const devices = (body('config-devices-list') as { devices: { deviceID: string }[] }).devices.map(
        (d) => d.deviceID,
      );
      assert.deepEqual(outputs[8].trim().split('\n'), devices);
      const wrong = stcli(s, 'not-the-key', 'show', 'version');
      assert.notEqual(wrong.status, 0);
      assert.match(wrong.stdout + wrong.stderr, /403 Forbidden[\s\S]*CSRF Error/);
    } finally {
      const { code } = await stop(s);
      assert.equal(code, 0, `--strict and nothing missed: exit 0\n${s.stderr()}`);
    }
    // what the client asked (the log is complete once serve has ended), every request answered
    // from the scenario recorded for it, then the refused one
    const entries = readLog(log).log.entries;
    assert.deepEqual(
      entries.map((e) => e._step),
      [...recorded.map((e) => `cli-client/${e._step}`), 'auth-no-key/system-config', 'auth-no-key/system-version'],
    );
  });

  test(`the real 2.x syncthing cli (${GENERATION_2X}, built from its module) gets ${GENERATION_2X}'s recorded answers`, async () => {
    // The 2.x client asks less than 1.19.2's (one request a command; only `config ... list` reads the whole
    // configuration), so some of its requests are answered from other scenarios' exchanges: what it prints must be
    // what serve answered it, request for request, with nothing missed (--strict).
    const rec = join(ROOT, 'recordings', `syncthing-${GENERATION_2X}`);
    const log = join(work, 'cli-2x.har');
    const s = await serve([rec, '--api-key', 'client-test-key', '--log', log, '--strict']);
    const commands = [
      ['show', 'version'],
      ['show', 'system'],
      ['errors', 'show'],
      ['show', 'connections'],
      ['show', 'usage'],
      ['show', 'pending', 'devices'],
      ['show', 'pending', 'folders'],
    ];
    let outputs: string[];
    try {
      outputs = commands.map((c) => {
        const r = stcliOf(agentBinary(GENERATION_2X), s, s.key, ...c);
        assert.equal(r.status, 0, `syncthing ${GENERATION_2X} cli ${c.join(' ')}: ${r.stdout}${r.stderr}`);
        return r.stdout;
      });
      const wrong = stcliOf(agentBinary(GENERATION_2X), s, 'not-the-key', 'show', 'version');
      assert.notEqual(wrong.status, 0);
      assert.match(wrong.stdout + wrong.stderr, /403 Forbidden[\s\S]*CSRF Error/);
    } finally {
      const { code } = await stop(s);
      assert.equal(code, 0, `--strict and nothing missed: exit 0\n${s.stderr()}`);
    }
    const served = readLog(log).log.entries as unknown as Cassette['log']['entries'];
    assert.equal(served.length, commands.length + 1, served.map((e) => e.request.url).join(', '));
    outputs.forEach((out, i) =>
      assert.deepEqual(
        JSON.parse(out),
        JSON.parse(served[i].response.content.text.replaceAll('<API_KEY>', s.key)),
        `${commands[i].join(' ')} prints what serve answered (${served[i]._step})`,
      ),
    );
    assert.equal(served.at(-1)!.response.status, 403);
  });

  test('synconf run against it gives the same verdicts as synconf replay, check by check', async () => {
    // scenarios whose requests do not depend on the run: a body holding the run's temporary folder (svc-report's
    // set-up since it adds folders) was recorded with the recording run's folder and matches no request of another
    const only = [
      'auth-no-key',
      'auth-wrong-key',
      'auth-wrong-method',
      'cli-client',
      'system-config',
      'system-debug',
      'system-error-clear',
      'system-ping',
      'system-status',
    ];
    const s = await serve([REC, '--log', join(work, 'run.har')]);
    try {
      const run = cli(
        ['run', '--agent', s.url, '--api-key', s.key, '--only', only.join(','), '--report-dir', join(work, 'served')],
        { cwd: work },
      );
      const replay = cli(['replay', REC, '--only', only.join(','), '--report-dir', join(work, 'replayed')], {
        cwd: work,
      });
      assert.equal(replay.code, 0, replay.stdout + replay.stderr);
      assert.equal(run.code, replay.code, run.stdout + run.stderr);
      const served = verdicts(join(work, 'served'));
      assert.ok(served.length > 250, `${served.length} checks`);
      // an agent synconf did not start has no known home: the one step that compares tilde with it is not sent
      // (a skip in the run); the replay judges it with the recorded run's agent.home
      const home = (v: string) => v.startsWith('system-status/host/');
      assert.deepEqual(served.filter(home), ['system-status/host/request skip']);
      assert.deepEqual(
        served.filter((v) => !home(v)),
        verdicts(join(work, 'replayed')).filter((v) => !home(v)),
      );
    } finally {
      await stop(s);
    }
    assert.doesNotMatch(s.stderr(), /no recorded answer/);
  });

  test('events: recorded ones at once; a long poll with nothing new waits for its timeout without spinning', async () => {
    const s = await serve([REC, '--log', join(work, 'events.har')]);
    try {
      const all = (await (await get(s, '/rest/events?since=0&timeout=0')).json()) as { id: number; type: string }[];
      assert.ok(
        all.some((e) => e.type === 'PendingFoldersChanged'),
        JSON.stringify(all),
      );
      assert.deepEqual(
        all.map((e) => e.id),
        all.map((_, i) => i + 1),
        'ids count 1, 2, … as the agent numbers a subscription',
      );
      const folders = (await (await get(s, '/rest/events?events=PendingFoldersChanged&since=1&timeout=0')).json()) as {
        id: number;
        type: string;
      }[];
      assert.ok(
        folders.length > 0 && folders.every((e) => e.type === 'PendingFoldersChanged' && e.id > 1),
        JSON.stringify(folders),
      );

      const cpu = () => {
        const f = readFileSync(`/proc/${s.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return Number(f[11]) + Number(f[12]);
      };
      const ticks0 = cpu();
      const t0 = performance.now();
      const res = await get(s, `/rest/events?since=${all.length}&timeout=2`);
      const waited = performance.now() - t0;
      assert.deepEqual(await res.json(), []);
      const ticks = cpu() - ticks0;
      console.log(
        `# long poll with nothing new, timeout=2: answered [] after ${Math.round(waited)} ms, ${ticks} CPU ticks meanwhile`,
      );
      assert.ok(waited >= 1950 && waited < 3500, `waited ${waited} ms`);
      assert.ok(ticks < 30, `the wait used ${ticks} CPU ticks: it spins`);
    } finally {
      await stop(s);
    }
  });

  test("misses are 404 naming the closest recorded request; a missing key gets the agent's 403; --strict exits 1", async () => {
    const s = await serve([REC, '--api-key', 'key-of-k1', '--log', join(work, 'miss.har'), '--strict']);
    const miss = await get(s, '/rest/system/statsu');
    assert.equal(miss.status, 404);
    assert.match(miss.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await miss.text();
    assert.match(text, /no recorded answer to GET \/rest\/system\/statsu/);
    assert.match(text, /closest recorded: GET \/rest\/system\/status \(/);
    assert.match(text, /differs in: path \/rest\/system\/statsu vs recorded \/rest\/system\/status/);
    const query = await (await get(s, '/rest/db/status?folder=no-such-folder-recorded')).text();
    assert.match(
      query,
      /closest recorded: GET \/rest\/db\/status\S* \(db-status\/.*\n.*differs in: query of 1 parameter\(s\) vs recorded /,
    );
    // the client's own query is not repeated back (it may hold a secret: issue 40)
    assert.doesNotMatch(query, /no-such-folder-recorded/);

    const noKey = await get(s, '/rest/system/connections', null);
    assert.equal(noKey.status, 403);
    assert.equal((await noKey.text()).trim(), 'CSRF Error');
    assert.equal((await get(s, '/rest/system/connections')).status, 200, 'the same request with the key is answered');
    const { code } = await stop(s);
    assert.equal(code, 1, s.stderr());
    assert.match(s.stderr(), /GET \/rest\/system\/statsu in .*closest recorded: GET \/rest\/system\/status/);
    assert.match(s.stderr(), /--strict: 2 request\(s\) had no recorded answer/);
  });

  // issue 37: the bodies differ past their first 80 characters; the miss said "body of 81 bytes vs recorded" and the
  // recorded body's first 80 characters, where nothing differs
  test('a miss by body says where the bodies first differ, the recorded value quoted, the sent one not', async () => {
    const s = await serve([REC, '--api-key', 'key-of-k2']);
    try {
      const body = '{"scratch.txt":"2020-01-01T00:00:00Z","never-existed.txt":"2021-06-30T12:00:00Z"}';
      const miss = await fetch(`${s.url}/rest/folder/versions?folder=synconf-versions`, {
        method: 'POST',
        headers: { 'X-API-Key': s.key },
        body,
      });
      assert.equal(miss.status, 404);
      const text = await miss.text();
      assert.match(
        text,
        /differs in: body differs at \/[\w.-]+: sent a string of 20 characters vs recorded ("[\d:TZ-]+"|\(missing\))/,
      );
      assert.doesNotMatch(text, /2021-06-30/, "the client's body is not repeated back (issue 40)");
    } finally {
      await stop(s);
    }
  });

  test('the request log is valid HAR 1.2 without the API key', async () => {
    const file = join(work, 'logs', 'requests.har');
    const s = await serve([REC, '--api-key', 'secret-key-4711', '--log', file]);
    await get(s, '/rest/system/version');
    await (
      await fetch(s.url + '/rest/system/error', {
        method: 'POST',
        headers: { 'X-API-Key': s.key },
        body: 'not recorded',
      })
    ).text();
    await get(s, '/rest/system/ping', 'wrong-key-0815');
    // every credential a client may send, none of them the key: none reaches the log in clear
    await fetch(s.url + '/rest/system/ping?api_key=query-key-0815', {
      headers: { Authorization: 'Bearer bearer-0815', Cookie: 'CSRF-Token=cookie-0815' },
    });
    // the recordings' placeholder is no key: the agent's refusal, never a recorded answer
    const placeholder = await get(s, '/rest/system/version', '<API_KEY>');
    assert.equal(placeholder.status, 403, 'the literal placeholder is refused as the agent refuses a wrong key');
    await stop(s);
    const require = createRequire(import.meta.url);
    const harSchemas = require('har-schema') as Record<string, { $id: string }>;
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
    for (const schema of Object.values(harSchemas)) ajv.addSchema(schema);
    const validate = ajv.getSchema('har.json#')!;
    const text = readFileSync(file, 'utf8');
    const har = JSON.parse(text);
    assert.ok(validate(har), JSON.stringify(validate.errors));
    assert.deepEqual(
      har.log.entries.map(
        (e: { _served: string; response: { status: number } }) => `${e._served} ${e.response.status}`,
      ),
      ['recorded 200', 'miss 404', 'refusal 403', 'refusal 403', 'refusal 403'],
    );
    for (const secret of ['secret-key-4711', 'wrong-key-0815', 'query-key-0815', 'bearer-0815', 'cookie-0815'])
      assert.ok(!text.includes(secret), `${secret} is redacted`);
    // the validator catches what it exists for: a log entry without its response is not HAR
    delete har.log.entries[0].response;
    assert.equal(validate(har), false);
  });

  test('Ctrl-C ends it at once with a long poll open: no process and no open port left', async () => {
    const s = await serve([REC, '--log', join(work, 'ctrlc.har')]);
    const poll = get(s, '/rest/events?since=100000&timeout=60').then(
      () => 'answered',
      () => 'closed',
    );
    await new Promise((r) => setTimeout(r, 200));
    const { code, ms } = await stop(s, 'SIGINT');
    console.log(`# Ctrl-C with a long poll open: ended in ${Math.round(ms)} ms`);
    assert.equal(code, 130, 'interrupted');
    assert.ok(ms < 2000, `took ${ms} ms to end`);
    assert.equal(await poll, 'closed', 'the open long poll is closed, not left hanging');
    assert.throws(() => process.kill(s.child.pid!, 0), /ESRCH/, 'the process is gone');
    const refused = await new Promise<boolean>((resolve) => {
      const c = connect(s.port, s.host, () => {
        c.destroy();
        resolve(false);
      });
      c.on('error', () => resolve(true));
    });
    assert.ok(refused, `port ${s.port} still accepts connections`);
    assert.match(readFileSync(join(work, 'ctrlc.har'), 'utf8'), /"_served": "events"|"entries": \[\]/);
  });

  // [signal, a request without a recorded answer (under --strict), exit code]: SIGTERM is the orderly stop (0, or 1
  // after a miss); Ctrl-C and SIGHUP interrupt it (128 + n: 130, 129, as every command), the request log written
  const signals: [NodeJS.Signals, boolean, number][] = [
    ['SIGTERM', false, 0],
    ['SIGTERM', true, 1],
    ['SIGINT', true, 130],
    ['SIGHUP', false, 129],
    ['SIGHUP', true, 129],
  ];
  for (const [signal, missed, want] of signals)
    test(`--strict, ${missed ? 'a request missed' : 'nothing missed'}, then ${signal}: exit ${want}`, async () => {
      const log = join(work, `signal-${signal}-${missed}.har`);
      const s = await serve([REC, '--log', log, '--strict']);
      assert.equal((await get(s, missed ? '/rest/system/statsu' : '/rest/system/ping')).status, missed ? 404 : 200);
      const { code } = await stop(s, signal);
      assert.equal(code, want, s.stderr());
      assert.match(s.stderr(), new RegExp(`synconf serve: ${want > 128 ? 'interrupted' : 'stopped'} \\(${signal}\\)`));
      assert.equal(readLog(log).log.entries.length, 1, 'the request log is written');
    });

  // proxy --recordings starts the same stand-in, and took such keys (issue 40)
  test('a key too short to redact safely, or the placeholder itself, is refused by serve and proxy --recordings: one line, exit 2', () => {
    for (const [key, why] of [
      ['rest', /too short to redact safely \(at least 8 characters/],
      ['<API_KEY>', /that is the recordings' placeholder for a key, not a key/],
    ] as const)
      for (const argv of [
        ['serve', REC, '--port', '0', '--api-key', key],
        [
          'proxy',
          '--recordings',
          REC,
          '--port',
          '0',
          '--api-key',
          key,
          '--report-dir',
          'proxy-key',
          '--until-idle',
          '1',
        ],
      ]) {
        const r = cli(argv, { cwd: work, timeout: 20_000 });
        assert.equal(r.code, 2, `${argv[0]}: ${r.out}`);
        assert.match(
          r.stderr,
          new RegExp(`^synconf: --api-key "?${key.replace(/[<>]/g, '.')}"?: .*${why.source}`, 'm'),
          argv[0],
        );
      }
  });

  // it listened on every interface without a word (issue 40)
  test('--host beyond loopback is said in one line; the default host says nothing', async () => {
    for (const [host, said] of [
      ['0.0.0.0', true],
      ['127.0.0.1', false],
    ] as const) {
      const s = await serve([REC, '--host', host, '--log', join(work, `host-${host}.har`)]);
      await stop(s);
      const lines = s
        .stderr()
        .split('\n')
        .filter((l) => l.includes('beyond loopback'));
      const want = `synconf serve: --host ${host} listens beyond loopback: any machine that reaches this one can ask it`;
      assert.deepEqual(lines, said ? [want] : [], s.stderr());
    }
  });

  test('usage: a port in use and an empty folder are one-line errors with exit 2; start-up time', async () => {
    const s = await serve([REC, '--log', join(work, 'busy.har')]);
    console.log(`# synconf serve start-up (spawn to URL printed): ${Math.round(s.startupMs)} ms`);
    try {
      const busy = cli(['serve', REC, '--port', String(s.port), '--log', join(work, 'b2.har')], {
        cwd: work,
        timeout: 20_000,
      });
      assert.equal(busy.code, 2);
      assert.match(busy.stderr, /127\.0\.0\.1:\d+ is in use/);
    } finally {
      await stop(s);
    }
    mkdirSync(join(work, 'empty'));
    const empty = cli(['serve', join(work, 'empty')], { cwd: work, timeout: 20_000 });
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /no cassettes/);
  });

  test('the default recordings are those of the newest version by semver, not by name', () => {
    const root = join(work, 'recordings');
    for (const v of ['1.9.0', '1.19.2', '1.12.1'])
      cpSync(join(REC, '_run.har'), join(root, `syncthing-${v}`, '_run.har'));
    writeFileSync(join(root, 'notes.txt'), '');
    assert.equal(newestRecordings(root), join(root, 'syncthing-1.19.2'));
    assert.throws(() => newestRecordings(join(work, 'nowhere')), /no recordings/);
  });
});

test('a generated key can be passed on as `--api-key KEY`: 32 hex digits, never a leading "-" (base64url made one, and CI failed)', () => {
  const keys = Array.from({ length: 2000 }, generateApiKey);
  const unfit = keys.filter((key) => !/^[0-9a-f]{32}$/.test(key));
  assert.deepEqual(unfit, []);
  assert.equal(new Set(keys).size, keys.length);
});
