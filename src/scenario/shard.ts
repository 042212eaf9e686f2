// --shard i/n: the selected scenarios split into n shards, by scenario, so that CI jobs can run one each. The
// split is balanced by the durations the bundled recordings took live (recorded-run.json) and deterministic:
// the same scenarios and the same n give the same plan on every machine, whatever the agent version, so the
// jobs of a CI matrix agree on it without talking to each other. The plan's hash lets a merge tell its shards
// from those of another plan.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRun, Shard } from '../schema/generated/types.js';
import { validate } from '../schema/registry.js';
import { RECORDINGS_DIR } from '../paths.js';
import { UsageError } from '../errors.js';
import { STATEMENTS_FILE } from '../schema/statements.js';
import type { Selection } from './select.js';
import { plural } from '../plural.js';

export type { Shard };

/** shard `index` (1-based) of `count` */
export interface ShardSpec {
  index: number;
  count: number;
}

/** a scenario id and its weight: its recorded duration, whole milliseconds, at least 1 */
export interface Weighted {
  id: string;
  weight: number;
}

export interface ShardPlan {
  /** 12 hex digits of a sha256 over the shard count and the sorted ids with their weights */
  hash: string;
  /** each shard's scenario ids (heaviest first, as assigned) and total weight, shard 1 first */
  shards: { ids: string[]; weightMs: number }[];
}

/** 12 hex digits of a sha256 */
export const hash12 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/**
 * What a shard was made over beside its plan, so that a merge can tell shards of another suite or statement index
 * whose ids and weights (the plan) are the same: a scenario edited between the jobs, the index of another synconf.
 * The suite is every scenario of the plan as loaded, in id order; the index, the text of the file.
 */
export function madeOver(
  selection: Selection,
  statementsFile = STATEMENTS_FILE,
): Pick<Shard, 'suite' | 'statementIndex'> {
  const byId = selection.scenarios.map((s) => s.scenario).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let index: Buffer | undefined;
  try {
    index = readFileSync(statementsFile);
  } catch {
    index = undefined; // no index to cite: the shard says nothing of it (as an older synconf's)
  }
  return { suite: hash12(JSON.stringify(byId)), ...(index ? { statementIndex: hash12(index) } : {}) };
}

/** the recordings folders bundled with synconf (recordings/syncthing-*) */
export function bundledRecordings(root = RECORDINGS_DIR): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => name.startsWith('syncthing-'))
    .sort()
    .map((name) => join(root, name));
}

/** the file of a bundled recordings folder that keeps what the live run that recorded it gave (`npm run record`) */
export const RECORDED_RUN = 'recorded-run.json';

/** what the live run that recorded `dir` gave (schemas/recorded-run.schema.json); undefined when it is not there or
 * not readable as one */
export function recordedRunOf(dir: string): RecordedRun | undefined {
  try {
    const doc: unknown = JSON.parse(readFileSync(join(dir, RECORDED_RUN), 'utf8'));
    return validate('recorded-run', doc).length ? undefined : (doc as RecordedRun);
  } catch {
    return undefined;
  }
}

/**
 * each scenario's recorded duration, the longest over the folders (the slowest version bounds a shard's time):
 * read from `<dir>/recorded-run.json`; a folder without one (or not readable as one) adds nothing: weights only
 * balance the shards, and without them the plan falls back to equal weights
 */
export function recordedDurations(dirs: string[]): Map<string, number> {
  const durations = new Map<string, number>();
  for (const dir of dirs)
    for (const s of recordedRunOf(dir)?.scenarios ?? [])
      durations.set(s.id, Math.max(durations.get(s.id) ?? 0, s.durationMs));
  return durations;
}

/** weights for these ids: the recorded durations; a scenario never recorded weighs the mean of those recorded (1 if none is) */
export function weightsOf(ids: string[], durations: Map<string, number>): Weighted[] {
  const known = ids.filter((id) => durations.has(id)).map((id) => Math.max(1, Math.round(durations.get(id)!)));
  const fallback = known.length ? Math.max(1, Math.round(known.reduce((a, b) => a + b, 0) / known.length)) : 1;
  return ids.map((id) => ({
    id,
    weight: durations.has(id) ? Math.max(1, Math.round(durations.get(id)!)) : fallback,
  }));
}

/**
 * Longest processing time first: the scenarios heaviest first (ties by id), each to the shard with the least
 * weight so far (ties: the lowest shard). Within 4/3 of the best split, and the same input always gives the same plan.
 */
export function planShards(scenarios: Weighted[], count: number): ShardPlan {
  const byId = [...scenarios].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const hash = hash12(JSON.stringify({ count, scenarios: byId.map((s) => [s.id, s.weight]) }));
  const shards = Array.from({ length: count }, () => ({ ids: [] as string[], weightMs: 0 }));
  const heaviestFirst = [...byId].sort((a, b) => b.weight - a.weight);
  for (const s of heaviestFirst) {
    const lightest = shards.reduce((best, shard) => (shard.weightMs < best.weightMs ? shard : best));
    lightest.ids.push(s.id);
    lightest.weightMs += s.weight;
  }
  return { hash, shards };
}

/**
 * the selection of one shard: its scenarios in the order the whole selection runs them; the scenarios of the
 * other shards join those --only left out (their endpoints are "not run" here, not "not covered")
 */
export function shardSelection(
  selection: Selection,
  spec: ShardSpec,
  durations: Map<string, number>,
): { selection: Selection; shard: Shard } {
  const ids = selection.scenarios.map((s) => s.scenario.id);
  const plan = planShards(weightsOf(ids, durations), spec.count);
  const mine = new Set(plan.shards[spec.index - 1].ids);
  // A shard of nothing would be a green run of 0 checks: not a pass. Only shards past the scenario count are empty
  // (each of the first ones gets a scenario first), and a merge needs none of them. Scenarios that did not
  // load are the run's to report.
  if (!mine.size && !selection.errors.length)
    throw new UsageError(
      `--shard ${spec.index}/${spec.count}: shard ${spec.index} holds no scenario: the selection has ${plural(ids.length, 'scenario')}, so only ${ids.length === 1 ? 'shard 1' : `shards 1 to ${ids.length}`} of ${spec.count} ${ids.length === 1 ? 'holds' : 'hold'} one (nothing run is not a pass; report merge of ${ids.length === 1 ? 'it' : 'those'} gives the whole run)`,
    );
  const scenarios = selection.scenarios.filter((s) => mine.has(s.scenario.id));
  const others = selection.scenarios.filter((s) => !mine.has(s.scenario.id));
  return {
    selection: { ...selection, scenarios, notSelected: [...(selection.notSelected ?? []), ...others] },
    shard: {
      index: spec.index,
      count: spec.count,
      plan: plan.hash,
      scenarios: scenarios.map((s) => s.scenario.id),
      weightMs: plan.shards[spec.index - 1].weightMs,
      planScenarios: ids.length,
      ...madeOver(selection),
    },
  };
}

/** one line for the console: which shard of which plan, and how much of it */
export function shardLine(shard: Shard): string {
  return `shard ${shard.index}/${shard.count} of plan ${shard.plan}: ${shard.scenarios.length} of ${shard.planScenarios ?? '?'} scenarios (recorded ${(
    (shard.weightMs ?? 0) / 1000
  ).toFixed(1)} s)`;
}
