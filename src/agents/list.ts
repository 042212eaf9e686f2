// `synconf agents list`: every known version (installed or not) and any other version found in the cache.
import { agentPath, agentsDir, installedAgents } from './cache.js';
import { KNOWN_AGENTS, SYNCTHING_MODULE } from './known.js';
import { binaryVersion } from './probe.js';

export interface AgentListing {
  version: string;
  /** the binary's path in the cache (where it would be, when missing) */
  path: string;
  installed: boolean;
  /** what the binary's --version prints; an error text when it does not run */
  printed?: string;
  /** the Debian package synconf fetches it from (absent for a version put into the cache by hand) */
  debian?: { suite: string; version: string };
  /** the release synconf builds it from, through the Go module proxy */
  go?: { module: string; tag: string; commit: string; moduleVersion: string };
  /** in the default set (`synconf agents install` without versions, `npm run setup`) */
  inSetup?: boolean;
}

export async function listAgents(dir = agentsDir()): Promise<AgentListing[]> {
  const installed = installedAgents(dir);
  const versions = [...new Set([...KNOWN_AGENTS.map((a) => a.version), ...installed.map((a) => a.version)])];
  return Promise.all(
    versions.map(async (version) => {
      const known = KNOWN_AGENTS.find((a) => a.version === version);
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
        debian: known?.from === 'debian' ? { suite: known.suite, version: known.debianVersion } : undefined,
        go:
          known?.from === 'go'
            ? { module: SYNCTHING_MODULE, tag: known.tag, commit: known.commit, moduleVersion: known.moduleVersion }
            : undefined,
        inSetup: known?.inSetup,
      };
    }),
  );
}
