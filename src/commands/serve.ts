// The `synconf serve` process: start the server, say where it is and which key to use, run until
// SIGTERM, SIGINT or SIGHUP, then close every connection, write the request log and tell what was missed.
import { startServer } from '../serve/server.js';
import { parseFaultOption } from '../serve/faults.js';
import { loadRecordings, newestRecordings, type Recordings } from '../serve/recordings.js';
import { beyondLoopbackLine, checkStandInKey, generateApiKey } from '../serve/stand-in.js';
import { EXIT, UsageError } from '../errors.js';
import { RECORDINGS_DIR } from '../paths.js';
import { onInterrupt, serverInterruptCode } from './terminal/interrupt.js';
import { lockRequestLog } from '../session/report-lock.js';
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
