// The bundled suites: every file loads, every endpoint of the spec is covered, the whole suite conforms live
// against each real Syncthing version (1.12.1, 1.19.2, 1.29.5, 1.30.0, 2.1.0, 2.1.2), with its known deviations,
// 1.19.2 a second time in a row with `synconf run` giving the same verdicts, and the bundled recordings of each
// version replay to the verdicts of the live run that recorded them. The live run of each version is the one the
// live matrix makes for every test that reads a whole run (support/live-runs.ts).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cliAsync, spawnCli } from '../support/cli.js';
import { runningProcesses } from '../../src/lab/procs.js';
import { selectScenarios } from '../../src/scenario/select.js';
import { recordedRunOf } from '../../src/scenario/shard.js';
import { ROOT, SCHEMAS_DIR } from '../../src/paths.js';
import type { Report } from '../../src/schema/generated/types.js';
import { AGENT_VERSIONS, agentBinary } from '../support/agents.js';
import { liveMatrix, liveRunAgain, reportOf, wholeRunReport } from '../support/live-runs.js';
import { tempFolder } from '../support/temp.js';

const work = tempFolder('suites');

const readReport = (dir: string): Report => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
const verdicts = (r: Report) => r.scenarios.flatMap((s) => s.checks.map((c) => `${c.id} ${c.verdict}`)).sort();
/** the checks a conforming run must not have, with their messages */
const failing = (report: Report) =>
  report.scenarios.flatMap((s) =>
    s.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'unexpected-pass').map((c) => `${c.id}: ${c.message}`),
  );

describe('the bundled suites', () => {
  test('every scenario file loads', async () => {
    const { scenarios, errors } = await selectScenarios(undefined, undefined);
    assert.deepEqual(errors, []);
    const files = readdirSync(join(ROOT, 'suites'), { recursive: true }).filter((f) => String(f).endsWith('.yaml'));
    assert.equal(scenarios.length, files.length);
  });

  test('every endpoint of the spec is exercised by at least one scenario', async () => {
    const { scenarios } = await selectScenarios(undefined, undefined);
    const endpoints: { id: string; related?: boolean }[] = JSON.parse(
      readFileSync(join(SCHEMAS_DIR, 'endpoints.json'), 'utf8'),
    ).endpoints;
    const covered = new Set(scenarios.flatMap((s) => s.scenario.spec));
    assert.deepEqual(
      endpoints.filter((e) => !e.related && !covered.has(e.id)).map((e) => e.id),
      [],
    );
  });

  // Each real agent version (from the agents cache: `npm run setup`), the whole suite live in its own lab (the live
  // matrix's run of it): exit 0, every deviation listed with its reason (expectations/syncthing-<line>.yaml).
  const live: [version: string, raw: string][] = [
    ['1.12.1', 'v1.12.1-ds1'],
    ['1.19.2', 'v1.19.2-ds1'],
    ['1.29.5', 'v1.29.5'],
    ['1.30.0', 'v1.30.0'],
    ['2.1.0', 'v2.1.0'],
    ['2.1.2', 'v2.1.2'],
  ];
  assert.deepEqual(
    live.map(([v]) => v),
    [...AGENT_VERSIONS],
    'every version of the default set runs live',
  );
  for (const [version, raw] of live) {
    test(`the whole suite conforms live against a lab Syncthing ${version}, with its known deviations`, async () => {
      agentBinary(version); // a missing agent fails here, saying how to install it
      const report = await wholeRunReport(version);
      assert.equal(
        report.exitCode,
        0,
        `${report.verdict}\n${failing(report).join('\n')}\n${(await liveMatrix()).stderr}`,
      );
      conformsAsListed(version, raw, report);
    });
  }

  // A second whole run in a row of one version, with `synconf run` (the matrix's runs share its core, not its shell):
  // what the first run leaves behind (the port registry, the agents cache, a lab not cleaned up) must not change a
  // verdict. Every other test that needs a whole run reads the matrix's. The run is shared (support/live-runs.ts):
  // shard-live.test.ts makes it among its shard runs, after the matrix.
  test('the whole suite again with `synconf run` against a lab Syncthing 1.19.2: exit 0, the verdicts of the first run, check for check', async () => {
    agentBinary('1.19.2');
    const first = await wholeRunReport('1.19.2');
    const r = await liveRunAgain('1.19.2');
    const report = reportOf(r);
    assert.equal(r.code, 0, `${report.verdict}\n${failing(report).join('\n')}\n${r.stderr}`);
    conformsAsListed('1.19.2', 'v1.19.2-ds1', report);
    assert.deepEqual(verdicts(report), verdicts(first));
  });

  /** what a whole live run of `version` must show: no failure, its deviations listed and matched, what it skips and why */
  function conformsAsListed(version: string, raw: string, report: Report): void {
    assert.equal(report.totals.fail, 0);
    assert.ok(report.totals['expected-fail'] > 0, `the known deviations of ${version} show as expected failures`);
    assert.equal(report.agent.version, raw, 'the report keeps the version as the agent reports it');
    assert.ok(
      report.scenarios.every((s) => s.mode !== 'skipped'),
      `skipped: ${report.scenarios
        .filter((s) => s.mode === 'skipped')
        .map((s) => `${s.id} (${s.skipReason})`)
        .join(', ')}`,
    );
    assert.deepEqual(report.staleExpectations ?? [], [], 'every listed deviation matched a check');
    const checks = report.scenarios.flatMap((s) => s.checks);
    const skipped = checks.filter((c) => c.verdict === 'skip').map((c) => `${c.id}: ${c.skipReason}`);
    const absent = (scenario: string, w: string) => [
      `${scenario}/absent/GET /rest/cluster/pending/${w} exists expected-fail`,
      `${scenario}/absent/GET /rest/cluster/pending/${w} pass`,
    ];
    const pending = ['devices', 'folders'].flatMap((w) => [
      ...absent(`pending-${w}`, w),
      `pending-${w}/absent/DELETE /rest/cluster/pending/${w} pass`,
      `pending-${w}/absent/steps skip`,
    ]);
    if (version === '1.12.1') {
      // before 1.13.0 neither pending endpoint exists: four passing absent checks, the GETs the spec names failing
      // their exists checks as known deviations, and a skipped check naming what the steps would check; cli-client
      // asks the two pending GETs, so it runs in absent mode too, as does events-pending-failure (the pending
      // DELETEs, 1.18.0)
      assert.deepEqual(
        report.scenarios
          .filter((s) => s.mode === 'absent')
          .map((s) => s.id)
          .sort(),
        ['cli-client', 'events-pending-failure', 'pending-devices', 'pending-folders'],
      );
      assert.deepEqual(
        checks
          .filter((c) => c.id.startsWith('cli-client/absent/'))
          .map((c) => `${c.id} ${c.verdict}`)
          .sort(),
        ['devices', 'folders'].flatMap((w) => absent('cli-client', w)),
      );
      assert.deepEqual(
        checks
          .filter((c) => c.id.startsWith('pending-'))
          .map((c) => `${c.id} ${c.verdict}`)
          .sort(),
        pending.sort(),
      );
      // /rest/config has no defaults to compare with, nor templates to put back: those steps are not sent, and say why;
      // what the pending scenarios' steps check of the DELETEs is not observable (one skipped check each)
      assert.deepEqual(skipped, [
        ...['devices', 'folders'].map(
          (w) =>
            `pending-${w}/absent/steps: agent v1.12.1-ds1 predates DELETE /rest/cluster/pending/${w} (since 1.18.0), GET /rest/cluster/pending/${w} (since 1.13.0): the steps that check these statements cannot run on it`,
        ),
        'events-pending-failure/absent/steps: agent v1.12.1-ds1 predates DELETE /rest/cluster/pending/folders (since 1.18.0), DELETE /rest/cluster/pending/devices (since 1.18.0): the steps that check these statements cannot run on it',
        'system-config-defaults/after-defaults/request: {{defaults}} has no value (not captured by an earlier step, and not a run variable)',
        'system-config-defaults/put-back-folder-template/version-gate: agent v1.12.1-ds1 predates 1.14.0',
        'system-config-defaults/put-back-device-template/version-gate: agent v1.12.1-ds1 predates 1.14.0',
        'system-config/same-defaults/request: {{defaults}} has no value (not captured by an earlier step, and not a run variable)',
      ]);
    } else if (version.startsWith('2.')) {
      // 2.x has no GET /rest/system/debug (it answers 404, a listed deviation): the step that sends the facilities
      // it would have captured is not sent
      assert.ok(report.scenarios.every((s) => s.mode === 'normal'));
      assert.deepEqual(skipped, [
        'system-debug/get-with-parameter/request: {{facilities}} has no value (not captured by an earlier step, and not a run variable)',
      ]);
    } else {
      assert.ok(report.scenarios.every((s) => s.mode === 'normal'));
      assert.deepEqual(skipped, []);
    }
    // db-need-prio arranges its state without the pending endpoints: it runs in full on every version
    assert.ok(
      checks
        .filter((c) => c.id.startsWith('db-need-prio/'))
        .every((c) => c.verdict === 'pass' || c.verdict === 'expected-fail'),
    );
  }

  // every bundled recording (recordings/syncthing-<version>/, from `npm run record`): the versions built from the Go
  // module proxy have none bundled yet
  const bundled = readdirSync(join(ROOT, 'recordings'))
    .filter((f) => f.startsWith('syncthing-'))
    .map((f) => f.slice('syncthing-'.length));
  for (const version of bundled) {
    test(`the bundled recordings of ${version} replay to the verdicts of the live run that recorded them, check by check`, async () => {
      const recordings = join(ROOT, 'recordings', `syncthing-${version}`);
      const dir = join(work(), `replay-${version}`);
      const r = await cliAsync(['replay', recordings, '--report-dir', dir]);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const recorded = recordedRunOf(recordings);
      assert.ok(recorded, `${recordings}/recorded-run.json is there and valid`);
      const replayed = readReport(dir);
      assert.equal(replayed.agent.version, recorded.agentVersion);
      const recordedVerdicts = recorded.scenarios.flatMap((s) => Object.entries(s.checks).map((c) => c.join(' ')));
      assert.deepEqual(verdicts(replayed), recordedVerdicts.sort());
      assert.deepEqual(replayed.totals, recorded.totals);
      assert.deepEqual(replayed.unusedExchanges ?? [], []);
    });
  }

  test(
    'Ctrl-C during a live run still writes the report (exit 130) and leaves no syncthing behind',
    { timeout: 60_000 },
    async () => {
      // the lab's homes go under this run's own TMPDIR: other labs on a shared machine do not count
      const labTmp = mkdtempSync(join(work(), 'tmp-'));
      const syncthings = () =>
        runningProcesses()
          .filter((p) => p.args.some((a) => a.endsWith('syncthing')) && p.args.some((a) => a.includes(labTmp)))
          .map((p) => p.pid);
      const before = syncthings();
      const dir = join(work(), 'interrupted');
      const child = spawnCli(['run', '--lab', '--only', 'system-restart', '--report-dir', dir], {
        env: { TMPDIR: labTmp },
      });
      let stderr = '';
      child.stderr?.on('data', (d) => (stderr += d));
      // interrupt it once its lab's agent runs (a state, not a time: a fixed 4 s landed after the run on a fast machine)
      while (syncthings().filter((pid) => !before.includes(pid)).length === 0)
        await new Promise((r) => setTimeout(r, 50));
      child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 130, stderr);
      const report = readReport(dir);
      assert.equal(report.exitCode, 130);
      assert.ok(
        report.harnessErrors.some((e) => /interrupted by SIGINT/.test(e.message)),
        JSON.stringify(report.harnessErrors),
      );
      await new Promise((r) => setTimeout(r, 1000));
      assert.deepEqual(
        syncthings().filter((pid) => !before.includes(pid)),
        [],
        'no syncthing left running',
      );
    },
  );
});
