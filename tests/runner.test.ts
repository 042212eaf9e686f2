// The scenario runner against a fake agent that answers wrongly on purpose (tests/support/fake-agent.ts):
// for each kind of check, a right answer passes and a wrong one fails with a useful message and its
// evidence; agent faults (refused, reset, hang, garbage) are failed `request` checks, never a crash;
// malformed scenario files are rejected with file, line and cause; exit codes and known deviations
// through the CLI. Scenario files: tests/fixtures/scenarios/ (see its README).
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckResult, Report } from '../src/schema/generated/types.js';
import { runScenarios, type RunOptions } from '../src/runner/run.js';
import { selectScenarios } from '../src/scenario/select.js';
import { liveTarget } from '../src/runner/targets.js';
import { recorderFor } from '../src/transport/recorder.js';
import { ROOT } from '../src/paths.js';
import { parseBody } from '../src/runner/exchange-checks.js';
import { viewOf } from '../src/report/view.js';
import {
  startFakeAgent,
  systemStatus,
  json,
  text,
  garbage,
  hang,
  reset,
  truncated,
  stall,
  restart,
  shutdown,
  type FakeAgent,
  type FakeEvent,
} from './support/fake-agent.js';
import { cliAsync } from './support/cli.js';
import { withTemp } from './support/temp.js';

const FIXTURES = join(ROOT, 'tests', 'fixtures', 'scenarios');
const fixture = (name: string) => join(FIXTURES, name);

let fake: FakeAgent;
before(async () => {
  fake = await startFakeAgent();
});
after(async () => {
  await fake.close();
});
beforeEach(async () => {
  fake.reset();
  await fake.up(); // a test may have left it down
});

/** run scenario files (relative to the fixtures) in-process against the fake, with no known deviations unless given */
async function run(
  files: string | string[],
  opts: Partial<RunOptions> = {},
  wrap?: Parameters<typeof liveTarget>[6],
): Promise<Report> {
  const selection = await selectScenarios((Array.isArray(files) ? files : [files]).map(fixture), undefined);
  assert.deepEqual(selection.errors, [], 'the fixture scenarios load');
  const target = liveTarget(
    'live',
    `fake agent at ${fake.url}`,
    { agent: { url: fake.url, apiKey: fake.apiKey } },
    { files: true, restart: true, shutdown: true, peer: 'no peer in these tests' },
    { agent: { deviceId: fake.deviceId, syncAddress: null, dataDir: null, home: '/root', pathSeparator: '/' } },
    [],
    wrap,
  );
  try {
    return await runScenarios(selection, target, {
      expectations: false,
      requestTimeoutMs: 2000,
      expensiveIntervalMs: 0,
      ...opts,
    });
  } finally {
    await target.close();
  }
}

function check(report: Report, id: string): CheckResult {
  const all = report.scenarios.flatMap((s) => s.checks);
  const c = all.find((x) => x.id === id);
  assert.ok(c, `no check ${id}; the checks are: ${all.map((x) => `${x.id} (${x.verdict})`).join(', ')}`);
  return c;
}

/** the check passes; on failure the assertion message shows the check's own message */
function assertPass(report: Report, id: string): CheckResult {
  const c = check(report, id);
  assert.equal(c.verdict, 'pass', `${id}: ${c.message}`);
  return c;
}

function assertFail(report: Report, id: string, message: RegExp): CheckResult {
  const c = check(report, id);
  assert.equal(c.verdict, 'fail', `${id} should fail: ${c.message}`);
  assert.match(c.message, message);
  return c;
}

/** evidence of a failed check: the request as sent (API key redacted) and the response or the transport error */
function assertEvidence(
  c: CheckResult,
  want: { url: string | RegExp; status?: number; body?: RegExp; error?: RegExp },
): void {
  const ev = c.evidence;
  assert.ok(ev, `${c.id} has evidence`);
  if (typeof want.url === 'string') assert.equal(ev.request?.url, want.url);
  else assert.match(ev.request?.url ?? '', want.url);
  assert.equal(ev.request?.headers?.['X-API-Key'], '<API_KEY>', 'the API key is redacted in the evidence');
  assert.ok(!JSON.stringify(ev).includes(fake.apiKey), 'the API key appears nowhere in the evidence');
  if (want.status !== undefined) assert.equal(ev.response?.status, want.status);
  if (want.body) assert.match(ev.response?.body ?? '', want.body);
  if (want.error) assert.match(ev.error ?? '', want.error);
}

describe('status', () => {
  test('passes when the agent answers the expected status', async () => {
    const r = await run('checks/status.yaml');
    assert.match(assertPass(r, 'check-status/ping/status').message, /^status 200$/);
    assert.equal(r.exitCode, 0);
  });

  test('fails on another status, with the response as evidence', async () => {
    fake.route('GET /rest/system/ping', json({ ping: 'pong' }, { status: 500 }));
    const r = await run('checks/status.yaml');
    const c = assertFail(r, 'check-status/ping/status', /^status 500, expected 200$/);
    assert.equal(c.actual, 500);
    assertEvidence(c, { url: '/rest/system/ping', status: 500, body: /"pong"/ });
    assert.equal(r.exitCode, 1);
  });
});

describe('media type', () => {
  test('passes on application/json (parameters ignored) and on no Content-Type where none is due', async () => {
    fake.route('POST /rest/system/error/clear', text('', { contentType: null }));
    const r = await run('checks/media-type.yaml');
    assertPass(r, 'check-media-type/ping/media-type');
    assert.match(assertPass(r, 'check-media-type/clear/media-type').message, /no Content-Type/);
  });

  test('fails on text/plain where JSON is due, and on a Content-Type where none is due', async () => {
    fake.route('GET /rest/system/ping', text('{"ping":"pong"}'));
    fake.route('POST /rest/system/error/clear', text(''));
    const r = await run('checks/media-type.yaml');
    const c = assertFail(r, 'check-media-type/ping/media-type', /^media type text\/plain, expected application\/json$/);
    assertEvidence(c, { url: '/rest/system/ping', status: 200 });
    assert.equal(c.evidence?.response?.headers?.['content-type'], 'text/plain; charset=utf-8');
    assertFail(r, 'check-media-type/clear/media-type', /^media type text\/plain, expected no Content-Type$/);
  });
});

describe('schema', () => {
  test('passes on a valid document (by resource name)', async () => {
    const r = await run('checks/schema.yaml');
    assert.match(assertPass(r, 'check-schema/status/schema').message, /valid system-status/);
  });

  test('a document without a required field fails with the pointer of the field', async () => {
    const { myID: _, ...noId } = systemStatus();
    fake.route('GET /rest/system/status', json(noId));
    const r = await run('checks/schema.yaml');
    const c = assertFail(r, 'check-schema/status/schema', /not a valid system-status: 1 error \(\/myID required\)/);
    assert.deepEqual(
      c.schemaErrors?.map((e) => [e.pointer, e.rule]),
      [['/myID', 'required']],
    );
    assertEvidence(c, { url: '/rest/system/status', status: 200, body: /"uptime"/ });
  });

  test('a body that is not JSON fails the schema check, saying so', async () => {
    fake.route('GET /rest/system/status', text('<html>oops</html>', { contentType: 'application/json' }));
    const r = await run('checks/schema.yaml');
    assertFail(r, 'check-schema/status/schema', /system-status: the body is not JSON/);
  });
});

describe('assertions', () => {
  const right = {
    version: 37,
    gui: { enabled: true, address: '127.0.0.1:8384' },
    folders: [
      { id: 'abcd-1234', type: 'sendreceive', paused: false },
      { id: 'xyz-789', type: 'receiveonly', paused: false, label: 'x' },
    ],
    options: { listenAddresses: ['tcp://127.0.0.1:22000', 'tcp://127.0.0.1:22001'] },
  };
  const ops = ['equals', 'exists', 'absent', 'type', 'matches', 'contains', 'length', 'every', 'last', 'header'];

  test('every operator passes on a right document (contains matches an object by subset)', async () => {
    fake.route('GET /rest/config', json(right));
    const r = await run('checks/assert.yaml');
    for (const op of ops) assertPass(r, `check-assert/config/assert:${op}`);
  });

  test('every operator fails on a wrong document, saying what it found', async () => {
    const wrong = {
      version: '37',
      gui: { address: '0.0.0.0:8384' },
      removedField: 1,
      folders: [
        { id: 'abcd-1234', type: 'sendreceive' },
        { id: 'xyz-789', type: 'sendreceive' },
        { id: 'other', type: 'receiveonly' },
      ],
      options: { listenAddresses: ['tcp://127.0.0.1:22000', 'quic://127.0.0.1:22000', 7] },
    };
    fake.route('GET /rest/config', json(wrong, { headers: { 'X-Syncthing-Id': 'not-a-device-id' } }));
    const r = await run('checks/assert.yaml');
    const want: Record<string, RegExp> = {
      equals: /^\/version is "37", expected 37$/,
      exists: /^\/gui\/enabled is missing$/,
      absent: /^\/removedField exists \(1\)$/,
      type: /^\/version is of type string, expected integer$/,
      matches: /^\/gui\/address "0\.0\.0\.0:8384" does not match \/\^127/,
      contains: /^\/folders .* does not contain \{"id":"xyz-789","type":"receiveonly"\}$/,
      length: /^\/folders has length 3, expected 2$/,
      every:
        /^\/options\/listenAddresses \[1\] "quic:\/\/127\.0\.0\.1:22000" does not match \/\^tcp:\/\/\/; \[2\] is of type integer, expected string; \[2\] 7 does not match/,
      last: /^\/folders\/-1\/id is "other", expected "xyz-789"$/,
      header: /^header:X-Syncthing-Id "not-a-device-id" does not match/,
    };
    for (const op of ops) {
      const c = assertFail(r, `check-assert/config/assert:${op}`, want[op]);
      assertEvidence(c, { url: '/rest/config', status: 200 });
    }
  });
});

describe('capture', () => {
  test("a captured value flows into a later request's path and query", async () => {
    fake.route('GET /rest/config', json({ version: 37, folders: [{ id: 'cap-7q2x' }] }));
    fake.route('GET /rest/config/folders/cap-7q2x', json({ id: 'cap-7q2x' }));
    fake.route('GET /rest/db/status', json({ state: 'idle' }));
    const r = await run('checks/capture.yaml');
    assert.equal(assertPass(r, 'check-capture/config/capture:folderId').actual, 'cap-7q2x');
    assertPass(r, 'check-capture/folder/status');
    assertPass(r, 'check-capture/status/status');
    assert.equal(fake.received('GET /rest/config/folders/cap-7q2x').length, 1, 'the path carried the captured id');
    assert.deepEqual(
      fake.received('GET /rest/db/status').map((q) => q.query.get('folder')),
      ['cap-7q2x'],
      'the query carried the captured id',
    );
  });

  test('a pointer that finds nothing fails the capture, and the steps that need the value are not sent', async () => {
    fake.route('GET /rest/config', json({ version: 37, folders: [] }));
    const r = await run('checks/capture.yaml');
    assertFail(r, 'check-capture/config/capture:folderId', /^cannot capture folderId: nothing at \/folders\/0\/id$/);
    for (const step of ['folder', 'status']) {
      const c = check(r, `check-capture/${step}/request`);
      assert.equal(c.verdict, 'skip');
      assert.match(c.skipReason ?? '', /\{\{folderId\}\} has no value/);
    }
    assert.deepEqual(
      fake
        .received()
        .map((q) => `${q.method} ${q.path}`)
        .filter((k) => k !== 'GET /rest/system/version'),
      ['GET /rest/config'],
      'nothing else was sent',
    );
  });

  test('a captured value and a run variable flow into later assertions', async () => {
    const r = await run('checks/capture-in-assert.yaml');
    assertPass(r, 'check-capture-in-assert/first/assert:myID is the agent');
    assertPass(r, 'check-capture-in-assert/first/capture:startTime');
    assertPass(r, 'check-capture-in-assert/again/assert:startTime is stable');
  });

  test('a later answer that differs from the captured value fails, showing both', async () => {
    fake.route('GET /rest/system/status', [
      json(systemStatus()),
      json({ ...systemStatus(), startTime: '2026-11-22T05:00:00Z' }),
    ]);
    const r = await run('checks/capture-in-assert.yaml');
    assertFail(
      r,
      'check-capture-in-assert/again/assert:startTime is stable',
      /^\/startTime is "2026-11-22T05:00:00Z", expected "2026-11-22T04:16:51Z"$/,
    );
  });
});

describe('events', () => {
  const removed = (folderID: string, extra: Record<string, unknown> = {}) => ({ removed: [{ folderID, ...extra }] });
  /** DELETE /rest/cluster/pending/folders answers 200 (no body, as Syncthing) and runs `then` */
  const onDelete = (then: () => void = () => {}) =>
    fake.route('DELETE /rest/cluster/pending/folders', () => {
      then();
      return text('', { contentType: null });
    });
  const expectPolls = () => fake.events.polls.filter((p) => p.since > 0 || p.timeoutS > 0 || p.n > 1);

  test('a matching event passes (and its data schema is checked)', async () => {
    onDelete(() => fake.events.emit('PendingFoldersChanged', removed('xyz-789')));
    const r = await run('checks/event.yaml');
    assert.match(
      assertPass(r, 'check-event/changed/event:PendingFoldersChanged').message,
      /^PendingFoldersChanged event 1 after \d+ ms$/,
    );
    assertPass(r, 'check-event/changed/event-schema');
    assert.deepEqual(
      fake.events.polls[0].types,
      ['PendingFoldersChanged', 'PendingDevicesChanged'],
      'the cursor asks for its event types',
    );
  });

  test('an event from before the cursor was opened does not count', async () => {
    fake.events.emit('PendingFoldersChanged', removed('xyz-789'));
    onDelete();
    const r = await run('checks/event.yaml');
    assertFail(
      r,
      'check-event/changed/event:PendingFoldersChanged',
      /^no PendingFoldersChanged event matching the assertions within 400ms \(0 of that type seen\)$/,
    );
  });

  test('an event of the wrong type fails within the bound', async (t) => {
    onDelete(() => fake.events.emit('PendingDevicesChanged', { removed: [{ deviceID: fake.deviceId }] }));
    const t0 = performance.now();
    const r = await run('checks/event.yaml');
    const ms = performance.now() - t0;
    const c = assertFail(
      r,
      'check-event/changed/event:PendingFoldersChanged',
      /^no PendingFoldersChanged event matching the assertions within 400ms \(0 of that type seen\)$/,
    );
    assert.ok((c.evidence?.elapsedMs ?? Infinity) < 1000, `ended within the bound (${c.evidence?.elapsedMs} ms)`);
    assert.ok(ms < 3000, `the run took ${Math.round(ms)} ms`);
    assert.match(
      c.evidence?.request?.url ?? '',
      /^\/rest\/events\?events=PendingFoldersChanged%2CPendingDevicesChanged&since=\d+&timeout=0$/,
    );
    assert.ok((c.evidence?.attempts ?? 0) >= 1);
    t.diagnostic(`expectEvent within 400ms: ${expectPolls().length} polls of GET /rest/events while waiting`);
  });

  test('waiting for an event does not poll the agent in a tight loop', async () => {
    // under 1 s left the agent cannot long-poll (its timeout is whole seconds): the runner must pause between polls
    onDelete();
    await run('checks/event.yaml');
    const polls = expectPolls().length;
    assert.ok(polls <= 20, `${polls} polls of GET /rest/events in 400 ms`);
  });

  test('an event with data that does not match fails, showing the event', async () => {
    onDelete(() => fake.events.emit('PendingFoldersChanged', removed('other-1')));
    const r = await run('checks/event.yaml');
    const c = assertFail(
      r,
      'check-event/changed/event:PendingFoldersChanged',
      /\(1 of that type seen; last: \/data\/removed \[\{"folderID":"other-1"\}\] does not contain \{"folderID":"xyz-789"\}\)$/,
    );
    assert.deepEqual(
      (c.actual as FakeEvent[]).map((e) => e.data),
      [removed('other-1')],
    );
  });

  test('a matching event whose data breaks its schema fails the event schema check with the pointer', async () => {
    onDelete(() => fake.events.emit('PendingFoldersChanged', removed('xyz-789', { deviceID: 'not-a-device-id' })));
    const r = await run('checks/event.yaml');
    assertPass(r, 'check-event/changed/event:PendingFoldersChanged');
    const c = assertFail(
      r,
      'check-event/changed/event-schema',
      /^event data is not a valid pending-folders-changed: \/removed\/0\/deviceID pattern$/,
    );
    assert.deepEqual(
      c.schemaErrors?.map((e) => e.pointer),
      ['/removed/0/deviceID'],
    );
  });

  test('events split across two polls: the cursor moves on and the match in the second poll passes', async () => {
    onDelete();
    fake.events.onPoll = (poll, stream) => {
      if (poll.n === 2) stream.emit('PendingDevicesChanged', { removed: [{ deviceID: fake.deviceId }] });
      if (poll.n === 3) stream.emit('PendingFoldersChanged', removed('xyz-789'));
    };
    const r = await run('checks/event.yaml');
    assert.match(
      assertPass(r, 'check-event/changed/event:PendingFoldersChanged').message,
      /^PendingFoldersChanged event 2 /,
    );
    assert.deepEqual(
      fake.events.polls.map((p) => p.since),
      [0, 0, 1],
      'opened at 0, then polled from the last id seen',
    );
  });

  test('event ids that start again at 1 after the agent restarted (refused in between) are still seen', async () => {
    // the agent's life before the restart: ids 1..5, all older than the cursor
    for (let i = 0; i < 5; i++) fake.events.emit('PendingFoldersChanged', removed('before-restart'));
    fake.route('POST /rest/system/restart', restart({ downMs: 150 }));
    // after the restart: Starting (1), StartupComplete (2), then on the second poll of the new life the event (3 < 5)
    fake.events.onPoll = (poll, stream) => {
      if (poll.generation === 1 && poll.n === 2) stream.emit('PendingFoldersChanged', removed('after-restart'));
    };
    const r = await run('checks/event-restart.yaml');
    assertPass(r, 'check-event-restart/gone/unreachable');
    assertPass(r, 'check-event-restart/back/wait');
    assert.match(
      assertPass(r, 'check-event-restart/changed/event:PendingFoldersChanged').message,
      /^PendingFoldersChanged event 3 /,
    );
    const first = fake.events.polls.find((p) => p.generation === 1);
    assert.equal(first?.since, 0, 'the cursor was opened again on the new agent');
  });
});

describe('wait', () => {
  test('a condition that holds only on the 3rd poll passes, polled at the interval', async () => {
    fake.route('GET /rest/db/status', [
      json({ state: 'syncing' }),
      json({ state: 'syncing' }),
      json({ state: 'idle' }),
    ]);
    const r = await run('checks/wait.yaml');
    assert.match(assertPass(r, 'check-wait/idle/wait').message, /^held after 3 attempts \(\d+ ms\)$/);
    assertPass(r, 'check-wait/idle/assert:/state equals');
    const polls = fake.received('GET /rest/db/status');
    assert.equal(polls.length, 3);
    for (let i = 1; i < polls.length; i++)
      assert.ok(
        polls[i].at - polls[i - 1].at >= 45,
        `poll ${i + 1} came ${Math.round(polls[i].at - polls[i - 1].at)} ms after the one before (interval 50ms)`,
      );
  });

  test('a condition that never holds fails after the timeout, with the attempts', async () => {
    fake.route('GET /rest/db/status', json({ state: 'syncing' }));
    const t0 = performance.now();
    const r = await run('checks/wait.yaml');
    const ms = performance.now() - t0;
    const polls = fake.received('GET /rest/db/status').length;
    const c = assertFail(r, 'check-wait/idle/wait', new RegExp(`^did not hold within 400ms \\(${polls} attempts\\)$`));
    assert.ok(polls >= 3 && polls <= 9, `${polls} polls in 400ms at 50ms`);
    assert.equal((c.actual as { attempts: number }).attempts, polls);
    assertFail(r, 'check-wait/idle/assert:/state equals', /^\/state is "syncing", expected "idle"$/);
    assertEvidence(c, { url: '/rest/db/status?folder=abcd-1234', status: 200, body: /syncing/ });
    assert.equal(c.evidence?.attempts, polls);
    assert.ok(ms >= 350 && ms < 3000, `the wait took ${Math.round(ms)} ms`);
  });
});

describe('version gates', () => {
  test('a scenario newer than the agent runs in absent mode: its endpoint answering 404 passes', async () => {
    const r = await run('checks/absent.yaml');
    assert.equal(r.agent.version, 'v9.9.9');
    assert.equal(r.scenarios[0].mode, 'absent');
    assert.match(
      assertPass(r, 'check-absent/absent/GET /rest/system/debug').message,
      /absent \(404\) on agent v9\.9\.9, as expected before 10\.0\.0/,
    );
    assert.equal(
      fake.received('GET /rest/system/debug').filter((q) => q.query.has('probe')).length,
      0,
      'the normal steps are not sent',
    );
  });

  test('in absent mode the endpoint answering 200 fails', async () => {
    fake.route('GET /rest/system/debug', json({ enabled: [], facilities: {} }));
    const r = await run('checks/absent.yaml');
    const c = assertFail(
      r,
      'check-absent/absent/GET /rest/system/debug',
      /^GET \/rest\/system\/debug answered 200 on agent v9\.9\.9; an endpoint added in 10\.0\.0 must answer 404 \(or 405 where its path has another method\)$/,
    );
    assertEvidence(c, { url: '/rest/system/debug', status: 200 });
  });

  test('an agent at the version runs the scenario normally', async () => {
    fake.reset({ version: 'v10.0.0' });
    fake.route('GET /rest/system/debug', json({ enabled: [], facilities: {} }));
    const r = await run('checks/absent.yaml');
    assert.equal(r.scenarios[0].mode, 'normal');
    assertPass(r, 'check-absent/debug/status');
  });

  test('a step newer than the agent is skipped with the reason, and not sent', async () => {
    const r = await run('checks/step-since.yaml');
    assertPass(r, 'check-step-since/ping/status');
    const c = check(r, 'check-step-since/debug/version-gate');
    assert.equal(c.verdict, 'skip');
    assert.equal(c.skipReason, 'agent v9.9.9 predates 10.0.0');
    assert.equal(fake.received('GET /rest/system/debug').length, 0);
    assert.equal(r.exitCode, 0);
  });

  test('the same step runs on a newer agent', async () => {
    fake.reset({ version: 'v10.1.0-rc.1' });
    fake.route('GET /rest/system/debug', json({ enabled: [], facilities: {} }));
    const r = await run('checks/step-since.yaml');
    assertPass(r, 'check-step-since/debug/status');
  });
});

describe('version gates per endpoint (schemas/endpoints.json)', () => {
  // the real scenario files: their endpoints' gates are GET 1.13.0, DELETE 1.18.0 (Syncthing's documentation)
  const PENDING = ['../../../suites/cluster/pending-devices.yaml', '../../../suites/cluster/pending-folders.yaml'];
  const ALL_FOUR = ['GET', 'DELETE'].flatMap((m) =>
    ['devices', 'folders'].map((w) => `${m} /rest/cluster/pending/${w}`),
  );
  const scenarioOf = (endpoint: string) => `pending-${endpoint.split('/').at(-1)}`;

  test('1.12.1 (Debian: v1.12.1-ds1): all four pending operations are absent (four passing gate checks), and the GETs the spec names fail their own exists checks', async () => {
    fake.reset({ version: 'v1.12.1-ds1' });
    const r = await run(PENDING);
    assert.equal(r.agent.version, 'v1.12.1-ds1', 'the report keeps the raw version');
    assert.deepEqual(
      r.scenarios.map((s) => s.mode),
      ['absent', 'absent'],
    );
    for (const e of ALL_FOUR)
      assert.match(
        assertPass(r, `${scenarioOf(e)}/absent/${e}`).message,
        new RegExp(`absent \\(404\\) on agent v1\\.12\\.1-ds1, as expected before 1\\.1[38]\\.0$`),
      );
    for (const w of ['devices', 'folders']) {
      const gate = check(r, `pending-${w}/absent/DELETE /rest/cluster/pending/${w}`);
      assert.deepEqual(gate.statements, [`pending-${w}.delete.since`], 'the gate proves the version note');
      const exists = assertFail(
        r,
        `pending-${w}/absent/GET /rest/cluster/pending/${w} exists`,
        /^GET \/rest\/cluster\/pending\/\w+ is absent on agent v1\.12\.1-ds1 \(added in 1\.13\.0\): the spec names the path$/,
      );
      assert.deepEqual(exists.statements, [`related.pending-${w}-get.exists`]);
    }
    // what the steps would have checked of the DELETEs is not observable here: one skipped check says so
    const steps = check(r, 'pending-folders/absent/steps');
    assert.equal(steps.verdict, 'skip');
    assert.match(
      steps.skipReason!,
      /^agent v1\.12\.1-ds1 predates DELETE \/rest\/cluster\/pending\/folders \(since 1\.18\.0\)/,
    );
    for (const id of ['pending-folders.delete.removes', 'pending-folders.delete.ignore-prevents'])
      assert.ok(steps.statements!.includes(id), id);
    assert.ok(!steps.statements!.includes('pending-folders.delete.since'), 'the gate check proves that one');
    assert.equal(r.totals.checks, 8);
    assert.equal(r.totals.skip, 2);
    assert.equal(r.exitCode, 1);
    assert.deepEqual(
      fake
        .received()
        .filter((q) => q.path.startsWith('/rest/cluster/'))
        .map((q) => q.headers['x-api-key']),
      Array(4).fill(fake.apiKey),
      'probed with the API key',
    );
  });

  test('an agent between 1.13 and 1.17 has the GETs and not the DELETEs', async () => {
    fake.reset({ version: 'v1.15.0' });
    fake.route('GET /rest/cluster/pending/devices', json({}));
    fake.route('GET /rest/cluster/pending/folders', json({}));
    const r = await run(PENDING);
    assert.deepEqual(
      r.scenarios.map((s) => s.mode),
      ['absent', 'absent'],
    );
    for (const w of ['devices', 'folders']) {
      const present = assertPass(r, `pending-${w}/present/GET /rest/cluster/pending/${w}`);
      assert.match(
        present.message,
        /^GET \/rest\/cluster\/pending\/\w+ is present \(200\) on agent v1\.15\.0, which is past its gate$/,
      );
      assert.deepEqual(present.statements, [`related.pending-${w}-get.exists`], 'a present path proves it exists');
      assertPass(r, `pending-${w}/absent/DELETE /rest/cluster/pending/${w}`);
      assert.match(
        r.scenarios.find((s) => s.id === `pending-${w}`)!.notes!.join(' '),
        new RegExp(`predates DELETE /rest/cluster/pending/${w} \\(since 1\\.18\\.0\\)`),
      );
    }
    assert.equal(r.exitCode, 0);
  });

  test('1.13.0-1.17.x answer the DELETEs 405 (their path has a GET, as measured on 1.14.0): absent, not present', async () => {
    // Syncthing's router answers a method its path lacks with 405 and names the path's methods in Allow
    const notAllowed = text('Method Not Allowed\n', { status: 405, headers: { Allow: 'GET, OPTIONS' } });
    fake.reset({ version: 'v1.17.0' });
    for (const w of ['devices', 'folders']) {
      fake.route(`GET /rest/cluster/pending/${w}`, json({}));
      fake.route(`DELETE /rest/cluster/pending/${w}`, notAllowed);
    }
    const r = await run(PENDING);
    for (const w of ['devices', 'folders'])
      assert.match(
        assertPass(r, `pending-${w}/absent/DELETE /rest/cluster/pending/${w}`).message,
        /^DELETE \/rest\/cluster\/pending\/\w+ is absent \(405: the path answers GET, OPTIONS, not DELETE\) on agent v1\.17\.0, as expected before 1\.18\.0$/,
      );
    assert.equal(r.exitCode, 0);
    // a 405 that does not say the path has another method (no Allow, or Allow naming DELETE) shows no absence
    fake.route('DELETE /rest/cluster/pending/devices', text('Method Not Allowed\n', { status: 405 }));
    fake.route(
      'DELETE /rest/cluster/pending/folders',
      text('nope\n', { status: 405, headers: { Allow: 'GET, DELETE' } }),
    );
    const unclear = await run(PENDING);
    for (const w of ['devices', 'folders'])
      assertFail(
        unclear,
        `pending-${w}/absent/DELETE /rest/cluster/pending/${w}`,
        /answered 405 on agent v1\.17\.0; an endpoint added in 1\.18\.0 must answer 404 \(or 405 where its path has another method\)$/,
      );
    // past its gate, a GET answered 405 (its path has only another method) is missing, not present
    fake.reset({ version: 'v1.15.0' });
    fake.route(
      'GET /rest/cluster/pending/devices',
      text('Method Not Allowed\n', { status: 405, headers: { Allow: 'DELETE' } }),
    );
    assertFail(
      await run(PENDING),
      'pending-devices/present/GET /rest/cluster/pending/devices',
      /^GET \/rest\/cluster\/pending\/devices answered 405 \(405: the path answers DELETE, not GET\) on agent v1\.15\.0; it must be present \(not 404 or 405\) from its version on$/,
    );
  });

  test('each gate catches its fault: a DELETE answering on 1.15, a GET missing on 1.15, a GET answering on 1.12.1', async () => {
    fake.reset({ version: 'v1.15.0' });
    fake.route('GET /rest/cluster/pending/devices', json({}));
    fake.route('DELETE /rest/cluster/pending/devices', text('device ID missing', { status: 400 }));
    const r = await run(PENDING);
    assertFail(
      r,
      'pending-devices/absent/DELETE /rest/cluster/pending/devices',
      /^DELETE \/rest\/cluster\/pending\/devices answered 400 on agent v1\.15\.0; an endpoint added in 1\.18\.0 must answer 404 \(or 405 where its path has another method\)$/,
    );
    assertFail(
      r,
      'pending-folders/present/GET /rest/cluster/pending/folders',
      /^GET \/rest\/cluster\/pending\/folders answered 404 on agent v1\.15\.0; it must be present \(not 404 or 405\) from its version on$/,
    );
    assert.equal(r.exitCode, 1);
    fake.reset({ version: 'v1.12.1-ds1' });
    fake.route('GET /rest/cluster/pending/folders', json({}));
    assertFail(
      await run(PENDING),
      'pending-folders/absent/GET /rest/cluster/pending/folders',
      /answered 200 on agent v1\.12\.1-ds1; an endpoint added in 1\.13\.0 must answer 404 \(or 405 where its path has another method\)$/,
    );
  });

  test("present is any answer but the router's 404: a 404 from the endpoint's own handler (a missing parameter) counts", async () => {
    fake.reset({ version: 'v1.15.0' });
    fake.route('GET /rest/cluster/pending/devices', text('no such device\n', { status: 404 }));
    const r = await run(PENDING);
    assert.match(
      assertPass(r, 'pending-devices/present/GET /rest/cluster/pending/devices').message,
      /is present \(404 from its own handler: "no such device"\) on agent v1\.15\.0, which is past its gate$/,
    );
    assertFail(r, 'pending-folders/present/GET /rest/cluster/pending/folders', /answered 404 on agent v1\.15\.0/);
  });

  test('from 1.18.0 on, the scenarios run normally (here skipped: the fake has no peer, and says so)', async () => {
    fake.reset({ version: 'v1.18.0' });
    const r = await run(PENDING);
    assert.deepEqual(
      r.scenarios.map((s) => [s.mode, s.skipReason]),
      [
        ['skipped', 'needs peer: no peer in these tests'],
        ['skipped', 'needs peer: no peer in these tests'],
      ],
    );
  });

  test('a step calling an endpoint the agent predates must answer 404; without the API key it is an ordinary check', async () => {
    fake.reset({ version: 'v1.12.1-ds1' });
    fake.route('GET /rest/cluster/pending/devices', (req) =>
      req.headers['x-api-key'] ? text('404 page not found', { status: 404 }) : text('Forbidden', { status: 403 }),
    );
    let r = await run('checks/step-endpoint-gate.yaml');
    assert.match(
      assertPass(r, 'check-step-endpoint-gate/dismiss/version-gate').message,
      /^DELETE \/rest\/cluster\/pending\/devices is absent \(404\) on agent v1\.12\.1-ds1, as expected before 1\.18\.0$/,
    );
    assertPass(r, 'check-step-endpoint-gate/ping/status');
    assertPass(r, 'check-step-endpoint-gate/no-key/status');
    fake.route('DELETE /rest/cluster/pending/devices', json({}));
    r = await run('checks/step-endpoint-gate.yaml');
    assertFail(
      r,
      'check-step-endpoint-gate/dismiss/version-gate',
      /answered 200 on agent v1\.12\.1-ds1; an endpoint added in 1\.18\.0 must answer 404 \(or 405 where its path has another method\)$/,
    );
    assert.equal(check(r, 'check-step-endpoint-gate/ping/step').verdict, 'skip', 'a failed set-up skips the steps');
    fake.reset({ version: 'v1.18.0' });
    fake.route('DELETE /rest/cluster/pending/devices', text(''));
    fake.route('GET /rest/cluster/pending/devices', text('Forbidden', { status: 403 }));
    r = await run('checks/step-endpoint-gate.yaml');
    assertPass(r, 'check-step-endpoint-gate/dismiss/status');
  });
});

describe('unreachable', () => {
  test('holds when the connection is refused (after a shutdown)', async () => {
    fake.route('POST /rest/system/shutdown', shutdown());
    const r = await run('checks/unreachable.yaml');
    assert.match(
      assertPass(r, 'check-unreachable/gone/unreachable').message,
      /^no HTTP response \(refused\), as expected$/,
    );
  });

  test('fails when the agent still answers', async () => {
    fake.route('POST /rest/system/shutdown', json({ ok: 'shutting down' }));
    const r = await run('checks/unreachable.yaml');
    const c = assertFail(r, 'check-unreachable/gone/unreachable', /^the agent still answers \(status 200\)$/);
    assertEvidence(c, { url: '/rest/system/ping', status: 200, body: /pong/ });
  });

  test('fails when the agent hangs (a timeout is not "gone")', async () => {
    fake.route('POST /rest/system/shutdown', json({ ok: 'shutting down' }));
    fake.route('GET /rest/system/ping', hang());
    const r = await run('checks/unreachable.yaml');
    const c = assertFail(
      r,
      'check-unreachable/gone/unreachable',
      /^no response, but timeout rather than refused or reset$/,
    );
    assertEvidence(c, { url: '/rest/system/ping', error: /^timeout: no complete response within 300 ms$/ });
  });

  test('counts a reset connection as gone, as the scenario schema documents', async () => {
    // scenario.schema.json and suites/README.md: "connection refused or reset"
    fake.route('POST /rest/system/shutdown', json({ ok: 'shutting down' }));
    fake.route('GET /rest/system/ping', reset());
    const r = await run('checks/unreachable.yaml');
    assert.match(assertPass(r, 'check-unreachable/gone/unreachable').message, /\(reset\)/);
  });
});

describe('agent faults', () => {
  test('refused, reset, hang, garbage, a truncated or stalled body: each a failed request check with the cause; the run goes on', async () => {
    fake.route('POST /rest/system/shutdown', shutdown());
    fake.route('GET /rest/system/debug', reset());
    fake.route('GET /rest/system/browse', hang());
    fake.route('GET /rest/system/error', garbage());
    fake.route('GET /rest/system/config', truncated('{"version": 37, "folders": ['));
    fake.route('POST /rest/system/ping', stall());
    const t0 = performance.now();
    const r = await run('faults', {
      // the agent comes back for the scenarios after the refused one
      onScenario: (s) => {
        if (s.id === 'fault-refused') void fake.up();
      },
    });
    const ms = performance.now() - t0;
    assert.deepEqual(r.harnessErrors, [], 'no fault is a harness error');
    assert.deepEqual(
      r.scenarios.map((s) => s.id),
      ['fault-refused', 'fault-reset', 'fault-hang', 'fault-garbage', 'fault-truncated', 'fault-stall', 'fault-none'],
    );
    const faults: [string, string, RegExp][] = [
      [
        'fault-refused/ping/request',
        '/rest/system/ping',
        /^no response: refused: connect ECONNREFUSED 127\.0\.0\.1:\d+$/,
      ],
      ['fault-reset/debug/request', '/rest/system/debug', /^no response: reset: socket hang up$/],
      [
        'fault-hang/browse/request',
        '/rest/system/browse',
        /^no response: timeout: no complete response within 200 ms$/,
      ],
      ['fault-garbage/errors/request', '/rest/system/error', /^no response: garbage: Parse Error: /],
      ['fault-truncated/config/request', '/rest/system/config', /^no response: reset: response broke off: aborted$/],
      [
        'fault-stall/post-ping/request',
        '/rest/system/ping',
        /^no response: timeout: no complete response within 200 ms$/,
      ],
    ];
    for (const [id, url, message] of faults) {
      const c = assertFail(r, id, message);
      assert.equal(c.kind, 'request');
      assertEvidence(c, { url, error: /^(refused|reset|timeout|garbage): / });
      assert.equal(c.evidence?.response, undefined);
    }
    // within each scenario the next step still ran, and the last scenario passed entirely
    for (const s of ['fault-reset', 'fault-hang', 'fault-garbage', 'fault-truncated', 'fault-stall'])
      assertPass(r, `${s}/ping/status`);
    assert.equal(r.scenarios.at(-1)?.verdict, 'pass');
    assert.equal(r.exitCode, 1);
    assert.ok(ms < 3000, `the faults run took ${Math.round(ms)} ms (the hangs end at their 200 ms timeout)`);
  });
});

const synconf = (args: string[]) => cliAsync(args, { timeout: 30_000 });

const readReport = async (dir: string): Promise<Report> =>
  JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report;

/** `synconf run --agent` against the fake, with the suite `suite` of the fixtures */
const runCli = (dir: string, suite: string, ...more: string[]) =>
  synconf([
    'run',
    '--agent',
    fake.url,
    '--api-key',
    fake.apiKey,
    '--suite',
    fixture(suite),
    '--report-dir',
    dir,
    ...more,
  ]);

describe('malformed scenario files', () => {
  const file = (name: string) => `tests/fixtures/scenarios/${name}.yaml`;
  // [what the test shows, fixture, the lines the error may name, the step, the message]
  const ROWS: [what: string, name: string, lines: number[], step: string | undefined, message: string | RegExp][] = [
    // the flow map opened on line 7 is not closed; the parser notices it on line 8
    ['bad YAML is rejected with file, line and cause', 'malformed/bad-yaml', [7, 8], undefined, /^not valid YAML: \S/],
    [
      'an unknown key in a step (a schema violation) is rejected with file, the line of the key, and the key named',
      'malformed/unknown-key',
      [11],
      'ping-again',
      '/steps/1/expcet: unknown property "expcet" (did you mean "expect"?)',
    ],
    [
      'two steps with the same name are rejected with file, line and cause',
      'malformed/duplicate-step',
      [9],
      'ping',
      'step name "ping" is used twice in this scenario',
    ],
    [
      'expectEvent on a cursor no openEvents step opened is rejected with file, line and cause',
      'malformed/unopened-cursor',
      [11],
      'changed',
      'event cursor "pnding" is not opened by an earlier openEvents step',
    ],
    [
      'a schema check naming an unknown resource is rejected with file, line and cause',
      'malformed/unknown-schema',
      [10],
      'ping',
      'unknown schema "pingg" (did you mean "ping"?)',
    ],
    // The operators inside `every` are the same operators, checked by the scenario schema.
    [
      'an invalid regular expression inside every is rejected when the file loads',
      'unchecked/every-bad-regex',
      [10, 11],
      'config',
      /regular expression|regex/i,
    ],
    [
      'an unknown operator inside every is rejected when the file loads',
      'unchecked/every-unknown-operator',
      [10, 11],
      'config',
      /tpye/,
    ],
  ];
  for (const [what, name, lines, step, message] of ROWS)
    test(what, async () => {
      const sel = await selectScenarios([fixture(`${name}.yaml`)], undefined);
      assert.equal(sel.scenarios.length, 0);
      assert.equal(sel.errors.length, 1, JSON.stringify(sel.errors));
      const [e] = sel.errors;
      assert.ok(
        lines.some((n) => e.file === `${file(name)}:${n}`),
        `${e.file} is ${file(name)} at line ${lines.join(' or ')}`,
      );
      assert.equal(e.step, step);
      if (typeof message === 'string') assert.equal(e.message, message);
      else assert.match(e.message, message);
    });

  test('synconf run exits 2, runs nothing, and still writes report.json with every harness error', async () => {
    await withTemp('runner', async (dir) => {
      const out = await runCli(dir, 'malformed', '--no-expectations');
      assert.equal(out.code, 2, out.stderr);
      const report = await readReport(dir);
      assert.equal(report.exitCode, 2);
      assert.deepEqual(report.scenarios, []);
      assert.deepEqual(
        report.harnessErrors.map((e) => e.file?.replace(/:\d+$/, '')).sort(),
        ['bad-yaml', 'duplicate-step', 'unknown-key', 'unknown-schema', 'unopened-cursor'].map((n) =>
          file(`malformed/${n}`),
        ),
      );
      for (const e of report.harnessErrors) assert.ok(out.stderr.includes(e.message), `stderr names: ${e.message}`);
      assert.match(out.stdout, /HARNESS ERROR/);
      assert.equal(fake.received().length, 0, 'nothing was sent to the agent');
    });
  });
});

describe('exit codes of synconf run --agent (against the fake)', () => {
  test('0 when every check conforms', async () => {
    await withTemp('runner', async (dir) => {
      const out = await runCli(dir, 'checks/status.yaml', '--no-expectations');
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /CONFORMS: 1 scenario, 1 check: 1 passed/);
      const report = await readReport(dir);
      assert.equal(report.exitCode, 0);
      assert.equal(report.agent.version, 'v9.9.9');
      assert.equal(report.run.target, fake.url);
    });
  });

  test('1 when a check does not conform', async () => {
    fake.route('GET /rest/system/ping', json({ ping: 'pong' }, { status: 500 }));
    await withTemp('runner', async (dir) => {
      const out = await runCli(dir, 'checks/status.yaml', '--no-expectations');
      assert.equal(out.code, 1, out.stderr);
      assert.match(out.stdout, /DOES NOT CONFORM/);
      assert.equal((await readReport(dir)).totals.fail, 1);
    });
  });

  test('2 for --agent without --api-key (a usage error); the report says why', async () => {
    await withTemp('runner', async (dir) => {
      const out = await synconf([
        'run',
        '--agent',
        fake.url,
        '--suite',
        fixture('checks/status.yaml'),
        '--report-dir',
        dir,
      ]);
      assert.equal(out.code, 2, out.stderr);
      assert.match(out.stderr, /--agent needs --api-key/);
      assert.match((await readReport(dir)).harnessErrors[0].message, /--agent needs --api-key/);
      assert.equal(fake.received().length, 0);
    });
  });

  test('2 when the agent refuses the API key', async () => {
    await withTemp('runner', async (dir) => {
      const out = await synconf([
        'run',
        '--agent',
        fake.url,
        '--api-key',
        'wrong-key',
        '--suite',
        fixture('checks/status.yaml'),
        '--report-dir',
        dir,
      ]);
      assert.equal(out.code, 2, out.stderr);
      assert.match(out.stderr, /refuses the API key \(403 Forbidden\)/);
    });
  });

  test('0 when the only failing check is a listed known deviation (--expectations)', async () => {
    fake.route('GET /rest/system/ping', json({ ping: 'pong' }, { status: 500 }));
    await withTemp('runner', async (dir) => {
      const out = await runCli(dir, 'checks/status.yaml', '--expectations', fixture('expectations/status-known.yaml'));
      assert.equal(out.code, 0, out.stdout + out.stderr);
      assert.equal((await readReport(dir)).totals['expected-fail'], 1);
    });
  });
});

describe('known deviations', () => {
  test('a listed check that fails is an expected failure (exit 0)', async () => {
    fake.route('GET /rest/system/ping', json({ ping: 'pong' }, { status: 500 }));
    const r = await run('checks/status.yaml', { expectations: fixture('expectations/status-known.yaml') });
    const c = check(r, 'check-status/ping/status');
    assert.equal(c.verdict, 'expected-fail');
    assert.equal(c.deviation?.observed, 'GET /rest/system/ping answers 500');
    assert.equal(r.exitCode, 0);
  });

  test('a listed check that passes is an unexpected pass (exit 1)', async () => {
    const r = await run('checks/status.yaml', { expectations: fixture('expectations/status-known.yaml') });
    const c = check(r, 'check-status/ping/status');
    assert.equal(c.verdict, 'unexpected-pass');
    assert.equal(c.deviation?.file, 'tests/fixtures/scenarios/expectations/status-known.yaml');
    assert.doesNotMatch(c.message, /remove the entry/, "the hint is the reports' (view.ts), not the message's");
    assert.match(
      viewOf(r).problems[0].hint ?? '',
      /listed as a known deviation in tests\/fixtures\/scenarios\/expectations\/status-known\.yaml .*but the agent conforms now: remove the entry/,
    );
    assert.equal(r.exitCode, 1);
  });

  test('a schema deviation that lists only some of the errors still fails, naming the others', async () => {
    const { myID: _a, uptime: _b, ...broken } = systemStatus();
    fake.route('GET /rest/system/status', json(broken));
    const r = await run('checks/schema.yaml', { expectations: fixture('expectations/schema-some.yaml') });
    const c = assertFail(r, 'check-schema/status/schema', /1 error\(s\) not listed as known: \/uptime required$/);
    assert.deepEqual(
      c.schemaErrors?.map((e) => [e.pointer, e.known]),
      [
        ['/myID', true],
        ['/uptime', false],
      ],
    );
    assert.equal(r.exitCode, 1);
  });

  // The fake agent is v9.9.9; the file given (--expectations) lists its failing ping. Only a file whose range holds
  // the agent's version applies: another version's deviations would hide this version's own failures.
  const byRange: [string, { exitCode: number; verdict?: CheckResult['verdict']; error?: RegExp }][] = [
    ['>=9.0.0 <10.0.0', { exitCode: 0, verdict: 'expected-fail' }],
    ['*', { exitCode: 0, verdict: 'expected-fail' }],
    [
      '>=1.12.0 <1.13.0',
      {
        exitCode: 2,
        error:
          /^expectations file \S*e\.yaml is for versions ">=1\.12\.0 <1\.13\.0", not the agent's v9\.9\.9: give the file for 9\.9\.9, or --no-expectations to apply none$/,
      },
    ],
    ['>=10.0.0', { exitCode: 2, error: /is for versions ">=10\.0\.0", not the agent's v9\.9\.9/ }],
  ];
  for (const [range, want] of byRange)
    test(`--expectations of versions "${range}" for the agent v9.9.9: ${want.error ? 'refused, exit 2' : 'applied'}`, () =>
      withTemp('expectations-range', async (dir) => {
        fake.route('GET /rest/system/ping', json({ ping: 'pong' }, { status: 500 }));
        const file = join(dir, 'e.yaml');
        const listed = '  - { check: check-status/ping/status, observed: answers 500, reason: test }\n';
        await writeFile(file, `agent: fake\nversions: "${range}"\ndescription: d\ndeviations:\n${listed}`);
        const r = await run('checks/status.yaml', { expectations: file });
        assert.equal(r.exitCode, want.exitCode, JSON.stringify(r.harnessErrors));
        if (want.verdict) assert.equal(check(r, 'check-status/ping/status').verdict, want.verdict);
        if (!want.error) return;
        // nothing ran, and the report says why
        assert.equal(r.scenarios.length, 0);
        assert.equal(r.run.expectations, null);
        assert.equal(r.harnessErrors.length, 1);
        assert.match(r.harnessErrors[0].message, want.error);
      }));

  test('a schema deviation that lists every error is an expected failure', async () => {
    const { myID: _a, uptime: _b, ...broken } = systemStatus();
    fake.route('GET /rest/system/status', json(broken));
    const r = await run('checks/schema.yaml', { expectations: fixture('expectations/schema-all.yaml') });
    assert.equal(check(r, 'check-schema/status/schema').verdict, 'expected-fail');
    assert.equal(r.exitCode, 0);
  });
});

test('a header filled from a captured number is sent as its text (a mutant of the captured value must not crash)', async () => {
  // recorded: the recorder redacts each header as text (a number crashed it: synconf mutate exited 3)
  const r = await withTemp('header-template', (dir) =>
    run('checks/header-template.yaml', {}, recorderFor({ dir, mode: 'all', redact: [] })),
  );
  assertPass(r, 'check-header-template/ping/status');
  const ping = fake.requests.find((q) => q.path === '/rest/system/ping');
  assert.equal(ping?.headers['x-uptime'], '295');
});

// The assertion kinds that relate a value to another (issue 21): each holds on a right answer and fails on an
// answer broken in the way it exists to catch, naming what is wrong.
describe('relations: absolute, subsetOf, isCountOf (where), notBefore, unchangedFrom', () => {
  const debug = (enabled: string[]) => json({ enabled, facilities: { model: 'central hub', db: 'database' } });
  const report = (numFolders: number, sendonly: number, rescanIntvs: number[]) =>
    json({ numFolders, folderUses: { sendonly }, rescanIntvs });
  type Faults = {
    enabled?: string[];
    tilde?: string;
    numFolders?: number;
    sendonly?: number;
    intervals?: number[];
    changed?: boolean;
    stateChanged?: string;
  };
  const route = (faults: Faults) => {
    fake.route('GET /rest/system/debug', debug(faults.enabled ?? ['model']));
    const started = '2026-11-22T04:16:51.000000002Z';
    fake.route(
      'GET /rest/system/status',
      json({ ...systemStatus(fake.deviceId), tilde: faults.tilde ?? '/root', startTime: started }),
    );
    // the same instant as the start, written with another offset and more digits: not before it
    fake.route(
      'GET /rest/db/status',
      json({ stateChanged: faults.stateChanged ?? '2026-11-22T05:16:51.0000000020+01:00' }),
    );
    fake.route(
      'GET /rest/svc/report',
      report(faults.numFolders ?? 2, faults.sendonly ?? 1, faults.intervals ?? [60, 3600]),
    );
    const folders = [
      { id: 'abcd-1234', type: 'sendonly' },
      { id: 'efgh-5678', type: 'sendreceive' },
    ];
    const config = { version: 37, folders, gui: { theme: 'default' }, options: { urSeen: 3 } };
    const after = { ...config, gui: { theme: 'dark' }, options: { urSeen: faults.changed ? 4 : 3 } };
    fake.route('GET /rest/config', [json(config), json(after)]);
  };

  test('each holds on a right answer (the theme was meant to change)', async () => {
    route({});
    const r = await run('checks/relations.yaml');
    for (const id of ['enabled/assert:enabled are listed', 'status/assert:tilde is absolute'])
      assertPass(r, `check-relations/${id}`);
    assertPass(r, 'check-relations/report/assert:numFolders counts the folders');
    assertPass(r, 'check-relations/report/assert:sendonly counts the send-only folders');
    assertPass(r, 'check-relations/report/assert:one interval a folder');
    assertPass(r, 'check-relations/folder/assert:state changed after the start');
    assertPass(r, 'check-relations/config-after/assert:only the theme changed');
  });

  const broken: [what: string, faults: Faults, check: string, message: RegExp][] = [
    [
      'an enabled facility not listed',
      { enabled: ['model', 'nope'] },
      'enabled/assert:enabled are listed',
      /has "nope", not in/,
    ],
    ['a relative home', { tilde: 'root' }, 'status/assert:tilde is absolute', /"root" is not an absolute path/],
    [
      'a folder count one too many',
      { numFolders: 3 },
      'report/assert:numFolders counts the folders',
      /is 3, expected 2 \(the count of/,
    ],
    [
      'a counter of all folders where it counts those of one type',
      { sendonly: 2 },
      'report/assert:sendonly counts the send-only folders',
      /is 2, expected 1 \(the count of .* where \/type equals "sendonly"\)/,
    ],
    [
      'a list one item longer than the other',
      { intervals: [60, 3600, 3600] },
      'report/assert:one interval a folder',
      /is \[60,3600,3600\], expected 2 \(the count of/,
    ],
    [
      'a state change an hour before the start',
      { stateChanged: '2026-11-22T03:16:51Z' },
      'folder/assert:state changed after the start',
      /"2026-11-22T03:16:51Z" is before "2026-11-22T04:16:51.000000002Z"/,
    ],
    [
      'a state change a nanosecond before the start',
      { stateChanged: '2026-11-22T04:16:51.000000001Z' },
      'folder/assert:state changed after the start',
      /is before/,
    ],
    [
      'a state change that is no timestamp',
      { stateChanged: 'yesterday' },
      'folder/assert:state changed after the start',
      /"yesterday" is not an RFC 3339 timestamp/,
    ],
    [
      'a change beyond the one meant',
      { changed: true },
      'config-after/assert:only the theme changed',
      /changed beyond \/gui\/theme: \/options\/urSeen \(3 → 4\)/,
    ],
  ];
  for (const [what, faults, id, message] of broken)
    test(`fails on ${what}`, async () => {
      route(faults);
      assertFail(await run('checks/relations.yaml'), `check-relations/${id}`, message);
    });
});

// What the lab knows of the agent's host (run variables agent.home and agent.pathSeparator) and the relations that use
// it: each holds on a right answer and fails on the answer it exists to catch.
describe('relations of the host: agent.home, agent.pathSeparator, endsWith, subsetOf of an object', () => {
  interface Faults {
    tilde?: string;
    separator?: string;
    entries?: string[];
    listeners?: string[];
    listen?: string[];
  }
  const route = (faults: Faults) => {
    const listener = { error: null, lanAddresses: [], wanAddresses: [] };
    const connectionServiceStatus = Object.fromEntries(
      (faults.listeners ?? ['tcp://127.0.0.1:28001']).map((a) => [a, listener]),
    );
    const status = { ...systemStatus(fake.deviceId), connectionServiceStatus, tilde: faults.tilde ?? '/root' };
    fake.route('GET /rest/system/status', json({ ...status, pathSeparator: faults.separator ?? '/' }));
    fake.route('GET /rest/system/browse', json(faults.entries ?? ['/root/a/', '/root/b/']));
    fake.route('GET /rest/config', json({ options: { listenAddresses: faults.listen ?? ['tcp://127.0.0.1:28001'] } }));
  };
  const all = [
    "status/assert:tilde is the agent's home",
    "status/assert:the separator of the agent's host",
    'browse/assert:entries end with the separator',
    'config/assert:each listen address is a listener',
    'listeners/assert:each listener is a listen address',
  ];

  test('each holds on a right answer', async () => {
    route({});
    const r = await run('checks/host-relations.yaml');
    for (const id of all) assertPass(r, `check-host-relations/${id}`);
  });

  const broken: [what: string, faults: Faults, check: string, message: RegExp][] = [
    ["another user's home", { tilde: '/home/other' }, all[0], /is "\/home\/other", expected "\/root"/],
    ['a separator of another host', { separator: '\\' }, all[1], /is "\\\\", expected "\/"/],
    [
      'an entry without the separator',
      { entries: ['/root/a/', '/root/b'] },
      all[2],
      /\[1\] "\/root\/b" does not end with "\/"/,
    ],
    [
      'a configured listen address with no listener',
      { listen: ['tcp://127.0.0.1:28001', 'quic://127.0.0.1:28001'] },
      all[3],
      /has "quic:\/\/127\.0\.0\.1:28001", not in/,
    ],
    [
      'a listener the configuration does not have',
      { listeners: ['tcp://127.0.0.1:28001', 'tcp://0.0.0.0:22000'] },
      all[4],
      /has "tcp:\/\/0\.0\.0\.0:22000", not in/,
    ],
  ];
  for (const [what, faults, id, message] of broken)
    test(`fails on ${what}`, async () => {
      route(faults);
      assertFail(await run('checks/host-relations.yaml'), `check-host-relations/${id}`, message);
    });
});

describe('a live answer judged as it is', () => {
  const cases: [string, string, RegExp | null][] = [
    [
      'nested 200,000 deep: a failing check, not a stack overflow',
      '['.repeat(200_000) + ']'.repeat(200_000),
      /nests deeper than 1000 levels/,
    ],
    ['150,000 members: parsed (only a cassette bounds members)', `[${'0,'.repeat(150_000)}0]`, null],
    ['brackets inside a string do not count', JSON.stringify({ s: '['.repeat(5000) }), null],
  ];
  for (const [name, body, error] of cases)
    test(name, () => {
      const parsed = parseBody(body);
      if (error) assert.match(parsed.jsonError ?? '', error);
      else assert.equal(parsed.jsonError, undefined);
    });
});
