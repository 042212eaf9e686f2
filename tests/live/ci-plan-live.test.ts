// The CI recipe of docs/ci.md, live: every installed version × 3 shards run as parallel processes of the built
// command against real agents, then one `report merge --fail-on breaking`. The merge must give the unsharded live
// matrix's verdicts check for check and its causes cause for cause (the exchanges each shard's report keeps are
// merged per version), and exit 1 on the breaking change; a shard missing is exit 2, and a report without exchanges
// makes the gate say it cannot tell (exit 2), never 0. The unsharded matrix is the live matrix every test that needs
// a whole live run reads, and the shards are shared with shard-live.test.ts (support/live-runs.ts).
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Matrix, Report } from '../../src/schema/generated/types.js';
import { cliAsync, type CliResult } from '../support/cli.js';
import { AGENT_VERSIONS, agentBinary } from '../support/agents.js';
import { LABS_AT_ONCE, liveMatrix, liveShard, pooled, type LiveRun } from '../support/live-runs.js';
import { tempFolder } from '../support/temp.js';

const SHARDS = [1, 2, 3];
const readJson = async <T>(file: string): Promise<T> => JSON.parse(await readFile(file, 'utf8')) as T;
const synconf = (...args: string[]) => cliAsync(args, { timeout: 300_000 });

/** every check's verdict per column, by check id */
const verdicts = (m: Matrix) =>
  Object.fromEntries(m.rows.map((r) => [r.id, m.order.map((i) => `${m.columns[i].label}=${r.cells[i]}`).join(' ')]));
/** the entries of two maps that differ, as "key: a | b" */
const differing = (a: Record<string, string>, b: Record<string, string>) =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => a[k] !== b[k])
    .map((k) => `${k}: ${a[k]} | ${b[k]}`);
/** every pair's answer and causes: rule id, level, endpoints, pointer */
const causes = (m: Matrix) =>
  m.pairs!.map((p) => ({
    pair: `${m.columns[p.from].label} → ${m.columns[p.to].label}`,
    answer: p.answer,
    causes: p.causes.map((c) => [c.cause.rule, c.cause.level, c.cause.endpoints.join(','), c.cause.pointer].join(' ')),
  }));

describe('the live CI plan: every installed version × 3 shards, merged with report merge --fail-on breaking', () => {
  const work = tempFolder('ci-plan-live');
  const shards = new Map<string, LiveRun>();
  const shardReport = (v: string, i: number) => join(shards.get(`${v} ${i}`)!.reportDir, 'report.json');
  let whole: Matrix;
  let wholeRun: CliResult;
  let wholeDir: string;
  before(async () => {
    for (const v of AGENT_VERSIONS) agentBinary(v); // each installed, or this fails saying how to install it
    const matrix = await liveMatrix(); // every version at once, before the shards
    const shardJobs = AGENT_VERSIONS.flatMap((v) =>
      SHARDS.map((i) => async () => {
        const run = await liveShard(v, i, 3);
        shards.set(`${v} ${i}`, run);
        return run;
      }),
    );
    for (const r of await pooled(shardJobs, LABS_AT_ONCE)) assert.ok(r.code === 0 || r.code === 1, r.out);
    wholeRun = matrix;
    wholeDir = matrix.reportDir;
    whole = await readJson<Matrix>(join(wholeDir, 'matrix.json'));
  });

  test('the merge gives the unsharded matrix check for check and cause for cause, and exits 1 as it does', async () => {
    const files = AGENT_VERSIONS.flatMap((v) => SHARDS.map((i) => shardReport(v, i)));
    const r = await synconf('report', 'merge', ...files, '--fail-on', 'breaking', '--out', join(work(), 'merged'));
    const merged = await readJson<Matrix>(join(work(), 'merged', 'matrix.json'));
    assert.deepEqual(differing(verdicts(merged), verdicts(whole)), [], 'check for check: merged, then whole');
    // Cause for cause, exactly: no scenario reads what another left behind (docs/scenario-format.md), so the
    // exchanges of a shard are those of the whole run, and so are the causes and each pair's answer
    const [a, b] = [causes(merged), causes(whole)];
    for (const [i, p] of a.entries()) {
      const differences = differing(
        Object.fromEntries(p.causes.map((c) => [c, c])),
        Object.fromEntries(b[i].causes.map((c) => [c, c])),
      );
      assert.deepEqual(differences, [], `${p.pair}: merged, then whole`);
    }
    assert.deepEqual(
      a.map((p) => [p.pair, p.answer]),
      b.map((p) => [p.pair, p.answer]),
    );
    assert.ok(
      merged.pairs!.some((p) => p.answer === 'breaks'),
      'a breaking change to gate on',
    );
    assert.equal(wholeRun.code, 1, wholeRun.out);
    assert.equal(r.code, 1, r.out);
    const last = (text: string) => text.trimEnd().split('\n').at(-1)!;
    assert.match(last(r.stdout), /^synconf report merge: exit 1: .*gate: --fail-on breaking tripped by \d+ causes/);
    // the gate names the same causes
    const gated = (text: string) =>
      text
        .split('\n')
        .filter((l) => / → .*: --fail-on breaking: /.test(l))
        .flatMap((l) => l.replace(/^.*not accepted: /, '').split('; '));
    assert.deepEqual(gated(r.stdout), gated(wholeRun.stdout), 'both name the same causes');
  });

  test('a shard missing: exit 2 naming it', async () => {
    const files = AGENT_VERSIONS.flatMap((v) => SHARDS.map((i) => shardReport(v, i))).slice(1);
    const r = await synconf('report', 'merge', ...files, '--fail-on', 'breaking', '--out', join(work(), 'lost'));
    assert.equal(r.code, 2, r.out);
    assert.match(r.stderr, /^synconf: shard 1\/3 of plan \w+ for [\d.]+ is missing/m);
  });

  test('a report without exchanges (an older synconf): the pair cannot tell, and the gate exits 2 saying why', async () => {
    const [older, newer] = AGENT_VERSIONS.slice(-2).map((v) => join(wholeDir, v));
    const report = await readJson<Report>(join(older, 'report.json'));
    delete report.run.exchanges;
    const stripped = join(work(), 'stripped');
    await rm(stripped, { recursive: true, force: true });
    await cliAsync(['report', 'render', join(older, 'report.json'), '--out', stripped]);
    await writeFile(join(stripped, 'report.json'), JSON.stringify(report));
    const args = ['report', 'merge', join(stripped, 'report.json'), join(newer, 'report.json')];
    const gated = await synconf(...args, '--fail-on', 'breaking', '--out', join(work(), 'cannot-tell'));
    assert.equal(gated.code, 2, gated.out);
    assert.match(gated.stdout, / → .*: CANNOT TELL: no exchanges to compare for .* \(its report keeps no exchanges/);
    assert.match(gated.stdout.trimEnd().split('\n').at(-1)!, /gate: --fail-on breaking cannot be answered for /);
    const ungated = await synconf(...args, '--out', join(work(), 'cannot-tell-ungated'));
    const m = await readJson<Matrix>(join(work(), 'cannot-tell-ungated', 'matrix.json'));
    assert.deepEqual(
      m.pairs!.map((p) => [p.answer, p.causes.length]),
      [['cannot-tell', 0]],
      ungated.out,
    );
  });
});
