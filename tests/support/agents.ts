// The real agents the tests run: every version synconf knows, from the cache `synconf agents install` fills.
// A missing one fails the test that needs it (never a silent skip), saying how to install it.
import { agentsDir, installedAgents, KNOWN_VERSIONS } from '../../src/agents/index.js';

export const AGENT_VERSIONS = KNOWN_VERSIONS;

/** the 2.x the lab's third command-line generation is tested on (`synconf agents install 2.1.2` builds it) */
export const GENERATION_2X = '2.1.2';

export function agentBinary(version: string): string {
  const found = installedAgents().find((a) => a.version === version);
  if (!found) {
    throw new Error(
      `Syncthing ${version} is not installed in ${agentsDir()}: \`npm run setup\` installs every known agent ` +
        `(or: node dist/bin/synconf.js agents install ${version})`,
    );
  }
  return found.path;
}
