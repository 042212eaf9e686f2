// `synconf drift`: compare recordings by shape — two folders offline (DIR-A DIR-B), or a folder with a fresh
// recording of a live agent (the scenarios recorded into a temp folder first). The comparison is src/changes/; this
// prints it: the causes the differences fold into, one line each, breaking first (with --differences also every
// difference per scenario), the counts, and the --fail-on gate; or the causes as JSON (--json).
import { existsSync, mkdtempSync, realpathSync, rmSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { EXIT } from '../errors.js';
import { DEFAULT_RECORDINGS } from '../paths.js';
import { executeRun, type CommonRunOptions } from './run.js';
import { liveTargetMaker, type TargetOptions } from './targets.js';
import { checkAgentVersion, checkSyncthing } from './versions.js';
import { readCassette, CassetteError } from '../transport/cassette.js';
import { describeDifference, differencesOf } from '../changes/compare.js';
import { driftBetween, type FolderDrift } from '../changes/compare-dirs.js';
import { causesOf } from '../changes/causes.js';
import { accept, loadIgnoreFile, parseIgnore, type Acceptance } from '../changes/accept.js';
import { causeLine, countLine, countsOf, failing, gateLine } from '../report/causes-text.js';
import type { ChangeFailOn } from '../verdict/change-levels.js';
import type { DriftCauses } from '../schema/generated/types.js';
import { idPattern } from '../scenario/select.js';

/** how the causes are shown and gated */
export interface CauseOptions {
  /** also every difference, per scenario (the evidence folded into the causes) */
  differences?: boolean;
  /** the causes as a JSON document (schemas/drift-causes.schema.json) on stdout, nothing else */
  json?: boolean;
  failOn?: ChangeFailOn;
  /** RULE@METHOD /path [/pointer], accepted on the command line */
  ignore?: string[];
  ignoreFile?: string;
}

export interface DriftOptions extends Omit<CommonRunOptions, 'reportDir' | 'failOn'>, TargetOptions, CauseOptions {
  keep?: boolean;
}

/** `synconf drift [DIR]` or `synconf drift DIR-A DIR-B` */
export async function drift(opts: DriftOptions & { dirs?: string[] }): Promise<void> {
  const dirs = opts.dirs ?? [];
  // The accepted changes are read before any work: a bad --ignore or --ignore-file stops it.
  const accepted = [
    ...(opts.ignore ?? []).map(parseIgnore),
    ...(opts.ignoreFile ? loadIgnoreFile(opts.ignoreFile) : []),
  ];
  process.exitCode =
    dirs.length === 2
      ? await printFolderDrift(dirs[0], dirs[1], opts.only, opts, accepted)
      : await driftRun(dirs[0] ?? DEFAULT_RECORDINGS, opts, accepted);
}

/** the differences of one scenario, as printed */
const scenarioDrift = (scenario: string, lines: string[]) =>
  lines.length ? `${scenario}:\n${lines.map((l) => `  ${l}`).join('\n')}` : `${scenario}: no difference`;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** records into a temp folder, prints the differences with `dir`, and returns the exit code */
export async function driftRun(dir: string, opts: DriftOptions, accepted: Acceptance[] = []): Promise<number> {
  await checkSyncthing(opts.syncthing);
  await checkAgentVersion(opts.agentVersion);
  const fresh = mkdtempSync(join(tmpdir(), 'synconf-drift-'));
  try {
    const code = await executeRun(
      { ...opts, reportDir: join(fresh, 'report'), failOn: ['fail'] },
      liveTargetMaker(opts),
      { dir: join(fresh, 'cassettes'), mode: 'all', redact: [] },
    );
    if (code === EXIT.usage) return EXIT.usage;
    const recorded = readdirSync(join(fresh, 'cassettes'))
      .filter((f) => f.endsWith('.har') && f !== '_run.har')
      .map((f) => f.slice(0, -4))
      .sort();
    const found: FolderDrift = { scenarios: [], differences: 0, problems: [] };
    for (const scenario of recorded) {
      try {
        const before = readCassette(dir, scenario);
        const after = readCassette(join(fresh, 'cassettes'), scenario)!;
        const differences = before ? differencesOf(before, after) : [];
        const lines = before ? differences.map(describeDifference) : ['no cassette in the old recording'];
        found.differences += lines.length;
        found.scenarios.push({ scenario, lines, differences, ...(before ? {} : { onlyIn: 'b' as const }) });
      } catch (e) {
        if (!(e instanceof CassetteError)) throw e;
        found.problems.push(`${scenario}: ${e.message}`);
      }
    }
    if (!opts.json) console.log(`\ndrift of ${plural(recorded.length, 'scenario')} against ${dir}:`);
    return printCauses(found, dir, 'the fresh recording', opts, accepted);
  } finally {
    if (opts.keep) console.log(`fresh recording kept in ${fresh}`);
    else rmSync(fresh, { recursive: true, force: true });
  }
}

/** prints the drift between two folders and returns the exit code: 0 none, 1 the gate trips, 2 unreadable cassettes */
export async function printFolderDrift(
  a: string,
  b: string,
  only?: string[],
  opts: CauseOptions = {},
  accepted: Acceptance[] = [],
): Promise<number> {
  const patterns = only?.map(idPattern);
  if (existsSync(a) && existsSync(b) && realpathSync(a) === realpathSync(b))
    console.error(`synconf drift: warning: ${a} and ${b} are the same folder: there can be no drift`);
  const found = driftBetween(a, b, patterns && ((id) => patterns.some((r) => r.test(id))));
  if (!opts.json) console.log(`drift of ${plural(found.scenarios.length, 'scenario')} from ${a} to ${b}:`);
  return printCauses(found, a, b, opts, accepted);
}

/** prints the causes of a drift (or its JSON), the counts and the gate; returns the exit code */
function printCauses(found: FolderDrift, from: string, to: string, opts: CauseOptions, accepted: Acceptance[]): number {
  const { causes, unused } = accept(causesOf(found.scenarios), accepted);
  const failOn = opts.failOn ?? 'any';
  const tripped = failing(causes, failOn);
  for (const p of found.problems) console.error(`synconf drift: ${p}`);
  // An entry that accepts nothing is stale (the change is gone, or it was mistyped): said, not an error.
  for (const u of unused)
    console.error(
      `synconf drift: ${u.by} accepts no cause${u.by.startsWith('--ignore') ? '' : ` (${u.rule}@${u.endpoint}${u.pointer ? ` ${u.pointer}` : ''})`}`,
    );
  const doc: DriftCauses = {
    from,
    to,
    ...(opts.failOn ? { failOn: opts.failOn } : {}),
    causes,
    counts: countsOf(causes),
    ...(found.problems.length ? { problems: found.problems } : {}),
  };
  if (opts.json) console.log(JSON.stringify(doc, null, 2));
  else {
    if (opts.differences) for (const s of found.scenarios) console.log(scenarioDrift(s.scenario, s.lines));
    for (const c of causes) console.log(causeLine(c));
    const changed = found.scenarios.filter((s) => s.lines.length).length;
    console.log(
      `${plural(found.differences, 'difference')} in ${plural(changed, 'scenario')}${found.problems.length ? `, ${plural(found.problems.length, 'unreadable cassette')}` : ''}`,
    );
    console.log(countLine(doc.counts));
    if (opts.failOn) console.log(gateLine(failOn, tripped));
  }
  return found.problems.length ? EXIT.usage : tripped.length ? EXIT.nonConforming : EXIT.ok;
}
