// --shard i/n: the plan (longest processing time first over the recorded durations, deterministic, its hash),
// the option's validation, and shards of the bundled recordings replayed by the built command.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { Report } from '../src/schema/generated/types.js';
import { ROOT } from '../src/paths.js';
import { shard as parseShard } from '../src/cli/options.js';
import { bundledRecordings, planShards, recordedDurations, weightsOf, type Weighted } from '../src/scenario/shard.js';
import { validate, formatError, loadDocumentValidators } from '../src/schema/registry.js';

await loadDocumentValidators();

const synconf = (...args: string[]) =>
  execa('node', [join(ROOT, 'dist/bin/synconf.js'), ...args], {
    reject: false,
    timeout: 120_000,
    env: { GITHUB_STEP_SUMMARY: '', NO_COLOR: '1' },
  });

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
      ['syncthing-1.12.1', 'syncthing-1.19.2', 'syncthing-1.29.5'],
    );
    const durations = recordedDurations(dirs);
    assert.equal(durations.size, 20);
    // pending-folders: 1.12.1 lacks the endpoint (2 ms), 1.19.2 6.5 s, 1.29.5 7.1 s
    assert.equal(Math.round(durations.get('pending-folders')!), 7145);
    assert.ok(durations.get('system-ping')! < 10);
  });

  test('balanced: the heaviest shard of the bundled suite within 10% of the mean (round robin by id: not)', () => {
    const weights = weightsOf(
      [...recordedDurations(bundledRecordings()).keys()],
      recordedDurations(bundledRecordings()),
    );
    const spread = (loads: number[]) => Math.max(...loads) / (loads.reduce((a, b) => a + b, 0) / loads.length);
    const lpt = planShards(weights, 3).shards.map((s) => s.weightMs);
    assert.ok(spread(lpt) < 1.1, `LPT loads ${lpt}`);
    // the check above catches an unbalanced plan: scenarios dealt round by id are
    const byId = [...weights].sort((a, b) => a.id.localeCompare(b.id));
    const dealt = [0, 1, 2].map((i) => byId.filter((_, j) => j % 3 === i).reduce((a, s) => a + s.weight, 0));
    assert.ok(spread(dealt) >= 1.1, `round robin loads ${dealt}`);
  });
});

describe('replay --shard on the bundled recordings (the built command)', () => {
  let dir: string;
  const reports: Report[] = [];
  let whole: Report;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'synconf-shard-'));
    const runs = await Promise.all(
      [1, 2, 3].map((i) => synconf('replay', '--shard', `${i}/3`, '--report-dir', join(dir, `s${i}`))),
    );
    for (const [i, r] of runs.entries()) {
      assert.equal(r.exitCode, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^shard ${i + 1}/3 of plan [0-9a-f]{12}: \\d+ of 20 scenarios`));
      reports.push(JSON.parse(await readFile(join(dir, `s${i + 1}`, 'report.json'), 'utf8')));
    }
    const r = await synconf('replay', '--report-dir', join(dir, 'whole'));
    assert.equal(r.exitCode, 0, r.stderr);
    whole = JSON.parse(await readFile(join(dir, 'whole', 'report.json'), 'utf8'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('each report is valid and says which shard of which plan it is', () => {
    for (const [i, r] of reports.entries()) {
      assert.deepEqual(validate('report', r).map(formatError), []);
      assert.equal(r.shard?.index, i + 1);
      assert.equal(r.shard?.count, 3);
      assert.equal(r.shard?.plan, reports[0].shard?.plan);
      assert.equal(r.shard?.planScenarios, 20);
      assert.deepEqual(
        r.scenarios.map((s) => s.id),
        r.shard?.scenarios,
        'ran exactly its scenarios',
      );
    }
    assert.equal(whole.shard, undefined, 'an unsharded run has no shard');
  });

  test('the shards are disjoint, together the whole suite, each in the order of the whole run', () => {
    const wholeIds = whole.scenarios.map((s) => s.id);
    const ids = reports.flatMap((r) => r.shard!.scenarios);
    assert.equal(new Set(ids).size, ids.length, 'disjoint');
    assert.deepEqual([...ids].sort(), [...wholeIds].sort());
    for (const r of reports)
      assert.deepEqual(
        r.shard!.scenarios,
        wholeIds.filter((id) => r.shard!.scenarios.includes(id)),
      );
  });

  test("the other shards' scenarios are not selected here (not run, rather than not covered)", () => {
    for (const r of reports)
      assert.deepEqual(
        (r.notSelected ?? []).map((s) => s.id).sort(),
        whole.scenarios
          .map((s) => s.id)
          .filter((id) => !r.shard!.scenarios.includes(id))
          .sort(),
      );
  });

  test('the same plan again (deterministic)', async () => {
    const again = await synconf('replay', '--shard', '2/3', '--report-dir', join(dir, 'again'));
    const r: Report = JSON.parse(await readFile(join(dir, 'again', 'report.json'), 'utf8'));
    assert.equal(again.exitCode, 0);
    assert.deepEqual(r.shard, reports[1].shard);
  });

  const bad: [string, string[]][] = [
    ['replay', ['replay', '--shard', '4/3']],
    ['run', ['run', '--shard', '0/3']],
    ['matrix', ['matrix', '--replay', '--shard', '1/x']],
  ];
  for (const [command, args] of bad)
    test(`${command} with a bad --shard: one line naming --shard, exit 2`, async () => {
      const r = await synconf(...args, '--report-dir', join(dir, 'never'));
      assert.equal(r.exitCode, 2);
      assert.match(
        r.stderr.trim(),
        /^synconf: --shard "[^"]+" is not i\/n with whole numbers 1 ≤ i ≤ n \(e\.g\. --shard 2\/3\)$/,
      );
    });
});
