// `synconf history`: the suite across releases, read as "what changed, in which release". The installed releases
// (or --syncthing, --all, --replay) are the columns; each release's results are kept in synconf's cache under a key
// of the release, the scenario files that ran and synconf's build (history/cache.ts), so a second history runs only
// the releases whose key changed. Those run as `synconf matrix` runs them (runMatrix: a lab each, a report each,
// Ctrl-C writes what is done); the page is the matrix of every column (its causes, src/changes/ through the matrix's
// pairs) read by src/history/page.ts, the releases of the table between the columns shown as holes. Exit 0 when the
// page is written; 2 for fewer than two releases or bad input.
import { join, relative, resolve } from 'node:path';
import semver from 'semver';
import type { History, Report } from '../schema/generated/types.js';
import { EXIT, InputError, UsageError } from '../errors.js';
import { makeOutputDir, usableTempDir } from '../output-dir.js';
import { selectScenarios } from '../scenario/select.js';
import { chooseAgents, type MatrixAgent } from '../matrix/agents.js';
import { defaultJobs } from '../matrix/versions.js';
import { findRelease, releaseTable, unobtainable } from '../agents/releases.js';
import { installedAgents } from '../agents/index.js';
import { historyOf, type Hole } from '../history/page.js';
import { historySummary } from '../report/history-text.js';
import { readReport } from '../report/load.js';
import { matrixOf, runMatrix } from '../session/matrix-run.js';
import { matrixProgress } from './terminal/matrix-progress.js';
import { reapLeftovers } from '../session/targets.js';
import { onInterrupt, processSignals } from './terminal/interrupt.js';
import { writeHistory, writeMatrix } from '../session/write-reports.js';
import { cachedRun, historyCacheDir, keepable, releaseKey, restoreRun, storeRun, suiteKey } from '../history/cache.js';
import { pairCauses, type KeptRun } from '../history/pairs.js';
import { loadDocumentValidators } from '../schema/registry.js';
import { printableLine } from '../printable.js';
import { plural } from '../plural.js';

export interface HistoryOptions {
  syncthing?: string[];
  all?: boolean;
  install?: boolean;
  replay?: boolean;
  recordings?: string[];
  suite?: string[];
  only?: string[];
  reportDir: string;
  cacheDir?: string;
  jobs?: number;
  timeout: number;
  strict?: boolean;
  expectations?: string | false;
}

const say = (line: string) => console.log(printableLine(line));

const UNWRITTEN = 'the history page is not written (a previous one is left as it was)';

/**
 * A signal outside the releases' runs (those are the matrix's, runMatrix listens then): the process ends at once,
 * 128 + n, with one line; the page files are renamed into place together (writeHistory), so they are the new page
 * whole or the previous one untouched.
 */
const listen = () => onInterrupt({ line: { command: 'synconf history', doing: UNWRITTEN }, stop: async () => {} });

/** --all: every release of the table that can be had and is installed; with --install the others are installed first */
async function allReleases(opts: HistoryOptions): Promise<string[]> {
  const table = releaseTable();
  const obtainable = table.releases.filter((r) => !unobtainable(r, table)).map((r) => r.version);
  const installed = () => new Set(installedAgents().map((a) => a.version));
  const missing = obtainable.filter((v) => !installed().has(v));
  if (missing.length && opts.install) {
    say(`synconf history: installing ${plural(missing.length, 'release')} (${missing.join(', ')})`);
    const { installAgents } = await import('../agents/install.js');
    const { servedVersion } = await import('../session/served-version.js');
    const { failed } = await installAgents(missing, { log: (l) => console.error(printableLine(l)), servedVersion });
    for (const f of failed) console.error(printableLine(`${f.versions.join(', ')}: not installed: ${f.error.message}`));
  } else if (missing.length)
    say(
      `synconf history: ${plural(missing.length, 'obtainable release')} not installed: holes (--install installs them)`,
    );
  const now = installed();
  return [...new Set([...obtainable, ...now])].filter((v) => now.has(v)).sort(semver.compare);
}

/** the columns: as `synconf matrix` chooses its agents, or --all; --install installs the versions named first */
async function chooseColumns(opts: HistoryOptions): Promise<{ agents: MatrixAgent[]; offline: boolean }> {
  const offline = !!(opts.replay || opts.recordings?.length);
  if (opts.all && (offline || opts.syncthing?.length))
    throw new UsageError(
      '--all: runs every obtainable release; it takes neither --syncthing nor --replay/--recordings',
    );
  if (opts.install && (offline || (!opts.all && !opts.syncthing?.length)))
    throw new UsageError(
      '--install: installs the releases named by --syncthing VERSION, or with --all every obtainable one',
    );
  if (opts.install && !opts.all) {
    const { installAgents } = await import('../agents/install.js');
    const { servedVersion } = await import('../session/served-version.js');
    const wanted = opts.syncthing!.filter((v) => semver.valid(v) && !installedAgents().some((a) => a.version === v));
    if (wanted.length) await installAgents(wanted, { log: (l) => console.error(printableLine(l)), servedVersion });
  }
  // live without --syncthing: every installed release (the matrix runs only the default set's)
  const everyInstalled = offline ? [] : installedAgents().map((a) => a.version);
  const syncthing = opts.all ? await allReleases(opts) : opts.syncthing?.length ? opts.syncthing : everyInstalled;
  const choice = await chooseAgents({ syncthing, replay: !!opts.replay, recordings: opts.recordings ?? [] });
  if (choice.agents.length < 2)
    throw new UsageError(
      `a history needs at least two releases, found ${choice.agents.length} (${choice.agents.map((a) => a.name).join(', ') || 'none'}): install more (synconf agents install 1.29.5), name them with --syncthing, or replay the bundled recordings with --replay`,
    );
  return choice;
}

/** why a release of the table is not a column */
function holeOf(version: string, offline: boolean, installed: Set<string>): Hole {
  const release = findRelease(version);
  const refused = release ? unobtainable(release) : undefined;
  if (refused) return { why: refused, obtainable: false };
  if (offline) return { why: 'no recordings of it replayed', obtainable: true };
  if (installed.has(version)) return { why: 'installed, not chosen (--syncthing)', obtainable: true };
  return { why: `not installed (synconf agents install ${version})`, obtainable: true };
}

/** the releases whose results are cached, copied into their report folders; the others are to run */
function fromCache(agents: MatrixAgent[], keys: Map<MatrixAgent, string>, cache: string, reportDir: string) {
  const hits = new Set<MatrixAgent>();
  for (const a of agents) {
    const hit = cachedRun(cache, a.name, keys.get(a)!);
    if (!hit) continue;
    restoreRun(hit, join(reportDir, a.name));
    hits.add(a);
    say(`[${a.name}] cached: nothing to run (key ${keys.get(a)}) → ${rel(join(reportDir, a.name))}/`);
  }
  return hits;
}

const rel = (p: string) => {
  const r = relative(process.cwd(), p);
  return r.startsWith('..') ? p : r || '.';
};

/** the releases to run, run as the matrix runs them; each whole run kept in the cache */
async function runMisses(
  misses: MatrixAgent[],
  opts: HistoryOptions,
  run: { reportDir: string; offline: boolean; cache: string; keys: Map<MatrixAgent, string> },
): Promise<Map<MatrixAgent, Report>> {
  const fresh = new Map<MatrixAgent, Report>();
  if (misses.length === 0) return fresh;
  if (!run.offline) {
    usableTempDir();
    reapLeftovers(console.error);
  }
  const jobs = opts.jobs ?? defaultJobs(misses.length);
  const out = matrixProgress(misses, jobs, run.offline);
  say(
    `synconf history: running ${plural(misses.length, 'release')} (${misses.map((a) => a.name).join(', ')}), ${jobs} at a time`,
  );
  const result = await runMatrix(
    {
      agents: misses,
      jobs,
      suites: opts.suite,
      only: opts.only,
      reportDir: run.reportDir,
      expectations: opts.expectations,
      failOn: ['fail', 'unexpected-pass'],
      strict: opts.strict,
      requestTimeoutMs: opts.timeout * 1000,
      interruptLine: {
        command: 'synconf history',
        doing: `the reports of the releases done so far are written; ${UNWRITTEN}`,
      },
    },
    // history says its own first line (not the matrix's)
    { listener: { ...out, begin: undefined }, signals: processSignals },
  );
  result.reports.forEach((report, i) => {
    const agent = misses.find((a) => join(run.reportDir, a.name) === result.dirs[i])!;
    fresh.set(agent, report);
    if (keepable(report)) storeRun(run.cache, agent.name, run.keys.get(agent)!, result.dirs[i]);
  });
  return fresh;
}

export async function history(opts: HistoryOptions): Promise<void> {
  const t0 = performance.now();
  const { agents, offline } = await chooseColumns(opts);
  const reportDir = resolve(opts.reportDir);
  makeOutputDir(reportDir, '--report-dir');
  const cache = historyCacheDir(opts.cacheDir);
  makeOutputDir(cache, '--cache-dir');
  const selection = await selectScenarios(opts.suite, opts.only);
  if (selection.errors.length)
    throw new InputError(
      `${selection.errors[0].file}: ${selection.errors[0].message}${selection.errors.length > 1 ? ` (and ${selection.errors.length - 1} more)` : ''}`,
    );
  const suite = suiteKey(selection.scenarios, {
    mode: offline ? 'replay' : 'live',
    strict: !!opts.strict,
    expectations: opts.expectations ?? null,
    timeout: opts.timeout,
  });
  const keys = new Map(agents.map((a) => [a, releaseKey(`${a.name} ${suite}`, a.recordings)]));
  const early = listen();
  const hits = fromCache(agents, keys, cache, reportDir);
  early.off();
  const misses = agents.filter((a) => !hits.has(a));
  const fresh = await runMisses(misses, opts, { reportDir, offline, cache, keys });
  const interrupt = listen();
  const reports = await Promise.all(
    agents.map(async (a) => fresh.get(a) ?? (await readReport(join(reportDir, a.name, 'report.json')))),
  );
  // the releases whose report folders are the cache's: the causes between two of them are kept too (history-pairs.ts)
  const kept: KeptRun[] = agents.map((a) =>
    hits.has(a) || (fresh.has(a) && keepable(fresh.get(a)!)) ? { name: a.name, key: keys.get(a)! } : undefined,
  );
  await loadDocumentValidators();
  const recordedCauses = pairCauses(cache, kept);
  const doc = await historyDoc(agents, reports, {
    reportDir,
    offline,
    hits,
    suite,
    scenarios: selection.scenarios,
    recordedCauses,
  });
  try {
    await writePage(doc, reportDir, t0);
  } finally {
    interrupt.off();
  }
}

/** the matrix of every column, written, and the history read from it */
async function historyDoc(
  agents: MatrixAgent[],
  reports: Report[],
  run: {
    reportDir: string;
    offline: boolean;
    hits: Set<MatrixAgent>;
    suite: string;
    scenarios: Parameters<typeof matrixOf>[3];
    recordedCauses: Parameters<typeof matrixOf>[5];
  },
): Promise<History> {
  const dirs = agents.map((a) => join(run.reportDir, a.name));
  const matrix = await matrixOf(
    reports,
    dirs,
    agents.map((a) => a.name),
    run.scenarios,
    undefined,
    run.recordedCauses,
  );
  await writeMatrix(matrix, run.reportDir);
  const installed = new Set(installedAgents().map((a) => a.version)); // read once: asked for every hole
  return historyOf({
    matrix,
    columns: agents.map((a) => ({ version: a.version ?? a.name, cached: run.hits.has(a), report: `${a.name}/` })),
    releases: releaseTable().releases.map((r) => r.version),
    holeOf: (v) => holeOf(v, run.offline, installed),
    mode: run.offline ? 'replay' : 'live',
    suite: { scenarios: run.scenarios.length, key: run.suite },
    matrixFile: 'matrix.json',
  });
}

/** history.json, .md, .html written whole (a signal meanwhile: not at all, the listener ends the process 128 + n) */
async function writePage(doc: History, reportDir: string, t0: number): Promise<void> {
  const files = await writeHistory(doc, reportDir);
  const where = `history: ${files.map(rel).join(', ')}; matrix and each release's report in ${rel(reportDir)}/; in ${((performance.now() - t0) / 1000).toFixed(1)} s`;
  const ran = doc.columns.filter((c) => !c.cached).length;
  const exit = `synconf history: exit 0: the history is written (${ran} run, ${doc.columns.length - ran} from the cache)`;
  for (const line of historySummary(doc, [where, exit])) say(line);
  process.exitCode = EXIT.ok;
}
