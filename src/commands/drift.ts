// `synconf drift`: compare recordings by shape — two folders offline (DIR-A DIR-B), or a folder with a fresh
// recording of a live agent (the scenarios recorded into a temp folder first). The comparison is src/changes/; this
// prints it: the causes the differences fold into, one line each, breaking first (with --differences also every
// difference per scenario), the counts, and the --fail-on gate; or the causes as JSON (--json).
import { existsSync, mkdtempSync, realpathSync, rmSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT } from '../errors.js';
import { DEFAULT_RECORDINGS } from '../paths.js';
import { executeRun, type CommonRunOptions } from './run.js';
import { checkLiveTarget, liveTargetMaker, type TargetOptions } from '../session/targets.js';
import { checkAgentVersion, checkSyncthing } from '../session/versions.js';
import { RUN_CASSETTE } from '../transport/cassette.js';
import { compareRecordings, pacedCompareRecordings, type Comparison } from '../changes/compare-recordings.js';
import { onInterrupt } from './terminal/interrupt.js';
import { pacer } from '../turns.js';
import { EXCHANGES_DIR } from '../changes/exchanges.js';
import { foldMembers } from '../changes/causes.js';
import { accept, loadIgnoreFile, parseIgnore, type Acceptance } from '../changes/accept.js';
import { causeLine, causesJson, countLine, countsOf, failing, gateLine } from '../report/causes-text.js';
import type { ChangeFailOn } from '../verdict/change-levels.js';
import type { ChangeCause, DriftCauses } from '../schema/generated/types.js';
import { idPattern } from '../scenario/select.js';
import { usableTempDir } from '../output-dir.js';
import { printableLine } from '../printable.js';
import { plural } from '../plural.js';

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
  /** a client's session (the source) against this agent: VERSION, URL or RECORDINGS (drift-against.ts) */
  against?: string;
}

/** `synconf drift [DIR]` or `synconf drift DIR-A DIR-B` */
export async function drift(opts: DriftOptions & { dirs?: string[] }): Promise<void> {
  const dirs = opts.dirs ?? [];
  // The accepted changes are read before any work: a bad --ignore or --ignore-file stops it.
  const accepted = [
    ...(opts.ignore ?? []).map(parseIgnore),
    ...(opts.ignoreFile ? loadIgnoreFile(opts.ignoreFile) : []),
  ];
  if (opts.against !== undefined) {
    const { driftAgainst } = await import('./drift-against.js');
    process.exitCode = await driftAgainst(dirs[0], { ...opts, against: opts.against }, accepted);
    return;
  }
  process.exitCode =
    dirs.length === 2
      ? await printFolderDrift(dirs[0], dirs[1], opts.only, opts, accepted)
      : await driftRun(dirs[0] ?? DEFAULT_RECORDINGS, opts, accepted);
}

/** the differences of one scenario, as printed */
const scenarioDrift = (scenario: string, lines: string[]) =>
  lines.length
    ? `${printableLine(scenario)}:\n${lines.map((l) => `  ${printableLine(l)}`).join('\n')}`
    : `${printableLine(scenario)}: no difference`;

/** runs the scenarios live into a temp report folder, prints the changes from `dir` to its exchanges; the exit code */
export async function driftRun(dir: string, opts: DriftOptions, accepted: Acceptance[] = []): Promise<number> {
  checkLiveTarget(opts, console.error);
  await checkSyncthing(opts.syncthing, !opts.agent);
  await checkAgentVersion(opts.agentVersion);
  const fresh = mkdtempSync(join(usableTempDir(), 'synconf-drift-'));
  const reportDir = join(fresh, 'report');
  let compared = false;
  // the interrupt ends the process once a signalled run's report is written, before `finally`: settled then too
  const settle = () => keepOrRemove(fresh, reportDir, compared, opts.keep);
  process.once('exit', settle);
  try {
    const run = { ...opts, reportDir, failOn: ['fail'], temporaryReport: !opts.keep, linesToStderr: opts.json };
    const code = await executeRun(run, liveTargetMaker(opts));
    // a run that did not end (the agent not reached, a signal) has nothing to compare: its code, its report kept
    if (code !== EXIT.ok && code !== EXIT.nonConforming) return code;
    // the run's own exchanges, as every report folder keeps them; the agent's identification is not compared
    const recorded = join(reportDir, EXCHANGES_DIR);
    const ran = new Set(
      readdirSync(recorded)
        .filter((f) => f.endsWith('.har') && f !== `${RUN_CASSETTE}.har`)
        .map((f) => f.slice(0, -4)),
    );
    const comparison = compareRecordings(dir, recorded, (id) => ran.has(id));
    compared = true;
    if (!opts.json) console.log(`\ndrift of ${plural(ran.size, 'scenario')} against ${dir}:`);
    return printCauses(comparison, dir, 'the fresh recording', opts, accepted);
  } finally {
    process.off('exit', settle);
    settle();
  }
}

/**
 * After a drift run: the fresh recording is kept with --keep; the report of a run that did not reach the comparison
 * is kept too, as its evidence (its files were named); otherwise the temp folder goes. Says what is kept, and where.
 */
function keepOrRemove(fresh: string, reportDir: string, compared: boolean, keep?: boolean): void {
  const written = existsSync(reportDir) && readdirSync(reportDir).length > 0;
  if (compared && keep) console.log(`fresh recording kept in ${join(reportDir, EXCHANGES_DIR)}`);
  else if (!compared && written)
    console.log(`the run's report is kept in ${reportDir}: nothing was compared (remove it with rm -r ${fresh})`);
  else rmSync(fresh, { recursive: true, force: true });
}

/**
 * prints the drift between two folders and returns the exit code: 0 none, 1 the gate trips, 2 unreadable cassettes.
 * A signal ends it with 128 + n and its line whenever it lands, until the process exits: the folders are compared a
 * scenario at a time, a turn now and then hearing it (thousands of cassettes compare for seconds).
 */
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
  // nothing to write on a signal: the stop is the exit, 128 + n
  onInterrupt({ line: { command: 'synconf drift', doing: 'nothing more is compared' }, stop: async () => {} });
  const filter = patterns && ((id: string) => patterns.some((r) => r.test(id)));
  const comparison = await pacedCompareRecordings(a, b, filter, pacer());
  if (!opts.json) console.log(`drift of ${plural(comparison.drift.scenarios.length, 'scenario')} from ${a} to ${b}:`);
  return printCauses(comparison, a, b, opts, accepted);
}

/** the causes of the answers drift --against cannot tell the version by (after a state change not asked again, on a
 * starting state not set up, of the recordings' state model): "cannot tell" */
export interface LaterCauses {
  /** what those answers are: the request not asked again, METHOD /path (#step); the starting state; the model's */
  after: string;
  /** why their causes cannot tell, as the line says it */
  why: string;
  comparison: Comparison;
}

/** what a cause is of, one key per endpoint and place: a cause of several endpoints is known by each of them */
const placesOf = (c: ChangeCause) =>
  c.endpoints.flatMap((e) => (c.at?.length ? c.at : [c.pointer ?? '']).map((p) => `${c.rule} ${e} ${p}`));

/** the causes found only after the parting request: each may follow from it, not from the version */
function uncertainOf(later: LaterCauses, known: ChangeCause[], accepted: Acceptance[]): DriftCauses['uncertain'] {
  const seen = new Set(known.flatMap(placesOf));
  const causes = foldMembers(accept(later.comparison.causes, accepted).causes).filter(
    (c) => !placesOf(c).some((k) => seen.has(k)),
  );
  return { after: later.after, causes, counts: countsOf(causes) };
}

function printUncertain(u: NonNullable<DriftCauses['uncertain']>, why: string): void {
  if (!u.causes.length) return;
  console.log(`cannot tell: ${countLine(u.counts)}; ${why}`);
  for (const c of u.causes) console.log(`  ${printableLine(causeLine(c))}`);
}

/** prints the causes of a drift (or its JSON), the counts and the gate; returns the exit code */
export function printCauses(
  { drift: found, causes: all }: Comparison,
  from: string,
  to: string,
  opts: CauseOptions,
  accepted: Acceptance[],
  later?: LaterCauses,
  unconfirmedOf?: (causes: ChangeCause[]) => number,
): number {
  const { causes: each, unused } = accept(all, accepted);
  const causes = foldMembers(each);
  const unconfirmed = unconfirmedOf?.(causes.filter((c) => !c.accepted));
  const failOn = opts.failOn ?? 'any';
  const tripped = failing(causes, failOn);
  const uncertain = later && uncertainOf(later, causes, accepted);
  // the gate is not tripped by what is known, but would be by what cannot be told: no answer (exit 2)
  const untold = !tripped.length && uncertain ? failing(uncertain.causes, failOn) : [];
  for (const p of found.problems) console.error(`synconf drift: ${printableLine(p)}`);
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
    ...(unconfirmed === undefined ? {} : { unconfirmed }),
    ...(found.problems.length ? { problems: found.problems } : {}),
    ...(uncertain ? { uncertain } : {}),
  };
  if (opts.json) process.stdout.write(causesJson(doc));
  else {
    if (opts.differences) for (const s of found.scenarios) console.log(scenarioDrift(s.scenario, s.lines));
    for (const c of causes) console.log(printableLine(causeLine(c)));
    const changed = found.scenarios.filter((s) => s.lines.length).length;
    console.log(
      `${plural(found.differences, 'difference')} in ${plural(changed, 'scenario')}${found.problems.length ? `, ${plural(found.problems.length, 'unreadable cassette')}` : ''}`,
    );
    console.log(countLine(doc.counts));
    if (unconfirmed)
      console.log(
        `${plural(unconfirmed, 'cause')} of these ${unconfirmed === 1 ? 'is' : 'are'} at members the client received that no contract has confirmed it reads (synconf contract, then drift --contract FILE)`,
      );
    if (uncertain) printUncertain(uncertain, later!.why);
    if (opts.failOn) console.log(gateLine(failOn, tripped));
    if (untold.length)
      console.log(
        `cannot tell whether the gate trips: ${plural(untold.length, 'cause')} it would count came only from ${uncertain!.after} (exit 2)`,
      );
  }
  if (found.problems.length || untold.length) return EXIT.usage;
  return tripped.length ? EXIT.nonConforming : EXIT.ok;
}
