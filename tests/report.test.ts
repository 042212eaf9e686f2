// The report writers (JUnit, Markdown, files on disk), the version matrix and `synconf report`.
// The HTML report is exercised in a real browser by report-html.test.ts.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { CheckResult, Report, Verdict } from '../src/schema/generated/types.js';
import { validate, formatError, loadDocumentValidators } from '../src/schema/registry.js';
import { toJUnit } from '../src/report/junit.js';
import { toMarkdown } from '../src/report/markdown.js';
import { mergeReports } from '../src/matrix/merge.js';
import { matrixToHtml } from '../src/report/matrix-html.js';
import { matrixToMarkdown } from '../src/report/matrix-markdown.js';
import { writeReports } from '../src/session/write-reports.js';
import { ROOT } from '../src/paths.js';
import { hostileReport, readFixture, SCRIPT_TAG, IMG_ATTR, LONG } from './fixtures/reports/hostile.js';
import { readFileSync } from 'node:fs';
import { toHtml } from '../src/report/html.js';
import { failsRun, scenarioVerdict } from '../src/verdict/verdicts.js';
import { coverage, loadEndpoints, sectionTitle } from '../src/report/coverage.js';
import { concatenated, escapeHtml, escapeMarkdown } from '../src/report/text.js';
import { replayReport } from './support/replay-run.js';
import { cliAsync } from './support/cli.js';
import { tempFolder } from './support/temp.js';
import { SUMMARY_BOUND } from '../src/report/bound.js';

await loadDocumentValidators(); // the report, matrix and mutation-report validators these tests use

const FIXTURES = join(ROOT, 'tests', 'fixtures', 'reports');
const fixtures = (): [string, Report][] => [
  ['pass', readFixture('pass')],
  ['fail', readFixture('fail')],
  ['hostile', hostileReport()],
];
const checksOf = (r: Report) => r.scenarios.flatMap((s) => s.checks);
const count = (r: Report, ...vs: Verdict[]) => checksOf(r).filter((c) => vs.includes(c.verdict)).length;

// A scenario stopped part-way (an agent that stopped answering) stands as a skip: its checks before the stop that
// matched known deviations made it read EXPECTED-FAIL, a scenario done (faults-live's SIGSTOP row on a clean clone)
describe('the verdict of a scenario stopped part-way', () => {
  const check = (verdict: CheckResult['verdict'], kind: CheckResult['kind'] = 'status'): CheckResult => ({
    id: `s/x/${verdict}`,
    step: 'x',
    phase: 'steps',
    kind,
    verdict,
    message: verdict,
  });
  const stopped = check('skip', 'stopped');
  const rows: [string, CheckResult[], CheckResult['verdict']][] = [
    ['passes and expected failures, then the stop', [check('pass'), check('expected-fail'), stopped], 'skip'],
    ['passes, then the stop', [check('pass'), stopped], 'skip'],
    ['a failure, then the stop', [check('expected-fail'), check('fail'), stopped], 'fail'],
    ['an unexpected pass, then the stop', [check('unexpected-pass'), stopped], 'unexpected-pass'],
    ['not stopped: the expected failure', [check('pass'), check('expected-fail')], 'expected-fail'],
  ];
  for (const [name, checks, want] of rows) test(name, () => assert.equal(scenarioVerdict(checks), want));
});

describe('fixture reports', () => {
  for (const [name, report] of fixtures()) {
    test(`${name} is a valid report whose totals match its checks`, () => {
      assert.deepEqual(validate('report', report).map(formatError), []);
      const t = report.totals;
      assert.equal(t.scenarios, report.scenarios.length);
      assert.equal(t.checks, checksOf(report).length);
      for (const v of ['pass', 'fail', 'expected-fail', 'unexpected-pass', 'skip'] as const)
        assert.equal(t[v], count(report, v), v);
    });
  }
});

describe('JUnit XML', () => {
  // isArray: one <testsuite> or <testcase> must still come back as a list
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
  });
  type Case = {
    classname: string;
    name: string;
    failure?: { message: string; type: string; '#text'?: string };
    skipped?: { message: string };
    error?: unknown;
    'system-out'?: string;
  };
  type Suite = { name: string; tests: string; failures: string; errors: string; skipped: string; testcase?: Case[] };

  for (const [name, report] of fixtures()) {
    test(`${name}: parses and counts the same checks as report.json`, () => {
      const doc = parser.parse(toJUnit(report)) as { testsuites: Suite & { testsuite: Suite[] } };
      const root = doc.testsuites;
      const harness = report.harnessErrors.length;
      assert.equal(Number(root.tests), report.totals.checks + harness);
      assert.equal(Number(root.failures), report.totals.fail + report.totals['unexpected-pass']);
      assert.equal(Number(root.skipped), report.totals.skip);
      assert.equal(Number(root.errors), harness);

      const cases = root.testsuite.flatMap((s) => s.testcase ?? []);
      assert.equal(cases.length, Number(root.tests));
      assert.equal(cases.filter((c) => c.failure).length, Number(root.failures));
      assert.equal(cases.filter((c) => c.skipped).length, Number(root.skipped));
      assert.equal(cases.filter((c) => c.error).length, harness);
      for (const s of root.testsuite) {
        const tc = s.testcase ?? [];
        assert.equal(Number(s.tests), tc.length, s.name);
        assert.equal(Number(s.failures), tc.filter((c) => c.failure).length, s.name);
        assert.equal(Number(s.skipped), tc.filter((c) => c.skipped).length, s.name);
      }
      // one testcase per check, classname = scenario id, name = check id, type = verdict
      for (const sc of report.scenarios) {
        for (const c of sc.checks) {
          const tc = cases.find((x) => x.name === c.id && x.classname === sc.id);
          assert.ok(tc, `testcase for ${c.id}`);
          if (c.verdict === 'fail' || c.verdict === 'unexpected-pass') assert.equal(tc.failure?.type, c.verdict);
          if (c.verdict === 'expected-fail') {
            assert.equal(tc.failure, undefined);
            assert.match(String(tc['system-out']), /expected fail/);
          }
        }
      }
    });
  }

  test('a failure carries its evidence as text', () => {
    const doc = parser.parse(toJUnit(readFixture('fail'))) as { testsuites: { testsuite: Suite[] } };
    const tc = doc.testsuites.testsuite
      .flatMap((s) => s.testcase ?? [])
      .find((c) => c.name === 'system-status/get/schema');
    assert.match(tc?.failure?.['#text'] ?? '', /\/lastDialStatus \[required\]/);
    assert.match(tc?.failure?.['#text'] ?? '', /request: GET \/rest\/system\/status/);
  });

  test('hostile strings stay data and control characters are replaced', () => {
    const xml = toJUnit(hostileReport());
    assert.ok(!xml.includes(SCRIPT_TAG), 'markup is escaped');
    assert.ok(!/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(xml), 'no character XML 1.0 forbids');
    assert.ok(xml.length < LONG.length, `bounded: ${xml.length} characters`);
    const doc = parser.parse(xml) as { testsuites: { testsuite: Suite[] } };
    const failure = doc.testsuites.testsuite
      .flatMap((s) => s.testcase ?? [])
      .find((c) => c.failure && c.name.startsWith('system-browse/sub/'))?.failure;
    assert.ok(failure, 'a failure of system-browse/sub/ is in the XML');
    assert.ok(failure.message.includes(IMG_ATTR), 'the message reads back as the original text');
    assert.ok(failure.message.length < 1200, 'the message attribute is cut');
  });
});

describe('Markdown summary', () => {
  test('holds the verdict, the totals and the failures', () => {
    const report = readFixture('fail');
    const md = toMarkdown(report);
    const t = report.totals;
    assert.ok(
      md.includes(
        `| ${t.scenarios} | ${t.checks} | ${t.fail} | ${t['unexpected-pass']} | ${t['expected-fail']} | ${t.skip} | ${t.pass} |`,
      ),
      md,
    );
    assert.match(md, /does not conform/);
    assert.match(md, /### Failures \(4\)/);
    assert.match(md, /system-status\/get\/schema: body is not a valid system-status/);
    assert.match(md, /\| system-browse \| \*\*fail\*\* \|/);
  });

  test('a passing run says so and lists no failures', () => {
    const md = toMarkdown(readFixture('pass'));
    assert.match(md, /## synconf: conforms/);
    assert.doesNotMatch(md, /Failures/);
  });

  test('hostile strings cannot inject HTML or break a table row', () => {
    const md = toMarkdown(hostileReport());
    assert.doesNotMatch(md, /<script|<img|<svg/i);
    assert.ok(md.length < 20_000, `bounded: ${md.length} characters`);
    for (const line of md.split('\n').filter((l) => l.startsWith('| system-browse')))
      assert.equal(line.split(/(?<!\\)\|/).length, 11, line);
  });
});

describe('version matrix', () => {
  test('flags exactly the row whose verdict differs', () => {
    const a = readFixture('pass');
    const b = readFixture('pass');
    const target = b.scenarios[1].checks[1];
    target.verdict = 'fail';
    const m = mergeReports([a, b], ['a/report.json', 'b/report.json']);
    assert.deepEqual(
      m.rows.filter((r) => r.changed).map((r) => r.id),
      [target.id],
    );
    assert.equal(m.changed, 1);
    assert.equal(m.rows[0].id, target.id, 'changed rows come first');
    assert.deepEqual(m.rows[0].cells, ['pass', 'fail']);
    assert.equal(m.rows.length, a.totals.checks);
    // same agent version and platform: the file names tell the columns apart
    assert.deepEqual(
      m.columns.map((c) => c.label),
      ['a/report.json', 'b/report.json'],
    );
    assert.deepEqual(
      validate('matrix', JSON.parse(JSON.stringify(m))).map(formatError),
      [],
      'matrix.json follows schemas/matrix.schema.json',
    );
  });

  test('a check one run lacks is a missing cell, not a change', () => {
    const a = readFixture('pass');
    const b = readFixture('pass');
    const dropped = b.scenarios[0].checks.pop()!;
    const m = mergeReports([a, b]);
    const row = m.rows.find((r) => r.id === dropped.id);
    assert.deepEqual(row?.cells, ['pass', null]);
    assert.equal(row?.changed, false);
    assert.equal(m.changed, 0);
  });

  test('two versions: labels, changed rows and writers', () => {
    const pass = readFixture('pass');
    const fail = readFixture('fail');
    const m = mergeReports([pass, fail], ['pass.json', 'fail.json']);
    assert.deepEqual(
      m.columns.map((c) => c.label),
      ['1.27.0', '2.1.0'],
    );
    const verdictOf = (r: Report) => new Map(checksOf(r).map((c) => [c.id, c.verdict]));
    const [p, f] = [verdictOf(pass), verdictOf(fail)];
    const expected = [...p.keys()].filter((id) => f.has(id) && p.get(id) !== f.get(id));
    assert.deepEqual(
      m.rows
        .filter((r) => r.changed)
        .map((r) => r.id)
        .sort(),
      expected.sort(),
    );
    assert.ok(
      m.rows.slice(0, expected.length).every((r) => r.changed),
      'changed first',
    );

    const md = matrixToMarkdown(m);
    assert.match(md, new RegExp(`\\*\\*${expected.length}\\*\\* of ${m.rows.length} checks changed`));
    for (const id of expected) assert.ok(md.includes(id.replace(/[_*]/g, '\\$&')), id);
    const html = matrixToHtml(m);
    assert.equal(html.match(/<tr class="row changed">/g)?.length, expected.length);
    assert.doesNotMatch(html, /<(link|img|script)[^>]+(src|href)=["']?(https?:)?\/\//i, 'no external resource');
  });
});

describe('writeReports', () => {
  const dir = tempFolder('report');

  test('writes the four files and appends the summary to GITHUB_STEP_SUMMARY', async () => {
    const report = readFixture('fail');
    const summary = join(dir(), 'step-summary.md');
    await writeFile(summary, 'earlier step\n');
    const saved = process.env.GITHUB_STEP_SUMMARY;
    process.env.GITHUB_STEP_SUMMARY = summary;
    let paths: string[];
    try {
      paths = await writeReports(report, join(dir(), 'nested', 'out'));
    } finally {
      if (saved === undefined) delete process.env.GITHUB_STEP_SUMMARY;
      else process.env.GITHUB_STEP_SUMMARY = saved;
    }
    assert.deepEqual(
      paths.map((p) => p.slice(join(dir(), 'nested', 'out').length + 1)),
      ['report.json', 'junit.xml', 'report.html', 'summary.md'],
    );
    assert.deepEqual(JSON.parse(await readFile(paths[0], 'utf8')), report);
    assert.equal(await readFile(paths[3], 'utf8'), toMarkdown(report));
    const appended = await readFile(summary, 'utf8');
    assert.ok(appended.startsWith('earlier step\n'));
    assert.ok(appended.includes(toMarkdown(report)));
  });
});

describe('synconf report (CLI)', () => {
  const dir = tempFolder('cli');

  const run = (...args: string[]) => cliAsync(args);

  test('merge writes matrix.html, matrix.json and matrix.md', async () => {
    const out = join(dir(), 'matrix');
    const r = await run('report', 'merge', join(FIXTURES, 'pass.json'), join(FIXTURES, 'fail.json'), '--out', out);
    // written, and the exit code the worst of the runs, as synconf matrix: fail.json does not conform
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual((await readdir(out)).sort(), ['matrix.html', 'matrix.json', 'matrix.md']);
    const m = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8'));
    assert.equal(m.columns.length, 2);
    assert.ok(m.changed > 0);
    assert.match(r.stdout, /^version matrix: \d+ of \d+ checks changed across 2 versions$/m);
    // the fixture reports keep no exchanges: the pair cannot be told, and the last line says the exit code and why
    assert.match(r.stdout, / → .*: CANNOT TELL: no exchanges to compare for /);
    assert.match(
      r.stdout.trimEnd().split('\n').at(-1)!,
      /^synconf report merge: exit 1: a version does not conform \(worst exit 1\); no gate asked/,
    );
  });

  test('merge exits 2 naming a file that is missing, not JSON, or not a report', async () => {
    const notJson = join(dir(), 'not-json.json');
    const notReport = join(dir(), 'not-a-report.json');
    await writeFile(notJson, '{ this is not json');
    await writeFile(notReport, JSON.stringify({ format: 'synconf-report/1', scenarios: [] }));
    for (const [file, why] of [
      [join(dir(), 'missing.json'), /cannot read/],
      [notJson, /:1:3: not JSON \(unexpected "t"\)/],
      [notReport, /is not a valid synconf report/],
    ] as const) {
      const r = await run('report', 'merge', join(FIXTURES, 'pass.json'), file, '--out', join(dir(), 'never'));
      assert.equal(r.code, 2, `${file}: ${r.stderr}`);
      assert.ok(r.stderr.includes(file), r.stderr);
      assert.match(r.stderr, why);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    }
  });

  test('render rewrites the four files from a report.json', async () => {
    const out = join(dir(), 'rendered');
    const r = await run('report', 'render', join(FIXTURES, 'fail.json'), '--out', out);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((await readdir(out)).sort(), ['junit.xml', 'report.html', 'report.json', 'summary.md']);
    assert.deepEqual(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')), readFixture('fail'));
  });
});

describe('the reports of the full 1.19.2 run (bundled recordings replayed)', () => {
  let report: Report;
  before(async () => {
    report = await replayReport();
  });

  test('summary.md: all known deviations in one table, alike ones in one row, nothing cut mid-sentence, under 64 KiB', () => {
    const md = toMarkdown(report);
    assert.ok(Buffer.byteLength(md) <= SUMMARY_BOUND, `${Buffer.byteLength(md)} bytes`);
    const expected = report.scenarios.flatMap((s) => s.checks).filter((c) => c.verdict === 'expected-fail');
    assert.equal(expected.length, 38);
    const table = md.split('\n### Known deviations (38)\n')[1]?.split('\n\n<details>')[0] ?? '';
    const rows = table.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| checks |'));
    // a row names the checks that deviate alike (what the agent does and why, said once)
    const idsOf = (row: string) => row.split(' | ')[0].slice(2).replace(/\\(.)/g, '$1').split(', ');
    assert.deepEqual(rows.flatMap(idsOf).sort(), expected.map((c) => c.id).sort());
    assert.ok(rows.length < expected.length, `${rows.length} rows for ${expected.length} deviations`);
    for (const c of expected)
      assert.ok(
        rows.find((r) => idsOf(r).includes(c.id))!.includes(escapeMarkdown(c.deviation!.reason)),
        `the whole reason of ${c.id}`,
      );
    assert.doesNotMatch(md, /more characters/, 'nothing cut');
    assert.match(md, /<details><summary>Scenarios and coverage<\/summary>/);
  });

  test('junit.xml: every testcase names the scenario file and the line of its step', () => {
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (n) => ['testsuite', 'testcase'].includes(n),
    });
    const doc = parser.parse(toJUnit(report)) as {
      testsuites: { testsuite: { testcase: { name: string; file: string; line: string }[] }[] };
    };
    const cases = doc.testsuites.testsuite.flatMap((s) => s.testcase);
    assert.equal(cases.length, report.totals.checks, 'one testcase per check');
    const files = new Map<string, string[]>();
    for (const c of cases) {
      assert.match(c.file, /^suites\/.+\.yaml$/, c.name);
      const lines = files.get(c.file) ?? readFileSync(join(ROOT, c.file), 'utf8').split('\n');
      files.set(c.file, lines);
      const step = c.name.split('/')[1];
      const at = lines[Number(c.line) - 1] ?? '';
      assert.match(
        at,
        new RegExp(`^\\s*- (\\{ )?name: "?${step.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"?\\b`),
        `${c.name} → ${c.file}:${c.line}: ${at}`,
      );
    }
  });
});

describe('one view of a run', () => {
  test('the hint of an unexpected pass is written once in every format', () => {
    const report = readFixture('fail');
    const upass = checksOf(report).filter((c) => c.verdict === 'unexpected-pass');
    assert.equal(upass.length, 1);
    const times = (text: string) => text.split('remove the entry').length - 1;
    assert.equal(times(toMarkdown(report)), 1, 'summary.md');
    assert.equal(times(toJUnit(report)), 1, 'junit.xml');
    assert.equal(times(toHtml(report)), 1, 'report.html');
    assert.doesNotMatch(upass[0].message, /remove the entry/, 'not in the check message');
  });

  test('failsRun is the gate: verdicts, flaky and new failures as --fail-on says', () => {
    assert.equal(failsRun({ verdict: 'fail' }), true);
    assert.equal(failsRun({ verdict: 'unexpected-pass' }), true);
    assert.equal(failsRun({ verdict: 'expected-fail' }), false);
    assert.equal(failsRun({ verdict: 'pass', flaky: true }), true, 'flaky fails by default');
    assert.equal(failsRun({ verdict: 'fail', flaky: true }, ['fail']), false, 'unless --fail-on leaves flaky out');
    assert.equal(
      failsRun({ verdict: 'fail', baseline: { class: 'still-failing', verdict: 'fail' } }, ['new-failure']),
      false,
    );
    assert.equal(
      failsRun({ verdict: 'fail', baseline: { class: 'new-failure', verdict: 'pass' } }, ['new-failure']),
      true,
    );
    assert.equal(
      failsRun({ verdict: 'fail', baseline: { class: 'new-check' } }, ['new-failure']),
      true,
      'a failing new check is new',
    );
    assert.equal(failsRun({ verdict: 'skip' }, ['skip']), true);
  });

  test('coverage: an endpoint only unselected scenarios cover is "not run", not "not covered"; sections by heading', () => {
    const report = readFixture('fail');
    report.notSelected = [{ id: 'system-shutdown', spec: ['POST /rest/system/shutdown'] }];
    const rows = coverage(report, loadEndpoints());
    assert.equal(rows.find((r) => r.id === 'POST /rest/system/shutdown')?.state, 'not run');
    assert.equal(rows.find((r) => r.id === 'POST /rest/system/restart')?.state, 'not covered');
    assert.equal(rows.find((r) => r.id === 'GET /rest/system/status')?.state, 'covered');
    const related = rows.find((r) => r.endpoint?.section === 'Related paths that are named');
    assert.equal(sectionTitle(related?.endpoint?.section), '§ Endpoints › Related paths that are named');
    assert.match(toMarkdown(report), /1 not run \(not selected\)/);
  });
});

describe('text helpers of the writers', () => {
  const escapes: [given: string, want: string][] = [
    ['plain text', 'plain text'],
    ['<script>alert("x")</script>', '&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;'],
    ["it's a & b", 'it&#39;s a &#38; b'],
    ['&lt; already escaped', '&#38;lt; already escaped'], // & first: the references written are not escaped again
    ['', ''],
  ];
  for (const [given, want] of escapes)
    test(`escapeHtml(${JSON.stringify(given)})`, () => assert.equal(escapeHtml(given), want));
  const lists: string[][] = [[], ['a'], ['a', 'b'], ['', 'x', '', 'y z', '']];
  for (const texts of lists)
    test(`concatenated(${JSON.stringify(texts)}) is what join gives`, () => {
      assert.equal(concatenated(texts, '\n'), texts.join('\n'));
      assert.equal(concatenated(texts, ''), texts.join(''));
    });
});
