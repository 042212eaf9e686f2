// The real agents the tests run: every version synconf knows, from the cache `synconf agents install` fills.
// A missing one fails the test that needs it (never a silent skip), saying how to install it.
import { agentsDir, installedAgents, KNOWN_VERSIONS } from '../../src/agents/index.js';

export const AGENT_VERSIONS = KNOWN_VERSIONS;

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
