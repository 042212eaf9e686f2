// The replay target: the agent is a folder of cassettes. Its run variables and capabilities are
// the recorded ones, time is virtual, and file actions do nothing (their effect is recorded).
import type { Target } from './run.js';
import { ReplayTransport } from '../transport/replay.js';
import { readCassette, RUN_CASSETTE, checkRecordingsFolder } from '../transport/cassette.js';
import { virtualClock } from './clock.js';
import { API_KEY } from '../transport/redact.js';
import type { Capability } from './context.js';

export function replayTarget(dir: string): Target {
  checkRecordingsFolder(dir, true);
  const run = readCassette(dir, RUN_CASSETTE)!;
  const transport = new ReplayTransport(dir);
  const meta = run.log._synconf;
  const capabilities = {
    peer: 'not recorded',
    files: 'not recorded',
    restart: 'not recorded',
    shutdown: 'not recorded',
    ...(meta.capabilities ?? {}),
  } as Record<Capability, true | string>;
  return {
    mode: 'replay',
    description: dir,
    transport,
    clock: virtualClock(),
    actions: {
      makeTempDir: async (scenario) => transport.tmpOf(scenario),
      apply: async () => {},
      removeTempDir: async () => {},
    },
    apiKeys: { agent: API_KEY, peer: API_KEY },
    capabilities,
    vars: (meta.vars ?? {}) as Record<string, unknown>,
    close: () => transport.close(),
  };
}
