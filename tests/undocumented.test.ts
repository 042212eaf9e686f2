// Undocumented members: a response member its schema does not name is a note per endpoint and member
// (a failing check under --strict), found by validators generated from the schemas themselves, and
// shown in every report format. Real documents: the bundled 1.19.2 recordings; faults: the fake agent.
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { Report } from '../src/schema/generated/types.js';
import { undocumentedMembers } from '../src/schema/undocumented.js';
import { validate } from '../src/schema/registry.js';
import { runScenarios, type RunOptions } from '../src/runner/run.js';
import { selectScenarios } from '../src/scenario/select.js';
import { liveTarget } from '../src/runner/targets.js';
import { toMarkdown } from '../src/report/markdown.js';
import { toJUnit } from '../src/report/junit.js';
import { toHtml } from '../src/report/html.js';
import { mergeReports } from '../src/matrix/merge.js';
import { matrixToMarkdown } from '../src/report/matrix-markdown.js';
import { matrixToHtml } from '../src/report/matrix-html.js';
import { ROOT, RECORDINGS_DIR } from '../src/paths.js';
import { startFakeAgent, systemStatus, json, type FakeAgent } from './support/fake-agent.js';
import { cli } from './support/cli.js';
import { tempFolder } from './support/temp.js';

/** the first 200 JSON body recorded for `path` in the bundled 1.19.2 recordings */
function recorded(path: string): unknown {
  const dir = join(RECORDINGS_DIR, 'syncthing-1.19.2');
  // the fullest answer of all the cassettes: an early one can be an empty list (a need asked before anything is
  // needed, as auth-with-key asks it)
  const texts = readdirSync(dir)
    .filter((f) => f.endsWith('.har'))
    .flatMap((file) => {
      const har = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
        log: { entries: { request: { url: string }; response: { status: number; content: { text?: string } } }[] };
      };
      return har.log.entries
        .filter((e) => new URL(e.request.url).pathname === path && e.response.status === 200 && e.response.content.text)
        .map((e) => e.response.content.text!);
    })
    .sort((a, b) => b.length - a.length);
  if (texts.length) return JSON.parse(texts[0]);
  throw new Error(`no recorded 200 answer of ${path}`);
}

/** `doc` without the member at `path` (segments separated by "/", "*" for every entry of a map or array) */
function without(doc: unknown, path: string): unknown {
  const copy = structuredClone(doc);
  const drop = (node: unknown, segments: string[]): void => {
    if (node === null || typeof node !== 'object') return;
    const [head, ...rest] = segments;
    const children = head === '*' ? Object.values(node) : [(node as Record<string, unknown>)[head]];
    if (rest.length === 0 && head !== '*') delete (node as Record<string, unknown>)[head];
    else children.forEach((c) => drop(c, rest));
  };
  drop(copy, path.split('/'));
  return copy;
}

describe('undocumented members, from the schemas', () => {
  test('an extra member is named; a document with only documented members has none', () => {
    assert.deepEqual(undocumentedMembers('ping', { ping: 'pong', extra: 1 }), ['extra']);
    assert.deepEqual(undocumentedMembers('ping', { ping: 'pong' }), []);
  });

  test('below a map or an array the key or index is *, so a note does not depend on IDs', () => {
    const status = systemStatus();
    assert.deepEqual(undocumentedMembers('system-status', status), [], 'the fake status documents every member');
    (status.connectionServiceStatus as Record<string, Record<string, unknown>>)['tcp://127.0.0.1:28001'].extra = true;
    status.alsoNew = 1;
    assert.deepEqual(undocumentedMembers('system-status', status).sort(), [
      'alsoNew',
      'connectionServiceStatus/*/extra',
    ]);
  });

  test('members documented through allOf and $ref ($defs shared by folders and their template) are not notes', () => {
    const config = recorded('/rest/config') as {
      folders: Record<string, unknown>[];
      defaults: { folder: Record<string, unknown> };
    };
    const before = undocumentedMembers('config', config);
    assert.ok(
      !before.some((m) => /^(folders\/\*|defaults\/folder)\/(id|label|path|type|devices)$/.test(m)),
      before.join(', '),
    );
    config.defaults.folder.newField = 1;
    assert.ok(undocumentedMembers('config', config).includes('defaults/folder/newField'));
  });

  test('event data documented under if/then: named for a PendingDevicesChanged event, not for an event whose data the spec leaves open', () => {
    const data = { added: [{ deviceID: systemStatus().myID, name: 'peer', address: '127.0.0.1:22000', extra: 1 }] };
    const event = (type: string) => ({ id: 1, globalID: 1, time: '2026-11-23T08:00:00Z', type, data });
    assert.deepEqual(undocumentedMembers('events', [event('PendingDevicesChanged')]), ['*/data/added/*/extra']);
    assert.deepEqual(undocumentedMembers('events', [event('StateChanged')]), []);
    assert.deepEqual(undocumentedMembers('pending-devices-changed', data), ['added/*/extra']);
  });

  test('on the real 1.19.2 answers, removing exactly the named members leaves none, and the document stays valid', () => {
    for (const [path, resource] of [
      ['/rest/config', 'config'],
      ['/rest/system/status', 'system-status'],
      ['/rest/svc/report', 'usage-report'],
      ['/rest/db/need', 'need'],
    ] as const) {
      const doc = recorded(path);
      const members = undocumentedMembers(resource, doc);
      assert.ok(members.length > 0, `${path}: 1.19.2 sends members the spec does not name`);
      const clean = members.reduce(without, doc);
      assert.deepEqual(undocumentedMembers(resource, clean), [], path);
      // None of them was required: the schema check gives the same errors with or without them.
      assert.deepEqual(
        validate(resource, clean, '1.19.2').map((e) => e.pointer),
        validate(resource, doc, '1.19.2').map((e) => e.pointer),
        path,
      );
    }
  });

  test("synconf's own files are not the agent's: no notes for them", () => {
    assert.deepEqual(undocumentedMembers('report', { anything: 1 }), []);
  });
});

describe('undocumented members in a run', () => {
  let fake: FakeAgent;
  before(async () => {
    fake = await startFakeAgent();
  });
  after(async () => {
    await fake.close();
  });
  beforeEach(() => fake.reset());

  async function run(opts: Partial<RunOptions> = {}): Promise<Report> {
    const selection = await selectScenarios(
      [join(ROOT, 'tests', 'fixtures', 'scenarios', 'checks', 'schema.yaml')],
      undefined,
    );
    const target = liveTarget(
      'live',
      'fake',
      { agent: { url: fake.url, apiKey: fake.apiKey } },
      { files: true, restart: true, shutdown: true, peer: 'none' },
      { agent: { deviceId: fake.deviceId, syncAddress: null, dataDir: null } },
      [],
    );
    try {
      return await runScenarios(selection, target, { expectations: false, requestTimeoutMs: 2000, ...opts });
    } finally {
      await target.close();
    }
  }
  const extra = () => fake.route('GET /rest/system/status', json({ ...systemStatus(), extra: 'x' }));

  test('a response with an extra member is reported as a note and counted; the schema check still passes', async () => {
    extra();
    const r = await run();
    assert.deepEqual(r.undocumented, [
      { endpoint: 'GET /rest/system/status', resource: 'system-status', member: 'extra', scenarios: ['check-schema'] },
    ]);
    assert.equal(r.exitCode, 0);
    assert.match(r.verdict, /; 1 undocumented member \(/);
    assert.equal(
      r.scenarios[0].checks.find((c) => c.id.endsWith('/undocumented')),
      undefined,
      'no check without --strict',
    );
  });

  test('--strict makes it a failing check of its exchange (exit 1); without members the check passes', async () => {
    extra();
    const r = await run({ strict: true });
    const c = r.scenarios[0].checks.find((x) => x.id === 'check-schema/status/undocumented');
    assert.equal(c?.verdict, 'fail');
    assert.match(c!.message, /"extra"/);
    assert.equal(r.exitCode, 1);
    assert.equal(r.run.strict, true);
    fake.reset();
    const clean = await run({ strict: true });
    assert.deepEqual(clean.undocumented, []);
    assert.equal(clean.scenarios[0].checks.find((x) => x.id === 'check-schema/status/undocumented')?.verdict, 'pass');
    assert.equal(clean.exitCode, 0);
  });

  test('every report format shows the note', async () => {
    extra();
    const r = await run();
    const line = 'GET /rest/system/status: undocumented member "extra"';
    assert.match(
      toMarkdown(r),
      /### Undocumented members \(1, agent v9\.9\.9; notes; --strict makes them failures\)\n\n- GET \/rest\/system\/status: undocumented member "extra" \(check-schema\)/,
    );
    const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(toJUnit(r)) as {
      testsuites: { testsuite: { properties: { property: { name: string; value: string }[] } } };
    };
    assert.ok(
      junit.testsuites.testsuite.properties.property.some((p) => p.name === 'undocumented' && p.value === line),
    );
    const html = toHtml(r, { endpoints: [] });
    // a section of its own, collapsed (notes: the first screen is for what fails and what is listed)
    assert.match(html, /<section id="undocumented"><details><summary><h2>Undocumented members \(1\)<\/h2>/);
    assert.match(html, /<code>extra<\/code>/);
  });
});

describe('synconf replay (the built command) and --strict', () => {
  const work = tempFolder('undocumented');
  const replay = (name: string, ...extra: string[]) => {
    const dir = join(work(), name);
    const r = cli(['replay', '--only', 'system-status', '--report-dir', dir, ...extra]);
    return {
      code: r.code,
      out: r.out,
      report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report,
    };
  };

  test('the bundled 1.19.2 status has members the spec does not name: notes (exit 0), failures with --strict (exit 1)', () => {
    const notes = replay('notes');
    assert.equal(notes.code, 0, notes.out);
    const members = notes.report.undocumented
      ?.filter((n) => n.endpoint === 'GET /rest/system/status')
      .map((n) => n.member);
    assert.deepEqual(members, ['guiAddressOverridden', 'guiAddressUsed', 'urVersionMax']);
    assert.match(notes.out, /; 3 undocumented members \(/);
    const strict = replay('strict', '--strict');
    assert.equal(strict.code, 1, strict.out);
    assert.deepEqual(strict.report.undocumented, notes.report.undocumented);
    const failed = strict.report.scenarios.flatMap((s) => s.checks).filter((c) => c.verdict === 'fail');
    assert.ok(
      failed.length > 0 && failed.every((c) => c.id.endsWith('/undocumented')),
      failed.map((c) => c.id).join(', '),
    );
  });
});

describe('undocumented members across versions (matrix)', () => {
  const fixture = (): Report =>
    JSON.parse(readFileSync(join(ROOT, 'tests', 'fixtures', 'reports', 'pass.json'), 'utf8')) as Report;
  const note = (endpoint: string, member: string) => ({ endpoint, resource: 'x', member, scenarios: ['s'] });
  test('a member only the newer version sends is listed first, with the versions that send it, in matrix.json, .md and .html', () => {
    const older = {
      ...fixture(),
      agent: { ...fixture().agent, version: 'v1.19.2' },
      undocumented: [note('GET /rest/system/status', 'urVersionMax'), note('GET /rest/config', 'gone')],
    };
    const newer = {
      ...fixture(),
      agent: { ...fixture().agent, version: 'v1.29.5' },
      undocumented: [note('GET /rest/system/status', 'urVersionMax'), note('GET /rest/system/version', 'extra')],
    };
    const m = mergeReports([newer, older]);
    assert.deepEqual(m.undocumented, [
      { endpoint: 'GET /rest/config', member: 'gone', columns: [1] },
      { endpoint: 'GET /rest/system/version', member: 'extra', columns: [0] },
      { endpoint: 'GET /rest/system/status', member: 'urVersionMax', columns: [0, 1] },
    ]);
    const md = matrixToMarkdown(m);
    assert.match(md, /### Undocumented members \(3; 2 not in every version\)/);
    assert.match(
      md,
      /\| GET \/rest\/system\/version \| extra \| – \| sent \|/,
      'oldest version first: 1.19.2 does not send it, 1.29.5 does',
    );
    assert.match(md, /1 undocumented member is sent by every version/);
    assert.match(matrixToHtml(m), /<p id="undocumented">3 members, 2 not in every version\.<\/p>/);
    assert.equal(mergeReports([fixture(), fixture()]).undocumented, undefined, 'no notes, no section');
  });
});
