// Bounded output (issue 22): repeated identical problems are folded ("… and 76,503 more like it") on the terminal,
// in every report format and in validate's output, and each report file stays under the size bound the README
// states, still parsing and valid against its schema, with exact totals. The large cases are generated here (a
// ~10 MB scenario whose steps all miss a small recording) and run against the built command from a scratch folder,
// each with a timeout so that none can hang.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type {
  ChangeRuleId,
  CheckResult,
  Matrix,
  MatrixCause,
  MatrixPair,
  Report,
} from '../src/schema/generated/types.js';
import { validate, formatError, loadDocumentValidators } from '../src/schema/registry.js';
import { ROOT } from '../src/paths.js';
import { REPORT_FILE_BOUND, BOUND_TEXT, SUMMARY_BOUND, SUMMARY_BOUND_TEXT } from '../src/report/bound.js';
import { checkKind, fold, FOLD_OVER, moreLine, SHOWN, streamFold } from '../src/report/fold.js';
import { reportJson } from '../src/report/report-json.js';
import { toHtml } from '../src/report/html.js';
import { toJUnit } from '../src/report/junit.js';
import { toMarkdown } from '../src/report/markdown.js';
import { viewOf } from '../src/report/view.js';
import { matrixJson, rowCount } from '../src/report/matrix-json.js';
import { matrixToHtml } from '../src/report/matrix-html.js';
import { matrixToMarkdown } from '../src/report/matrix-markdown.js';
import { mergeReports } from '../src/matrix/merge.js';
import { cliAsync } from './support/cli.js';
import { withTemp } from './support/temp.js';
import { readFixture } from './fixtures/reports/hostile.js';

await loadDocumentValidators();

const RECORDED = join(ROOT, 'recordings', 'syncthing-1.19.2');
const HEAD = 'id: system-ping\ntitle: t\nspec: [GET /rest/system/ping]\nsteps:\n';
const step = (i: number) =>
  `  - name: miss-${i}\n    request: { method: GET, path: /rest/system/nothing-here-${i} }\n    expect: { status: 200, schema: ping }\n`;

/** a scenario of `steps` steps (or as many as make `bytes`) that all miss the recording of system-ping; each size
 * made once in the file (the 10 MB one is read by two tests) */
const made = new Map<string, { text: string; steps: number }>();
function allMiss(size: { steps?: number; bytes?: number }): { text: string; steps: number } {
  const key = `${size.steps} ${size.bytes}`;
  if (!made.has(key)) made.set(key, buildAllMiss(size));
  return made.get(key)!;
}
function buildAllMiss(size: { steps?: number; bytes?: number }): { text: string; steps: number } {
  const parts = [HEAD];
  let length = HEAD.length;
  let i = 0;
  while (size.steps !== undefined ? i < size.steps : length < size.bytes!) {
    parts.push(step(i++));
    length += parts[parts.length - 1].length;
  }
  return { text: parts.join(''), steps: i };
}

const lines = (s: string) => s.split('\n').filter(Boolean);
const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });

/** every report file of `dir` under the bound, parsing, with the totals of a run of `checks` failing checks */
function assertReports(dir: string, checks: number): Report {
  for (const name of ['report.json', 'junit.xml', 'report.html', 'summary.md'])
    assert.ok(statSync(join(dir, name)).size <= REPORT_FILE_BOUND, `${name}: ${statSync(join(dir, name)).size} bytes`);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  assert.deepEqual(validate('report', report).map(formatError), []);
  assert.equal(report.totals.checks, checks);
  assert.equal(report.totals.fail, checks);
  assert.equal(report.exitCode, 2); // every miss is also a harness error: a recording that lacks the step
  const suites = junit.parse(readFileSync(join(dir, 'junit.xml'), 'utf8')).testsuites;
  assert.equal(Number(suites.tests), checks * 2, 'every check and harness error counted in junit.xml');
  assert.match(readFileSync(join(dir, 'report.html'), 'utf8'), /<\/html>\s*$/);
  return report;
}

interface Row {
  name: string;
  steps?: number;
  bytes?: number;
  /** the most lines stdout and stderr may have */
  maxLines: number;
  /** a fold line is printed and written (steps - SHOWN more like it), or nothing is folded */
  folded: boolean;
}

const ROWS: Row[] = [
  { name: 'ten steps that miss: nothing folded, output as it was', steps: FOLD_OVER, maxLines: 15, folded: false },
  {
    name: 'eleven steps that miss: the first three, then "… and 8 more like it"',
    steps: 11,
    maxLines: 10,
    folded: true,
  },
  { name: 'a 10 MB scenario whose steps all miss', bytes: 10_000_000, maxLines: 10, folded: true },
];

// each test runs the built command in a folder of its own: two at a time (the machine's two cores)
describe('replay of a scenario whose steps all miss, from a scratch folder', { concurrency: 2 }, () => {
  for (const row of ROWS)
    test(row.name, { timeout: 600_000 }, () =>
      withTemp('bounded', async (dir) => {
        const { text, steps } = allMiss(row);
        writeFileSync(join(dir, 'miss.yaml'), text);
        mkdirSync(join(dir, 'rec'));
        for (const f of ['_run.har', 'system-ping.har']) copyFileSync(join(RECORDED, f), join(dir, 'rec', f));
        const args = ['replay', 'rec', '--suite', 'miss.yaml', '--report-dir', 'out'];
        const r = await cliAsync(args, { cwd: dir, timeout: 540_000 });
        assert.equal(r.signal, null, 'ended by the timeout');
        assert.equal(r.code, 2, r.out.slice(0, 2000));
        assert.ok(lines(r.stdout).length <= row.maxLines, `${lines(r.stdout).length} lines on stdout`);
        assert.ok(lines(r.stderr).length <= row.maxLines, `${lines(r.stderr).length} lines on stderr`);
        assert.match(r.stdout, new RegExp(`${steps} checks: 0 passed, ${steps} failed`), 'the verdict line is exact');
        const printed = lines(r.stdout).filter((l) => l.includes('✗'));
        assert.equal(printed.length, row.folded ? SHOWN : steps);
        assert.match(printed[0], /✗ system-ping\/miss-0\/request: no response: replay-miss: step "miss-0"/);
        const more = moreLine(steps - SHOWN);
        const report = assertReports(join(dir, 'out'), steps);
        for (const [where, out] of [
          ['stdout', r.stdout],
          ['stderr', r.stderr],
          ['summary.md', readFileSync(join(dir, 'out', 'summary.md'), 'utf8')],
          ['report.html', readFileSync(join(dir, 'out', 'report.html'), 'utf8')],
          ['junit.xml', readFileSync(join(dir, 'out', 'junit.xml'), 'utf8')],
        ])
          if (row.folded) assert.ok(out.includes(more), `${where} says "${more}"`);
          else assert.doesNotMatch(out, /more like it/, where);
        // report.json: within the bound it keeps every check; beyond it, folded with the counts
        const kept = report.scenarios[0].checks;
        const inJson = kept.reduce((n, c) => n + 1 + (c.more ?? 0), 0);
        assert.equal(inJson, steps);
        if (row.bytes) {
          assert.equal(kept.length, SHOWN);
          assert.deepEqual(report.folded, {
            limitBytes: REPORT_FILE_BOUND,
            checks: steps - SHOWN,
            harnessErrors: steps - SHOWN,
          });
        } else assert.equal(kept.length, steps);
      }),
    );

  test('validate scenario of the 10 MB scenario: one line', { timeout: 300_000 }, () =>
    withTemp('bounded-lint', async (dir) => {
      writeFileSync(join(dir, 'miss.yaml'), allMiss({ bytes: 10_000_000 }).text);
      const r = await cliAsync(['validate', 'scenario', 'miss.yaml'], { cwd: dir, timeout: 240_000 });
      assert.equal(r.code, 0, r.out.slice(0, 2000));
      assert.deepEqual(lines(r.out), ['valid scenario: system-ping (miss.yaml)']);
    }),
  );

  test('validate need of an answer with 20,000 items missing the same members: folded', { timeout: 120_000 }, () =>
    withTemp('bounded-validate', async (dir) => {
      writeFileSync(join(dir, 'need.json'), JSON.stringify({ progress: Array.from({ length: 20_000 }, () => ({})) }));
      const r = await cliAsync(['validate', 'need', 'need.json'], { cwd: dir, timeout: 100_000 });
      assert.equal(r.code, 1, r.out.slice(0, 2000));
      assert.ok(lines(r.out).length < 60, `${lines(r.out).length} lines`);
      assert.match(
        r.stdout,
        /^\/progress\/2\/flags: required property "flags" is missing\n {2}… and 19,997 more like it$/m,
      );
      assert.match(r.stdout, /^120004 errors: not a valid need$/m, 'the count is exact');
    }),
  );
});

/** a report of `n` failing checks that are all different (no folding helps): only the size bound does */
function distinctFailures(n: number): Report {
  const report = structuredClone(readFixture('fail'));
  const s = report.scenarios.find((x) => x.checks.some((c) => c.verdict === 'fail'))!;
  const template = s.checks.find((c) => c.verdict === 'fail')!;
  s.checks = Array.from({ length: n }, (_, i): CheckResult => ({
    ...template,
    id: `${s.id}/step-${i}/status`,
    step: `step-${i}`,
    message: `status ${1000 + i}, expected 200`,
    evidence: { response: { status: 500, body: `${i} `.repeat(300) } },
  }));
  report.scenarios = [s];
  report.totals = {
    ...report.totals,
    scenarios: 1,
    checks: n,
    pass: 0,
    fail: n,
    'expected-fail': 0,
    'unexpected-pass': 0,
    skip: 0,
  };
  return report;
}

describe('the writers: each file within the bound, whatever the report', () => {
  const report = distinctFailures(20_000);
  const view = viewOf(report);
  const files: [string, string][] = [
    ['report.json', reportJson(report)],
    ['junit.xml', toJUnit(report, view)],
    ['report.html', toHtml(report, { view })],
    ['summary.md', toMarkdown(report, view)],
  ];
  test('the report is larger than the bound as it is', () => {
    assert.ok(Buffer.byteLength(JSON.stringify(report, null, 2)) > 2 * REPORT_FILE_BOUND);
  });
  for (const [name, text] of files)
    test(`${name}: under ${BOUND_TEXT}`, () => {
      assert.ok(Buffer.byteLength(text) <= REPORT_FILE_BOUND, `${Buffer.byteLength(text)} bytes`);
    });
  test('report.json: valid, every check kept or counted as omitted, totals untouched', () => {
    const bounded = JSON.parse(files[0][1]) as Report;
    assert.deepEqual(validate('report', bounded).map(formatError), []);
    const s = bounded.scenarios[0];
    assert.ok(s.checks.length > 100 && s.checks.length < 20_000, `${s.checks.length} kept`);
    assert.equal(s.checks.length + (s.omitted?.fail ?? 0), 20_000);
    assert.equal(bounded.folded?.checks, 20_000 - s.checks.length);
    assert.deepEqual(bounded.totals, report.totals);
    assert.equal(bounded.verdict, report.verdict);
  });
  test('junit.xml: parses, counts every check, says how many cases were left out', () => {
    const suites = junit.parse(files[1][1]).testsuites;
    assert.equal(Number(suites.tests), 20_000);
    assert.equal(Number(suites.failures), 20_000);
    assert.match(files[1][1], /more test cases left out to keep this file under 10 MB/);
  });
  test('report.html and summary.md say what was left out', () => {
    assert.match(files[2][1], /more (failures|checks) left out to keep this file under 10 MB/);
    assert.match(files[2][1], /<\/html>\s*$/);
    assert.match(files[3][1], /### Failures \(20000\)/);
    assert.match(files[3][1], /- … and \d+ more failures \(report\.html\)/);
  });
  test(`summary.md: within ${SUMMARY_BOUND_TEXT} (${SUMMARY_BOUND} bytes)`, () => {
    assert.ok(Buffer.byteLength(files[3][1]) <= SUMMARY_BOUND, `${Buffer.byteLength(files[3][1])} bytes`);
  });
  test('rendered again from the bounded report.json: the same counts', () => {
    const again = JSON.parse(files[0][1]) as Report;
    const suites = junit.parse(toJUnit(again)).testsuites;
    assert.equal(Number(suites.tests), 20_000);
    assert.equal(viewOf(again).scenarios[0].counts.fail, 20_000);
  });
});

test(`docs/reports.md states the bounds the code keeps: ${SUMMARY_BOUND_TEXT} for summary.md and matrix.md`, () => {
  assert.equal(SUMMARY_BOUND, 65_536);
  const reports = readFileSync(join(ROOT, 'docs', 'reports.md'), 'utf8').replace(/\s+/g, ' ');
  assert.ok(
    reports.includes(
      `summary.md and matrix.md stay within ${SUMMARY_BOUND_TEXT} (${SUMMARY_BOUND.toLocaleString('en-US')} bytes`,
    ),
  );
  assert.doesNotMatch(reports, /60 kB/, 'no other bound stated');
});

test(`the README states the bound (${BOUND_TEXT}) and the fold`, () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  assert.ok(readme.includes(`a report file stays under ${BOUND_TEXT}.`));
  assert.ok(
    readme.includes(
      `repeated over ${FOLD_OVER} times shows ${SHOWN}, then "${moreLine(Number.NaN).replace('NaN', 'N')}"`,
    ),
  );
});

describe('the matrix files: within the bound, rows counted', () => {
  // two versions whose 60,000 checks all fail: 60,000 rows, none changed
  const reports = ['1.19.2', '1.29.5'].map((version) => {
    const r = distinctFailures(60_000);
    r.agent = { ...r.agent, version };
    return r;
  });
  const matrix = mergeReports(reports, ['a/report.json', 'b/report.json']);
  const json = matrixJson(matrix);
  const html = matrixToHtml(matrix);
  test('the matrix is larger than the bound as it is', () => {
    assert.ok(Buffer.byteLength(JSON.stringify(matrix, null, 2)) > REPORT_FILE_BOUND);
  });
  test('matrix.json: under the bound, valid, the rows left out counted', () => {
    assert.ok(Buffer.byteLength(json) <= REPORT_FILE_BOUND, `${Buffer.byteLength(json)} bytes`);
    const bounded = JSON.parse(json);
    assert.deepEqual(validate('matrix', bounded).map(formatError), []);
    assert.ok(bounded.rowsLeftOut > 0);
    assert.equal(rowCount(bounded), 60_000);
    assert.deepEqual(bounded.classes, matrix.classes);
  });
  test('matrix.html and matrix.md: under the bound, every row counted', () => {
    assert.ok(Buffer.byteLength(html) <= REPORT_FILE_BOUND, `${Buffer.byteLength(html)} bytes`);
    assert.match(html, /Checks by run \(60000; 0 changed\)/);
    assert.match(html, /more rows left out to keep this file under 10 MB/);
    assert.match(matrixToHtml(JSON.parse(json)), /Checks by run \(60000; 0 changed\)/);
    assert.match(matrixToMarkdown(JSON.parse(json)), /60000 checks/);
  });
});

describe('what "alike" means', () => {
  const check = (step: string, message: string, over: Partial<CheckResult> = {}): CheckResult => ({
    id: `s/${step}/status`,
    step,
    kind: 'status',
    verdict: 'fail',
    message,
    evidence: { request: { method: 'GET', url: `/rest/${step}` } },
    ...over,
  });
  const cases: [string, CheckResult, CheckResult, boolean][] = [
    [
      'the same message but for the step and its request',
      check('a', 'step "a": GET /rest/a missing'),
      check('b', 'step "b": GET /rest/b missing'),
      true,
    ],
    ['another status', check('a', 'status 404, expected 200'), check('b', 'status 500, expected 200'), false],
    ['another verdict', check('a', 'status 404'), check('b', 'status 404', { verdict: 'expected-fail' }), false],
    ['another kind of check', check('a', 'status 404'), check('b', 'status 404', { kind: 'schema' }), false],
    ['another check of the step', check('a', 'x'), check('b', 'x', { id: 's/b/assert:other' }), false],
    ['passes are never folded', check('a', 'ok', { verdict: 'pass' }), check('b', 'ok', { verdict: 'pass' }), false],
  ];
  for (const [name, a, b, alike] of cases)
    test(`${name}: ${alike ? 'alike' : 'not alike'}`, () => {
      const ka = checkKind(a, 's');
      assert.equal(ka !== undefined && ka === checkKind(b, 's'), alike);
    });
  const kinds: [string, string[], string[]][] = [
    [
      'a kind over the threshold keeps its first 3, the last counting the rest',
      ['a1', 'b1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'b2', 'a8', 'a9', 'a10', 'a11'],
      ['a1+0', 'b1+0', 'a2+0', 'a3+8', 'b2+0'],
    ],
    [
      'a kind at the threshold is kept whole',
      ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10'],
      ['a1+0', 'a2+0', 'a3+0', 'a4+0', 'a5+0', 'a6+0', 'a7+0', 'a8+0', 'a9+0', 'a10+0'],
    ],
  ];
  test('streamFold: across scenarios, a kind past the threshold is folded whole in later lists and counted at the end', () => {
    const stream = streamFold((x: string) => x[0]);
    const shown = [['a1', 'a2'], ['a3', 'a4', 'a5', 'a6', 'a7'], ['a8', 'a9', 'a10', 'a11', 'a12'], ['b1']].map(
      (list) => stream.next(list).map((k) => `${k.item}+${k.more}`),
    );
    assert.deepEqual(shown, [['a1+0', 'a2+0'], ['a3+0', 'a4+0', 'a5+0', 'a6+0', 'a7+0'], [], ['b1+0']]);
    assert.deepEqual(stream.rest(), [{ first: 'a1', more: 5 }]);
  });
  for (const [name, items, want] of kinds)
    test(`fold: ${name}`, () => {
      assert.deepEqual(
        fold(items, (x) => x[0]).map((k) => `${k.item}+${k.more}`),
        want,
      );
    });
});

/** a matrix of `n` versions, each pair with `breaking` breaking, 5 risky and `compatible` compatible causes */
function manyVersions(n: number, breaking = 15, compatible = 40): Matrix {
  const label = (i: number) => `1.${i}.0`;
  const columns: Matrix['columns'] = Array.from({ length: n }, (_, i) => ({
    label: label(i),
    file: `r${i}/report.json`,
    agentVersion: `v${label(i)}`,
    version: label(i),
    platform: 'linux/amd64',
    mode: 'replay',
    startedAt: '2026-01-01T00:00:00.000Z',
    exitCode: 0,
    totals: { scenarios: 1, checks: 20, pass: 20, fail: 0, 'expected-fail': 0, 'unexpected-pass': 0, skip: 0 },
  }));
  const rows: Matrix['rows'] = [];
  const pairs: MatrixPair[] = [];
  for (let to = 1; to < n; to++) {
    const note = `conforms on ${label(to - 1)}, deviates on ${label(to)}`;
    const causes: MatrixCause[] = Array.from({ length: breaking + 5 + compatible }, (_, k) => {
      const level = k < breaking ? 'breaking' : k < breaking + 5 ? 'risky' : 'compatible';
      const rule: ChangeRuleId = level === 'compatible' ? 'response-member-added' : 'response-member-removed';
      const id = `s${to}/step-${k}/schema`;
      if (level !== 'compatible')
        rows.push({
          id,
          scenario: `s${to}`,
          cells: columns.map((_, i) => (i < to ? 'pass' : 'fail')),
          changed: true,
          class: 'regression',
          changes: [{ from: to - 1, to, class: 'regression', note }],
        });
      return {
        cause: {
          rule,
          level,
          summary: 'a member a client may read is no longer sent, or a new one is',
          endpoints: [`GET /rest/endpoint-${k}`],
          pointer: `/member/of/some/length-${k}`,
          change: level === 'compatible' ? 'added' : 'removed',
          occurrences: 3,
          scenarios: [`s${to}`],
          evidence: [{ scenario: `s${to}`, difference: `live step-${k}: /member/of/some/length-${k} removed` }],
        },
        checks: level === 'compatible' ? [] : [{ id, class: 'regression', note }],
      };
    });
    const counts = { breaking, risky: 5, compatible, accepted: 0 };
    const checks = {
      regression: breaking + 5,
      'listed-regression': 0,
      fixed: 0,
      'version-change': 0,
      known: 0,
      other: 0,
    };
    pairs.push({ from: to - 1, to, answer: breaking ? 'breaks' : 'may-affect', causes, counts, checks });
  }
  const classes = {
    regression: rows.length,
    'listed-regression': 0,
    fixed: 0,
    'version-change': 0,
    known: 0,
    other: 0,
  };
  return {
    format: 'synconf-matrix/1',
    columns,
    order: columns.map((_, i) => i),
    rows,
    changed: rows.length,
    classes,
    pairs,
  };
}

describe(`matrix.md within ${SUMMARY_BOUND_TEXT} whatever the number of versions`, () => {
  // [versions, what is left out: nothing, compatible causes only (every breaking cause still listed), more]
  const ROWS: [number, 'nothing' | 'compatible' | 'more' | 'causes'][] = [
    [2, 'nothing'],
    [12, 'compatible'],
    [40, 'more'],
    [400, 'causes'],
  ];
  for (const [n, left] of ROWS)
    test(`${n} versions: ${left === 'nothing' ? 'nothing left out' : `${left === 'compatible' ? 'compatible causes' : 'detail'} left out, and said so`}`, () => {
      const m = manyVersions(n);
      assert.deepEqual(validate('matrix', m).map(formatError), []);
      const md = matrixToMarkdown(m);
      const size = Buffer.byteLength(md);
      assert.ok(size <= SUMMARY_BOUND, `${size} bytes`);
      const where = `left out to keep this summary within ${SUMMARY_BOUND_TEXT}: see matrix.json`;
      if (left === 'nothing') assert.ok(!md.includes('left out'), 'everything shown');
      else
        assert.ok(
          md.includes(`Detail is left out below to keep this summary within 64 KiB; matrix.json has everything.`),
        );
      if (left === 'compatible' || left === 'more')
        assert.ok(md.includes(`40 compatible or accepted causes ${where}.`), 'the compatible causes counted');
      // compatible causes go first: while that is enough, every breaking cause is still listed
      if (left === 'compatible')
        for (const p of m.pairs!)
          for (const c of p.causes.filter((x) => x.cause.level === 'breaking'))
            assert.ok(md.includes(`${c.cause.endpoints[0]} /member/of/some/length-`), 'every breaking cause listed');
      if (left !== 'more') assert.ok(!md.includes('more breaking or risky cause'));
      // the answer first, always: the heading, the conformance, then the ship table, the worst pair's answer first
      assert.match(
        md,
        /^## synconf version matrix(: a newer version breaks clients of an older one)?\n\n\*\*Against the spec\*\*: [^\n]*\n\n\| versions \| answer \|[^\n]*\n\|[-:|]+\n\| 1\.0\.0 → 1\.1\.0 \| \*\*1\.1\.0 breaks clients of 1\.0\.0\*\*: 15 breaking causes \|/,
      );
      if (left === 'causes') {
        assert.ok(md.includes(`Each pair's causes are ${where}.`));
        assert.match(md, /\n\d+ more pairs left out to keep this summary within 64 KiB: see matrix\.json\.\n/);
      }
    });
});

/**
 * A run of `n` scenarios, each with one listed known deviation of its own (what the agent does, in text of two bytes
 * a character, and why): the deviations fill the summary's lists and the scenarios its folded table.
 */
function listedEverywhere(n: number): Report {
  const report = structuredClone(readFixture('pass'));
  const [template] = report.scenarios;
  report.scenarios = Array.from({ length: n }, (_, i) => ({
    ...template,
    id: `scenario-${i}`,
    verdict: 'expected-fail',
    checks: [
      {
        ...template.checks[0],
        id: `scenario-${i}/step/status`,
        verdict: 'expected-fail',
        message: `status ${i}`,
        evidence: { request: { method: 'GET', url: `/rest/endpoint-${i}` } },
        deviation: { observed: `réponse ${i}: ${'é'.repeat(120)}`, reason: `accepted for this version (${i})` },
      },
    ],
  }));
  report.totals = { ...report.totals, scenarios: n, checks: n, pass: 0, 'expected-fail': n, fail: 0, skip: 0 };
  return report;
}

test(`summary.md within ${SUMMARY_BOUND_TEXT} when its lists are full and its folded scenarios many (bytes, not characters)`, () => {
  const md = toMarkdown(listedEverywhere(2_000));
  const size = Buffer.byteLength(md);
  assert.ok(size <= SUMMARY_BOUND, `${size} bytes`);
  assert.match(md, /\n\d+ more known deviations are listed in report\.html \(this summary keeps within 64 KiB\)\.\n/);
  assert.match(md, /\n… and \d+ more scenarios \(report\.html\)\.\n/);
  assert.match(md, /<\/details>\n$/, 'the folded tail is whole');
});

describe(`summary.md of each bundled version within ${SUMMARY_BOUND_TEXT}`, { concurrency: 2 }, () => {
  for (const version of ['1.12.1', '1.19.2', '1.29.5'])
    test(`synconf replay recordings/syncthing-${version}`, () =>
      withTemp('summary', async (dir) => {
        const r = await cliAsync(['replay', join(ROOT, 'recordings', `syncthing-${version}`), '--report-dir', 'out'], {
          cwd: dir,
        });
        assert.equal(r.code, 0, r.out.slice(-2000));
        const size = statSync(join(dir, 'out', 'summary.md')).size;
        console.log(`${version}: summary.md ${size} bytes`);
        assert.ok(size <= SUMMARY_BOUND, `${version}: summary.md is ${size} bytes`);
      }));
});
