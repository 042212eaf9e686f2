// Known deviations per agent line: checks listed in expectations/*.yaml that are known not to
// conform. They turn a failing check into expected-fail and a passing one into unexpected-pass.
import { readdirSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CORE_SCHEMA } from 'js-yaml';
import { loadBounded, loadLocated } from '../scenario/located-yaml.js';
import satisfies from 'semver/functions/satisfies.js';
import Range from 'semver/classes/range.js';
import intersects from 'semver/ranges/intersects.js';
import gte from 'semver/functions/gte.js';
import lt from 'semver/functions/lt.js';
import type { KnownDeviations, CheckResult, ScenarioResult } from '../schema/generated/types.js';
import { validate } from '../schema/registry.js';
import { kindProblem } from '../schema/file-kind.js';
import { isVersion, releaseOf } from '../schema/version.js';
import { EXPECTATIONS_DIR, ROOT } from '../paths.js';
import { InputError } from '../errors.js';
import { readTextFile } from '../text-file.js';
import { scenarioVerdict } from '../verdict/verdicts.js';
import { listItemLines } from '../scenario/list-lines.js';
import { parsedAtBuild } from '../schema/built-yaml.js';

export interface LoadedExpectations {
  file: string;
  data: KnownDeviations;
}

export function loadExpectations(path: string): LoadedExpectations {
  const file = relative(ROOT, path).startsWith('..') ? path : relative(ROOT, path);
  const text = readTextFile(path, `expectations file ${file}`);
  let data: unknown;
  try {
    data = parsedAtBuild(text) ?? loadBounded(text, { schema: CORE_SCHEMA });
  } catch (e) {
    throw new InputError(`expectations file ${file}: ${(e as Error).message.split('\n')[0]}`);
  }
  // An error inside a deviation names the line where its entry starts, and its check.
  const at = (entry: number | undefined) => {
    const line = entry === undefined ? undefined : listItemLines(text.split('\n'), 'deviations')[entry];
    const check = entry === undefined ? undefined : (data as KnownDeviations).deviations?.[entry]?.check;
    return `${file}${line ? `:${line}` : ''}: ${typeof check === 'string' ? `deviation "${check}": ` : ''}`;
  };
  const wrongKind = kindProblem(data, 'expectations');
  if (wrongKind) throw new InputError(`expectations file ${file}: ${wrongKind}`);
  const errors = validate('expectations', data);
  if (errors.length) {
    const entry = /^\/deviations\/(\d+)/.exec(errors[0].pointer)?.[1];
    throw new InputError(
      `expectations file ${at(entry === undefined ? undefined : Number(entry))}${errors[0].pointer || '/'}: ${errors[0].message}`,
    );
  }
  const exp = data as KnownDeviations;
  // Matching (satisfies) takes a range it cannot parse as holding no version: a typo in it would make the file apply
  // to nothing, silently (or be refused as another version's). Parsed here by the same parser, to say so at once.
  try {
    new Range(exp.versions);
  } catch (e) {
    const line = loadLocated(text, file, data).lineAt('/versions');
    throw new InputError(
      `expectations file ${file}${line ? `:${line}` : ''}: /versions: "${exp.versions}" is not a version range (${(e as Error).message}; e.g. ">=1.19.0 <1.20.0")`,
    );
  }
  const seen = new Set<string>();
  exp.deviations.forEach((d, i) => {
    if (seen.has(d.check)) throw new InputError(`expectations file ${at(i)}listed twice`);
    seen.add(d.check);
    const bounds = boundsProblem(d, exp.versions);
    if (bounds) throw new InputError(`expectations file ${at(i)}${bounds}`);
  });
  return { file, data: exp };
}

type Deviation = KnownDeviations['deviations'][number];

/** the releases a deviation's bounds hold as a range: from `from` (introduced) to before `until` (fixed) */
const boundsRange = (d: Deviation) => [d.from && `>=${d.from}`, d.until && `<${d.until}`].filter(Boolean).join(' ');

/** why a deviation's from/until hold no release of the file's range (an entry that could never apply), if they do not */
function boundsProblem(d: Deviation, versions: string): string | undefined {
  if (!d.from && !d.until) return undefined;
  if (d.from && d.until && !lt(d.from, d.until)) return `until ${d.until} is not after from ${d.from}`;
  if (!intersects(new Range(boundsRange(d)), new Range(versions)))
    return `from/until (${boundsRange(d)}) hold no release of the file's versions "${versions}"`;
  return undefined;
}

/** whether a deviation holds on a release: from the release that introduced it to before the one that fixed it */
function holdsOn(d: Deviation, release: string): boolean {
  return (!d.from || gte(release, d.from)) && (!d.until || lt(release, d.until));
}

/** a file's deviations that hold on the release (a file of a line lists some only from or until a release of it) */
function forRelease(e: LoadedExpectations, release: string): LoadedExpectations {
  const deviations = e.data.deviations.filter((d) => holdsOn(d, release));
  return deviations.length === e.data.deviations.length ? e : { file: e.file, data: { ...e.data, deviations } };
}

/** the expectations files in expectations/ whose version range holds the agent's version, with its deviations */
export function expectationsFor(agentVersion: string, dir = EXPECTATIONS_DIR): LoadedExpectations[] {
  if (!existsSync(dir)) return [];
  const release = releaseOf(agentVersion);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort()
    .map((f) => loadExpectations(join(dir, f)))
    .filter((e) => satisfies(release, e.data.versions))
    .map((e) => forRelease(e, release));
}

/**
 * The known deviations a run applies: the file given (--expectations), none (false, or ""), or the files of
 * expectations/ whose range holds the agent's version. A file given whose range does not hold the agent's version is
 * refused: another version's deviations would pass this version's own failures as expected ones. An agent of no
 * known version cannot be told apart, so the file given applies (the run says the version is unknown).
 */
export function expectationsToApply(
  file: string | false | undefined,
  agentVersion: string | null,
): LoadedExpectations[] {
  if (!file) return file === undefined && agentVersion ? expectationsFor(agentVersion) : [];
  const given = loadExpectations(file);
  if (!agentVersion || !isVersion(agentVersion)) return [given];
  const release = releaseOf(agentVersion);
  if (satisfies(release, given.data.versions)) return [forRelease(given, release)];
  const own = expectationsFor(agentVersion).map((e) => e.file);
  throw new InputError(
    `expectations file ${given.file} is for versions "${given.data.versions}", not the agent's ${agentVersion}: give the file for ${release}${own.length ? ` (without --expectations, ${own.join(' and ')} ${own.length > 1 ? 'apply' : 'applies'})` : ''}, or --no-expectations to apply none`,
  );
}

/** "<pointer> <rule>" with `*` standing for any one pointer segment (a port or an id that changes per run) */
function errorPattern(entry: string): RegExp {
  const escaped = entry.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/(^|\/)\*(?=\/| )/g, '$1[^/ ]+');
  return new RegExp(`^${escaped}$`);
}

export type DeviationIndex = Map<string, Deviation & { file: string }>;

export function indexDeviations(files: LoadedExpectations[]): DeviationIndex {
  return new Map(files.flatMap((f) => f.data.deviations.map((d) => [d.check, { ...d, file: f.file }] as const)));
}

/** mark a scenario's checks by the known deviations: fail → expected-fail, pass → unexpected-pass */
export function applyDeviations(s: ScenarioResult, byCheck: DeviationIndex): void {
  for (const c of s.checks) {
    const d = byCheck.get(c.id);
    if (!d || c.verdict === 'skip') continue;
    const deviation = { observed: d.observed, reason: d.reason, file: d.file };
    if (c.verdict === 'pass') {
      // The message stays what was checked; the hint to remove the entry is the report's (view.ts).
      Object.assign(c, { verdict: 'unexpected-pass', deviation } satisfies Partial<CheckResult>);
    } else if (c.verdict === 'fail') {
      c.deviation = deviation;
      if (d.errors && c.schemaErrors) {
        const patterns = d.errors.map(errorPattern);
        for (const e of c.schemaErrors) e.known = patterns.some((p) => p.test(`${e.pointer} ${e.rule}`));
        const unknown = c.schemaErrors.filter((e) => !e.known);
        if (unknown.length === 0) c.verdict = 'expected-fail';
        else
          c.message = `${c.message} — ${unknown.length} error(s) not listed as known: ${unknown.map((e) => `${e.pointer || '/'} ${e.rule}`).join(', ')}`;
      } else c.verdict = 'expected-fail';
    }
  }
  s.verdict = scenarioVerdict(s.checks);
}

/** listed checks that no check of a scenario that ran matched: the expectations file needs an update */
export function staleDeviations(scenarios: ScenarioResult[], byCheck: DeviationIndex): string[] {
  const seen = new Set(scenarios.flatMap((s) => s.checks.filter((c) => c.verdict !== 'skip').map((c) => c.id)));
  return [...byCheck.keys()].filter(
    // a scenario stopped part-way (skipReason) never reached some of its checks: their deviations are not stale
    (id) => !seen.has(id) && scenarios.some((s) => id.startsWith(`${s.id}/`) && s.mode === 'normal' && !s.skipReason),
  );
}
