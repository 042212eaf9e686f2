// Drift grouped by cause and classified by change rule (src/drift/causes.ts, rules/change-rules.yaml): a hand-made
// pair of recordings per rule id is one cause of that rule and level; the rules file, its schema's ids and the docs
// agree; the bundled recordings fold into a few dozen causes.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { driftBetween } from '../src/drift/compare-dirs.js';
import { causesOf } from '../src/drift/causes.js';
import { loadRules, rulesDoc, RULES_FILE } from '../src/drift/rules.js';
import { RECORDINGS_DIR, ROOT, SCHEMAS_DIR } from '../src/paths.js';
import { RULE_PAIRS, cassetteOf, type Step } from './fixtures/drift-rules/pairs.js';

const UNCHANGED: Step[] = [{ step: 'get-version', path: '/rest/system/version', body: { version: 'v1.0.0' } }];

async function folder(dir: string, version: string, steps: Step[] | null): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'unchanged.har'), JSON.stringify(cassetteOf('unchanged', version, UNCHANGED)));
  if (steps) await writeFile(join(dir, 'rule-pair.har'), JSON.stringify(cassetteOf('rule-pair', version, steps)));
  return dir;
}

describe('drift causes', () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'synconf-drift-causes-'));
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  for (const pair of RULE_PAIRS)
    test(`a hand-made pair is one cause: ${pair.rule} (${pair.level})`, async () => {
      const a = await folder(join(work, pair.rule, 'a'), 'v1.0.0', pair.a);
      const b = await folder(join(work, pair.rule, 'b'), 'v1.1.0', pair.b);
      const causes = causesOf(driftBetween(a, b).scenarios);
      const what = causes.map((c) => `${c.rule} ${c.endpoints.join(',')} ${c.pointer} ${c.change}`).join('\n');
      assert.equal(causes.length, 1, what);
      assert.equal(causes[0].rule, pair.rule, what);
      assert.equal(causes[0].level, pair.level, what);
      assert.deepEqual(causes[0].scenarios, ['rule-pair']);
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
    assert.deepEqual(RULE_PAIRS.map((p) => p.rule).sort(), [...ids].sort());
    for (const r of loadRules())
      assert.equal(
        RULE_PAIRS.find((p) => p.rule === r.id)!.level,
        r.level,
        `${r.id}: the pair expects the file's level`,
      );
  });

  test('docs/change-rules.md is the one written from the rules file (npm run gen:rules-doc)', async () => {
    const doc = await readFile(join(ROOT, 'docs', 'change-rules.md'), 'utf8');
    assert.equal(doc, rulesDoc(loadRules()));
    for (const r of loadRules()) assert.match(doc, new RegExp(`^## ${r.id}\\n\\n\\*\\*${r.level}\\*\\*`, 'm'));
  });

  test('a rules file that breaks its schema, or lists a rule twice, is an input error naming file and line', async () => {
    const text = await readFile(RULES_FILE, 'utf8');
    const bad = join(work, 'bad-rules.yaml');
    await writeFile(bad, text.replace('level: risky', 'level: severe'));
    assert.throws(() => loadRules(bad), /change rules .*bad-rules\.yaml:\d+: \/rules\/\d+\/level: /);
    await writeFile(bad, `${text}  - id: endpoint-added\n    level: compatible\n    summary: again\n    doc: again\n`);
    assert.throws(() => loadRules(bad), /bad-rules\.yaml:\d+: rule endpoint-added listed twice/);
  });

  const real = (older: string, newer: string) =>
    causesOf(
      driftBetween(join(RECORDINGS_DIR, `syncthing-${older}`), join(RECORDINGS_DIR, `syncthing-${newer}`)).scenarios,
    );
  const find = (causes: ReturnType<typeof real>, rule: string, pointer: RegExp) =>
    causes.find(
      (c) => c.rule === rule && pointer.test(`${c.pointer} ${(c.at ?? []).join(' ')} ${c.endpoints.join(' ')}`),
    );

  test('1.19.2 → 1.29.5: 342 differences fold into at most 40 causes, each difference in exactly one', () => {
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
    assert.equal(restart?.occurrences, 13);
    const numBlocks = find(causes, 'response-member-type-changed', /numBlocks/);
    assert.equal(numBlocks?.occurrences, 14);
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
});
