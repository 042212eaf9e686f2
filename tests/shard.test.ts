// --shard i/n: the plan (longest processing time first over the recorded durations, deterministic, its hash), the
// option's validation; 3 versions × 3 shards of the bundled recordings replayed as 9 parallel processes of the built
// command and merged: the same as the unsharded run check for check; a missing, duplicated, foreign or crashed
// shard makes the merge fail with one line.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FailOn, Matrix, Report } from '../src/schema/generated/types.js';
import { RECORDINGS_DIR, ROOT } from '../src/paths.js';
import { combineShards } from '../src/matrix/combine-shards.js';
import { mergeShardSets, type ReportFile } from '../src/matrix/shard-set.js';
import { readFixture } from './fixtures/reports/hostile.js';
import { shard as parseShard } from '../src/cli/options.js';
import {
  bundledRecordings,
  madeOver,
  planShards,
  recordedDurations,
  recordedRunOf,
  shardSelection,
  weightsOf,
  type Weighted,
} from '../src/scenario/shard.js';
import { selectScenarios, type Selection } from '../src/scenario/select.js';
import type { LoadedScenario } from '../src/scenario/load.js';
import { totalsOf } from '../src/verdict/totals.js';
import { validate, formatError, loadDocumentValidators } from '../src/schema/registry.js';
import { cliAsync, spawnCli } from './support/cli.js';
import { tempFolder } from './support/temp.js';

await loadDocumentValidators();

/** the bundled suite: one scenario a file */
const SCENARIO_FILES = readdirSync(join(ROOT, 'suites'), { recursive: true }).filter((f) =>
  String(f).endsWith('.yaml'),
).length;
const synconf = (...args: string[]) => cliAsync(args, { timeout: 120_000 });

const w = (spec: string): Weighted[] =>
  spec.split(' ').map((pair) => {
    const [id, weight] = pair.split(':');
    return { id, weight: Number(weight) };
  });

describe('--shard i/n', () => {
  const valid: [string, { index: number; count: number }][] = [
    ['1/1', { index: 1, count: 1 }],
    ['2/3', { index: 2, count: 3 }],
    ['3/3', { index: 3, count: 3 }],
    [' 2 / 3 ', { index: 2, count: 3 }],
  ];
  for (const [value, expected] of valid)
    test(`"${value}" is shard ${expected.index} of ${expected.count}`, () => {
      assert.deepEqual(parseShard(value), expected);
    });
  for (const value of ['0/3', '4/3', '1/0', '0/0', 'x', '3', '1/3/4', '1.5/3', '-1/3', '', '1/', '/3'])
    test(`"${value}" is refused, naming --shard`, () => {
      assert.throws(() => parseShard(value), /^UsageError: --shard ".*" is not i\/n with whole numbers 1 ≤ i ≤ n/);
    });
  for (const value of ['1/1001', '1/100000000', '1/99999999999999999999'])
    test(`"${value}" is refused before any work: at most 1000 shards`, () => {
      assert.throws(() => parseShard(value), /^UsageError: --shard ".*": at most 1000 shards$/);
    });
  test('given twice is refused', () => {
    assert.throws(() => parseShard(['1/3', '2/3']), /--shard given twice \(1\/3, 2\/3\)/);
  });
});

describe('the plan', () => {
  const cases: [string, string, number, string[][]][] = [
    // LPT: 7→1, 6→2, 5→2 (6 < 7), 4→1 (7 < 11), 3→1 (11 = 11: the lower shard), 2→2
    [
      'heaviest first, each to the lightest shard',
      'a:7 b:6 c:5 d:4 e:3 f:2',
      2,
      [
        ['a', 'd', 'e'],
        ['b', 'c', 'f'],
      ],
    ],
    [
      'equal weights: by id, round the shards',
      'f:1 e:1 d:1 c:1 b:1 a:1',
      3,
      [
        ['a', 'd'],
        ['b', 'e'],
        ['c', 'f'],
      ],
    ],
    [
      'equal weights, given in another order: the same plan',
      'c:1 a:1 f:1 b:1 e:1 d:1',
      3,
      [
        ['a', 'd'],
        ['b', 'e'],
        ['c', 'f'],
      ],
    ],
    ['one heavy scenario alone', 'big:100 a:1 b:1 c:1', 2, [['big'], ['a', 'b', 'c']]],
    ['more shards than scenarios: empty shards', 'a:5 b:3', 3, [['a'], ['b'], []]],
    ['one shard: everything', 'b:2 a:1', 1, [['b', 'a']]],
  ];
  for (const [name, spec, count, expected] of cases)
    test(name, () => {
      assert.deepEqual(
        planShards(w(spec), count).shards.map((s) => s.ids),
        expected,
      );
    });

  test('the hash: the same for the same ids, weights and count in any order; another for any change', () => {
    const hash = (spec: string, count = 3) => planShards(w(spec), count).hash;
    const base = hash('a:5 b:3 c:2');
    assert.match(base, /^[0-9a-f]{12}$/);
    assert.equal(hash('c:2 a:5 b:3'), base, 'order of the input');
    for (const [what, other] of [
      ['a weight', hash('a:5 b:4 c:2')],
      ['an id', hash('a:5 b:3 d:2')],
      ['one scenario more', hash('a:5 b:3 c:2 d:1')],
      ['the count', hash('a:5 b:3 c:2', 2)],
    ])
      assert.notEqual(other, base, what);
  });

  test('weights: recorded durations rounded; a scenario never recorded weighs their mean; none recorded: all 1', () => {
    const durations = new Map([
      ['a', 10.4],
      ['b', 29.6],
      ['z', 0.2],
    ]);
    assert.deepEqual(weightsOf(['a', 'b', 'new', 'z'], durations), w('a:10 b:30 new:14 z:1'));
    assert.deepEqual(weightsOf(['x', 'y'], new Map()), w('x:1 y:1'));
  });

  test('the bundled recordings: the longest duration of each scenario over the versions', () => {
    const dirs = bundledRecordings();
    assert.deepEqual(
      dirs.map((d) => d.replace(/.*\//, '')),
      ['1.12.1', '1.19.2', '1.29.5', '1.30.0', '2.1.0', '2.1.2'].map((v) => `syncthing-${v}`),
    );
    for (const d of dirs) assert.ok(recordedRunOf(d), `${d}/recorded-run.json is there and valid`);
    const durations = recordedDurations(dirs);
    assert.equal(durations.size, SCENARIO_FILES);
    // pending-folders: 1.12.1 lacks the endpoint, the later versions take seconds (the longest as recorded)
    const each = dirs.map((d) => recordedDurations([d]).get('pending-folders')!);
    assert.ok(each[0] < Math.min(...each.slice(1)), `${each}`);
    assert.equal(durations.get('pending-folders'), Math.max(...each));
    assert.ok(durations.get('system-ping')! * 10 < durations.get('pending-folders')!, 'a ping weighs far less');
  });

  test('balanced: the heaviest shard of the bundled suite within 10% of the mean (the heaviest third together: not)', () => {
    const weights = weightsOf(
      [...recordedDurations(bundledRecordings()).keys()],
      recordedDurations(bundledRecordings()),
    );
    const spread = (loads: number[]) => Math.max(...loads) / (loads.reduce((a, b) => a + b, 0) / loads.length);
    const lpt = planShards(weights, 3).shards.map((s) => s.weightMs);
    assert.ok(spread(lpt) < 1.1, `LPT loads ${lpt}`);
    // the check above catches an unbalanced plan: the heaviest third of the scenarios in one shard is one
    const byWeight = [...weights].sort((a, b) => b.weight - a.weight);
    const third = Math.ceil(byWeight.length / 3);
    const dealt = [0, 1, 2].map((i) => byWeight.slice(i * third, (i + 1) * third).reduce((a, s) => a + s.weight, 0));
    assert.ok(spread(dealt) >= 1.1, `the heaviest third together: loads ${dealt}`);
  });
});

describe('what a shard records beside its plan, and a shard of nothing', () => {
  const loaded = (id: string, title = 't'): LoadedScenario =>
    ({
      scenario: { id, title, spec: [], steps: [] },
      file: `${id}.yaml`,
      path: `/x/${id}.yaml`,
      stepLines: {},
    }) as never;
  const selection = (...scenarios: LoadedScenario[]): Selection => ({ scenarios, errors: [] });
  const index = join(ROOT, 'spec', 'statements.yaml');

  test('suite and statement index: the same for the same scenarios in any order; another for any change', () => {
    const base = madeOver(selection(loaded('a'), loaded('b')), index);
    assert.match(base.suite!, /^[0-9a-f]{12}$/);
    assert.match(base.statementIndex!, /^[0-9a-f]{12}$/);
    assert.deepEqual(madeOver(selection(loaded('b'), loaded('a')), index), base, 'order of the selection');
    assert.notEqual(
      madeOver(selection(loaded('a'), loaded('b', 'edited')), index).suite,
      base.suite,
      'a scenario edited',
    );
    const other = madeOver(selection(loaded('a'), loaded('b')), join(ROOT, 'spec', 'rest-api-subset.md'));
    assert.notEqual(other.statementIndex, base.statementIndex, 'another index');
    assert.deepEqual(Object.keys(madeOver(selection(loaded('a')), '/nonexistent')), ['suite'], 'no index: none said');
  });

  const rows: [string, string, number, RegExp | undefined][] = [
    ['2 scenarios, shard 2/2', 'a b', 2, undefined],
    [
      '2 scenarios, shard 3/3',
      'a b',
      3,
      /^--shard 3\/3: shard 3 holds no scenario: the selection has 2 scenarios, so only shards 1 to 2 of 3 hold one/,
    ],
    [
      '1 scenario, shard 2/5',
      'a',
      2,
      /^--shard 2\/5: shard 2 holds no scenario: the selection has 1 scenario, so only shard 1 of 5 holds one/,
    ],
  ];
  for (const [name, ids, index_, message] of rows)
    test(`a shard of nothing is refused, not a green run of 0 checks: ${name}`, () => {
      const count = Number(/(\d+)$/.exec(name)![1]);
      const run = () =>
        shardSelection(selection(...ids.split(' ').map((id) => loaded(id))), { index: index_, count }, new Map());
      if (message) assert.throws(run, { name: 'UsageError', message });
      else assert.equal(run().shard.scenarios.length, 1);
    });
});

// What the live shard tests (live/shard-live.test.ts) leave to this one: the shards of the bundled suite, n = 1…5, are a
// partition of the whole selection, each in the whole run's order, and shard 1/1 is the whole selection itself, as
// the scenarios were loaded (so the live whole run stands for it).
describe('the shards of the bundled suite: a partition of the whole selection, in its order', () => {
  let whole: Selection;
  before(async () => {
    whole = await selectScenarios(undefined, undefined);
  });
  const idsOf = (s: Selection) => s.scenarios.map((x) => x.scenario.id);
  for (const count of [1, 2, 3, 4, 5])
    test(`${count} shard${count === 1 ? '' : 's'}: each scenario in exactly one, in the order of the whole run`, () => {
      const durations = recordedDurations(bundledRecordings());
      const shards = Array.from({ length: count }, (_, i) =>
        idsOf(shardSelection(whole, { index: i + 1, count }, durations).selection),
      );
      assert.equal(idsOf(whole).length, SCENARIO_FILES);
      assert.deepEqual(shards.flat().sort(), [...idsOf(whole)].sort(), 'every scenario once');
      for (const ids of shards)
        assert.deepEqual(
          ids,
          idsOf(whole).filter((id) => ids.includes(id)),
          'the order of the whole run',
        );
      if (count === 1) assert.deepEqual(shards[0], idsOf(whole), 'shard 1/1 is the whole selection');
    });
});

const VERSIONS = ['1.12.1', '1.19.2', '1.29.5'];
const SHARDS = [1, 2, 3];
const readJson = async <T = Report>(file: string): Promise<T> => JSON.parse(await readFile(file, 'utf8')) as T;

/**
 * what "check for check" compares: every check's id, verdict and message, scenario by scenario, in order. Durations
 * in a message aside: a wait's "held after 1 attempt (484 ms)" counts the pacing of the expensive call before it,
 * which another scenario made in the whole run and a scenario of its own shard (or none) made in a shard.
 */
const checksOf = (r: Report) =>
  r.scenarios.flatMap((s) =>
    s.checks.map((c) => `${s.id} | ${c.id} | ${c.verdict} | ${c.message.replace(/\(\d+ ms\)/g, '(… ms)')}`),
  );
/** the differences between two reports' checks, and between what follows from them (totals, verdict, exit, notes) */
function differences(merged: Report, whole: Report): string[] {
  const a = checksOf(merged);
  const b = checksOf(whole);
  const out = [
    ...a.filter((x, i) => b[i] !== x).map((x) => `merged: ${x}`),
    ...b.filter((x, i) => a[i] !== x).map((x) => `whole: ${x}`),
  ];
  for (const key of [
    'totals',
    'exitCode',
    'verdict',
    'undocumented',
    'staleExpectations',
    'expensiveCalls',
    'agent',
  ] as const)
    if (JSON.stringify(merged[key]) !== JSON.stringify(whole[key])) out.push(`${key} differs`);
  return out;
}
/** a matrix without what tells where and when its runs were made */
const placeless = (m: Matrix) => ({
  ...m,
  columns: m.columns.map((c) => ({ ...c, file: null, startedAt: null, label: null })),
});

describe('3 versions × 3 shards as 9 parallel processes of the built command, merged', () => {
  const work = tempFolder('shard');
  /** shard reports of each version: file[version][shard - 1] */
  const files: Record<string, string[]> = {};
  let wholeMatrix: Matrix;
  const shardFile = (version: string, shard: number) => files[version][shard - 1];
  const merge = (...args: string[]) => synconf('report', 'merge', ...args, '--out', join(work(), `merged-${++merges}`));
  let merges = 0;
  before(async () => {
    const jobs = VERSIONS.flatMap((v) =>
      SHARDS.map((i) => {
        const out = join(work(), `${v}-${i}`);
        (files[v] ??= [])[i - 1] = join(out, 'report.json');
        return synconf('replay', join(RECORDINGS_DIR, `syncthing-${v}`), '--shard', `${i}/3`, '--report-dir', out);
      }),
    );
    // the unsharded runs: each version replayed whole, and the matrix
    const wholeRuns = VERSIONS.map((v) =>
      synconf('replay', join(RECORDINGS_DIR, `syncthing-${v}`), '--report-dir', join(work(), 'whole', v)),
    );
    for (const r of await Promise.all([...jobs, ...wholeRuns])) assert.equal(r.code, 0, r.out);
    const matrix = await synconf(
      'matrix',
      '--replay',
      '--syncthing',
      VERSIONS.join(','),
      '--report-dir',
      join(work(), 'whole-matrix'),
    );
    assert.equal(matrix.code, 0, matrix.stderr);
    wholeMatrix = await readJson<Matrix>(join(work(), 'whole-matrix', 'matrix.json'));
  });

  test('each shard report is valid, says which shard of which plan it is, and ran exactly its scenarios', async () => {
    for (const v of VERSIONS) {
      const whole = await readJson(join(work(), 'whole', v, 'report.json'));
      const shards = await Promise.all(SHARDS.map((i) => readJson(shardFile(v, i))));
      for (const [i, r] of shards.entries()) {
        assert.deepEqual(validate('report', r).map(formatError), []);
        assert.deepEqual([r.shard?.index, r.shard?.count, r.shard?.planScenarios], [i + 1, 3, SCENARIO_FILES]);
        assert.equal(r.shard?.plan, shards[0].shard?.plan, 'one plan');
        const summary = await readFile(join(shardFile(v, i + 1), '..', 'summary.md'), 'utf8');
        assert.match(
          summary,
          new RegExp(
            ` · \\*\\*shard ${i + 1}/3\\*\\* of plan ${r.shard?.plan} \\(${r.scenarios.length} of ${SCENARIO_FILES} scenarios\\)`,
          ),
        );
        assert.deepEqual(
          r.scenarios.map((s) => s.id),
          r.shard?.scenarios,
        );
        // the others' scenarios are not selected here: "not run", rather than "not covered"
        assert.deepEqual(
          r.notSelected?.map((s) => s.id).sort(),
          whole.scenarios
            .map((s) => s.id)
            .filter((id) => !r.shard!.scenarios.includes(id))
            .sort(),
        );
      }
      const ids = shards.flatMap((r) => r.shard!.scenarios);
      assert.equal(new Set(ids).size, ids.length, 'disjoint');
      assert.deepEqual(ids.sort(), whole.scenarios.map((s) => s.id).sort(), 'together the whole suite');
      assert.equal(whole.shard, undefined, 'an unsharded run has no shard');
    }
  });

  test('every version of the same suite gets the same plan (weights do not depend on the agent)', async () => {
    const plans = await Promise.all(VERSIONS.map(async (v) => (await readJson(shardFile(v, 1))).shard!.plan));
    assert.equal(new Set(plans).size, 1);
  });

  test('each version merged equals its unsharded run check for check', async () => {
    const order = (await readJson(join(work(), 'whole', '1.19.2', 'report.json'))).scenarios.map((s) => s.id);
    for (const v of VERSIONS) {
      const shards = await Promise.all(SHARDS.map((i) => readJson(shardFile(v, i))));
      const { report, crashed } = combineShards(shards, v, order);
      const whole = await readJson(join(work(), 'whole', v, 'report.json'));
      assert.deepEqual(crashed, []);
      assert.deepEqual(differences(report, whole), [], v);
      assert.deepEqual(validate('report', report).map(formatError), []);
      // the comparison catches a merge that is not the whole run: a verdict changed, a scenario lost
      const tampered = structuredClone(shards);
      tampered[1].scenarios[0].checks[0].verdict = 'fail';
      assert.notDeepEqual(differences(combineShards(tampered, v, order).report, whole), []);
      tampered[1].scenarios.pop();
      assert.notDeepEqual(differences(combineShards(tampered, v, order).report, whole), []);
    }
  });

  test('report merge of the 9 shard reports: the matrix of the unsharded `matrix --replay`, exit 0', async () => {
    const r = await merge(...VERSIONS.flatMap((v) => files[v]));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const merged = await readJson<Matrix>(join(work(), `merged-${merges}`, 'matrix.json'));
    assert.deepEqual(
      merged.columns.map((c) => c.label),
      VERSIONS,
    );
    assert.deepEqual(placeless(merged), placeless(wholeMatrix));
    assert.ok(merged.rows.length > 600 && merged.changed > 100, 'a matrix worth comparing');
  });

  test('matrix --replay --shard i/3 as 3 parallel processes, merged: the same matrix', async () => {
    const runs = await Promise.all(
      SHARDS.map((i) =>
        synconf(
          'matrix',
          '--replay',
          '--syncthing',
          VERSIONS.join(','),
          '--shard',
          `${i}/3`,
          '--report-dir',
          join(work(), `m${i}`),
        ),
      ),
    );
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    assert.match(runs[1].stdout, new RegExp(`\\nshard 2/3 of plan [0-9a-f]{12}: \\d+ of ${SCENARIO_FILES} scenarios`));
    const r = await merge(...SHARDS.flatMap((i) => VERSIONS.map((v) => join(work(), `m${i}`, v, 'report.json'))));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      placeless(await readJson<Matrix>(join(work(), `merged-${merges}`, 'matrix.json'))),
      placeless(wholeMatrix),
    );
  });

  test('a shard killed before it wrote its report: the merge names it missing, one line, exit 2', async () => {
    const out = join(work(), 'killed');
    const child = spawnCli(['replay', '--shard', '2/3', '--report-dir', out]);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('close', resolve));
    assert.equal(existsSync(join(out, 'report.json')), false, 'killed before writing');
    const given = VERSIONS.flatMap((v) => files[v]).filter((f) => f !== shardFile('1.19.2', 2));
    const r = await merge(...given);
    const plan = (await readJson(shardFile('1.19.2', 1))).shard!.plan;
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `synconf: shard 2/3 of plan ${plan} for 1.19.2 is missing\n`);
  });

  test('a shard given twice: one line naming both files, exit 2', async () => {
    const r = await merge(...files['1.19.2'], shardFile('1.19.2', 3));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^synconf: shard 3\/3 of plan [0-9a-f]{12} for 1\.19\.2 is given twice: (\S+), \1\n$/);
  });

  test('a shard of another plan (2 shards, not 3): one line naming both plans, exit 2', async () => {
    const other = join(work(), 'other-plan');
    const run = await synconf('replay', '--shard', '2/2', '--report-dir', other);
    assert.equal(run.code, 0, run.stderr);
    const r = await merge(shardFile('1.19.2', 1), join(other, 'report.json'), shardFile('1.19.2', 3));
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^synconf: the shards of 1\.19\.2 are of different plans: [0-9a-f]{12} \(1\/3 in \S+, 3\/3 in \S+\); [0-9a-f]{12} \(2\/2 in \S+\): merge the shards of one plan[^\n]*\n$/,
    );
  });

  const crashes: [string, (r: Report) => void, number, RegExp][] = [
    [
      'exit 3 (a fault of synconf), its last scenarios not run',
      (r) => {
        r.exitCode = 3;
        r.harnessErrors = [{ message: 'internal error (a bug in synconf): boom' }];
        r.scenarios = r.scenarios.slice(0, 1);
      },
      3,
      /did not finish: exit 3 \(a fault of synconf\); harness error: internal error \(a bug in synconf\): boom; \d+ of its \d+ scenarios did not run \(/,
    ],
    [
      'interrupted: the report of the scenarios done so far',
      (r) => {
        r.harnessErrors = [{ message: 'interrupted by SIGTERM before the run ended' }];
        r.scenarios = r.scenarios.slice(0, 2);
        r.exitCode = 2;
      },
      2,
      /did not finish: harness error: interrupted by SIGTERM before the run ended; \d+ of its \d+ scenarios did not run/,
    ],
    [
      'scenarios of its plan missing, nothing else said (a report cut short)',
      (r) => {
        r.scenarios = r.scenarios.slice(0, 1);
      },
      2,
      /did not finish: \d+ of its \d+ scenarios did not run \(/,
    ],
  ];
  for (const [name, crash, exit, line] of crashes)
    test(`a crashed shard (${name}): its version fails (never green), one line, exit ${exit}`, async () => {
      const report = await readJson(shardFile('1.19.2', 2));
      crash(report);
      // as a shard that stopped writes it: the totals of the scenarios it lists (totals left as they were would be a
      // file cut by hand, refused on reading: tests/hostile-input.test.ts)
      report.totals = totalsOf(report.scenarios);
      const file = join(work(), `crashed-${merges}.json`);
      await writeFile(file, JSON.stringify(report));
      const r = await merge(shardFile('1.19.2', 1), file, shardFile('1.19.2', 3));
      assert.equal(r.code, exit, r.stderr);
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0], /^synconf: shard 2\/3 of plan [0-9a-f]{12} for 1\.19\.2 did not finish: /);
      assert.match(lines[0], line);
      const merged = await readJson<Matrix>(join(work(), `merged-${merges}`, 'matrix.json'));
      assert.equal(merged.columns[0].exitCode, exit, 'the version fails');
    });
});

describe('sets of shards refused in-process (every problem in one line)', () => {
  const shard = (
    version: string,
    index: number,
    count = 3,
    plan = 'aaaaaaaaaaaa',
    more: Partial<NonNullable<Report['shard']>> & {
      synconf?: string;
      file?: string;
      run?: { failOn: FailOn[]; strict: boolean; hash: string };
    } = {},
  ): ReportFile => {
    const { synconf, file, run, ...header } = more;
    const report = structuredClone(readFixture('pass'));
    if (synconf) report.synconf.version = synconf;
    if (run)
      Object.assign(report.run, {
        failOn: run.failOn,
        strict: run.strict,
        expectations: null,
        expectationsHash: run.hash,
      });
    return {
      file: file ?? `${version}-${index}-of-${count}.json`,
      report: {
        ...report,
        agent: { version, versionSource: 'recording' },
        shard: { index, count, plan, scenarios: [], ...header },
      },
    };
  };
  const made = { suite: '111111111111', statementIndex: '222222222222' };
  const copies = (n: number) =>
    Array.from({ length: n }, (_, i) => shard('1.19.2', 1, 2, undefined, { ...made, file: `c${i}.json` }));
  const whole = (version: string): ReportFile => ({
    file: `${version}-whole.json`,
    report: { ...structuredClone(readFixture('pass')), agent: { version, versionSource: 'recording' } },
  });
  const rows: [string, ReportFile[], string | undefined][] = [
    ['a whole set', [shard('1.19.2', 2), shard('1.19.2', 1), shard('1.19.2', 3)], undefined],
    ['whole runs only: as before', [whole('1.19.2'), whole('1.29.5')], undefined],
    ['whole runs beside a whole set of another version', [whole('1.12.1'), shard('1.19.2', 1, 1)], undefined],
    ['two shards missing', [shard('1.19.2', 2, 4)], 'shards 1/4, 3/4, 4/4 of plan aaaaaaaaaaaa for 1.19.2 are missing'],
    [
      'a whole run beside shards of its version',
      [shard('1.19.2', 1, 2), whole('1.19.2'), shard('1.19.2', 2, 2)],
      '1.19.2: 1.19.2-whole.json is a whole run beside shards (1.19.2-1-of-2.json, 1.19.2-2-of-2.json): merge either the whole run or its shards',
    ],
    [
      'problems of two versions in one line',
      [shard('1.19.2', 1, 2), shard('1.29.5', 1, 2), shard('1.29.5', 1, 2), shard('1.29.5', 2, 2)],
      'shard 2/2 of plan aaaaaaaaaaaa for 1.19.2 is missing; shard 1/2 of plan aaaaaaaaaaaa for 1.29.5 is given twice: 1.29.5-1-of-2.json, 1.29.5-1-of-2.json',
    ],
    [
      "shards past the plan's scenario count hold none: not needed",
      [
        shard('1.19.2', 1, 4, undefined, { planScenarios: 2, scenarios: ['a'] }),
        shard('1.19.2', 2, 4, undefined, { planScenarios: 2, scenarios: ['b'] }),
      ],
      undefined,
    ],
    [
      "a shard within the plan's scenario count is still missing",
      [shard('1.19.2', 1, 4, undefined, { planScenarios: 2, scenarios: ['a'] })],
      'shard 2/4 of plan aaaaaaaaaaaa for 1.19.2 is missing',
    ],
    [
      'shards of another synconf version',
      [shard('1.19.2', 1, 2, undefined, made), shard('1.19.2', 2, 2, undefined, { ...made, synconf: '9.9.9' })],
      `the shards of 1.19.2 were not made alike: synconf version ${readFixture('pass').synconf.version} (1.19.2-1-of-2.json) vs 9.9.9 (1.19.2-2-of-2.json): merge the shards of one run (one synconf over one suite and statement index, with the same --fail-on, --strict and --expectations)`,
    ],
    [
      'shards over another suite and statement index',
      [
        shard('1.19.2', 1, 2, undefined, made),
        shard('1.19.2', 2, 2, undefined, { suite: '333333333333', statementIndex: '444444444444' }),
      ],
      'the shards of 1.19.2 were not made alike: suite 111111111111 (1.19.2-1-of-2.json) vs 333333333333 (1.19.2-2-of-2.json); statement index 222222222222 (1.19.2-1-of-2.json) vs 444444444444 (1.19.2-2-of-2.json): merge the shards of one run (one synconf over one suite and statement index, with the same --fail-on, --strict and --expectations)',
    ],
    [
      'a shard of an older synconf beside a newer one: cannot tell',
      [shard('1.19.2', 1, 2, undefined, { suite: made.suite }), shard('1.19.2', 2, 2)],
      'the shards of 1.19.2 were not made alike: suite 111111111111 (1.19.2-1-of-2.json) vs none recorded (1.19.2-2-of-2.json) (a shard that records none was written by an older synconf, or stopped before it applied any: cannot tell): merge the shards of one run (one synconf over one suite and statement index, with the same --fail-on, --strict and --expectations)',
    ],
    ['shards of an older synconf only: as before', [shard('1.19.2', 1, 2), shard('1.19.2', 2, 2)], undefined],
    [
      'shards judged with another --fail-on, --strict and known deviations',
      [
        shard('1.19.2', 1, 2, undefined, { ...made, run: { failOn: ['fail'], strict: false, hash: 'aaaaaaaaaaaa' } }),
        shard('1.19.2', 2, 2, undefined, {
          ...made,
          run: { failOn: ['skip', 'fail'], strict: true, hash: 'bbbbbbbbbbbb' },
        }),
      ],
      'the shards of 1.19.2 were not made alike: --fail-on fail (1.19.2-1-of-2.json) vs fail,skip (1.19.2-2-of-2.json); --strict false (1.19.2-1-of-2.json) vs true (1.19.2-2-of-2.json); known deviations none (aaaaaaaaaaaa) (1.19.2-1-of-2.json) vs none (bbbbbbbbbbbb) (1.19.2-2-of-2.json): merge the shards of one run (one synconf over one suite and statement index, with the same --fail-on, --strict and --expectations)',
    ],
    [
      'the same --fail-on in another order: alike',
      [
        shard('1.19.2', 1, 2, undefined, {
          ...made,
          run: { failOn: ['skip', 'fail'], strict: false, hash: 'aaaaaaaaaaaa' },
        }),
        shard('1.19.2', 2, 2, undefined, {
          ...made,
          run: { failOn: ['fail', 'skip'], strict: false, hash: 'aaaaaaaaaaaa' },
        }),
      ],
      undefined,
    ],
    [
      'a shard given 60 times: one short line, the first few named',
      [...copies(60), shard('1.19.2', 2, 2, undefined, made)],
      'shard 1/2 of plan aaaaaaaaaaaa for 1.19.2 is given 60 times: c0.json, c1.json, c2.json and 57 more',
    ],
  ];
  for (const [name, set, message] of rows)
    test(name, () => {
      if (message === undefined) assert.doesNotThrow(() => mergeShardSets(set));
      else assert.throws(() => mergeShardSets(set), { name: 'InputError', message });
    });
});

// A report bounded for size folds checks into a kept one (`more`) or leaves them out (`omitted`): its totals, and those
// a merge recomputes from its scenarios, count them as the run did (a merge of bounded shards counted fewer)
test('totals count the checks a size-bounded report folded or left out', () => {
  const check = (verdict: 'pass' | 'fail', more?: number) => ({
    id: `s/x/${verdict}`,
    step: 'x',
    kind: 'status' as const,
    verdict,
    message: 'm',
    ...(more ? { more } : {}),
  });
  const scenario = (checks: ReturnType<typeof check>[], omitted?: Record<string, number>) =>
    ({
      id: 's',
      title: 's',
      file: 's.yaml',
      spec: [],
      mode: 'normal',
      verdict: 'fail',
      durationMs: 1,
      checks,
      omitted,
    }) as unknown as Report['scenarios'][number];
  const rows: [string, Report['scenarios'], Partial<Report['totals']>][] = [
    ['plain', [scenario([check('pass'), check('fail')])], { checks: 2, pass: 1, fail: 1 }],
    ['a check standing for 4 more', [scenario([check('fail', 4)])], { checks: 5, fail: 5 }],
    [
      'checks left out',
      [scenario([check('pass')], { pass: 0, fail: 7, 'expected-fail': 0, 'unexpected-pass': 0, skip: 2 })],
      { checks: 10, pass: 1, fail: 7, skip: 2 },
    ],
  ];
  for (const [name, scenarios, expected] of rows) {
    const t = totalsOf(scenarios);
    for (const [k, v] of Object.entries(expected)) assert.equal(t[k as keyof typeof t], v, `${name}: ${k}`);
  }
});
