// The `synconf serve` process: start the server, say where it is and which key to use, run until
// SIGTERM, SIGINT or SIGHUP, then close every connection, write the request log and tell what was missed.
import { randomBytes } from 'node:crypto';
import { startServer } from '../serve/server.js';
import { parseFaultOption } from '../serve/faults.js';
import { loadRecordings, newestRecordings, type Recordings } from '../serve/recordings.js';
import { isLocalhost } from '../serve/agent-gate.js';
import { EXIT, UsageError } from '../errors.js';
import { API_KEY } from '../transport/redact.js';
import { RECORDINGS_DIR } from '../paths.js';
import { onInterrupt, serverInterruptCode } from './interrupt.js';
import { lockRequestLog } from './report-lock.js';
import { makeOutputDir } from '../output-dir.js';
import { dirname } from 'node:path';
import { printableLine } from '../printable.js';

export interface ServeRun {
  dir: string;
  host: string;
  port: number;
  apiKey?: string;
  log: string;
  strict: boolean;
  stateful?: boolean;
  /** --faults: the control endpoint */
  faults?: boolean;
  /** --fault MODE[:name=value,…], as given */
  fault?: string[];
  faultSeed?: number;
}

/** `synconf serve [DIR]`: the options as the command line gives them */
export interface ServeOptions extends Omit<ServeRun, 'dir' | 'strict'> {
  dir?: string;
  apiKey?: string;
  strict?: boolean;
}

/** `synconf serve [DIR]`: DIR (default the newest bundled recordings) until Ctrl-C */
export async function serve(opts: ServeOptions): Promise<void> {
  process.exitCode = await runServe({
    dir: opts.dir ?? newestRecordings(RECORDINGS_DIR),
    host: opts.host,
    port: opts.port,
    apiKey: opts.apiKey,
    log: opts.log,
    strict: opts.strict ?? false,
    stateful: opts.stateful ?? false,
    faults: opts.faults ?? false,
    fault: opts.fault ?? [],
    faultSeed: opts.faultSeed ?? 1,
  });
}

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

export async function runServe(opts: ServeRun): Promise<number> {
  if (opts.port > 65535) throw new UsageError(`--port ${opts.port}: a TCP port is at most 65535`);
  checkStandInKey(opts.apiKey);
  const recordings = loadRecordings(opts.dir); // a bad folder is said before the log's folder is made
  // one serve a log: a second on the same --log would write its log over the first's (both of them green)
  makeOutputDir(dirname(opts.log), 'the folder of --log');
  const release = lockRequestLog(opts.log, '--log');
  try {
    return await serving(opts, recordings);
  } finally {
    release();
  }
}

/** the server until a signal; the exit code */
async function serving(opts: ServeRun, recordings: Recordings): Promise<number> {
  const server = await startServer({
    dir: opts.dir,
    recordings,
    host: opts.host,
    port: opts.port,
    apiKey: opts.apiKey ?? generateApiKey(),
    logFile: opts.log,
    stateful: opts.stateful,
    faultControl: opts.faults,
    faults: (opts.fault ?? []).map(parseFaultOption),
    faultSeed: opts.faultSeed,
    onLine: (line) => console.error(printableLine(line)), // the recordings' and the client's text
  });
  const { hostname, port } = new URL(server.url);
  const beyond = beyondLoopbackLine('synconf serve', opts.host);
  if (beyond) console.error(beyond);
  console.log(
    `synconf serve: Syncthing ${server.agentVersion ?? '(version not recorded)'} as recorded in ${opts.dir} (${server.recorded} exchanges)`,
  );
  console.log(`URL      ${server.url}`);
  console.log(`API key  ${server.apiKey}`);
  console.log(`Request log: ${opts.log} (HAR)`);
  if (opts.faults) console.log(`Faults: ${server.url}/__synconf/faults (GET lists, POST adds, DELETE clears)`);
  if (opts.stateful) console.log('Stateful: writes change later reads; the log says which answers came from the state');
  console.log(`e.g. syncthing cli --gui-address=${hostname}:${port} --gui-apikey=${server.apiKey} show version`);
  console.log('Stop with Ctrl-C.');

  const interrupt = onInterrupt();
  const signal = await interrupt.stopped;
  await server.close();
  interrupt.off();
  // SIGTERM is the orderly stop (0, or 1); Ctrl-C (130) and SIGHUP (129) interrupt it, as in every command
  const ended = serverInterruptCode(signal);
  const { served, fromState, missed } = server.counts;
  const origin = opts.stateful ? ` (${fromState} from the state, ${served - fromState} from the recordings)` : '';
  console.error(
    `synconf serve: ${ended ? 'interrupted' : 'stopped'} (${signal}); ${served} request(s) answered${origin}, ${missed} missed; request log ${opts.log}`,
  );
  if (opts.strict && missed > 0) {
    console.error(
      `synconf serve: --strict: ${missed} request(s) had no recorded answer (see the 404 lines above and _miss in the log)`,
    );
    return ended ?? EXIT.nonConforming;
  }
  return ended ?? EXIT.ok;
}
