// Checks cite statements of the spec, and every report says which statements its run proved:
// * a cited id that is not in the index stops the load, naming file, line and the closest id;
// * the schemas' x-statement annotations name statements of the index, and `npm run gen` strips them;
// * a failing schema check breaks only the statements its errors fall under;
// * statement coverage from checks: a table of check verdicts and the state each gives a statement;
// * a replay's report.json, summary.md, report.html and junit.xml show it; `synconf spec --coverage` reads it.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario, ScenarioError } from '../src/scenario/load.js';
import { loadStatements, type Statement } from '../src/schema/statements.js';
import { brokenStatements, fileAnnotations, schemaStatements } from '../src/schema/schema-statements.js';
import { validate } from '../src/schema/registry.js';
import { loadEndpoints } from '../src/schema/endpoints.js';
import { statementCoverage } from '../src/verdict/statement-coverage.js';
import type { CheckResult, Report, ScenarioResult } from '../src/schema/generated/types.js';
import { ROOT, SCHEMAS_DIR } from '../src/paths.js';
import { cliAsync } from './support/cli.js';
import { tempFolder } from './support/temp.js';

const work = tempFolder('statement-coverage');
let statements: Statement[];
before(async () => {
  statements = await loadStatements();
});

/** a configuration as Syncthing 1.29.5 answered it (the config scenario's recording) */
function recordedConfig() {
  const har = JSON.parse(readFileSync(join(ROOT, 'recordings', 'syncthing-1.29.5', 'system-config.har'), 'utf8'));
  const entry = har.log.entries.find(
    (x: { request: { method: string; url: string }; response: { status: number } }) =>
      x.request.method === 'GET' && new URL(x.request.url).pathname === '/rest/config' && x.response.status === 200,
  );
  return JSON.parse(entry.response.content.text);
}

describe('checks cite statements', () => {
  test('an unknown statement id stops the load, naming file, line and the closest id', async () => {
    const file = join(work(), 'typo.yaml');
    writeFileSync(
      file,
      [
        'id: typo',
        'title: a cited statement with a typo',
        'spec: [GET /rest/system/status]',
        'steps:',
        '  - name: get',
        '    request: {method: GET, path: /rest/system/status}',
        '    expect:',
        '      status: 200',
        '      assert:',
        '        - path: /tilde',
        '          minLength: 1',
        '          statements: [status.tilde.hom]',
        '',
      ].join('\n'),
    );
    await assert.rejects(loadScenario(file), (e: unknown) => {
      assert.ok(e instanceof ScenarioError);
      assert.match(e.message, /typo\.yaml:12: step "get": "status\.tilde\.hom" is not a statement/);
      assert.match(e.message, /closest: "status\.tilde\.home"/);
      return true;
    });
  });

  test('every x-statement of schemas/ names a statement of the index', () => {
    const ids = new Set(statements.map((s) => s.id));
    const files = readdirSync(SCHEMAS_DIR).filter((f) => f.endsWith('.schema.json'));
    const annotations = files.flatMap((f) => fileAnnotations(f));
    assert.ok(annotations.length > 150, `only ${annotations.length} annotations`);
    assert.deepEqual(
      annotations.flatMap((a) => a.ids.filter((id) => !ids.has(id)).map((id) => `${a.file}#${a.pointer}: ${id}`)),
      [],
    );
  });

  test('every statement of schemas/endpoints.json (a path that exists) names a statement of the index', () => {
    const ids = new Set(statements.map((s) => s.id));
    const cited = loadEndpoints().flatMap((e) => (e.existsStatements ?? []).map((id) => `${e.id}: ${id}`));
    assert.ok(cited.length >= 5, `only ${cited.length} statements`);
    assert.deepEqual(
      cited.filter((c) => !ids.has(c.split(': ')[1])),
      [],
    );
  });

  test('npm run gen strips x-statement from the generated validators', () => {
    const dir = join(ROOT, 'src', 'schema', 'generated');
    const validators = readdirSync(dir).filter((f) => f.startsWith('validators-'));
    assert.ok(validators.length > 1);
    const found = validators.filter((f) => readFileSync(join(dir, f), 'utf8').includes('x-statement'));
    assert.deepEqual(found, []);
  });

  test('a schema reaches the statements of the schemas it refers to', () => {
    const config = schemaStatements('config');
    for (const id of ['config.folders.type', 'config.folder.paused.type', 'config.device.name.type'])
      assert.ok(config.includes(id), id);
    assert.ok(!schemaStatements('system-status').includes('config.folder.paused.type'));
  });

  test('a failing schema check breaks the statements its errors fall under, not the others', async () => {
    const config = recordedConfig();
    config.folders = [{ ...config.defaults.folder, id: 'abcde-12345', paused: 'no' }];
    const errors = validate('config', config);
    assert.ok(errors.length > 0);
    const broken = brokenStatements(
      'config',
      errors.map((e) => e.pointer),
    );
    assert.ok(broken.includes('config.folder.paused.type'), broken.join(' '));
    assert.ok(broken.includes('config.folders.type'));
    assert.ok(!broken.includes('config.folder.label.type'));
    assert.ok(!broken.includes('config.gui.type'));
  });
});

describe('statement coverage', () => {
  const check = (id: string, verdict: CheckResult['verdict'], cites: string[], extra: Partial<CheckResult> = {}) =>
    ({ id, step: 's', kind: 'assert', verdict, message: '', statements: cites, ...extra }) as CheckResult;
  const run = (checks: CheckResult[]): ScenarioResult[] => [
    { id: 'x', title: 'x', file: 'x.yaml', spec: [], mode: 'normal', verdict: 'pass', durationMs: 0, checks },
  ];
  const stateOf = (checks: CheckResult[], id: string) =>
    statementCoverage(statements, run(checks)).statements.find((s) => s.id === id)!;

  const cases: [what: string, checks: CheckResult[], id: string, state: string][] = [
    ['a passing check proves it', [check('a', 'pass', ['status.tilde.home'])], 'status.tilde.home', 'passed'],
    [
      'an unexpected pass proves it too',
      [check('a', 'unexpected-pass', ['status.tilde.home'])],
      'status.tilde.home',
      'passed',
    ],
    [
      'a known deviation makes it deviating',
      [check('a', 'pass', ['status.tilde.home']), check('b', 'expected-fail', ['status.tilde.home'])],
      'status.tilde.home',
      'deviating',
    ],
    [
      'a failing check fails it, above a deviation',
      [check('a', 'expected-fail', ['status.tilde.home']), check('b', 'fail', ['status.tilde.home'])],
      'status.tilde.home',
      'failing',
    ],
    ['a skipped check proves nothing', [check('a', 'skip', ['status.tilde.home'])], 'status.tilde.home', 'not checked'],
    ['no citing check', [], 'status.tilde.home', 'not checked'],
    ['the index says why not', [], 'localchanged.cost', 'not checkable'],
    [
      'a failing schema check proves what it does not break',
      [
        check('a', 'fail', ['config.gui.type', 'config.folders.type'], {
          kind: 'schema',
          breaks: ['config.folders.type'],
        }),
      ],
      'config.gui.type',
      'passed',
    ],
    [
      'and fails what it breaks',
      [
        check('a', 'fail', ['config.gui.type', 'config.folders.type'], {
          kind: 'schema',
          breaks: ['config.folders.type'],
        }),
      ],
      'config.folders.type',
      'failing',
    ],
    [
      'a restating statement takes the state of those it restates',
      [
        check('a', 'pass', ['pending-folders.delete.failure']),
        check('b', 'expected-fail', ['pending-devices.delete.failure']),
      ],
      'errors.pending.failure',
      'deviating',
    ],
  ];
  for (const [what, checks, id, state] of cases)
    test(`${what}: ${id} ${state}`, () => assert.equal(stateOf(checks, id).state, state));

  test('the counts add up, by kind and in all', () => {
    const cov = statementCoverage(statements, run([check('a', 'pass', ['status.tilde.home'])]));
    const c = cov.counts;
    assert.equal(cov.index, statements.length);
    assert.equal(c.checked + c['not checked'] + c['not checkable'], statements.length);
    assert.equal(c.checked, c.passed + c.deviating + c.failing);
    assert.equal(cov.byKind.value.passed, 1);
  });

  test('a replay reports it in report.json, summary.md, report.html and junit.xml; spec --coverage reads it', async () => {
    const dir = join(work(), 'replay');
    const r = await cliAsync(['replay', '--report-dir', dir]);
    assert.equal(r.code, 0, r.stderr);
    const report: Report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const cov = report.statementCoverage!;
    assert.ok(cov.counts.checked > 150, `only ${cov.counts.checked} statements checked`);
    const schemaCheck = report.scenarios.flatMap((s) => s.checks).find((c) => c.kind === 'schema')!;
    assert.ok(schemaCheck.statements?.length, `${schemaCheck.id} cites no statement`);
    assert.match(readFileSync(join(dir, 'summary.md'), 'utf8'), /<summary>Statement coverage<\/summary>/);
    assert.match(readFileSync(join(dir, 'report.html'), 'utf8'), /<section id="statements"><details>/);
    assert.match(readFileSync(join(dir, 'junit.xml'), 'utf8'), /<property name="statements" value="[^"]*\.type/);
    const spec = await cliAsync(['spec', '--coverage', join(dir, 'report.json')]);
    assert.equal(spec.code, 0, spec.stderr);
    assert.match(spec.stdout, /^ID +KIND +SECTION +V1\.19\.2-DS1 +CHECKABLE/m);
    assert.match(spec.stdout, /^status\.alloc\.type +shape .* passed /m);
    const index = (await loadStatements()).length;
    assert.match(spec.stdout, new RegExp(`v1\\.19\\.2-ds1: Statements of the spec: \\d+ of ${index} checked`));
  });

  test('the matrix shows statement coverage per version', async () => {
    const dir = join(work(), 'matrix');
    const r = await cliAsync(['matrix', '--replay', '--report-dir', dir]);
    assert.equal(r.code, 0, r.stderr);
    const matrix = JSON.parse(readFileSync(join(dir, 'matrix.json'), 'utf8'));
    for (const column of matrix.columns) assert.ok(column.statements.checked > 150, column.label);
    assert.match(
      readFileSync(join(dir, 'matrix.md'), 'utf8'),
      /\| statements \| 1\.12\.1 \| 1\.19\.2 \| 1\.29\.5 \| 1\.30\.0 \| 2\.1\.0 \| 2\.1\.2 \|\n.*\n\| checked \| \d+/,
    );
    assert.match(readFileSync(join(dir, 'matrix.html'), 'utf8'), /<details id="statements">/);
  });
});
