// The gate of a run, through the built command (dist/bin/synconf.js): --baseline compares every
// check with a previous report.json and every format shows it; --fail-on new-failure gates on
// regressions only; --repeat N reports a check whose verdict varied as flaky.
import { finalize } from '../src/verdict/totals.js';
import { DEFAULT_FAIL_ON } from '../src/verdict/verdicts.js';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { Report } from '../src/schema/generated/types.js';
import { ROOT } from '../src/paths.js';
import { DROPPED, expectationsWithout, replayReport } from './support/replay-run.js';
import { FakeAgent, json } from './support/fake-agent.js';
import { cliAsync } from './support/cli.js';
import { tempFolder, withTemp } from './support/temp.js';

const synconf = (...args: string[]) => cliAsync(args, { timeout: 120_000 });

interface Written {
  report: Report;
  md: string;
  html: string;
  junit: string;
}
async function written(dir: string): Promise<Written> {
  const read = (f: string) => readFile(join(dir, f), 'utf8');
  return {
    report: JSON.parse(await read('report.json')),
    md: await read('summary.md'),
    html: await read('report.html'),
    junit: await read('junit.xml'),
  };
}

type Case = { name: string; failure?: object; properties?: { property: { name: string; value: string }[] } };
function junitCases(xml: string): Case[] {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (n) => ['testsuite', 'testcase', 'property'].includes(n),
  });
  const doc = parser.parse(xml) as { testsuites: { testsuite: { testcase?: Case[] }[] } };
  return doc.testsuites.testsuite.flatMap((s) => s.testcase ?? []);
}
const baselineOf = (c: Case) => c.properties?.property.find((p) => p.name === 'baseline')?.value;

describe('--baseline', () => {
  const work = tempFolder('gate');
  /** a report of the bundled 1.19.2 recordings replayed, the baseline of the rows below */
  let baseline: Promise<Report> | undefined;
  const baselineReport = () => (baseline ??= replayReport());
  const baselineFile = async () => {
    const file = join(work(), 'baseline.json');
    await writeFile(file, JSON.stringify(await baselineReport()));
    return file;
  };

  test('a baseline with one check flipped to fail: exactly one "fixed", in every format', async () => {
    const baseline: Report = structuredClone(await baselineReport());
    const flipped = baseline.scenarios[2].checks[1];
    assert.equal(flipped.verdict, 'pass');
    flipped.verdict = 'fail';
    // totals, exit code and verdict as a run with that failure writes them (else: cannot tell)
    finalize(baseline, baseline.run.failOn ?? DEFAULT_FAIL_ON);
    const file = join(work(), 'flipped.json');
    await writeFile(file, JSON.stringify(baseline));
    const out = join(work(), 'fixed');
    const r = await synconf('replay', '--baseline', file, '--report-dir', out);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /against the baseline: 0 new failures, 1 fixed, 0 still failing, 0 new checks, 0 gone/);
    const w = await written(out);
    assert.deepEqual(w.report.baseline?.counts, {
      'new-failure': 0,
      fixed: 1,
      'still-failing': 0,
      'new-check': 0,
      gone: 0,
    });
    assert.deepEqual(
      w.report.scenarios
        .flatMap((s) => s.checks)
        .filter((c) => c.baseline?.class === 'fixed')
        .map((c) => c.id),
      [flipped.id],
    );
    assert.match(
      w.md,
      /\| new failure \| fixed \| still failing \| new check \| gone \|\n\| ---: \| ---: \| ---: \| ---: \| ---: \|\n\| 0 \| 1 \| 0 \| 0 \| 0 \|/,
    );
    assert.ok(w.md.includes(`- ${flipped.id.replace(/[_*[\]]/g, '\\$&')}: fail → pass`), w.md);
    assert.deepEqual(
      junitCases(w.junit)
        .filter((c) => baselineOf(c))
        .map((c) => [c.name, baselineOf(c)]),
      [[flipped.id, 'fixed']],
    );
    assert.equal((w.html.match(/<ul class="bl-fixed"><li>/g) ?? []).length, 1);
    assert.equal((w.html.match(/<ul class="bl-fixed">(.*?)<\/ul>/)?.[1].match(/<li>/g) ?? []).length, 1);
  });

  test('--fail-on new-failure exits 1 on exactly one new failure, 0 when it was failing already', async () => {
    const expectations = expectationsWithout(DROPPED, work());
    const out = join(work(), 'new');
    const r = await synconf(
      'replay',
      '--expectations',
      expectations,
      '--baseline',
      await baselineFile(),
      '--fail-on',
      'new-failure',
      '--report-dir',
      out,
    );
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const w = await written(out);
    assert.deepEqual(w.report.baseline?.counts, {
      'new-failure': 1,
      fixed: 0,
      'still-failing': 0,
      'new-check': 0,
      gone: 0,
    });
    assert.deepEqual(w.report.run.failOn, ['new-failure']);
    const cases = junitCases(w.junit);
    assert.deepEqual(
      cases.filter((c) => c.failure).map((c) => c.name),
      [DROPPED],
      'the one JUnit failure',
    );
    assert.deepEqual(
      cases.filter((c) => baselineOf(c)).map((c) => [c.name, baselineOf(c)]),
      [[DROPPED, 'new-failure']],
    );
    assert.match(w.md, /\*\*new failure\*\* \(1\):\n\n- system-status\/get-status\/schema: expected fail → fail/);
    assert.match(
      w.html,
      /<h3>new failure \(1\)<\/h3><ul class="bl-new-failure"><li><a href="#s\d+-c\d+" class="id">system-status\/get-status\/schema<\/a>/,
    );

    // the same failure against a baseline that had it: still failing, and the gate passes
    const again = await synconf(
      'replay',
      '--expectations',
      expectations,
      '--baseline',
      join(out, 'report.json'),
      '--fail-on',
      'new-failure',
      '--report-dir',
      join(work(), 'still'),
    );
    assert.equal(again.code, 0, again.stdout + again.stderr);
    const s = await written(join(work(), 'still'));
    assert.deepEqual(s.report.baseline?.counts, {
      'new-failure': 0,
      fixed: 0,
      'still-failing': 1,
      'new-check': 0,
      gone: 0,
    });
    assert.equal(junitCases(s.junit).filter((c) => c.failure).length, 0);
    // and without --fail-on the failure still fails the run
    const plain = await synconf(
      'replay',
      '--expectations',
      expectations,
      '--baseline',
      join(out, 'report.json'),
      '--report-dir',
      join(work(), 'plain'),
    );
    assert.equal(plain.code, 1);
  });

  test('usage errors: new-failure without a baseline, a baseline that is not a report', async () => {
    const r = await synconf('replay', '--fail-on', 'new-failure', '--report-dir', join(work(), 'x'));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--fail-on new-failure needs --baseline/);
    const bad = join(work(), 'bad.json');
    await writeFile(bad, '{"format": "something else"}');
    const b = await synconf('replay', '--baseline', bad, '--report-dir', join(work(), 'y'));
    assert.equal(b.code, 2);
    assert.ok(b.stderr.includes(bad) && /not a valid synconf report/.test(b.stderr), b.stderr);
  });
});

describe('--repeat', () => {
  test('an agent that answers differently on one run: exactly that check is flaky, with its verdict per run', async () => {
    const agent = new FakeAgent();
    // one ping per run: the second run gets the odd answer
    agent.route('GET /rest/system/ping', (_req, call) => json({ ping: call === 2 ? 'pang' : 'pong' }));
    await agent.up();
    try {
      await withTemp('repeat', async (dir) => {
        const suite = join(ROOT, 'tests', 'fixtures', 'flaky', 'ping.yaml');
        /** `synconf run --repeat runs` of the flaky suite against the fake */
        const repeat = (runs: number, out: string, ...more: string[]) =>
          synconf(
            'run',
            '--agent',
            agent.url,
            '--api-key',
            agent.apiKey,
            '--suite',
            suite,
            '--repeat',
            String(runs),
            ...more,
            '--report-dir',
            out,
          );
        const r = await repeat(3, dir);
        assert.equal(r.code, 1, 'a flaky check fails the run by default');
        const lines = r.stdout.trim().split('\n');
        assert.match(lines.at(-2) ?? '', /^reports: /);
        assert.equal(
          lines.at(-1),
          'stability over 3 runs: 1 of 2 checks stable, 1 flaky: flaky-ping/ping/assert:pong (pass, fail, pass)',
        );
        const w = await written(dir);
        const checks = w.report.scenarios.flatMap((s) => s.checks);
        assert.deepEqual(
          checks.filter((c) => c.flaky).map((c) => c.id),
          ['flaky-ping/ping/assert:pong'],
        );
        const flaky = checks.find((c) => c.flaky)!;
        assert.deepEqual(flaky.runs, ['pass', 'fail', 'pass']);
        assert.equal(flaky.oddRun, 2);
        assert.match(flaky.evidence?.response?.body ?? '', /pang/, 'the evidence of the odd run');
        assert.deepEqual(w.report.repeat, { runs: 3, flaky: ['flaky-ping/ping/assert:pong'] });
        assert.match(
          w.md,
          /### Stability over 3 runs\n\n1 of 2 checks gave the same verdict in every run; 1 flaky\.\n\n- flaky-ping\/ping\/assert:pong: pass, fail, pass/,
        );
        assert.match(w.html, /<section id="flaky"><h2>Stability over 3 runs<\/h2>/);
        assert.ok(
          !w.html.includes(agent.apiKey) &&
            !w.md.includes(agent.apiKey) &&
            !JSON.stringify(w.report).includes(agent.apiKey),
          'the key is nowhere',
        );

        // --fail-on without flaky: the flaky check no longer fails the run
        agent.route('GET /rest/system/ping', (_req, call) => json({ ping: call === 1 ? 'pang' : 'pong' })); // counts calls afresh
        const lenient = await repeat(2, join(dir, 'lenient'), '--fail-on', 'fail');
        assert.equal(lenient.code, 0, lenient.stdout);
        assert.match(lenient.stdout, /1 flaky: flaky-ping\/ping\/assert:pong \(fail, pass\)\n$/);
      });
    } finally {
      await agent.close();
    }
  });
});
