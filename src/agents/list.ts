// `synconf agents list`: every known version (installed or not) and any other version found in the cache.
import { agentPath, agentsDir, installedAgents } from './cache.js';
import semver from 'semver';
import { KNOWN_AGENTS, knownAgent, SYNCTHING_MODULE } from './known.js';
import { findRelease, releaseTable, unobtainable, type Release } from './releases.js';
import { binaryVersion, sameRelease } from './probe.js';

export interface AgentListing {
  version: string;
  /** the binary's path in the cache (where it would be, when missing) */
  path: string;
  installed: boolean;
  /** what the binary's --version prints; an error text when it does not run */
  printed?: string;
  /** the binary runs but reports another release than the version it is cached as (put there by hand, or damaged) */
  otherRelease?: boolean;
  /** the Debian package synconf fetches it from (absent for a version put into the cache by hand) */
  debian?: { suite: string; version: string };
  /** the release synconf builds it from, through the Go module proxy */
  go?: { module: string; tag: string; commit: string; moduleVersion: string };
  /** in the default set (`synconf agents install` without versions, `npm run setup`) */
  inSetup?: boolean;
  /**
   * with --all, for a release of the release table: installed, obtainable (the proxy serves it), unknown (not
   * measured release by release: an install tries it), not-served or not-buildable
   */
  state?: ReleaseState;
  /** why, for a release that cannot be had (the measurement, with its date) */
  why?: string;
}

export type ReleaseState = 'installed' | 'obtainable' | 'unknown' | 'not-served' | 'not-buildable';

/** the state of a release of the table, and why when it cannot be had */
function releaseState(r: Release, installed: boolean): { state: ReleaseState; why?: string } {
  if (installed) return { state: 'installed' };
  if (KNOWN_AGENTS.some((a) => a.version === r.version)) return { state: 'obtainable' };
  const why = unobtainable(r);
  if (why) return { state: r.proxy.status === 'not-served' ? 'not-served' : 'not-buildable', why };
  return {
    state: r.proxy.status === 'served' ? 'obtainable' : 'unknown',
    why: r.proxy.status === 'unknown' ? r.proxy.note : undefined,
  };
}

/** the known versions and the installed ones; with all, every release of the release table too (with its state) */
export async function listAgents(dir = agentsDir(), all = false): Promise<AgentListing[]> {
  const installed = installedAgents(dir);
  const table = all ? releaseTable().releases.map((r) => r.version) : [];
  const versions = [
    ...new Set([...KNOWN_AGENTS.map((a) => a.version), ...table, ...installed.map((a) => a.version)]),
  ].sort(semver.compare);
  return Promise.all(
    versions.map(async (version) => {
      const known = knownAgent(version);
      const release = all ? findRelease(version) : undefined;
      const isInstalled = installed.some((a) => a.version === version);
      const printed = isInstalled
        ? await binaryVersion(agentPath(version, dir)).then(
            (v) => v.printed,
            (e: Error) => `does not run: ${e.message}`,
          )
        : undefined;
      return {
        version,
        path: agentPath(version, dir),
        installed: isInstalled,
        printed,
        ...(printed?.startsWith('v') && !sameRelease(printed, version) ? { otherRelease: true } : {}),
        debian: known?.from === 'debian' ? { suite: known.suite, version: known.debianVersion } : undefined,
        go:
          known?.from === 'go'
            ? { module: SYNCTHING_MODULE, tag: known.tag, commit: known.commit, moduleVersion: known.moduleVersion }
            : undefined,
        inSetup: known?.inSetup,
        ...(release ? releaseState(release, isInstalled) : {}),
      };
    }),
  );
}
