// The columns of a matrix: which agents to run (live: binaries; replay: recordings folders), each with its
// version. Live agents come from `--syncthing VERSION|PATH`, by default every installed agent; recordings from
// recordings/syncthing-*/ (any version that lands there is found), or folders given by name.
import { existsSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { RECORDINGS_DIR } from '../paths.js';
import { InputError, UsageError } from '../errors.js';
import { didYouMean } from '../did-you-mean.js';
import { isVersion, releaseOf, versionLabel } from '../schema/version.js';
import { checkRecordingsFolder, readCassette, RUN_CASSETTE } from '../transport/cassette.js';
import { versionOrder } from './classify.js';

export interface MatrixAgent {
  /** the column's folder name under the report dir: the plain release (1.19.2) */
  name: string;
  /** the plain release, null when unknown */
  version: string | null;
  /** live: the syncthing binary */
  binary?: string;
  /** replay: the recordings folder */
  recordings?: string;
}

/** one name per agent: the version, numbered when two share it */
function named(agents: Omit<MatrixAgent, 'name'>[]): MatrixAgent[] {
  const base = agents.map((a) => a.version ?? 'unknown');
  return agents.map((a, i) => ({
    ...a,
    name:
      base.filter((b) => b === base[i]).length > 1
        ? `${base[i]}-${base.slice(0, i).filter((b) => b === base[i]).length + 1}`
        : base[i],
  }));
}

/** oldest first */
function sorted(agents: MatrixAgent[]): MatrixAgent[] {
  return versionOrder(agents.map((a) => a.version)).map((i) => agents[i]);
}

export type ResolveBinary = (spec: string) => Promise<{ version: string; path: string }>;
/** the agents a matrix runs by default, and the installed versions left out of it (not in the default set) */
export type InstalledAgents = () => Promise<{ run: { version: string; path: string }[]; leftOut: string[] }>;

/** a PATH given as --syncthing: an executable file; anything else that looks like a version is looked up */
export async function liveAgents(
  specs: string[],
  lookup: { resolve: ResolveBinary; installed: InstalledAgents },
): Promise<{ agents: MatrixAgent[]; leftOut: string[] }> {
  const { run: found, leftOut } = specs.length
    ? { run: await Promise.all(specs.map((s) => lookup.resolve(s))), leftOut: [] }
    : await lookup.installed();
  if (found.length === 0)
    throw new UsageError(
      'no agent to run the matrix against: none is installed (synconf agents install) and no --syncthing was given',
    );
  return { agents: sorted(named(found.map((a) => ({ version: versionLabel(a.version), binary: a.path })))), leftOut };
}

/** the version a recordings folder was recorded from: its _run cassette, else the folder name (syncthing-1.19.2) */
function recordedVersion(dir: string): string | null {
  const recorded = readCassette(dir, RUN_CASSETTE)?.log._synconf.agent.version;
  if (recorded && isVersion(recorded)) return releaseOf(recorded);
  const fromName = /(\d+\.\d+\.\d+)/.exec(basename(dir));
  return fromName ? fromName[1] : null;
}

/** recordings folders: the ones given, else every recordings/syncthing-*\/ with a recorded run; `versions` filters */
export function recordedAgents(dirs: string[], versions: string[], root = RECORDINGS_DIR): MatrixAgent[] {
  let folders = dirs.map((d) => resolve(d));
  for (const d of folders) {
    checkRecordingsFolder(d, true);
  }
  if (!folders.length) {
    folders = existsSync(root)
      ? readdirSync(root)
          .filter((f) => f.startsWith('syncthing-'))
          .map((f) => join(root, f))
          .filter((d) => existsSync(join(d, `${RUN_CASSETTE}.har`)))
      : [];
    if (!folders.length)
      throw new InputError(`no recordings in ${root} (expected folders syncthing-<version>/ with ${RUN_CASSETTE}.har)`);
  }
  let agents = folders.map((d) => ({ version: recordedVersion(d), recordings: d }));
  if (versions.length) {
    const recorded = agents.flatMap((a) => (a.version ? [a.version] : []));
    const wanted = versions.map((v) => {
      if (!isVersion(v))
        throw new UsageError(
          `--syncthing ${v}: with --replay, name a version of the recordings (found: ${recorded.join(', ')})`,
        );
      return releaseOf(v);
    });
    // named as given (1.19, not the 1.19.0 it reads as), with the closest version recorded
    const missing = versions.filter((_, i) => !recorded.includes(wanted[i]));
    if (missing.length)
      throw new InputError(
        `no recordings of ${missing.map((v) => `${v}${didYouMean(v.replace(/^v/, ''), recorded, (r) => r)}`).join(', ')} (found: ${agents.map((a) => a.version ?? basename(a.recordings)).join(', ')})`,
      );
    agents = agents.filter((a) => a.version && wanted.includes(a.version));
  }
  return sorted(named(agents));
}

/**
 * How `--syncthing` is resolved (src/agents/): a VERSION names an installed agent, a PATH a binary whose --version
 * tells its version. Without --syncthing: the installed versions of the default set, or else, nothing being
 * installed, the lab's own binary (syncthing on PATH). A release or candidate installed besides them runs only when
 * named: a gate's columns are the same on every machine, whatever a cache holds (one `install --all` would make a
 * default matrix of 53 versions); the command names the versions left out.
 */
export const defaultLookup: { resolve: ResolveBinary; installed: InstalledAgents } = {
  async resolve(spec) {
    const { resolveSyncthing, isVersionSpec } = await import('../agents/index.js');
    const path = resolveSyncthing(spec);
    return { version: isVersionSpec(spec) ? spec : await versionOf(path), path };
  },
  async installed() {
    const { installedAgents, DEFAULT_VERSIONS } = await import('../agents/index.js');
    const installed = installedAgents();
    const run = installed.filter((a) => DEFAULT_VERSIONS.includes(a.version));
    const leftOut = installed.filter((a) => !run.includes(a)).map((a) => a.version);
    if (run.length) return { run, leftOut };
    if (leftOut.length)
      throw new UsageError(
        `none of the default set (${DEFAULT_VERSIONS.join(', ')}) is installed, and the versions installed besides it run only when named: --syncthing ${leftOut.join(',')}`,
      );
    const { resolveBinary } = await import('../lab/lab.js');
    const path = await resolveBinary();
    return { run: [{ version: await versionOf(path), path }], leftOut: [] };
  },
};

/** the version a binary prints with --version, as a plain release */
async function versionOf(binary: string): Promise<string> {
  const { binaryVersion } = await import('../agents/probe.js');
  return versionLabel((await binaryVersion(binary)).printed);
}

export interface AgentChoice {
  agents: MatrixAgent[];
  offline: boolean;
  /** installed versions outside the default set, not run because none was named (live, without --syncthing) */
  leftOut: string[];
}

/**
 * The agents of a matrix from the command's options. Offline with --replay or --recordings. Live otherwise; with
 * nothing named and no agent to run at all, a usage error that says how to get one: a matrix never replays old
 * evidence unasked.
 */
export async function chooseAgents(
  opts: { syncthing: string[]; replay: boolean; recordings: string[] },
  lookup = defaultLookup,
): Promise<AgentChoice> {
  if (opts.replay || opts.recordings.length)
    return { agents: recordedAgents(opts.recordings, opts.syncthing), offline: true, leftOut: [] };
  try {
    return { ...(await liveAgents(opts.syncthing, lookup)), offline: false };
  } catch (e) {
    if (!(e instanceof InputError || e instanceof UsageError) || opts.syncthing.length) throw e;
    throw new UsageError(
      `no agent to run the matrix against (${e.message.replace(/^no agent to run the matrix against: /, '')}): install them with \`synconf agents install\` or name binaries with --syncthing VERSION|PATH; to compare recordings offline use --replay`,
    );
  }
}
