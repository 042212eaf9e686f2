// Reports to merge, some of them shards (--shard i/n): the shards of each version must be exactly the shards of one
// plan, each once. Anything else — a shard missing (a CI job lost or cancelled), given twice, of another plan, or
// beside a whole run of the same version — is refused, every problem in one line, before a matrix could look
// complete without them. A set that holds is put back together per version (combine-shards.ts).
import type { Report } from '../schema/generated/types.js';
import { InputError } from '../errors.js';
import { isVersion, releaseOf } from '../schema/version.js';
import { combineShards } from './combine-shards.js';
import { wordFor } from '../plural.js';

/** a report and the file it was read from */
export interface ReportFile {
  report: Report;
  file: string | null;
  /** a version put back together from shards: the shards' own reports and files */
  shards?: ReportFile[];
}

/** the version a report is of, as a merge names it: "1.19.2", "unknown version" */
export function versionOf(report: Report): string {
  const v = report.agent.version;
  return v ? (isVersion(v) ? releaseOf(v) : v) : 'unknown version';
}

const name = (f: ReportFile) => f.file ?? 'a report';
const shardName = (index: number, count: number, plan: string) => `${index}/${count} of plan ${plan}`;

/** the first few of a list and how many more: 60 copies of a shard are one short line, not 60 names */
const firstFew = (items: string[], few = 3) =>
  items.length > few + 1 ? `${items.slice(0, few).join(', ')} and ${items.length - few} more` : items.join(', ');

/**
 * what a shard was made with beside its plan: the synconf that wrote it, the suite and statement index it ran over,
 * and the settings that decide its verdicts and exit code (the merged report takes them from one shard)
 */
const ORIGIN: [string, (r: Report) => string | undefined][] = [
  ['synconf version', (r) => r.synconf.version],
  ['suite', (r) => r.shard!.suite],
  ['statement index', (r) => r.shard!.statementIndex],
  ['--fail-on', (r) => r.run.failOn && [...r.run.failOn].sort().join(',')],
  ['--strict', (r) => (r.run.strict === undefined ? undefined : String(r.run.strict))],
  ['known deviations', (r) => r.run.expectationsHash && `${r.run.expectations ?? 'none'} (${r.run.expectationsHash})`],
];

/**
 * Shards of one version made by different synconf versions, or over another suite or statement index, would merge
 * into a run no synconf made. A shard that does not record one (an older synconf) beside shards that do cannot be
 * told apart from another: refused too. Shards none of which record it merge as before. One line for all.
 */
function originProblems(version: string, shards: ReportFile[]): string[] {
  let unrecorded = false;
  const differ = ORIGIN.flatMap(([what, of]) => {
    const values = [...new Set(shards.map((r) => of(r.report)))];
    if (values.length < 2) return [];
    unrecorded ||= values.includes(undefined);
    const each = values.map(
      (v) => `${v ?? 'none recorded'} (${firstFew(shards.filter((r) => of(r.report) === v).map(name))})`,
    );
    return [`${what} ${each.join(' vs ')}`];
  });
  if (!differ.length) return [];
  const older = unrecorded
    ? ' (a shard that records none was written by an older synconf, or stopped before it applied any: cannot tell)'
    : '';
  return [
    `the shards of ${version} were not made alike: ${differ.join('; ')}${older}: merge the shards of one run (one synconf over one suite and statement index, with the same --fail-on, --strict and --expectations)`,
  ];
}

/** what is wrong with the shards of one version (none: an empty list) */
function problemsOf(version: string, runs: ReportFile[]): string[] {
  const shards = runs.filter((r) => r.report.shard);
  if (!shards.length) return [];
  const whole = runs.filter((r) => !r.report.shard);
  if (whole.length)
    return [
      `${version}: ${whole.map(name).join(', ')} ${wordFor(whole.length, 'is a whole run', 'are whole runs')} beside shards (${shards.map(name).join(', ')}): merge either the whole run or its shards`,
    ];
  const origin = originProblems(version, shards);
  if (origin.length) return origin;
  const plans = [...new Set(shards.map((r) => r.report.shard!.plan))];
  if (plans.length > 1)
    return [
      `the shards of ${version} are of different plans: ${plans
        .map((p) => {
          const of = shards.filter((r) => r.report.shard!.plan === p);
          return `${p} (${of.map((r) => `${r.report.shard!.index}/${r.report.shard!.count} in ${name(r)}`).join(', ')})`;
        })
        .join('; ')}: merge the shards of one plan (the same scenarios, --suite/--only, and shard count)`,
    ];
  const { count, plan } = shards[0].report.shard!;
  const problems: string[] = [];
  const missing: number[] = [];
  for (let index = 1; index <= count; index++) {
    const given = shards.filter((r) => r.report.shard!.index === index);
    if (given.length === 0 && !emptyByPlan(index, shards)) missing.push(index);
    if (given.length > 1)
      problems.push(
        `shard ${shardName(index, count, plan)} for ${version} is given ${given.length === 2 ? 'twice' : `${given.length} times`}: ${firstFew(given.map(name))}`,
      );
  }
  if (!missing.length && !problems.length) problems.push(...heldProblem(version, shards));
  if (missing.length)
    problems.unshift(
      `${wordFor(missing.length, 'shard')} ${firstFew(missing.map((i) => `${i}/${count}`))} of plan ${plan} for ${version} ${wordFor(missing.length, 'is', 'are')} missing`,
    );
  return problems;
}

/**
 * A shard past the plan's scenario count holds none (the plan gives each of the first shards one first), and
 * `--shard` refuses to run it: the merge does not need it. The count is the one every shard given says.
 */
function emptyByPlan(index: number, shards: ReportFile[]): boolean {
  const planned = new Set(shards.map((r) => r.report.shard!.planScenarios));
  const [n] = planned;
  return planned.size === 1 && n !== undefined && index > n;
}

/**
 * The shards of a plan hold its scenarios between them, each once: each says how many its plan has (planScenarios).
 * A shard whose list was emptied or cut would otherwise merge into a green matrix of part of the suite.
 */
function heldProblem(version: string, shards: ReportFile[]): string[] {
  const { plan } = shards[0].report.shard!;
  const planned = [...new Set(shards.map((r) => r.report.shard!.planScenarios).filter((n) => n !== undefined))];
  const ids = shards.flatMap((r) => r.report.shard!.scenarios);
  const held = new Set(ids).size;
  if (planned.length === 0 || (planned.length === 1 && held === planned[0] && ids.length === held)) return [];
  const each = shards.map(
    (r) => `${r.report.shard!.index}/${r.report.shard!.count}: ${r.report.shard!.scenarios.length} in ${name(r)}`,
  );
  return [
    `the shards of plan ${plan} for ${version} hold ${held} distinct of ${ids.length} listed scenarios, their plan ${planned.join(' or ')} (${each.join(', ')}): a shard's report was cut or edited; run it again`,
  ];
}

export interface ShardSetOptions {
  /** scenario ids in the order a whole run runs them (the suite here): the merged report's order */
  order?: string[];
}

/**
 * every version's shards put back together into one report (whole runs pass as they are), in the order the
 * versions first appear; an incomplete, duplicated or mixed set of shards is an InputError naming each problem.
 * `crashed` says which shards did not finish (their version's report fails: never green).
 */
export function mergeShardSets(
  runs: ReportFile[],
  opts: ShardSetOptions = {},
): { runs: ReportFile[]; crashed: string[] } {
  // shards group by version; a whole run stands alone unless shards of its version are given too
  const sharded = new Set(runs.filter((r) => r.report.shard).map((r) => versionOf(r.report)));
  const byVersion = new Map<string, ReportFile[]>();
  runs.forEach((r, i) => {
    const key = sharded.has(versionOf(r.report)) ? versionOf(r.report) : `\0run ${i}`;
    byVersion.set(key, [...(byVersion.get(key) ?? []), r]);
  });
  const problems = [...byVersion].flatMap(([version, of]) => problemsOf(version, of));
  if (problems.length) throw new InputError(problems.join('; '));
  const crashed: string[] = [];
  const merged = [...byVersion.values()].map((of): ReportFile => {
    if (!of[0].report.shard) return of[0];
    const combined = combineShards(
      of.map((r) => r.report),
      versionOf(of[0].report),
      opts.order,
    );
    crashed.push(...combined.crashed);
    return { report: combined.report, file: of.map(name).join(' + '), shards: of };
  });
  return { runs: merged, crashed };
}
