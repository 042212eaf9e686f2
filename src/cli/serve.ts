// `synconf serve [DIR]`: recordings as a stand-in agent of an exact version, for API clients' tests.
import type { Command } from 'commander';
import { join } from 'node:path';
import { wholeNumber } from './lab.js';

interface ServeOptions { port: number; host: string; apiKey?: string; log: string; strict?: boolean; }

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Serve a recordings folder over HTTP as the agent it recorded: the n-th identical request gets the n-th recorded answer (then the last again), a wrong or missing API key the agent\'s 403, GET /rest/events the recorded events with a real long poll; an unrecorded request gets a 404 naming the closest recorded one. Runs until Ctrl-C.')
    .argument('[dir]', 'recordings folder (default: the bundled recordings of the newest agent version)')
    .option('-p, --port <port>', 'TCP port (0: any free port)', wholeNumber(0), 8384)
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--api-key <key>', 'the API key clients must send (X-API-Key); it stands for the recorded <API_KEY> (default: a new random key, printed)')
    .option('--log <file>', 'request log: every request asked, answered or missed, as HAR', join('reports', 'serve', 'requests.har'))
    .option('--strict', 'exit 1 when stopped if any request had no recorded answer (for a client\'s CI)')
    .addHelpText('after', '\nExamples:\n  synconf serve --port 8384 --api-key test-key          the newest bundled recordings\n  synconf serve recordings/syncthing-1.19.2 --strict    Syncthing 1.19.2; exit 1 if the client asked anything unrecorded\n  syncthing cli --gui-address=127.0.0.1:8384 --gui-apikey=test-key show version')
    .action(async (dir: string | undefined, opts: ServeOptions) => {
      const { runServe } = await import('../serve/run-serve.js');
      const { newestRecordings } = await import('../serve/recordings.js');
      const { RECORDINGS_DIR } = await import('../paths.js');
      process.exitCode = await runServe({ dir: dir ?? newestRecordings(RECORDINGS_DIR), host: opts.host, port: opts.port, apiKey: opts.apiKey, log: opts.log, strict: opts.strict ?? false });
    });
}
