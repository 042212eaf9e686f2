// The bundled suites: every file loads, every endpoint of the spec is covered, the whole suite
// conforms live against the real Syncthing (with its known deviations) twice in a row, and the
// bundled recordings replay to the verdicts of the live run that recorded them.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { cliAsync } from './support/cli.js';
import { spawn } from 'node:child_process';
import { runningProcesses } from '../src/lab/procs.js';
import { selectScenarios } from '../src/runner/run.js';
import { ROOT, SCHEMAS_DIR } from '../src/paths.js';
import type { Report } from '../src/schema/generated/types.js';

const RECORDINGS = join(ROOT, 'recordings', 'syncthing-1.19.2');
let work: string;
before(() => { work = mkdtempSync(join(tmpdir(), 'synconf-suites-')); });
after(() => rmSync(work, { recursive: true, force: true }));

const readReport = (dir: string): Report => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
const verdicts = (r: Report) => r.scenarios.flatMap((s) => s.checks.map((c) => `${c.id} ${c.verdict}`)).sort();

describe('the bundled suites', () => {
  test('every scenario file loads', async () => {
    const { scenarios, errors } = await selectScenarios(undefined, undefined);
    assert.deepEqual(errors, []);
    const files = readdirSync(join(ROOT, 'suites'), { recursive: true }).filter((f) => String(f).endsWith('.yaml'));
    assert.equal(scenarios.length, files.length);
  });

  test('every endpoint of the spec is exercised by at least one scenario', async () => {
    const { scenarios } = await selectScenarios(undefined, undefined);
    const endpoints: { id: string; related?: boolean }[] = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'endpoints.json'), 'utf8')).endpoints;
    const covered = new Set(scenarios.flatMap((s) => s.scenario.spec));
    assert.deepEqual(endpoints.filter((e) => !e.related && !covered.has(e.id)).map((e) => e.id), []);
  });

  for (const round of [1, 2]) {
    test(`the whole suite conforms live against a lab Syncthing 1.19.2, with its known deviations (run ${round} of 2)`, async () => {
      const dir = join(work, `live-${round}`);
      const r = await cliAsync(['run', '--lab', '--report-dir', dir]);
      const report = readReport(dir);
      const failing = report.scenarios.flatMap((s) => s.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'unexpected-pass').map((c) => `${c.id}: ${c.message}`));
      assert.equal(r.code, 0, `${report.verdict}\n${failing.join('\n')}\n${r.stderr}`);
      assert.equal(report.totals.fail, 0);
      assert.ok(report.totals['expected-fail'] > 0, 'the known deviations of 1.19.2 show as expected failures');
      assert.equal(report.agent.version, 'v1.19.2-ds1');
      assert.ok(report.scenarios.every((s) => s.mode !== 'skipped'), `skipped: ${report.scenarios.filter((s) => s.mode === 'skipped').map((s) => `${s.id} (${s.skipReason})`).join(', ')}`);
    });
  }

  test('the bundled recordings replay to the verdicts of the live run that recorded them', async () => {
    const dir = join(work, 'replay');
    const r = await cliAsync(['replay', '--report-dir', dir]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const recorded = JSON.parse(readFileSync(join(RECORDINGS, 'recorded-report.json'), 'utf8')) as Report;
    assert.deepEqual(verdicts(readReport(dir)), verdicts(recorded));
  });

  test('Ctrl-C during a live run still writes the report (exit 2) and leaves no syncthing behind', { timeout: 60_000 }, async () => {
    // the lab's homes go under this run's own TMPDIR: other labs on a shared machine do not count
    const labTmp = mkdtempSync(join(work, 'tmp-'));
    const syncthings = () => runningProcesses().filter((p) => p.args.some((a) => a.endsWith('syncthing')) && p.args.some((a) => a.includes(labTmp))).map((p) => p.pid);
    const before = syncthings();
    const dir = join(work, 'interrupted');
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'run', '--lab', '--only', 'system-restart', '--report-dir', dir], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', TMPDIR: labTmp } });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    // the lab is up after ~2 s and the restart scenario takes ~4 s: interrupt it in the middle
    await new Promise((r) => setTimeout(r, 4000));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 2, stderr);
    const report = readReport(dir);
    assert.equal(report.exitCode, 2);
    assert.ok(report.harnessErrors.some((e) => /interrupted by SIGINT/.test(e.message)), JSON.stringify(report.harnessErrors));
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(syncthings().filter((pid) => !before.includes(pid)), [], 'no syncthing left running');
  });
});
