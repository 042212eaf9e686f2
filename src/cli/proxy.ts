// `synconf proxy --agent URL | --lab VERSION | --recordings DIR`: judge a real client's traffic as it passes.
import type { Argv, CommandModule } from 'yargs';
import { join } from 'node:path';
import { AGENT_CA, once, wholeNumber } from './options.js';
import type { ProxyOptions } from '../commands/proxy.js';
import { standInOptions } from './serve.js';

const PROXY_EXIT_CODES =
  "Exit codes: 0 every exchange judged conforms (or is a known deviation of the agent version), 1 a request or an answer is against the spec (each listed with its exchange, and whose fault it is), 2 usage or input error (no agent named, port in use, an agent that cannot be started or reached), or no exchange the spec describes passed (no verdict to give), 3 a fault of synconf itself, 130 interrupted by Ctrl-C (SIGINT), 129 by SIGHUP (128 + the signal's number, as every command; the report is written all the same). SIGTERM, --count and --until-idle are the orderly stop: the exit code is the verdict.";

/** --until-idle: the orderly stop of a CI session */
const UNTIL_IDLE = {
  type: 'string',
  coerce: wholeNumber('until-idle', 1, 86_400),
  describe: 'stop after this many seconds with no request open, begun or ended (a long poll is never cut)',
} as const;

/** --quiet: the console of a session on a terminal */
const QUIET = {
  alias: 'q',
  type: 'boolean',
  describe: 'no line per exchange on a terminal (never printed in CI, where CI is set, nor when stdout is no terminal)',
} as const;

/** --contract: the client's quirks accepted */
const CONTRACT = {
  type: 'string',
  coerce: once('contract'),
  describe:
    "a client contract (synconf contract; schemas/contract.schema.json): its quirks, checks of the client's requests each with its reason, are accepted as expected failures (and not refused under --errors refuse)",
} as const;

/** TLS on both sides: the agent's certificate trusted (--agent-ca), the proxy's own to listen with */
function tlsOptions<T>(y: Argv<T>) {
  return y
    .option('agent-ca', AGENT_CA)
    .option('tls-cert', {
      type: 'string',
      coerce: once('tls-cert'),
      describe: 'listen with TLS (https://) with this PEM certificate, for clients that insist on it (needs --tls-key)',
    })
    .option('tls-key', { type: 'string', coerce: once('tls-key'), describe: 'the PEM private key of --tls-cert' });
}

export const proxyCommand: CommandModule = {
  command: 'proxy',
  describe:
    "Stand between a client and an agent: forward every request unchanged, judge each exchange against the spec (the client's request, the agent's answer), report the client's footprint",
  builder: (y) =>
    tlsOptions(standInOptions(y))
      .option('agent', {
        type: 'string',
        coerce: once('agent'),
        describe: 'forward to a running agent at this URL, http:// or https:// (needs --api-key)',
      })
      .option('api-key', {
        type: 'string',
        coerce: once('api-key'),
        describe:
          "the agent's API key (--agent; with --recordings the key clients must use, default a new one, printed)",
      })
      .option('lab', {
        type: 'string',
        coerce: once('lab'),
        describe: 'forward to a lab agent of this installed version (e.g. 1.19.2), started and stopped with the proxy',
      })
      .option('recordings', {
        type: 'string',
        coerce: once('recordings'),
        describe: 'forward to recordings answering as the agent they recorded (as `synconf serve`)',
      })
      .option('port', {
        alias: 'p',
        type: 'string',
        coerce: wholeNumber('port', 0, 65535),
        default: '0',
        defaultDescription: '0: any free port, printed',
        describe: 'TCP port to listen on',
      })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to listen on' })
      .option('report-dir', {
        type: 'string',
        default: join('reports', 'proxy'),
        describe: 'the report folder written when the proxy stops',
      })
      .option('errors', {
        choices: ['pass', 'refuse', 'mark'],
        default: 'pass',
        describe:
          'what a violation changes on the wire: pass nothing; refuse a request against the spec with 400 (the agent never sees it); mark a violating answer with the header X-Synconf-Violation (answers are then held until judged)',
      })
      .option('count', {
        type: 'string',
        coerce: wholeNumber('count', 1),
        describe: 'stop after this many exchanges (for CI)',
      })
      .option('until-idle', UNTIL_IDLE)
      .option('quiet', QUIET)
      .option('contract', CONTRACT)
      .example('synconf proxy --lab 1.19.2 --until-idle 30', 'a lab agent; point the client at the printed URL and key')
      .example('synconf proxy --agent http://127.0.0.1:8384 --api-key KEY --port 8385', 'in front of a running agent')
      .example('synconf proxy --recordings recordings/syncthing-1.29.5 --count 20', 'recordings as the agent')
      .example('synconf proxy --recordings DIR --stateful --faults', 'recordings that remember; faults via the proxy')
      .epilogue(
        "Nothing on the wire is changed by default: the Host header, the API key and the web GUI's CSRF cookie and header reach the agent as the client sent them, and long polls (/rest/events) stream through. A request against the spec (a method the path does not take, a missing required parameter, a body of the wrong shape) is the client's fault; an answer against the resource's schema for the agent's version or against the endpoint's statements is the agent's, unless it is a known deviation of that version. Requests the spec does not name are forwarded and counted, not judged. --stateful, --faults, --fault and --fault-seed make the recordings of --recordings behave as `synconf serve`'s do (only with --recordings); an exchange a fault touched is kept and counted, never judged: the fault is synconf's, not the agent's. The report folder (docs/proxy.md) has every violation with its exchange, the client's footprint, and the redacted HAR of the session (recordings/_run.har), which `synconf drift --against` replays.\n\n" +
          PROXY_EXIT_CODES,
      ),
  handler: async (argv) => {
    const { proxy } = await import('../engine.js');
    const a = argv as Record<string, unknown>;
    await proxy({
      ...(a as unknown as ProxyOptions),
      apiKey: (a.apiKey as string | undefined) ?? process.env.SYNCONF_API_KEY,
    });
  },
};
