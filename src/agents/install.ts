// `synconf agents install`: fetch the Debian package of each version with a private apt configuration (its own
// sources list, lists and cache folders; the machine's package state is never touched), unpack it with dpkg-deb,
// check the binary's --version and move it into the cache.
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { InputError, UsageError } from '../errors.js';
import { makeOutputDir } from '../output-dir.js';
import { agentPath, agentsDir, versionHint } from './cache.js';
import { debianArchives, sourceFiles, type DebianArchive } from './debian-sources.js';
import { KNOWN_AGENTS, KNOWN_VERSIONS, knownAgent, type KnownAgent } from './known.js';
import { binaryVersion, sameRelease } from './probe.js';

export interface InstallResult {
  version: string;
  path: string;
  /** the version the binary prints (--version) */
  printed: string;
  /** false when it was in the cache already (and ran) and was kept */
  fetched: boolean;
}

export interface InstallOptions {
  /** progress lines (the CLI prints them on stderr) */
  log?: (line: string) => void;
  /** fetch again even what is installed and runs */
  force?: boolean;
}

const TOOLS = [
  { command: 'apt-get', pkg: 'apt' },
  { command: 'dpkg-deb', pkg: 'dpkg' },
];

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}

function manualHint(agents: readonly KnownAgent[], dir: string): string {
  return agents
    .map(
      (a) =>
        `syncthing_${a.debianVersion}_<arch>.deb (Debian ${a.suite}): put its usr/bin/syncthing at ${agentPath(a.version, dir)}`,
    )
    .join('; ');
}

/** The known agents named by versions (all of them when none is named); an unknown version is a usage error. */
export function selectAgents(versions: string[]): KnownAgent[] {
  if (versions.length === 0) return [...KNOWN_AGENTS];
  return [...new Set(versions)].map((v) => {
    const agent = knownAgent(v.replace(/^v/, ''));
    if (!agent)
      throw new UsageError(
        `synconf does not know how to fetch Syncthing ${v}${versionHint(v, KNOWN_VERSIONS)}; known versions: ${KNOWN_VERSIONS.join(', ')}`,
      );
    return agent;
  });
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
function archivesOrSay(agents: KnownAgent[], dir: string): DebianArchive[] {
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
  agents: KnownAgent[],
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
  agent: KnownAgent,
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

  // swap the cached version folder by renames (work is inside dir: one file system), so a reader never sees
  // half a binary; the old folder goes into work, removed with it
  const staged = join(work, `v-${agent.version}`);
  await mkdir(staged);
  await rename(binary, join(staged, 'syncthing'));
  await chmod(join(staged, 'syncthing'), 0o755);
  const target = join(dir, agent.version);
  await rename(target, join(work, `old-${agent.version}`)).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
  await rename(staged, target).catch(async (e: NodeJS.ErrnoException) => {
    // another install of the same version got there first: fine if what it put there runs
    if (!(await alreadyInstalled(agent, dir))) throw e;
  });
  return { result: { version: agent.version, path: agentPath(agent.version, dir), printed, fetched: true }, deb };
}

/** Installs the named known versions (all when none is named); the ones already installed are kept unless force. */
export async function installAgents(versions: string[], opts: InstallOptions = {}): Promise<InstallResult[]> {
  const log = opts.log ?? (() => {});
  const selected = selectAgents(versions);
  const dir = agentsDir();
  const kept: InstallResult[] = [];
  const agents: KnownAgent[] = [];
  for (const agent of selected) {
    const found = opts.force ? undefined : await alreadyInstalled(agent, dir);
    if (found) {
      kept.push(found);
      log(`${agent.version}: already installed (${found.printed}); --force fetches it again`);
    } else agents.push(agent);
  }
  const inOrder = (fetched: InstallResult[]) =>
    selected.map((a) => [...kept, ...fetched].find((r) => r.version === a.version)!);
  if (agents.length === 0) return inOrder([]);

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
    return inOrder(results);
  } finally {
    // the package lists (~55 MB for three suites) and the .debs are only needed during the install
    await rm(work, { recursive: true, force: true });
  }
}
