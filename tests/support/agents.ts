// The real agents the tests run: the default set of the versions synconf knows, from the cache `synconf agents
// install` fills. A missing one fails the test that needs it (never a silent skip), saying how to install it.
import { agentsDir, DEFAULT_VERSIONS, installedAgents, knownAgent } from '../../src/agents/index.js';

export const AGENT_VERSIONS = DEFAULT_VERSIONS;

/** the 2.x the lab's third command-line generation is tested on (`synconf agents install 2.1.2` builds it) */
export const GENERATION_2X = '2.1.2';

/**
 * The versions the lab is tested on beyond the default set: 1.30.0, whose quic-go panics under Go 1.26 at the first
 * QUIC handshake (the lab must never make one), and the 2.x of the third command-line generation.
 */
export const LAB_EXTRA_VERSIONS = ['1.30.0', GENERATION_2X];

export function agentBinary(version: string): string {
  const found = installedAgents().find((a) => a.version === version);
  if (!found) {
    throw new Error(
      knownAgent(version)?.inSetup === false
        ? `Syncthing ${version} is not installed in ${agentsDir()}: node dist/bin/synconf.js agents install ${version} ` +
            `builds it from the Go module proxy (needs Go; a few minutes)`
        : `Syncthing ${version} is not installed in ${agentsDir()}: \`npm run setup\` installs every known agent ` +
            `(or: node dist/bin/synconf.js agents install ${version})`,
    );
  }
  return found.path;
}
