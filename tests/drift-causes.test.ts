// Drift grouped by cause and classified by change rule (src/changes/causes.ts, rules/change-rules.yaml): a hand-made
// pair of recordings per rule id is one cause of that rule and level; the rules file, its schema's ids and the docs
// agree; the bundled recordings fold into a few dozen causes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { driftBetween } from '../src/changes/compare-dirs.js';
import { causesOf, foldMembers } from '../src/changes/causes.js';
import { accept, parseIgnore } from '../src/changes/accept.js';
import { loadRules, rulesDoc, RULES_FILE } from '../src/changes/rules.js';
import { FINDERS, finderProblems } from '../src/changes/finders.js';
import { RECORDINGS_DIR, ROOT, SCHEMAS_DIR } from '../src/paths.js';
import { RULE_PAIRS, cassetteOf, type Step } from './fixtures/drift-rules/pairs.js';
import { cli, cliAsync } from './support/cli.js';
import { loadDocumentValidators, validate } from '../src/schema/registry.js';
import type { DriftCauses } from '../src/schema/generated/types.js';
import { tempFolder } from './support/temp.js';
import { REPORT_FILE_BOUND } from '../src/report/bound.js';

const UNCHANGED: Step[] = [{ step: 'get-version', path: '/rest/system/version', body: { version: 'v1.0.0' } }];

async function folder(dir: string, version: string, steps: Step[] | null): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'unchanged.har'), JSON.stringify(cassetteOf('unchanged', version, UNCHANGED)));
  if (steps) await writeFile(join(dir, 'rule-pair.har'), JSON.stringify(cassetteOf('rule-pair', version, steps)));
  return dir;
}

describe('drift causes', () => {
  const work = tempFolder('drift-causes');

  for (const pair of RULE_PAIRS)
    test(`a hand-made pair is one cause: ${pair.rule} (${pair.level})`, async () => {
      const a = await folder(join(work(), pair.rule, 'a'), 'v1.0.0', pair.a);
      const b = await folder(join(work(), pair.rule, 'b'), 'v1.1.0', pair.b);
      const causes = causesOf(driftBetween(a, b).scenarios);
      const what = causes.map((c) => `${c.rule} ${c.endpoints.join(',')} ${c.pointer} ${c.change}`).join('\n');
      assert.equal(causes.length, 1, what);
      assert.equal(causes[0].rule, pair.rule, what);
      assert.equal(causes[0].level, pair.level, what);
      assert.deepEqual(causes[0].scenarios, ['rule-pair']);
    });

  test("2.0.14's answers without '; charset=utf-8' (syncthing#10508): one risky cause over every endpoint", () => {
    const drift = driftBetween(join(RECORDINGS_DIR, 'syncthing-1.30.0'), join(RECORDINGS_DIR, 'syncthing-2.1.0'));
    const found = causesOf(drift.scenarios).filter((c) => c.rule === 'media-type-parameters-changed');
    assert.deepEqual(
      found.map((c) => [c.level, c.change]),
      [['risky', 'media type parameters charset=utf-8 → (none)']],
    );
    assert.ok(found[0].endpoints.includes('GET /rest/config'), found[0].endpoints.join(', '));
  });

  test('1.17.0 → 1.18.0: a DELETE answered 405 with Allow naming only GET, OPTIONS is absent, not a status change', async () => {
    // 1.13.0-1.17.x answer DELETE /rest/cluster/pending/devices 405 (the path has a GET): verdict/absent.ts's rule
    const remove = (status: number, headers?: Record<string, string>): Step => ({
      step: 'dismiss',
      method: 'DELETE',
      path: '/rest/cluster/pending/devices?device=X',
      status,
      ...(headers ? { headers } : {}),
      body: status === 200 ? undefined : 'Method Not Allowed',
    });
    const rows: [string, Step, string][] = [
      ['405 naming other methods', remove(405, { Allow: 'GET, OPTIONS' }), 'endpoint-added'],
      ['405 without Allow', remove(405), 'status-changed'],
      ['405 whose Allow names DELETE', remove(405, { Allow: 'DELETE, GET' }), 'status-changed'],
    ];
    for (const [what, old, rule] of rows) {
      const a = await folder(join(work(), 'absent-405', what, 'a'), 'v1.17.0', [old]);
      const b = await folder(join(work(), 'absent-405', what, 'b'), 'v1.18.0', [remove(200)]);
      const causes = causesOf(driftBetween(a, b).scenarios);
      assert.deepEqual(
        causes.map((c) => `${c.rule} ${c.endpoints.join(',')}`),
        [`${rule} DELETE /rest/cluster/pending/devices`],
        what,
      );
    }
  });

  test('a folder ID in a configuration path is a name, not an endpoint: two folders, one cause', async () => {
    const read = (folder: string, maxConflicts: number): Step => ({
      step: `read-${folder}`,
      path: `/rest/config/folders/${folder}`,
      body: { id: folder, maxConflicts },
    });
    const a = await folder(join(work(), 'folder-id', 'a'), 'v1.0.0', [read('one', 0), read('two', 0)]);
    const b = await folder(join(work(), 'folder-id', 'b'), 'v1.1.0', [read('one', 10), read('two', 10)]);
    const causes = causesOf(driftBetween(a, b).scenarios);
    assert.deepEqual(
      causes.map((c) => [c.rule, c.endpoints, c.pointer, c.occurrences]),
      [['default-changed', ['GET /rest/config/folders/<folderId>'], '/maxConflicts', 2]],
    );
  });

  test('the configuration lists its devices in another order: their settings are compared by device ID, no cause', async () => {
    const devices = (...introducers: [string, boolean][]): Step => ({
      step: 'read-devices',
      path: '/rest/config/devices',
      body: introducers.map(([deviceID, introducer]) => ({ deviceID, introducer })),
    });
    const [x, y] = ['AAAAAAA', 'BBBBBBB'].map((g) => Array(8).fill(g).join('-'));
    const a = await folder(join(work(), 'device-order', 'a'), 'v1.0.0', [devices([x, true], [y, false])]);
    const b = await folder(join(work(), 'device-order', 'b'), 'v1.1.0', [devices([y, false], [x, true])]);
    assert.deepEqual(causesOf(driftBetween(a, b).scenarios), []);
  });

  test('every rule id of the schema has a rule in the file and a hand-made pair, each once', async () => {
    const schema = JSON.parse(await readFile(join(SCHEMAS_DIR, 'change-rules.schema.json'), 'utf8'));
    const ids: string[] = schema.$defs.ruleId.enum;
    assert.deepEqual(
      loadRules()
        .map((r) => r.id)
        .sort(),
      [...ids].sort(),
    );
    // a changed check no recorded difference explains is the matrix's finding, not a drift's (tests/matrix.test.ts)
    const matrixOnly = ['check-changed-unexplained'];
    assert.deepEqual(RULE_PAIRS.map((p) => p.rule).sort(), ids.filter((id) => !matrixOnly.includes(id)).sort());
    for (const r of loadRules().filter((r) => !matrixOnly.includes(r.id)))
      assert.equal(
        RULE_PAIRS.find((p) => p.rule === r.id)!.level,
        r.level,
        `${r.id}: the pair expects the file's level`,
      );
  });

  test('the rule table (src/changes/finders.ts) has one row per rule of the file, and the check of that catches a gap', () => {
    const ids = loadRules().map((r) => r.id as string);
    assert.deepEqual(finderProblems(ids), []);
    assert.deepEqual(finderProblems([...ids, 'made-up']), ['rule made-up has no row in src/changes/finders.ts']);
    assert.deepEqual(finderProblems(ids.filter((id) => id !== 'media-type-changed')), [
      'finders.ts has a row for media-type-changed, not in the rules file',
    ]);
    FINDERS.push(FINDERS.find((r) => r.rule === 'event-added')!);
    try {
      assert.deepEqual(finderProblems(ids), ['finders.ts has two rows for event-added']);
    } finally {
      FINDERS.pop();
    }
  });

  test('docs/change-rules.md is the one written from the rules file (npm run gen:rules-doc)', async () => {
    const doc = await readFile(join(ROOT, 'docs', 'change-rules.md'), 'utf8');
    assert.equal(doc, rulesDoc(loadRules()));
    for (const r of loadRules()) assert.match(doc, new RegExp(`^## ${r.id}\\n\\n\\*\\*${r.level}\\*\\*`, 'm'));
  });

  test('a rules file that breaks its schema, or lists a rule twice, is an input error naming file and line', async () => {
    const text = await readFile(RULES_FILE, 'utf8');
    const bad = join(work(), 'bad-rules.yaml');
    await writeFile(bad, text.replace('level: risky', 'level: severe'));
    assert.throws(() => loadRules(bad), /change rules .*bad-rules\.yaml:\d+: \/rules\/\d+\/level: /);
    await writeFile(bad, `${text}  - id: endpoint-added\n    level: compatible\n    summary: again\n    doc: again\n`);
    assert.throws(() => loadRules(bad), /bad-rules\.yaml:\d+: rule endpoint-added listed twice/);
  });

  // [what, members, the older and the newer value of each member, the causes expected: how many, rule, level, pointer,
  // change]. One member is its own cause; two or more of one rule under one object are one cause naming the members,
  // of the same rule and level (issue 37: the usage report's 17 members removed in 2.1.0 were 17 lines)
  const FOLDS: [string, number, unknown, unknown, number, string, string, string, string][] = [
    ['1 member removed: its cause', 1, 1, undefined, 1, 'response-member-removed', 'breaking', '/foo/m0', 'removed'],
    [
      '2 members removed: one',
      2,
      1,
      undefined,
      1,
      'response-member-removed',
      'breaking',
      '/foo',
      'removed (2 members)',
    ],
    [
      '21 members removed: one',
      21,
      1,
      undefined,
      1,
      'response-member-removed',
      'breaking',
      '/foo',
      'removed (21 members)',
    ],
    [
      '21 types changed: one',
      21,
      'a',
      1,
      1,
      'response-member-type-changed',
      'breaking',
      '/foo',
      'type string → number (21 members)',
    ],
  ];
  for (const [what, n, older, newer, count, rule, level, pointer, change] of FOLDS)
    test(`many members of one object: ${what}`, async () => {
      const body = (value: unknown) => ({
        foo: Object.fromEntries(value === undefined ? [] : Array.from({ length: n }, (_, i) => [`m${i}`, value])),
      });
      const steps = (value: unknown): Step[] => [{ step: 'get-x', path: '/rest/x', body: body(value) }];
      const a = await folder(join(work(), `fold-${what}`, 'a'), 'v1.0.0', steps(older));
      const b = await folder(join(work(), `fold-${what}`, 'b'), 'v1.1.0', steps(newer));
      const causes = causesOf(driftBetween(a, b).scenarios);
      assert.equal(causes.length, count);
      assert.deepEqual(
        [causes[0].rule, causes[0].level, causes[0].pointer, causes[0].change],
        [rule, level, pointer, change],
      );
      assert.equal(
        causes.reduce((k, c) => k + c.occurrences, 0),
        n,
        'every difference in one cause',
      );
      if (n > 1) assert.equal(causes[0].members?.length, n);
    });

  test('members folded after the reviewed causes are accepted: what an entry accepts is folded apart, the gate unchanged', async () => {
    const body = (n: number) => ({ foo: Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, 1])) });
    const a = await folder(join(work(), 'fold-accepted', 'a'), 'v1.0.0', [
      { step: 'get-x', path: '/rest/x', body: body(3) },
    ]);
    const b = await folder(join(work(), 'fold-accepted', 'b'), 'v1.1.0', [
      { step: 'get-x', path: '/rest/x', body: body(0) },
    ]);
    const each = causesOf(driftBetween(a, b).scenarios, false);
    const entry = parseIgnore('response-member-removed@GET /rest/x /foo/m1');
    const folded = foldMembers(accept(each, [entry]).causes);
    // an entry naming the object accepts every member under it: one folded cause, accepted
    const byObject = parseIgnore('response-member-removed@GET /rest/x /foo');
    assert.deepEqual(
      foldMembers(accept(each, [byObject]).causes).map((c) => [c.pointer, c.members, c.accepted?.by]),
      [['/foo', ['m0', 'm1', 'm2'], byObject.by]],
    );
    assert.deepEqual(
      folded.map((c) => [c.pointer, c.members ?? [], c.accepted?.by ?? 'open']),
      [
        ['/foo', ['m0', 'm2'], 'open'],
        ['/foo/m1', [], entry.by],
      ],
    );
  });

  const real = (older: string, newer: string) =>
    causesOf(
      driftBetween(join(RECORDINGS_DIR, `syncthing-${older}`), join(RECORDINGS_DIR, `syncthing-${newer}`)).scenarios,
    );
  const find = (causes: ReturnType<typeof real>, rule: string, pointer: RegExp) =>
    causes.find(
      (c) => c.rule === rule && pointer.test(`${c.pointer} ${(c.at ?? []).join(' ')} ${c.endpoints.join(' ')}`),
    );

  /** how many differences of a drift are at a member of this name: each must be in the one cause of that member */
  const differencesAt = (drift: ReturnType<typeof driftBetween>, member: string) =>
    drift.scenarios.flatMap((s) => s.differences).filter((d) => d.path?.endsWith(`/${member}`)).length;

  test('1.19.2 → 1.29.5: hundreds of differences fold into at most 40 causes, each difference in exactly one', () => {
    const drift = driftBetween(join(RECORDINGS_DIR, 'syncthing-1.19.2'), join(RECORDINGS_DIR, 'syncthing-1.29.5'));
    const causes = causesOf(drift.scenarios);
    assert.ok(causes.length <= 40, `${causes.length} causes`);
    assert.equal(
      causes.reduce((n, c) => n + c.occurrences, 0),
      drift.differences,
    );
    const browse = find(causes, 'response-value-format-changed', /GET \/rest\/system\/browse/);
    assert.equal(browse?.level, 'breaking');
    const restart = find(causes, 'response-member-removed', /\/options\/restartOnWakeup/);
    assert.equal(restart?.level, 'breaking');
    assert.equal(restart?.occurrences, differencesAt(drift, 'restartOnWakeup'));
    assert.ok(restart!.occurrences > 10, 'every read of the configuration');
    const numBlocks = find(causes, 'response-member-type-changed', /numBlocks/);
    assert.equal(numBlocks?.occurrences, differencesAt(drift, 'numBlocks'));
    assert.equal(numBlocks?.change, 'type null → number');
    assert.ok(find(causes, 'response-member-added', /\/options/)?.members?.includes('connectionPriorityTcpLan'));
    assert.equal(causes[0].level, 'breaking', 'breaking first');
  });

  test('1.12.1 → 1.19.2: the pending endpoints are added (absent on 1.12.1), /tags changed type', () => {
    const causes = real('1.12.1', '1.19.2');
    assert.ok(causes.length <= 40, `${causes.length} causes`);
    for (const endpoint of ['GET /rest/cluster/pending/devices', 'DELETE /rest/cluster/pending/folders'])
      assert.equal(find(causes, 'endpoint-added', new RegExp(endpoint))?.level, 'compatible', endpoint);
    assert.equal(find(causes, 'response-member-type-changed', /\/tags/)?.change, 'type string → array');
    assert.ok(
      !causes.some((c) => c.rule === 'exchange-missing'),
      'the absent-mode probes are explained by the endpoints',
    );
  });

  test('the same folders in the other direction: what was added is removed (breaking)', () => {
    const causes = real('1.19.2', '1.12.1');
    assert.equal(find(causes, 'endpoint-removed', /GET \/rest\/cluster\/pending\/devices/)?.level, 'breaking');
    assert.equal(find(causes, 'response-member-removed', /\/defaults/)?.level, 'breaking');
  });

  describe('synconf drift A B: one line per cause, the gate, accepted changes, JSON', () => {
    const A = join(RECORDINGS_DIR, 'syncthing-1.19.2');
    const B = join(RECORDINGS_DIR, 'syncthing-1.29.5');
    const causeLines = (stdout: string) =>
      stdout.split('\n').filter((l) => /^(breaking|risky|compatible|accepted) /.test(l));
    const BROWSE = 'response-value-format-changed@GET /rest/system/browse';

    test('1.19.2 → 1.29.5 --fail-on breaking: at most 40 lines of causes, exit 1 naming the browse cause', () => {
      const r = cli(['drift', A, B, '--fail-on', 'breaking']);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const lines = causeLines(r.stdout);
      assert.ok(lines.length <= 40 && lines.length >= 10, `${lines.length} cause lines`);
      const drift = driftBetween(A, B);
      const changed = drift.scenarios.filter((s) => s.differences.length).length;
      assert.match(r.stdout, new RegExp(`^${drift.differences} differences in ${changed} scenarios$`, 'm'));
      assert.match(r.stdout, /^\d+ causes: 4 breaking, 1 risky, \d+ compatible, 0 accepted$/m);
      assert.match(
        r.stdout,
        new RegExp(`^--fail-on breaking: 4 causes at or above breaking, not accepted: .*${BROWSE} /\\*`, 'm'),
      );
      assert.match(
        r.stdout,
        new RegExp(
          '^breaking +response-member-removed +GET /rest/config, GET /rest/config/options, GET /rest/system/config ' +
            `/options/restartOnWakeup, /restartOnWakeup: removed .*\\(${differencesAt(drift, 'restartOnWakeup')} occurrences in \\d+ scenarios\\)$`,
          'm',
        ),
      );
      const levels = lines.map((l) => l.split(' ')[0]);
      assert.deepEqual(
        levels,
        [...levels].sort(
          (x, y) => ['breaking', 'risky', 'compatible'].indexOf(x) - ['breaking', 'risky', 'compatible'].indexOf(y),
        ),
        'breaking first',
      );
    });

    test('1.12.1 → 1.19.2 --fail-on breaking: exit 1; the added endpoints do not trip it', () => {
      const r = cli(['drift', join(RECORDINGS_DIR, 'syncthing-1.12.1'), A, '--fail-on', 'breaking']);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.ok(causeLines(r.stdout).length <= 40);
      assert.match(r.stdout, /^compatible +endpoint-added +GET \/rest\/cluster\/pending\/devices: /m);
      assert.match(r.stdout, /^--fail-on breaking: .*response-member-type-changed@GET \/rest\/system\/version \/tags/m);
      assert.doesNotMatch(
        r.stdout.split('\n').find((l) => l.startsWith('--fail-on'))!,
        /endpoint-added/,
      );
    });

    test('1.30.0 → 2.1.0: the charset cause over 24 endpoints is one short line naming three and the count; --json keeps all', () => {
      const [from, to] = ['1.30.0', '2.1.0'].map((v) => join(RECORDINGS_DIR, `syncthing-${v}`));
      const r = cli(['drift', from, to]);
      const [line, ...others] = causeLines(r.stdout).filter((l) => l.includes('media-type-parameters-changed'));
      assert.deepEqual(others, []);
      const doc = JSON.parse(cli(['drift', from, to, '--json']).stdout) as DriftCauses;
      const { endpoints } = doc.causes.find((c) => c.rule === 'media-type-parameters-changed')!;
      assert.ok(endpoints.length > 4, endpoints.join(', '));
      assert.match(
        line,
        new RegExp(
          `^risky +media-type-parameters-changed +${endpoints
            .slice(0, 3)
            .join(', ')
            .replace(
              /[.*+?^${}()|[\]\\]/g,
              '\\$&',
            )} and ${endpoints.length - 3} more endpoints: media type parameters charset=utf-8 → \\(none\\) — `,
        ),
      );
      assert.ok(line.length <= 400, `${line.length} characters: ${line}`);
      for (const hidden of endpoints.slice(3))
        assert.ok(!line.includes(`${hidden},`) && !line.endsWith(hidden), hidden);
    });

    test('accepted changes: listed as accepted, not counted by the gate; a stale entry is said on stderr', async () => {
      const file = join(work(), 'accepted.yaml');
      await writeFile(
        file,
        [
          'accepted:',
          '  - rule: response-member-removed',
          '    endpoint: GET /rest/config',
          '    pointer: /options/restartOnWakeup',
          '    reason: restartOnWakeup was dropped in 1.20.0; our client never read it',
          '  - rule: response-member-type-changed',
          '    endpoint: GET /rest/db/need',
          '    reason: numBlocks is counted now; our client treats null and a number alike',
          '  - rule: endpoint-removed',
          '    endpoint: GET /rest/system/ping',
          '    reason: stale',
          '',
        ].join('\n'),
      );
      const args = [
        'drift',
        A,
        B,
        '--ignore-file',
        file,
        '--ignore',
        BROWSE,
        '--ignore',
        'response-member-removed@GET /rest/system/debug /facilities/sha256',
      ];
      const r = cli([...args, '--fail-on', 'breaking']);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /^\d+ causes: 0 breaking, 1 risky, \d+ compatible, 4 accepted$/m);
      assert.match(r.stdout, /^--fail-on breaking: no cause at or above breaking, not accepted$/m);
      assert.match(
        r.stdout,
        /^accepted +response-member-removed .*\/options\/restartOnWakeup(, \/restartOnWakeup)?: .*\[breaking, accepted by .*accepted\.yaml:2: restartOnWakeup was dropped/m,
      );
      assert.match(
        r.stdout,
        new RegExp(
          `^accepted +response-value-format-changed .*accepted by --ignore ${BROWSE}: accepted on the command line\\]$`,
          'm',
        ),
      );
      assert.match(r.stderr, /accepted\.yaml:9 accepts no cause \(endpoint-removed@GET \/rest\/system\/ping\)/);
      // risky is still there: the connections map no longer lists the agent's own device. The same acceptances
      // comma-separated, before the folders (a variadic --ignore would swallow them)
      const commaForm = [
        'drift',
        '--ignore-file',
        file,
        '--ignore',
        `${BROWSE},response-member-removed@GET /rest/system/debug /facilities/sha256`,
        A,
        B,
      ];
      const risky = cli([...commaForm, '--fail-on', 'risky']);
      assert.equal(risky.code, 1);
      assert.match(
        risky.stdout,
        /^--fail-on risky: 1 cause at or above risky, not accepted: effect-changed@GET \/rest\/system\/connections \/connections$/m,
      );
    });

    test('--json: the causes as a drift-causes document, nothing else on stdout', async () => {
      const r = cli(['drift', A, B, '--json', '--fail-on', 'breaking', '--ignore', BROWSE]);
      assert.equal(r.code, 1, r.stderr);
      const doc = JSON.parse(r.stdout) as DriftCauses;
      await loadDocumentValidators();
      assert.deepEqual(validate('drift-causes', doc), []);
      assert.equal(doc.failOn, 'breaking');
      assert.deepEqual(doc.counts, { ...doc.counts, breaking: 3, risky: 1, accepted: 1 });
      const browse = doc.causes.find((c) => c.rule === 'response-value-format-changed')!;
      assert.equal(browse.accepted?.reason, 'accepted on the command line');
      const browseDifferences = driftBetween(A, B)
        .scenarios.flatMap((s) => s.differences.map((d) => ({ ...d, scenario: s.scenario })))
        .filter((d) => d.endpoint === 'GET /rest/system/browse' && d.kind === 'value-broken');
      assert.equal(browse.evidence.length, browseDifferences.length);
      assert.deepEqual(browse.scenarios, [...new Set(browseDifferences.map((d) => d.scenario))].sort());
      assert.ok(browse.scenarios.includes('system-browse'));
      assert.equal(
        doc.causes.reduce((n, c) => n + c.occurrences, 0),
        driftBetween(A, B).differences,
      );
      // the schema catches a document that lies: a level the rules do not have
      assert.notDeepEqual(validate('drift-causes', { ...doc, causes: [{ ...browse, level: 'severe' }] }), []);
    });

    test('a folder against itself: no cause, exit 0 even with --fail-on compatible', () => {
      const r = cli(['drift', A, A, '--fail-on', 'compatible']);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /^0 causes: 0 breaking, 0 risky, 0 compatible, 0 accepted$/m);
    });
  });
});

// A body of 99,000 members (under the bound of 100,000) differing in every one: as many differences, collected one
// by one (a spread of them as arguments overflowed the stack: `drift` ended in exit 3).
const pingText = () => readFile(join(RECORDINGS_DIR, 'syncthing-1.19.2', 'system-ping.har'), 'utf8');
const members = (prefix: string) => Object.fromEntries(Array.from({ length: 99_000 }, (_, i) => [`${prefix}${i}`, i]));
/** the ping cassette with `body` as each answer of 200 (a GET and a POST) */
const pingWith = (text: string, body: string) => {
  const c = JSON.parse(text) as import('../src/schema/generated/types.js').Cassette;
  for (const e of c.log.entries) if (e.response.status === 200) e.response.content.text = body;
  return c;
};

test('two answers differing in 99,000 members: every difference, no overflow', async () => {
  const { differencesOf } = await import('../src/changes/compare.js');
  const text = await pingText();
  const withBody = (body: string) => pingWith(text, body);
  const members99k = (prefix: string) => JSON.stringify(members(prefix));
  const before = withBody(members99k('m'));
  const answers = before.log.entries.filter((e) => e.response.status === 200).length;
  const found = differencesOf(before, withBody(members99k('n')));
  assert.equal(found.filter((d) => d.kind === 'removed').length, 99_000 * answers);
  assert.equal(found.filter((d) => d.kind === 'added').length, 99_000 * answers);
});

// The same 99,000 members removed from an object of the answer (and not replaced): one cause naming the first of them
// and counting them all, where drift printed a line per member (99,004 lines) and a --json of 75 MB.
// Its two drift processes run at once, on the two folders written once for both.
describe('drift of 99,000 members removed: bounded output, the count kept', { concurrency: 2 }, () => {
  const work = tempFolder('drift-99k');
  let written: Promise<string[]> | undefined;
  const folders = () => (written ??= writeFolders());
  const writeFolders = async () => {
    const text = await pingText();
    for (const [side, foo] of [
      ['a', members('m')],
      ['b', {}],
    ] as const) {
      await mkdir(join(work(), side), { recursive: true });
      const body = JSON.stringify({ ping: 'pong', foo });
      await writeFile(join(work(), side, 'system-ping.har'), JSON.stringify(pingWith(text, body)));
    }
    return [join(work(), 'a'), join(work(), 'b')];
  };
  const CAUSE = 'response-member-removed@GET /rest/system/ping /foo';

  test('text: a few lines, one breaking cause naming the first members and counting all, the gate unchanged', async () => {
    const r = await cliAsync(['drift', ...(await folders()), '--fail-on', 'breaking']);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.ok(lines.length < 20, `${lines.length} lines`);
    assert.match(
      r.stdout,
      /^breaking +response-member-removed +GET \/rest\/system\/ping, POST \/rest\/system\/ping \/foo: removed \(99,000 members\): m0, m1, m10, .* and 98,980 more — .* \(198000 occurrences in 1 scenario\)$/m,
    );
    assert.match(r.stdout, /^198000 differences in 1 scenario$/m);
    assert.match(r.stdout, /^1 cause: 1 breaking, 0 risky, 0 compatible, 0 accepted$/m);
    assert.match(
      r.stdout,
      new RegExp(`^--fail-on breaking: 1 cause at or above breaking, not accepted: ${CAUSE} \\(\\+1 endpoint\\)$`, 'm'),
    );
  });

  test('--json: within 10 MB, valid, every member and occurrence counted', async () => {
    const r = await cliAsync(['drift', ...(await folders()), '--json', '--ignore', CAUSE]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(Buffer.byteLength(r.stdout) <= REPORT_FILE_BOUND, `${Buffer.byteLength(r.stdout)} bytes`);
    const doc = JSON.parse(r.stdout) as DriftCauses;
    await loadDocumentValidators();
    assert.deepEqual(validate('drift-causes', doc), []);
    assert.equal(doc.causes.length, 1);
    const [cause] = doc.causes;
    assert.deepEqual([cause.level, cause.pointer, cause.change], ['breaking', '/foo', 'removed (99,000 members)']);
    assert.equal(cause.accepted?.by, `--ignore ${CAUSE}`, 'accepted by its object');
    assert.equal(cause.occurrences, 198_000);
    assert.equal(cause.members?.length, 99_000);
    assert.equal(cause.moreMembers, undefined, 'every member fits');
    assert.ok(cause.evidence.length > 0 && cause.evidence.length < cause.occurrences, `${cause.evidence.length}`);
    assert.equal(cause.evidence.length + cause.moreEvidence!, cause.occurrences, 'the evidence left out is counted');
  });
});
