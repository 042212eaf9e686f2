// `synconf serve [DIR]`: recordings as a stand-in agent of an exact version, for API clients' tests.
import type { Argv, CommandModule } from 'yargs';
import { join } from 'node:path';
import { list, wholeNumber } from './options.js';
import type { ServeOptions } from '../commands/serve.js';

const SERVE_EXIT_CODES =
  "Exit codes (when stopped with SIGTERM, as `kill` sends it): 0 stopped, 1 with --strict: a request had no recorded answer, 2 usage or input error (port in use, no recordings), 3 a fault of synconf itself; interrupted by Ctrl-C (SIGINT): 130, by SIGHUP: 129 (128 + the signal's number, as every command), the request log written all the same.";

/** --stateful, --faults, --fault, --fault-seed: a stand-in that remembers, and faults a client's tests can ask for
 * (serve, proxy --recordings) */
export function standInOptions<T>(y: Argv<T>) {
  return y
    .option('stateful', {
      type: 'boolean',
      describe:
        'writes change later reads: the configuration and its parts, folder pause/resume, errors, pending records, with the events the agent emits (seeded from the recordings)',
    })
    .option('faults', {
      type: 'boolean',
      describe:
        'answer the control endpoint /__synconf/faults (GET lists, POST {"mode":…} adds, DELETE clears): a client\'s tests ask for faults',
    })
    .option('fault', {
      type: 'string',
      coerce: list,
      describe:
        'a fault from the start, MODE[:name=value:…]; MODE latency, dribble, reset-before, reset-during, truncate, status, restart; names endpoint (a path), share (0–1), next (N), ms, status (e.g. status:status=503:endpoint=/rest/system/status:next=2); repeat or comma-separate',
    })
    .option('fault-seed', {
      type: 'string',
      coerce: wholeNumber('fault-seed', 0, 2 ** 32 - 1),
      default: '1',
      defaultDescription: '1',
      describe: 'the seed of the shares a fault draws (the same seed touches the same requests)',
    });
}

export const serveCommand: CommandModule = {
  command: 'serve [dir]',
  describe:
    'Serve a recordings folder over HTTP as the agent it recorded, for the tests of API clients; runs until Ctrl-C',
  builder: (y) =>
    standInOptions(y)
      .positional('dir', {
        type: 'string',
        describe: 'recordings folder (default: the bundled recordings of the newest agent version)',
      })
      .option('port', {
        alias: 'p',
        type: 'string',
        coerce: wholeNumber('port', 0, 65535),
        default: '8384',
        defaultDescription: '8384',
        describe: 'TCP port (0: any free port)',
      })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to listen on' })
      .option('api-key', {
        type: 'string',
        describe:
          'the API key clients must send (X-API-Key); it stands for the recorded <API_KEY> (default: a new random key, printed)',
      })
      .option('log', {
        type: 'string',
        default: join('reports', 'serve', 'requests.har'),
        describe: 'request log: every request asked, answered or missed, as HAR',
      })
      .option('strict', {
        type: 'boolean',
        describe: "exit 1 when stopped if any request had no recorded answer (for a client's CI)",
      })
      .example('synconf serve --port 8384 --api-key test-key', 'the newest bundled recordings')
      .example(
        'synconf serve recordings/syncthing-1.19.2 --strict',
        'Syncthing 1.19.2; exit 1 if the client asked anything unrecorded',
      )
      .example(
        'synconf serve recordings/syncthing-2.1.2 --stateful',
        'Syncthing 2.1.2 that remembers what a client writes',
      )
      .example(
        'synconf serve --stateful --faults --fault latency:ms=2000:share=0.1',
        "a tenth of the answers 2 s late (seeded); the client's tests POST more faults to /__synconf/faults",
      )
      .example('syncthing cli --gui-address=127.0.0.1:8384 --gui-apikey=test-key show version', 'a client asking it')
      .epilogue(
        "The n-th identical request gets the n-th recorded answer (then the last again); where several recorded scenarios asked it, the one whose preceding requests match the client's latest ones answers. A missing or wrong API key gets the agent's recorded 403; GET /rest/events answers from the recorded events (since, events, limit, and a long poll that waits its timeout); any other unrecorded request gets a 404 naming the closest recorded one.\n\n" +
          SERVE_EXIT_CODES,
      ),
  handler: async (argv) => {
    const { serve } = await import('../engine.js');
    await serve(argv as unknown as ServeOptions);
  },
};
