// The agents API other modules use: which versions synconf knows, where they are cached, which are installed,
// and which binary a --syncthing VERSION|PATH names. Installing is in install.ts (imported where needed).
export { DEFAULT_VERSIONS, KNOWN_AGENTS, KNOWN_VERSIONS, knownAgent, type KnownAgent } from './known.js';
export {
  agentsDir,
  agentPath,
  installedAgents,
  isPartialVersion,
  isVersionSpec,
  knownOrInstalledVersions,
  resolveSyncthing,
  versionHint,
  type InstalledAgent,
} from './cache.js';
