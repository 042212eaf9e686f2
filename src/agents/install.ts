// `synconf agents install`: fetch the Debian package of each version with a private apt configuration (its own
// sources list, lists and cache folders; the machine's package state is never touched), unpack it with dpkg-deb,
// check the binary's --version and move it into the cache. The versions Debian lacks are built from the Go module
// proxy (go-build.ts), one after the other, each checked (--version, and the caller's check of a brief start) before
// it goes into the cache; one that fails does not stop the others.
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import semver from 'semver';
import { InputError, SynconfError, UsageError } from '../errors.js';
import { makeOutputDir } from '../output-dir.js';
import { agentPath, agentsDir, versionHint } from './cache.js';
import { debianArchives, sourceFiles, type DebianArchive } from './debian-sources.js';
import { buildFromModuleProxy, findGo, GoBuildError, goSearched, type BuiltBinary } from './go-build.js';
import {
  DEFAULT_VERSIONS,
  KNOWN_AGENTS,
  KNOWN_VERSIONS,
  knownAgent,
  type DebianSource,
  type GoModuleSource,
  type KnownAgent,
} from './known.js';
import { findRelease, isReleaseLine, lineRelease, lineReleases, releaseTable, unobtainable } from './releases.js';
import { binaryVersion, sameRelease } from './probe.js';

type DebianAgent = KnownAgent & DebianSource;
export type GoAgent = KnownAgent & GoModuleSource;

export interface InstallResult {
  version: string;
  path: string;
  /** the version the binary prints (--version) */
  printed: string;
  /** false when it was in the cache already (and ran) and was kept */
  fetched: boolean;
}

/** the versions an install could not get, and why (a SynconfError: one line, naming the versions) */
export interface InstallFailure {
  versions: string[];
  error: SynconfError;
}

export interface InstallOutcome {
  /** the versions installed or kept, in the order asked */
  installed: InstallResult[];
  failed: InstallFailure[];
}

export interface InstallOptions {
  /** progress lines (the CLI prints them on stderr) */
  log?: (line: string) => void;
  /** fetch again even what is installed and runs */
  force?: boolean;
  /** every release of the release table that can be had (those that cannot are logged as skipped) */
  all?: boolean;
  /** how many builds run at once (default 1) */
  jobs?: number;
  /**
   * Starts a built binary briefly and returns the X-Syncthing-Version header of its API's answer (the caller owns the
   * lab; agents/ does not start agents). Without it a build is checked by --version only.
   */
  servedVersion?: (binary: string) => Promise<string>;
}

const TOOLS = [
  { command: 'apt-get', pkg: 'apt' },
  { command: 'dpkg-deb', pkg: 'dpkg' },
];

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}

function manualHint(agents: readonly DebianAgent[], dir: string): string {
  return agents
    .map(
      (a) =>
        `syncthing_${a.debianVersion}_<arch>.deb (Debian ${a.suite}): put its usr/bin/syncthing at ${agentPath(a.version, dir)}`,
    )
    .join('; ');
}

/** what the command asks for: versions (1.18.0), lines (1.18: see lineRelease), or every release (--all) */
export interface Selection {
  agents: KnownAgent[];
  /** named releases that cannot be had, one failure each (exit 2) */
  refused: InstallFailure[];
  /** with --all, the releases of the table that cannot be had, and why (not a failure: the table says so) */
  skipped: { version: string; why: string }[];
}

const unknownVersion = (v: string) =>
  new UsageError(
    `synconf knows no Syncthing release ${v}${versionHint(v, [...KNOWN_VERSIONS, ...releaseTable().releases.map((r) => r.version)])}: ` +
      '`synconf agents list --all` lists every release since 1.12.0',
  );

/** one named version or line: its agent, or why it cannot be had */
function selectOne(spec: string): KnownAgent | InstallFailure {
  const given = spec.replace(/^v/, '');
  const refuse = (versions: string[], why: string): InstallFailure => ({
    versions,
    error: new InputError(`${versions.join(', ')}: ${why}`),
  });
  if (isReleaseLine(given)) {
    const release = lineRelease(given);
    if (release) return knownAgent(release.version)!;
    const all = lineReleases(given);
    if (all.length === 0) throw unknownVersion(spec);
    return refuse(
      [given],
      `no release of the line can be had (${all.map((r) => `${r.version} ${unobtainable(r)}`).join('; ')})`,
    );
  }
  const release = findRelease(given);
  const why = release && !KNOWN_VERSIONS.includes(given) ? unobtainable(release) : undefined;
  if (why) return refuse([given], why);
  const agent = knownAgent(given);
  if (!agent) throw unknownVersion(spec);
  return agent;
}

/**
 * The agents named by versions or lines (the default set when none is named; every release with all); an unknown
 * version is a usage error, a release that cannot be had a failure of its own.
 */
export function selectAgents(versions: string[], all = false): Selection {
  if (all) {
    const table = releaseTable();
    const skipped = table.releases.flatMap((r) => {
      const why = KNOWN_VERSIONS.includes(r.version) ? undefined : unobtainable(r, table);
      return why ? [{ version: r.version, why }] : [];
    });
    const agents = table.releases.filter((r) => !skipped.some((s) => s.version === r.version));
    return { agents: agents.map((r) => knownAgent(r.version)!), refused: [], skipped };
  }
  if (versions.length === 0)
    return { agents: KNOWN_AGENTS.filter((a) => DEFAULT_VERSIONS.includes(a.version)), refused: [], skipped: [] };
  const picked = versions.map(selectOne);
  const agents = picked.filter((p): p is KnownAgent => 'version' in p);
  const unique = agents.filter((a, i) => agents.findIndex((o) => o.version === a.version) === i);
  return {
    agents: unique.sort((a, b) => semver.compare(a.version, b.version)), // each once, oldest first
    refused: picked.filter((p): p is InstallFailure => 'error' in p),
    skipped: [],
  };
}

/** apt options that make every path apt writes our own, and read no source of the machine but ours */
function privateApt(work: string): string[] {
  const opts = [
    `Dir::Etc::sourcelist=${join(work, 'sources.list')}`,
    'Dir::Etc::sourceparts=-',
    `Dir::State::Lists=${join(work, 'lists')}`,
    `Dir::Cache=${join(work, 'cache')}`,
    'Acquire::Languages=none', // only the Packages indexes
    'Acquire::Retries=1',
    'APT::Update::Error-Mode=any', // an index that fails to download fails the update (older apt ignores this)
  ];
  // as root apt drops to the _apt user, who cannot write into a private folder under root's home
  if (process.getuid?.() === 0) opts.push('APT::Sandbox::User=root');
  return opts.flatMap((o) => ['-o', o]);
}

/** apt's own error and warning lines, for a message */
function aptComplaints(output: string): string {
  const lines = output.split('\n').filter((l) => /^(E|W|Err):?/.test(l.trim()));
  return (lines.length > 0 ? lines : output.trim().split('\n').slice(-5)).join('\n');
}

/** the installed binary of an agent, if it is there and prints its version */
async function alreadyInstalled(agent: KnownAgent, dir: string): Promise<InstallResult | undefined> {
  const path = agentPath(agent.version, dir);
  if (!existsSync(path)) return undefined;
  const printed = await binaryVersion(path).then(
    (v) => v.printed,
    () => undefined,
  );
  return printed && sameRelease(printed, agent.version)
    ? { version: agent.version, path, printed, fetched: false }
    : undefined;
}

/** the Debian archives to fetch from; the tools and archives an install needs, or one line saying what is missing */
function archivesOrSay(agents: DebianAgent[], dir: string): DebianArchive[] {
  const missing = TOOLS.filter((t) => !onPath(t.command));
  if (missing.length > 0) {
    throw new InputError(
      `synconf agents install needs ${missing.map((t) => `${t.command} (Debian package ${t.pkg})`).join(' and ')}, not found on PATH. ` +
        `On Debian or Ubuntu: apt-get install -y ${missing.map((t) => t.pkg).join(' ')}. Without them, fetch by hand: ${manualHint(agents, dir)}`,
    );
  }
  const archives = debianArchives();
  if (archives.length === 0) {
    throw new InputError(
      `no Debian archive found in this machine's apt sources (${sourceFiles().join(', ') || 'none'}): need a "deb" entry with component main, ` +
        `e.g. /etc/apt/sources.list.d/debian.sources, or set SYNCONF_DEBIAN_SOURCES to such a file. Or fetch by hand: ${manualHint(agents, dir)}`,
    );
  }
  return archives;
}

/** apt-get update and download of the agents' packages into `work`/debs, with an apt of its own; the .deb files */
async function downloadDebs(
  agents: DebianAgent[],
  archives: DebianArchive[],
  work: string,
  dir: string,
  log: (line: string) => void,
): Promise<string[]> {
  const suites = [...new Set(agents.map((a) => a.suite))];
  const lines = archives.flatMap((a) =>
    suites.map((s) => `deb ${a.signedBy ? `[signed-by=${a.signedBy}] ` : ''}${a.uri} ${s} main`),
  );
  await writeFile(join(work, 'sources.list'), lines.join('\n') + '\n');
  for (const sub of ['lists/partial', 'cache/archives/partial', 'debs'])
    await mkdir(join(work, sub), { recursive: true });
  const apt = privateApt(work);
  // output in the C locale (its complaints are quoted to the user), both streams in one, a failure as a result
  const aptGet = (args: string[], timeout: number, cwd?: string) =>
    execa('apt-get', [...apt, ...args], { cwd, reject: false, all: true, timeout, env: { LC_ALL: 'C' } });
  const where = archives.map((a) => a.uri).join(', ');

  log(`apt-get update: ${suites.join(', ')} from ${where}`);
  const update = await aptGet(['update'], 300_000);
  if (update.failed) {
    throw new InputError(
      `apt-get update of ${suites.join(', ')} from ${where} failed (is the archive reachable?):\n${aptComplaints(update.all ?? '')}\n` +
        `Once the archive is reachable, run the command again; or fetch by hand: ${manualHint(agents, dir)}`,
    );
  }

  const pkgs = agents.map((a) => `syncthing=${a.debianVersion}`);
  log(`apt-get download ${pkgs.join(' ')}`);
  const download = await aptGet(['download', ...pkgs], 600_000, join(work, 'debs'));
  if (download.failed) {
    throw new InputError(
      `apt-get download ${pkgs.join(' ')} from ${where} failed (offline, or the archive no longer has that package version?):\n` +
        `${aptComplaints(download.all ?? '')}\napt-get update said:\n${aptComplaints(update.all ?? '') || 'nothing amiss'}`,
    );
  }
  return readdir(join(work, 'debs'));
}

/** unpacks the agent's .deb, checks what its binary says it is, and swaps it into the cache */
async function installDeb(
  agent: DebianAgent,
  debs: string[],
  work: string,
  dir: string,
): Promise<{ result: InstallResult; deb: string }> {
  const deb = debs.find(
    (f) => f.startsWith(`syncthing_${agent.debianVersion.replace(/^\d+:/, '')}_`) && f.endsWith('.deb'),
  );
  if (!deb)
    throw new InputError(`apt-get download left no syncthing_${agent.debianVersion}_*.deb in ${join(work, 'debs')}`);
  const unpacked = join(work, `x-${agent.version}`);
  const x = await execa('dpkg-deb', ['-x', join(work, 'debs', deb), unpacked], {
    reject: false,
    all: true,
    timeout: 120_000,
  });
  if (x.failed) throw new InputError(`dpkg-deb -x ${deb} failed: ${x.all}`);
  const binary = join(unpacked, 'usr', 'bin', 'syncthing');
  if (!existsSync(binary)) throw new InputError(`${deb} has no usr/bin/syncthing`);
  const { printed } = await binaryVersion(binary);
  if (!sameRelease(printed, agent.version))
    throw new InputError(`${deb}: usr/bin/syncthing --version prints ${printed}, not ${agent.version}`);

  await swapIntoCache(agent, binary, work, dir);
  return { result: { version: agent.version, path: agentPath(agent.version, dir), printed, fetched: true }, deb };
}

/**
 * Swaps the cached version folder by renames (work is inside dir: one file system), so a reader never sees half a
 * binary; the old folder goes into work, removed with it.
 */
async function swapIntoCache(
  agent: KnownAgent,
  binary: string,
  work: string,
  dir: string,
  extraFiles: Record<string, string> = {},
): Promise<void> {
  const staged = join(work, `v-${agent.version}`);
  await mkdir(staged);
  await rename(binary, join(staged, 'syncthing'));
  await chmod(join(staged, 'syncthing'), 0o755);
  for (const [name, text] of Object.entries(extraFiles)) await writeFile(join(staged, name), text);
  const target = join(dir, agent.version);
  await rename(target, join(work, `old-${agent.version}`)).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
  await rename(staged, target).catch(async (e: NodeJS.ErrnoException) => {
    // another install of the same version got there first: fine if what it put there runs
    if (!(await alreadyInstalled(agent, dir))) throw e;
  });
}

/** Installs the Debian agents: one apt update and download for all of them. Throws a SynconfError for the group. */
async function installDebianAgents(
  agents: DebianAgent[],
  dir: string,
  log: (line: string) => void,
): Promise<InstallResult[]> {
  const archives = archivesOrSay(agents, dir);
  makeOutputDir(dir, process.env.SYNCONF_AGENTS_DIR ? 'SYNCONF_AGENTS_DIR' : 'the agents cache');
  const work = await mkdtemp(join(dir, '.install-'));
  try {
    const debs = await downloadDebs(agents, archives, work, dir, log);
    const results: InstallResult[] = [];
    for (const agent of agents) {
      const { result, deb } = await installDeb(agent, debs, work, dir);
      results.push(result);
      log(`${agent.version}: ${deb} → ${result.path} (--version: ${result.printed})`);
    }
    return results;
  } finally {
    // the package lists (~55 MB for three suites) and the .debs are only needed during the install
    await rm(work, { recursive: true, force: true });
  }
}

/** Builds one agent from the Go module proxy, checks it and swaps it into the cache. Throws a GoBuildError. */
async function installGoAgent(agent: GoAgent, go: string, dir: string, opts: InstallOptions): Promise<InstallResult> {
  return installBuild(agent, dir, opts, {
    from: `commit ${agent.commit.slice(0, 12)}`,
    build: (work, log) => buildFromModuleProxy(agent.version, agent, { go, work, log }),
  });
}

/** how a build is made (in a fresh folder of the cache) and what goes beside its binary */
export interface BuildPlan {
  /** what it was built from, for the progress line: "commit 44cbfcad56db", "/src/syncthing" */
  from: string;
  build: (work: string, log: (line: string) => void) => Promise<BuiltBinary>;
  /** files written beside the binary in the version's folder (a candidate's record), by name */
  extraFiles?: Record<string, string>;
}

/** the binary built for agent: --version and (when the caller can start it) X-Syncthing-Version are agent.tag */
async function checkBuilt(agent: GoAgent, binary: string, opts: InstallOptions): Promise<string> {
  const { printed } = await binaryVersion(binary).catch((e: Error) => {
    throw new GoBuildError(`${agent.version}: the binary built does not run: ${e.message}`);
  });
  if (printed !== agent.tag)
    throw new GoBuildError(`${agent.version}: the binary built prints --version ${printed}, not ${agent.tag}`);
  if (!opts.servedVersion) return `--version: ${printed}`;
  const header = await opts.servedVersion(binary).catch((e: unknown) => {
    if (!(e instanceof SynconfError)) throw e;
    throw new GoBuildError(`${agent.version}: the binary built did not start: ${e.message.split('\n')[0]}`);
  });
  if (header !== agent.tag)
    throw new GoBuildError(
      `${agent.version}: the binary built answers X-Syncthing-Version ${header}, not ${agent.tag}`,
    );
  return `--version: ${printed}, X-Syncthing-Version: ${header}`;
}

/** Builds an agent as plan says, checks it and swaps it into the cache. Throws a GoBuildError. */
export async function installBuild(
  agent: GoAgent,
  dir: string,
  opts: InstallOptions,
  plan: BuildPlan,
): Promise<InstallResult> {
  const log = opts.log ?? (() => {});
  makeOutputDir(dir, process.env.SYNCONF_AGENTS_DIR ? 'SYNCONF_AGENTS_DIR' : 'the agents cache');
  const work = await mkdtemp(join(dir, '.build-'));
  try {
    const built = await plan.build(work, log);
    const t0 = performance.now();
    log(
      `${agent.version}: check --version${opts.servedVersion ? ' and the X-Syncthing-Version header of a brief start on loopback' : ''}`,
    );
    const checked = await checkBuilt(agent, built.path, opts);
    await swapIntoCache(agent, built.path, work, dir, plan.extraFiles);
    const path = agentPath(agent.version, dir);
    const checkS = (performance.now() - t0) / 1000;
    log(
      `${agent.version}: built from ${plan.from} → ${path} (${checked}; ` +
        `download ${built.downloadS.toFixed(0)} s, compile ${built.compileS.toFixed(0)} s, check ${checkS.toFixed(1)} s)`,
    );
    return { version: agent.version, path, printed: agent.tag, fetched: true };
  } finally {
    // the module copy (~15 MB); Go's module and build caches stay where Go keeps them
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * runs work(item) for every item, at most `jobs` at a time, in the order given. A work that throws stops the pool
 * taking more, but the ones under way are waited for (their go commands and build folders ended and removed, not
 * left behind by an exit 3); then the first throw is thrown.
 */
async function pooled<T>(items: readonly T[], jobs: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  let fault: { error: unknown } | undefined;
  const worker = async () => {
    while (!fault && next < items.length) {
      const i = next++;
      try {
        await work(items[i], i);
      } catch (error) {
        fault ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
  if (fault) throw fault.error;
}

/**
 * Builds the Go agents, at most opts.jobs at a time (each build uses every core while it compiles; two overlap one's
 * download with another's compile); a failure does not stop the others. One progress line per release as it ends.
 */
async function installGoAgents(agents: GoAgent[], dir: string, opts: InstallOptions): Promise<InstallOutcome> {
  const go = findGo();
  const versions = agents.map((a) => a.version);
  if (!go) {
    const error = new GoBuildError(
      `${versions.join(', ')}: built from the Go module proxy, which needs Go (1.25 or later): ${goSearched()} ` +
        `(install it from https://go.dev/dl/, or put its bin folder on PATH)`,
    );
    return { installed: [], failed: [{ versions, error }] };
  }
  const log = opts.log ?? (() => {});
  const outcome: InstallOutcome = { installed: [], failed: [] };
  let ended = 0;
  await pooled(agents, opts.jobs ?? 1, async (agent) => {
    try {
      outcome.installed.push(await installGoAgent(agent, go, dir, opts));
      if (agents.length > 1) log(`${agent.version}: installed (${++ended} of ${agents.length} builds ended)`);
    } catch (err) {
      if (!(err instanceof SynconfError)) throw err;
      outcome.failed.push({ versions: [agent.version], error: err });
      if (agents.length > 1) log(`${agent.version}: failed (${++ended} of ${agents.length} builds ended)`);
    }
  });
  outcome.failed.sort((a, b) => semver.compare(a.versions[0], b.versions[0]));
  return outcome;
}

/**
 * Installs the named known versions (the default set when none is named); the ones already installed are kept
 * unless force. Debian's packages first (one apt run), then the builds. What could not be installed is in `failed`.
 */
export async function installAgents(versions: string[], opts: InstallOptions = {}): Promise<InstallOutcome> {
  const log = opts.log ?? (() => {});
  const { agents: selected, refused, skipped } = selectAgents(versions, opts.all);
  for (const s of skipped) log(`${s.version}: skipped: ${s.why}`);
  const dir = agentsDir();
  const done: InstallResult[] = [];
  const todo: KnownAgent[] = [];
  for (const agent of selected) {
    const found = opts.force ? undefined : await alreadyInstalled(agent, dir);
    if (found) {
      done.push(found);
      log(
        `${agent.version}: already installed (${found.printed}); --force ${agent.from === 'go' ? 'builds' : 'fetches'} it again`,
      );
    } else todo.push(agent);
  }
  const failed: InstallFailure[] = [...refused];
  const debian = todo.filter((a): a is DebianAgent => a.from === 'debian');
  if (debian.length > 0) {
    try {
      done.push(...(await installDebianAgents(debian, dir, log)));
    } catch (err) {
      if (!(err instanceof SynconfError)) throw err;
      failed.push({ versions: debian.map((a) => a.version), error: err });
    }
  }
  const built = todo.filter((a): a is GoAgent => a.from === 'go');
  if (built.length > 0) {
    const outcome = await installGoAgents(built, dir, opts);
    done.push(...outcome.installed);
    failed.push(...outcome.failed);
  }
  const installed = selected.flatMap((a) => done.filter((r) => r.version === a.version));
  return { installed, failed };
}
