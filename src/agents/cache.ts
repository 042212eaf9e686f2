// The agents cache: one folder per version holding the unpacked binary, <agentsDir>/<version>/syncthing.
// It lives in the user's cache directory (never in the repository), or in $SYNCONF_AGENTS_DIR.
import { accessSync, constants, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import semver from 'semver';
import { InputError } from '../errors.js';
import { didYouMean } from '../did-you-mean.js';
import { DEFAULT_VERSIONS, KNOWN_VERSIONS, knownAgent } from './known.js';

export interface InstalledAgent {
  version: string;
  /** absolute path of the binary */
  path: string;
}

/** $SYNCONF_AGENTS_DIR, else ($XDG_CACHE_HOME or ~/.cache)/synconf/agents. */
export function agentsDir(): string {
  const explicit = process.env.SYNCONF_AGENTS_DIR;
  if (explicit) return resolve(explicit);
  const xdg = process.env.XDG_CACHE_HOME;
  const cacheHome = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache');
  return join(cacheHome, 'synconf', 'agents');
}

/** where the binary of a version is (or would be) in the cache */
export function agentPath(version: string, dir = agentsDir()): string {
  return join(dir, version, 'syncthing');
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Every version folder of the cache with an executable binary, oldest first. Reads the file system only. */
export function installedAgents(dir = agentsDir()): InstalledAgent[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries
    .filter((name) => semver.valid(name) !== null && isExecutable(agentPath(name, dir)))
    .sort(semver.compare)
    .map((version) => ({ version, path: agentPath(version, dir) }));
}

/** a VERSION spec (1.12.1, or v1.12.1 as Syncthing prints it), as opposed to a path */
export function isVersionSpec(spec: string): boolean {
  return semver.valid(spec) !== null && !spec.includes('/');
}

/** a version written short (1, 1.19, v1.29): neither a version synconf can look up nor, likely, a command */
export function isPartialVersion(spec: string): boolean {
  return /^v?\d+(\.\d+)?$/.test(spec);
}

/** the versions a user can mean: those synconf knows how to fetch and any other installed, oldest first */
export function knownOrInstalledVersions(dir = agentsDir()): string[] {
  return [...new Set([...KNOWN_VERSIONS, ...installedAgents(dir).map((a) => a.version)])].sort(semver.compare);
}

/** " (did you mean 1.19.2?)" for a version that is not there (1.19, 1.19.3, v1.2.1), or "" when none is close */
export function versionHint(given: string, known: Iterable<string> = knownOrInstalledVersions()): string {
  return didYouMean(given.replace(/^v/, ''), known, (v) => v);
}

const INSTALL_HINT = (v: string) =>
  knownAgent(v)?.from === 'go'
    ? `run \`synconf agents install ${v}\` (it builds ${v} from the Go module proxy: needs Go, takes minutes)`
    : `run \`synconf agents install ${v}\` (\`npm run setup\` installs every version of the default set: ${DEFAULT_VERSIONS.join(', ')})`;

/**
 * The binary for a --syncthing spec: a VERSION (looked up in the cache) or a PATH (a file, or a command name on PATH).
 * Throws an InputError that says how to get it.
 */
export function resolveSyncthing(given: string): string {
  const spec = isVersionSpec(given) ? semver.valid(given)! : given;
  if (isVersionSpec(spec)) {
    const path = agentPath(spec);
    if (isExecutable(path)) return path;
    if (KNOWN_VERSIONS.includes(spec))
      throw new InputError(`Syncthing ${spec} is not installed in ${agentsDir()}: ${INSTALL_HINT(spec)}`);
    throw new InputError(
      `Syncthing ${spec} is not installed in ${agentsDir()}${versionHint(spec)}, and synconf knows how to fetch only ${KNOWN_VERSIONS.join(', ')}: ` +
        `give the PATH of a ${spec} binary instead, or put it at ${path}`,
    );
  }
  if (spec.includes('/')) {
    if (isExecutable(spec)) return resolve(spec);
    throw new InputError(`syncthing binary ${spec} does not exist or is not executable`);
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, spec))) return join(dir, spec);
  }
  if (isPartialVersion(spec))
    throw new InputError(
      `Syncthing "${spec}" is not a full version${versionHint(spec) || ` (like ${KNOWN_VERSIONS[0]})`}`,
    );
  throw new InputError(
    `"${spec}" is neither a version (like ${KNOWN_VERSIONS[0]}) nor an executable file or command on PATH${versionHint(spec)}`,
  );
}
