// Shards are independent (issue 27): every shard i/n (n = 1…5) of the bundled suite, run live against its own lab of
// Syncthing 1.19.2 and 1.29.5, gives each of its scenarios the verdicts the whole run gives it, check for check. A
// scenario that leans on what an earlier one left behind (or on what an earlier one set up for it) gets another
// verdict in the shard where that other scenario is missing: system-status-dial, while it took lastDialStatus as
// earlier scenarios left it, failed shard 3/3 (the weights of then) and fails shard 4/4 with today's weights, on both
// versions. The runs (32, about 4.5 minutes) are processes of the built command from a scratch folder, three at a
// time: on 2 cores, more would starve the suite's timing-sensitive waits.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../src/schema/generated/types.js';
import { agentsDir, installedAgents } from '../src/agents/index.js';
import { ROOT } from '../src/paths.js';
import { cliAsync, type CliResult } from './support/cli.js';
import { tempFolder } from './support/temp.js';

const VERSIONS = ['1.19.2', '1.29.5'];
const COUNTS = [1, 2, 3, 4, 5];
/** runs at once */
const PARALLEL = 3;
/** the bundled suite: one scenario a file */
const SCENARIO_FILES = readdirSync(join(ROOT, 'suites'), { recursive: true }).filter((f) =>
  String(f).endsWith('.yaml'),
).length;

const installed = new Set(installedAgents().map((a) => a.version));
const missing = (version: string) =>
  installed.has(version)
    ? false
    : `Syncthing ${version} is not installed in ${agentsDir()} (npm run setup, or synconf agents install ${version})`;

/** one run of the suite: the whole run (shard null) or shard index/count */
interface Run {
  version: string;
  shard: { index: number; count: number } | null;
  dir: string;
  result?: CliResult;
}
const label = (r: Run) => `${r.version} ${r.shard ? `shard ${r.shard.index}/${r.shard.count}` : 'whole run'}`;

/** each scenario's verdicts, check id → verdict, by scenario id */
type Verdicts = Record<string, Record<string, string>>;
const verdictsOf = (r: Report): Verdicts =>
  Object.fromEntries(r.scenarios.map((s) => [s.id, Object.fromEntries(s.checks.map((c) => [c.id, c.verdict]))]));

/** `jobs` run with at most `limit` of them at once, in order */
async function pool(jobs: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]();
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
}

describe('every shard of the bundled suite, live, gives each scenario the verdicts of the whole run', () => {
  const work = tempFolder('shard-live');
  const runs: Run[] = [];
  const reports = new Map<Run, Report>();
  const whole = (version: string) => runs.find((r) => r.version === version && r.shard === null)!;
  const shardRun = (version: string, index: number, count: number) =>
    runs.find((r) => r.version === version && r.shard?.index === index && r.shard.count === count)!;

  /** the report of a run, or the run's failure: no report means no verdicts to compare */
  async function reportOf(run: Run): Promise<Report> {
    const r = run.result!;
    assert.ok(
      r.code === 0 || r.code === 1,
      `${label(run)} ended with exit ${r.code} (${r.signal ?? 'no signal'})\n${r.out}`,
    );
    let report = reports.get(run);
    if (!report) {
      report = JSON.parse(await readFile(join(run.dir, 'report.json'), 'utf8')) as Report;
      reports.set(run, report);
    }
    return report;
  }

  let wallMs = 0;
  let told = false;
  before(async () => {
    const started = performance.now();
    for (const version of VERSIONS.filter((v) => !missing(v))) {
      runs.push({ version, shard: null, dir: join(work(), version, 'whole') });
      for (const count of COUNTS)
        for (let index = 1; index <= count; index++)
          runs.push({ version, shard: { index, count }, dir: join(work(), version, `${index}-of-${count}`) });
    }
    // the longest runs first (the whole runs, then the shards of the fewest), so that no long run starts last
    runs.sort((a, b) => (a.shard?.count ?? 0) - (b.shard?.count ?? 0));
    await pool(
      runs.map((run) => async () => {
        const shard = run.shard ? ['--shard', `${run.shard.index}/${run.shard.count}`] : [];
        run.result = await cliAsync(['run', '--lab', '--syncthing', run.version, ...shard, '--report-dir', run.dir], {
          cwd: work(),
          timeout: 300_000,
        });
      }),
      PARALLEL,
    );
    wallMs = performance.now() - started;
  });

  for (const version of VERSIONS) {
    const skip = missing(version);

    test(`${version}: the whole run runs every scenario of the suite`, { skip }, async (t) => {
      const report = await reportOf(whole(version));
      assert.equal(report.scenarios.length, SCENARIO_FILES);
      if (!told) t.diagnostic(`${runs.length} runs, ${PARALLEL} at a time: ${(wallMs / 1000).toFixed(0)} s`);
      told = true;
    });

    for (const count of COUNTS) {
      test(
        `${version}: the ${count} shards of ${count} together run each scenario of the whole run once`,
        { skip },
        async () => {
          const ids = (await reportOf(whole(version))).scenarios.map((s) => s.id);
          const shards = await Promise.all(
            Array.from({ length: count }, (_, i) => reportOf(shardRun(version, i + 1, count))),
          );
          const ran = shards.flatMap((r) => r.scenarios.map((s) => s.id));
          assert.deepEqual([...ran].sort(), [...ids].sort());
        },
      );

      for (let index = 1; index <= count; index++)
        test(
          `${version} shard ${index}/${count}: every scenario's verdicts equal the whole run's`,
          { skip },
          async () => {
            const all = verdictsOf(await reportOf(whole(version)));
            const mine = verdictsOf(await reportOf(shardRun(version, index, count)));
            const expected = Object.fromEntries(Object.keys(mine).map((id) => [id, all[id]]));
            assert.deepEqual(mine, expected);
          },
        );
    }
  }
});
