// synconf mutate: the suite proves its own sensitivity on the bundled recordings. Every mutant of the
// bundled 1.19.2 recordings is killed or equivalent by a stated rule; a scenario with an assertion
// removed scores lower and names the survivor with its place; the report keeps its schema.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mutate } from '../src/mutate/mutate.js';
import { validate, loadDocumentValidators } from '../src/schema/registry.js';
import { ROOT } from '../src/paths.js';
import type { MutationReport } from '../src/schema/generated/types.js';
import { tempFolder } from './support/temp.js';

await loadDocumentValidators(); // the report, matrix and mutation-report validators these tests use

const BUNDLED = join(ROOT, 'recordings', 'syncthing-1.19.2');
const PRIO = join(ROOT, 'suites', 'db', 'db-need-prio.yaml');

describe('synconf mutate on the bundled 1.19.2 recordings', () => {
  let report: MutationReport;
  before(async () => {
    report = await mutate({ dir: BUNDLED, from: 'checks' });
  });

  test('the unmutated replay conforms, and the report is a valid mutation-report', () => {
    assert.deepEqual(report.baselineProblems ?? [], []);
    assert.deepEqual(validate('mutation-report', report), []);
    assert.ok(report.totals.mutants > 1000, `only ${report.totals.mutants} mutants`);
  });

  test('our suite kills every mutant that is not equivalent', () => {
    const survivors = report.mutants
      .filter((m) => m.outcome === 'survived')
      .map((m) => `${m.file}:${m.line} ${m.step}: ${m.operator} ${m.pointer ?? ''} ${m.description}`);
    assert.deepEqual(survivors, [], 'blind spots: fix the scenario, or explain why in its description');
    assert.equal(report.totals.score, 1);
  });

  test('every killed mutant names the checks that failed; every equivalent one its rule', () => {
    for (const m of report.mutants) {
      if (m.outcome === 'killed') assert.ok(m.killedBy?.length, m.id);
      // a kill by a request the recording cannot answer would be an artefact of the replay, not a check
      if (m.outcome === 'killed')
        assert.ok(
          m.killedBy!.some((k) => !/replay-miss|recording holds no further answer/.test(k.message)),
          `${m.id} killed only by replay misses`,
        );
      if (m.outcome === 'equivalent')
        assert.match(
          m.equivalentBecause ?? '',
          /schema admits|changes no|changes nothing|already breaks|masked: .* known deviation/,
          m.id,
        );
    }
  });

  test('the requests with a side effect each get a mutant that replays later answers without the effect, and it is killed', () => {
    const sideEffects = new Map(
      report.mutants
        .filter((m) => m.operator === 'side-effect' && m.outcome !== 'equivalent')
        .map((m) => [m.endpoint, m]),
    );
    for (const endpoint of [
      'POST /rest/system/restart',
      'POST /rest/system/shutdown',
      'POST /rest/system/error/clear',
      'DELETE /rest/cluster/pending/devices',
      'DELETE /rest/cluster/pending/folders',
      'POST /rest/db/prio',
      'POST /rest/folder/versions',
    ]) {
      const m = sideEffects.get(endpoint);
      assert.ok(m, `no side-effect mutant of ${endpoint}`);
      assert.equal(m.outcome, 'killed', `${endpoint}: ${m.description}`);
    }
    const restart = sideEffects.get('POST /rest/system/restart')!;
    assert.ok(
      restart.killedBy!.some((k) => k.check === 'system-restart/restarted/assert:startTime changed'),
      JSON.stringify(restart.killedBy),
    );
  });

  test('every mutation operator is used, the score is given per scenario and per endpoint', () => {
    const ops = new Set(report.mutants.map((m) => m.operator));
    for (const op of [
      'status',
      'media-type',
      'drop-required',
      'type',
      'format',
      'pattern',
      'enum',
      'const',
      'empty-array',
      'assertion',
      'text',
      'drop-events',
      'event-assertion',
      'side-effect',
    ])
      assert.ok(ops.has(op as never), `operator ${op} never used`);
    // one entry per scenario of the bundled suites (each has its recording)
    const scenarioFiles = readdirSync(join(ROOT, 'suites'), { recursive: true }).filter((f) =>
      String(f).endsWith('.yaml'),
    );
    assert.equal(report.byScenario.length, scenarioFiles.length);
    assert.ok(report.byEndpoint.some((e) => e.endpoint === 'GET /rest/system/status' && e.mutants > 0));
    assert.equal(
      report.byScenario.reduce((n, s) => n + s.mutants, 0),
      report.totals.mutants,
    );
  });
});

describe('a weakened scenario', () => {
  const work = tempFolder('mutate');

  test('with the assertion that sees the prio effect removed, the score drops and the survivor is named at its line', async () => {
    const text = readFileSync(PRIO, 'utf8');
    const assertion =
      '        - { path: /queued/-1/name, name: prioritised file still not last, notEquals: "{{last}}", statements: [prio.effect.top-of-queue] }\n';
    assert.ok(text.includes(assertion), 'the scenario changed: update this test');
    const weak = join(work(), 'db-need-prio.yaml');
    writeFileSync(weak, text.replace(assertion, ''));
    const full = await mutate({ dir: BUNDLED, suites: [PRIO], from: 'checks' });
    const weakened = await mutate({ dir: BUNDLED, suites: [weak], from: 'checks' });
    assert.equal(full.totals.score, 1);
    assert.ok(weakened.totals.score! < full.totals.score!, `${weakened.totals.score} not below ${full.totals.score}`);
    const survivors = weakened.mutants.filter((m) => m.outcome === 'survived');
    const prio = survivors.find((m) => m.operator === 'side-effect' && m.endpoint === 'POST /rest/db/prio');
    assert.ok(prio, JSON.stringify(survivors, null, 1));
    assert.equal(prio.scenario, 'db-need-prio');
    assert.equal(prio.step, 'need-after-prio');
    const line =
      readFileSync(weak, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('- name: need-after-prio')) + 1;
    assert.equal(prio.line, line);
    assert.ok(join(ROOT, prio.file) === weak || prio.file === weak, prio.file);
  });
});

describe('live mode (a real lab agent behind the fault injector)', () => {
  test('a suppressed error clear never reaches the agent, and the live agent still lists the error: killed', async () => {
    const report = await mutate({ dir: BUNDLED, only: ['system-error-clear'], live: { operators: ['side-effect'] } });
    assert.equal(report.mode, 'live');
    assert.deepEqual(validate('mutation-report', report), []);
    const clear = report.mutants.find((m) => m.endpoint === 'POST /rest/system/error/clear');
    assert.ok(clear, JSON.stringify(report.mutants.map((m) => m.endpoint)));
    assert.equal(clear.outcome, 'killed');
    assert.ok(
      clear.killedBy!.some((k) => k.check === 'system-error-clear/errors-empty/assert:the added error is gone'),
      JSON.stringify(clear.killedBy),
    );
    assert.ok(report.mutants.every((m) => m.operator === 'side-effect'));
  });
});
