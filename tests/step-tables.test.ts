// Step tables (`each:`, docs/scenario-format.md): a table step stands for one step per row, the rows' members over
// the step's; a malformed table is refused at load with the line of the row (or of the table) that is wrong. And the
// auth suites, written as tables, leave out no endpoint of schemas/endpoints.json.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario, ScenarioError } from '../src/scenario/load.js';
import { loadEndpoints } from '../src/schema/endpoints.js';
import { ROOT } from '../src/paths.js';
import type { Step } from '../src/schema/generated/types.js';
import { tempFolder } from './support/temp.js';

const dir = tempFolder('step-tables');

const head = `id: tables\ntitle: a table\nspec: [GET /rest/system/status]\n`;
const table = `steps:
  - name: refused
    description: shared by every row
    expect:
      status: [401, 403]
      statements: [auth.key.gui-apiKey]
    each:
      - { name: status, request: { method: GET, path: /rest/system/status, auth: wrong } }
      - name: config
        request: { method: GET, path: /rest/config, auth: wrong }
        expect: { text: { matches: "^(?!apiKey)" } }
  - name: after
    request: { method: GET, path: /rest/system/ping }
`;

async function load(text: string) {
  const file = join(dir(), `s${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  return loadScenario(file);
}

describe('a step table', () => {
  test('stands for one step per row, each row over what the table step shares, at the line of its row', async () => {
    const { scenario, stepLines } = await load(head + table);
    const steps = scenario.steps as Step[];
    assert.deepEqual(
      steps.map((s) => s.name),
      ['status', 'config', 'after'],
    );
    assert.deepEqual(steps[0], {
      name: 'status',
      description: 'shared by every row',
      expect: { status: [401, 403], statements: ['auth.key.gui-apiKey'] },
      request: { method: 'GET', path: '/rest/system/status', auth: 'wrong' },
    });
    assert.deepEqual(steps[1].expect, {
      status: [401, 403],
      statements: ['auth.key.gui-apiKey'],
      text: { matches: '^(?!apiKey)' },
    });
    assert.ok(steps.every((s) => !('each' in s)));
    assert.deepEqual(stepLines, { status: 11, config: 12, after: 15 });
  });

  // [what is wrong, the file's steps, the message (with the line of the offending row or table)]
  const wrong: [string, string, RegExp][] = [
    [
      'a row with a bad member',
      table.replace('auth: wrong } }', 'auth: wrong, verb: x } }'),
      /:11: step "status": \/steps\/0\/each\/0\/request\/verb: unknown property/,
    ],
    [
      'a row that is a table itself',
      table.replace(
        '      - { name: status,',
        '      - { name: inner, each: [{ name: deeper, sleep: 1s }] }\n      - { name: status,',
      ),
      /:11: step "inner": a row of a step table cannot be a table itself/,
    ],
    [
      'two rows of one name',
      table.replace('- name: config', '- name: status'),
      /:12: step "status": step name "status" is used twice/,
    ],
    [
      'a row that is no step of any kind',
      table.replace('request: { method: GET, path: /rest/config, auth: wrong }', 'description: nothing to do'),
      /:12: step "config": a step needs exactly one of request, file, openEvents, expectEvent, sleep, each/,
    ],
    [
      'a table step that is a request too',
      table.replace('    description: shared by every row', '    request: { method: GET, path: /rest/system/ping }'),
      /:5: step "refused": a step needs exactly one of/,
    ],
    [
      'an empty table',
      table.replace(/ {4}each:[\s\S]*?(?= {2}- name: after)/, '    each: []\n'),
      /:10: step "refused": \/steps\/0\/each: must NOT have fewer than 1 items/,
    ],
    [
      'a statement no row could cite',
      table.replace('[auth.key.gui-apiKey]', '[auth.key.gui-apikey]'),
      /:9: step "refused": "auth\.key\.gui-apikey" is not a statement of spec\/statements\.yaml \(closest: "auth\.key\.gui-apiKey"\)/,
    ],
  ];
  for (const [what, steps, message] of wrong)
    test(`with ${what} is refused, naming the line`, async () => {
      await assert.rejects(load(head + steps), (e: unknown) => {
        assert.ok(e instanceof ScenarioError, String(e));
        assert.match(e.message, message);
        return true;
      });
    });
});

describe('the auth tables leave out no endpoint', () => {
  const endpoints = loadEndpoints().filter((e) => !/\/system\/(restart|shutdown)$/.test(e.path));
  const sent = async (file: string, auth: string) => {
    const { scenario } = await loadScenario(join(ROOT, 'suites', 'auth', file));
    return new Set(
      scenario.steps
        .filter((s) => (s.request?.auth ?? 'key') === auth)
        .map((s) => `${s.request!.method} ${s.request!.path}`),
    );
  };
  for (const [file, auth] of [
    ['no-key.yaml', 'none'],
    ['wrong-key.yaml', 'wrong'],
    ['with-key.yaml', 'key'],
  ])
    test(`${file} sends every endpoint of schemas/endpoints.json (${auth === 'key' ? 'with the key' : `auth: ${auth}`})`, async () => {
      const requests = await sent(file, auth);
      assert.deepEqual(
        endpoints.map((e) => e.id).filter((id) => !requests.has(id)),
        [],
      );
    });

  test('control.yaml refuses restart and shutdown without a key and with a wrong one', async () => {
    for (const auth of ['none', 'wrong'])
      assert.deepEqual([...(await sent('control.yaml', auth))].sort(), [
        'POST /rest/system/restart',
        'POST /rest/system/shutdown',
      ]);
  });

  test('wrong-method.yaml sends another method to every path of schemas/endpoints.json but restart and shutdown', async () => {
    const { scenario } = await loadScenario(join(ROOT, 'suites', 'auth', 'wrong-method.yaml'));
    const refused = scenario.steps.filter((s) => Array.isArray(s.expect?.status) && s.expect.status.includes(405));
    const own = new Set(endpoints.map((e) => e.id));
    const paths = new Set(refused.map((s) => s.request!.path));
    assert.deepEqual(
      endpoints.map((e) => e.path).filter((p) => !paths.has(p)),
      [],
    );
    // and never a method the path has
    assert.deepEqual(
      refused.map((s) => `${s.request!.method} ${s.request!.path}`).filter((id) => own.has(id)),
      [],
    );
  });
});
