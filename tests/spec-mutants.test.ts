// Spec-derived mutants (synconf mutate --from spec): each operator, applied to a recorded exchange of the bundled
// recordings, gives a well-formed answer that breaks its statement; a statement's mutant is caught by the suite and
// survives when the check citing that statement is removed (the operator matters); every statement of the index
// gets an operator, or a reason; the operator list is the schema's.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCassette } from '../src/transport/cassette.js';
import { applyTarget, type SpecTarget } from '../src/mutate/spec-operators.js';
import { targetsOf } from '../src/mutate/spec-targets.js';
import { SPEC_OPERATORS, type SpecOperator } from '../src/mutate/operators.js';
import { mutate } from '../src/mutate/mutate.js';
import { loadStatements } from '../src/schema/statements.js';
import { ROOT, SCHEMAS_DIR } from '../src/paths.js';
import type { HarEntry } from '../src/schema/generated/types.js';
import { tempFolder } from './support/temp.js';

const DIR = join(ROOT, 'recordings', 'syncthing-1.29.5');
const entriesOf = (scenario: string) => readCassette(DIR, scenario)!.log.entries;
const body = (e: HarEntry) => JSON.parse(e.response.content.text) as Record<string, unknown>;
const isJson = (e: HarEntry) =>
  (e.response.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '').includes('json');

/** operator → the scenario whose recordings it changes, its target, and what the changed answer must show */
const ROWS: Record<SpecOperator, [string, SpecTarget, (after: HarEntry, before: HarEntry) => boolean]> = {
  retype: [
    'system-status',
    { operator: 'retype', endpoints: ['GET /rest/system/status'], at: '/uptime' },
    (a) => typeof body(a).uptime === 'string',
  ],
  'drop-member': [
    'system-status',
    { operator: 'drop-member', endpoints: ['GET /rest/system/status'], at: '/lastDialStatus' },
    (a) => !('lastDialStatus' in body(a)),
  ],
  'other-value': [
    'system-config',
    { operator: 'other-value', endpoints: ['GET /rest/config'], at: '/options/natLeaseMinutes' },
    (a, b) =>
      (body(a).options as { natLeaseMinutes: number }).natLeaseMinutes ===
      (body(b).options as { natLeaseMinutes: number }).natLeaseMinutes + 1,
  ],
  'set-value': [
    'system-ping',
    { operator: 'set-value', endpoints: ['POST /rest/system/ping'], at: '/ping', value: 'pang' },
    (a) => body(a).ping === 'pang',
  ],
  'counter-skew': [
    'svc-report',
    { operator: 'counter-skew', endpoints: ['GET /rest/svc/report'], at: '/numDevices' },
    (a, b) => body(a).numDevices === (body(b).numDevices as number) + 1,
  ],
  'drop-key': [
    'system-debug',
    { operator: 'drop-key', endpoints: ['GET /rest/system/debug'], at: '/facilities/db' },
    (a) => !('db' in (body(a).facilities as object)),
  ],
  'rename-keys': [
    'system-status',
    { operator: 'rename-keys', endpoints: ['GET /rest/system/status'], at: '/connectionServiceStatus' },
    (a) => Object.keys(body(a).connectionServiceStatus as object).every((k) => k.startsWith('mutant-')),
  ],
  'add-item': [
    'system-debug',
    { operator: 'add-item', endpoints: ['GET /rest/system/debug'], at: '/enabled', value: 'mutant-facility' },
    (a) => (body(a).enabled as string[]).includes('mutant-facility'),
  ],
  'swap-separator': [
    'system-browse',
    { operator: 'swap-separator', endpoints: ['GET /rest/system/browse'], at: '/*' },
    (a) => (JSON.parse(a.response.content.text) as string[]).every((p) => !p.includes('/')),
  ],
  'relative-path': [
    'system-status',
    { operator: 'relative-path', endpoints: ['GET /rest/system/status'], at: '/tilde' },
    (a) => !(body(a).tilde as string).startsWith('/'),
  ],
  'absolute-path': [
    'system-ping',
    { operator: 'absolute-path', endpoints: ['POST /rest/system/ping'], at: '/ping' },
    (a) => body(a).ping === '/pong',
  ],
  'strip-trailing-separator': [
    'system-browse',
    { operator: 'strip-trailing-separator', endpoints: ['GET /rest/system/browse'], at: '/*' },
    (a) => (JSON.parse(a.response.content.text) as string[]).every((p) => !p.endsWith('/')),
  ],
  'drop-offset': [
    'system-status',
    { operator: 'drop-offset', endpoints: ['GET /rest/system/status'], at: '/startTime' },
    (a) => !/(Z|[+-]\d\d:\d\d)$/.test(body(a).startTime as string),
  ],
  'foreign-id': [
    'system-status',
    { operator: 'foreign-id', endpoints: ['GET /rest/system/status'], at: '/myID' },
    (a, b) => body(a).myID !== body(b).myID && /^([A-Z2-7]{7}-){7}[A-Z2-7]{7}$/.test(body(a).myID as string),
  ],
  'freeze-value': [
    'system-restart',
    { operator: 'freeze-value', endpoints: ['GET /rest/system/status'], at: '/startTime' },
    (a, b) => body(a).startTime !== body(b).startTime,
  ],
  refuse: [
    'system-ping',
    { operator: 'refuse', endpoints: ['POST /rest/system/ping'] },
    (a) => a.response.status === 400 && !isJson(a),
  ],
  'accept-refused': [
    'db-status',
    { operator: 'accept-refused', endpoints: ['GET /rest/db/status'], statuses: [404] },
    (a) => a.response.status === 200 && isJson(a),
  ],
  'error-body': [
    'db-status',
    { operator: 'error-body', endpoints: ['GET /rest/db/status'], statuses: [404] },
    (a) => a.response.status === 404 && isJson(a),
  ],
  'fill-body': [
    'pending-devices',
    { operator: 'fill-body', endpoints: ['DELETE /rest/cluster/pending/devices'] },
    (a) => a.response.content.text === '{}',
  ],
  'media-type': [
    'system-status',
    { operator: 'media-type', endpoints: ['GET /rest/system/status'] },
    (a) => !isJson(a),
  ],
  absent: [
    'system-debug',
    { operator: 'absent', endpoints: ['GET /rest/system/debug'] },
    (a) => a.response.status === 404,
  ],
  present: ['db-status', { operator: 'present', endpoints: ['GET /rest/db/status'] }, (a) => a.response.status === 200],
  'undo-effect': [
    'system-error-clear',
    { operator: 'undo-effect', endpoints: ['POST /rest/system/error/clear'] },
    (a, b) => a.response.content.text !== b.response.content.text,
  ],
  'drop-events': [
    'pending-folders',
    { operator: 'drop-events', endpoints: ['GET /rest/events'], event: 'PendingFoldersChanged' },
    (a) => !a.response.content.text.includes('PendingFoldersChanged'),
  ],
};

describe('each spec-derived operator, on a recorded exchange', () => {
  test("the operators are the schema's list", () => {
    const schema = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'mutation-report.schema.json'), 'utf8'));
    assert.deepEqual(schema.$defs.specOperator.enum, Object.keys(SPEC_OPERATORS));
    assert.deepEqual(Object.keys(ROWS).sort(), Object.keys(SPEC_OPERATORS).sort());
  });
  for (const [operator, [scenario, target, breaks]] of Object.entries(ROWS))
    test(`${operator} (${scenario})`, () => {
      const entries = entriesOf(scenario);
      const replaced = applyTarget(entries, target);
      assert.ok(replaced.size > 0, 'changes nothing');
      for (const [i, after] of replaced) {
        if (isJson(after)) JSON.parse(after.response.content.text); // well-formed: a JSON answer still parses
        assert.ok(after.request === entries[i].request || after.request.url === entries[i].request.url);
        assert.ok(
          breaks(after, entries[i]),
          `${operator}: ${after.response.status} ${after.response.content.text.slice(0, 200)}`,
        );
      }
    });
});

describe('every statement of the index', () => {
  test('has an operator, or a reason why none applies', async () => {
    for (const s of await loadStatements()) {
      if (s.notCheckable || s.sameAs) continue;
      const found = targetsOf(s, '1.29.5');
      if ('none' in found) assert.ok(found.none.length > 20, s.id);
      else for (const t of found.targets) assert.ok(t.operator in SPEC_OPERATORS && t.endpoints.length, s.id);
    }
  });
});

describe('a statement about an endpoint the agent does not have yet', () => {
  test('has no operator on that agent, and the reason names the version; from that version on it has one', async () => {
    const removes = (await loadStatements()).find((s) => s.id === 'pending-folders.delete.removes')!;
    const before = targetsOf(removes, 'v1.12.1');
    assert.ok('none' in before && /exists from 1\.18\.0/.test(before.none), JSON.stringify(before));
    const after = targetsOf(removes, 'v1.19.2');
    assert.ok('targets' in after && after.targets[0].operator === 'undo-effect', JSON.stringify(after));
  });
});

describe('a member the agent leaves out', () => {
  test('masks its statement when a check already fails on it as a known deviation (1.19.2 has no discoveryEnabled)', async () => {
    const report = await mutate({
      dir: join(ROOT, 'recordings', 'syncthing-1.19.2'),
      suites: [join(ROOT, 'suites', 'system', 'status.yaml')],
      from: 'spec',
    });
    const entry = report.statements!.entries.find((e) => e.id === 'status.discoveryEnabled.type')!;
    assert.equal(entry.outcome, 'masked');
    assert.match(entry.reason!, /lack discoveryEnabled, and system-status\/.* already fails on it, a known deviation/);
  });
});

/** statement → the suite file whose checks cite it (every line citing it removed: the mutant must survive) */
const MATTERS: [string, string][] = [
  ['status.tilde.home', 'suites/system/status.yaml'],
  ['report.version.agent', 'suites/svc/report.yaml'],
  ['config.folder.order.default', 'suites/system/config.yaml'],
];

describe('the check that cites a statement is what catches its mutant', () => {
  const work = tempFolder('spec-mutants');
  for (const [statement, file] of MATTERS)
    test(`${statement}: caught by ${file}, survives without its checks`, async () => {
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
      const cites = (l: string) => new RegExp(`statements: \\[[^\\]]*\\b${statement.replace(/\./g, '\\.')}\\b`).test(l);
      assert.ok(lines.some(cites), `${file} no longer cites ${statement}: update this test`);
      const weak = join(work(), file.split('/').pop()!);
      writeFileSync(weak, lines.filter((l) => !cites(l)).join('\n'));
      const outcome = async (suite: string) =>
        (await mutate({ dir: DIR, suites: [suite], from: 'spec' })).statements!.entries.find((e) => e.id === statement)!
          .outcome;
      assert.equal(await outcome(join(ROOT, file)), 'caught');
      assert.equal(await outcome(weak), 'survived');
    });
});
