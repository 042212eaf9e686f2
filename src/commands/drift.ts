// `synconf drift`: compare recordings by shape — two folders offline (DIR-A DIR-B), or a folder with a fresh
// recording of a live agent (the scenarios recorded into a temp folder first, a run session: session/run-session.ts).
// The comparison is src/changes/; terminal/drift-causes.ts prints it.
import { existsSync, mkdtempSync, realpathSync, rmSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT } from '../errors.js';
import { DEFAULT_RECORDINGS } from '../paths.js';
import { executeRun, type CommonRunOptions } from '../session/run-session.js';
import { runListener } from './terminal/run-progress.js';
import { checkLiveTarget, liveTargetMaker, type TargetOptions } from '../session/targets.js';
import { checkAgentVersion, checkSyncthing } from '../session/versions.js';
import { RUN_CASSETTE } from '../transport/cassette.js';
import { compareRecordings, pacedCompareRecordings } from '../changes/compare-recordings.js';
import { onInterrupt, processSignals } from './terminal/interrupt.js';
import { printCauses, type CauseOptions } from './terminal/drift-causes.js';
import { pacer } from '../turns.js';
import { EXCHANGES_DIR } from '../changes/exchanges.js';
import { loadIgnoreFile, parseIgnore, type Acceptance } from '../changes/accept.js';
import { idPattern } from '../scenario/select.js';
import { usableTempDir } from '../output-dir.js';
import { plural } from '../plural.js';

export interface DriftOptions extends Omit<CommonRunOptions, 'reportDir' | 'failOn'>, TargetOptions, CauseOptions {
  keep?: boolean;
  /** a client's session (the source) against this agent: VERSION, URL or RECORDINGS (drift-against.ts) */
  against?: string;
  /** --allow-writes: with --against URL, the client's writes are asked of that agent too */
  allowWrites?: boolean;
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
    const run = { ...opts, reportDir, failOn: ['fail'], temporaryReport: !opts.keep };
    // --json: the run's lines go to stderr, stdout holds the JSON document alone
    const io = { listener: runListener(opts.json), signals: processSignals };
    const code = await executeRun(run, liveTargetMaker(opts), io);
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
