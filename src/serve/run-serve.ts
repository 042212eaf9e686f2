// The `synconf serve` process: start the server, say where it is and which key to use, run until
// SIGINT/SIGTERM, then close every connection, write the request log and tell what was missed.
import { randomBytes } from 'node:crypto';
import { startServer } from './server.js';
import { EXIT, UsageError } from '../errors.js';

export interface ServeRun {
  dir: string;
  host: string;
  port: number;
  apiKey?: string;
  log: string;
  strict: boolean;
}

/** a key shaped like the agent's own (32 characters) */
export const generateApiKey = () => randomBytes(24).toString('base64url');

export async function runServe(opts: ServeRun): Promise<number> {
  if (opts.port > 65535) throw new UsageError(`--port ${opts.port}: a TCP port is at most 65535`);
  if (opts.apiKey !== undefined && !/^\S+$/.test(opts.apiKey))
    throw new UsageError(
      `--api-key "${opts.apiKey}": a key is one word, not empty (leave it out to get a generated one)`,
    );
  const server = await startServer({
    dir: opts.dir,
    host: opts.host,
    port: opts.port,
    apiKey: opts.apiKey ?? generateApiKey(),
    logFile: opts.log,
    onLine: (line) => console.error(line),
  });
  const { hostname, port } = new URL(server.url);
  console.log(
    `synconf serve: Syncthing ${server.agentVersion ?? '(version not recorded)'} as recorded in ${opts.dir} (${server.recorded} exchanges)`,
  );
  console.log(`URL      ${server.url}`);
  console.log(`API key  ${server.apiKey}`);
  console.log(`Request log: ${opts.log} (HAR)`);
  console.log(`e.g. syncthing cli --gui-address=${hostname}:${port} --gui-apikey=${server.apiKey} show version`);
  console.log('Stop with Ctrl-C.');

  const signal = await new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  await server.close();
  const { served, missed } = server.counts;
  console.error(
    `synconf serve: stopped (${signal}); ${served} request(s) answered, ${missed} missed; request log ${opts.log}`,
  );
  if (opts.strict && missed > 0) {
    console.error(
      `synconf serve: --strict: ${missed} request(s) had no recorded answer (see the 404 lines above and _miss in the log)`,
    );
    return EXIT.nonConforming;
  }
  return EXIT.ok;
}
