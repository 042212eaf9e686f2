// Shards are independent (issue 27): every shard i/n of the bundled suite, run live against its own lab, gives each of
// its scenarios the verdicts the whole run gives it, check for check: n = 2…5 on Syncthing 1.19.2 and 1.29.5, and
// n = 3 (the shards of the CI plan, support/live-runs.ts) on every version of the default set. A scenario that leans
// on what an earlier one left behind (or on what an earlier one set up for it) gets another verdict in the shard where
// that other scenario is missing: system-status-dial, while it took lastDialStatus as earlier scenarios left it,
// failed shard 3/3 (the weights of then) and fails shard 4/4 with today's weights, on both versions. The whole run is
// the live matrix's run of that version; shard 1/1 (the whole selection in the whole run's order) is held to the
// whole run offline (shard.test.ts), and a second whole run in a row by suites.test.ts (made in this file's pool).
// The shard runs (22 besides the CI plan's 18) are processes of the built command from a scratch folder, as many at
// a time as the live matrix runs labs at once (support/live-runs.ts LABS_AT_ONCE): the load under which the whole
// runs were made.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../../src/schema/generated/types.js';
import { agentsDir, installedAgents } from '../../src/agents/index.js';
import { ROOT } from '../../src/paths.js';
import { AGENT_VERSIONS } from '../support/agents.js';
import {
  LABS_AT_ONCE,
  liveRunAgain,
  liveShard,
  pooled,
  reportOf,
  wholeRunReport,
  type LiveRun,
} from '../support/live-runs.js';

/** the versions sharded every way, and the counts; every other version is sharded as the CI plan does (3) */
const VERSIONS = ['1.19.2', '1.29.5'];
const COUNTS = [2, 3, 4, 5];
const CI_PLAN = 3;
/** the bundled suite: one scenario a file */
const SCENARIO_FILES = readdirSync(join(ROOT, 'suites'), { recursive: true }).filter((f) =>
  String(f).endsWith('.yaml'),
).length;

const installed = new Set(installedAgents().map((a) => a.version));
const missing = (version: string) =>
  installed.has(version)
    ? false
    : `Syncthing ${version} is not installed in ${agentsDir()} (npm run setup, or synconf agents install ${version})`;

const countsOf = (version: string) => (VERSIONS.includes(version) ? COUNTS : [CI_PLAN]);

/** each scenario's verdicts, check id → verdict, by scenario id */
type Verdicts = Record<string, Record<string, string>>;
const verdictsOf = (r: Report): Verdicts =>
  Object.fromEntries(r.scenarios.map((s) => [s.id, Object.fromEntries(s.checks.map((c) => [c.id, c.verdict]))]));

describe('every shard of the bundled suite, live, gives each scenario the verdicts of the whole run', () => {
  /** the shard runs, by "version index/count" */
  const runs = new Map<string, LiveRun>();
  const key = (version: string, index: number, count: number) => `${version} ${index}/${count}`;

  /** the report of a shard run, or the run's failure: no report means no verdicts to compare */
  function shardReport(version: string, index: number, count: number): Report {
    const run = runs.get(key(version, index, count))!;
    assert.ok(
      run.code === 0 || run.code === 1,
      `${version} shard ${index}/${count} ended with exit ${run.code} (${run.signal ?? 'no signal'})\n${run.out}`,
    );
    return reportOf(run);
  }

  let wallMs = 0;
  let told = false;
  before(async () => {
    const started = performance.now();
    const shards = AGENT_VERSIONS.filter((v) => !missing(v)).flatMap((version) =>
      countsOf(version).flatMap((count) => Array.from({ length: count }, (_, i) => ({ version, index: i + 1, count }))),
    );
    // the longest runs first (the shards of the fewest), so that no long run starts last
    shards.sort((a, b) => a.count - b.count);
    await wholeRunReport(VERSIONS[0]); // the whole runs first: the matrix runs every version at once
    // suites.test.ts's second whole run of 1.19.2 in a row (support/live-runs.ts) runs among the shards, first (the
    // longest run), where the pool's other labs hide its time
    const again = missing(VERSIONS[0]) ? [] : [() => liveRunAgain(VERSIONS[0]).then(() => undefined)];
    await pooled(
      [
        ...again,
        ...shards.map(({ version, index, count }) => async () => {
          runs.set(key(version, index, count), await liveShard(version, index, count));
        }),
      ],
      LABS_AT_ONCE,
    );
    wallMs = performance.now() - started;
  });

  for (const version of AGENT_VERSIONS) {
    const skip = missing(version);

    test(`${version}: the whole run runs every scenario of the suite`, { skip }, async (t) => {
      const report = await wholeRunReport(version);
      assert.equal(report.scenarios.length, SCENARIO_FILES);
      if (!told) t.diagnostic(`${runs.size} shard runs, ${LABS_AT_ONCE} at a time: ${(wallMs / 1000).toFixed(0)} s`);
      told = true;
    });

    for (const count of countsOf(version)) {
      test(
        `${version}: the ${count} shards of ${count} together run each scenario of the whole run once`,
        { skip },
        async () => {
          const ids = (await wholeRunReport(version)).scenarios.map((s) => s.id);
          const shards = Array.from({ length: count }, (_, i) => shardReport(version, i + 1, count));
          const ran = shards.flatMap((r) => r.scenarios.map((s) => s.id));
          assert.deepEqual([...ran].sort(), [...ids].sort());
        },
      );

      for (let index = 1; index <= count; index++)
        test(
          `${version} shard ${index}/${count}: every scenario's verdicts equal the whole run's`,
          { skip },
          async () => {
            const all = verdictsOf(await wholeRunReport(version));
            const mine = verdictsOf(shardReport(version, index, count));
            const expected = Object.fromEntries(Object.keys(mine).map((id) => [id, all[id]]));
            assert.deepEqual(mine, expected);
          },
        );
    }
  }
});
