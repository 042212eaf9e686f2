// What a stand-in agent (serve, proxy --recordings) is given: its API key, checked or generated, and the address it
// listens on, said when other machines can reach it.
import { randomBytes } from 'node:crypto';
import { UsageError } from '../errors.js';
import { API_KEY } from '../transport/redact.js';
import { isLocalhost } from './agent-gate.js';

/** the shortest --api-key serve takes: redaction replaces the key wherever it stands */
const MIN_KEY_LENGTH = 8;

/** a key shaped like the agent's own (32 characters), in hex: a base64url key may start with "-", which a user
 * could not then pass as `--api-key KEY` (a CI run failed on it) */
export const generateApiKey = () => randomBytes(16).toString('hex');

/** a stand-in agent's --api-key (serve, proxy --recordings), refused in one line when it cannot be one */
export function checkStandInKey(apiKey: string | undefined): void {
  if (apiKey === undefined) return;
  if (!/^\S+$/.test(apiKey))
    throw new UsageError(`--api-key "${apiKey}": a key is one word, not empty (leave it out to get a generated one)`);
  // the key is redacted from every answer and log: a short one would be found inside other text ("rest" in /rest/)
  if (apiKey.length < MIN_KEY_LENGTH)
    throw new UsageError(
      `--api-key "${apiKey}": too short to redact safely (at least ${MIN_KEY_LENGTH} characters; leave it out to get a generated one)`,
    );
  if (apiKey === API_KEY)
    throw new UsageError(`--api-key ${API_KEY}: that is the recordings' placeholder for a key, not a key`);
}

/** said once a server listens on an address other machines can reach (--host 0.0.0.0, a LAN address): the default,
 * 127.0.0.1, reaches only this machine, and a stand-in or a proxy answers whoever asks with its key */
export function beyondLoopbackLine(command: string, host: string): string | undefined {
  if (isLocalhost(host.includes(':') ? `[${host}]` : host)) return undefined;
  return `${command}: --host ${host} listens beyond loopback: any machine that reaches this one can ask it`;
}
