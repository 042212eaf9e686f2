// What `synconf proxy` prints when it listens: where to point the client, with which key, what it forwards to and
// how it stops. Tests and CI scripts read the URL line (`URL  http://127.0.0.1:PORT`).
// On a terminal it prints one line per finished exchange (exchangeLine), never in CI nor with --quiet.
import type { Upstream } from '../../session/proxy-upstream.js';
import type { Judged } from '../../proxy/session.js';
import type { Exchange } from '../../transport/types.js';
import { printableLine } from '../../printable.js';

export function proxyLines(
  url: string,
  upstream: Upstream,
  opts: { errors: string; count?: number; untilIdle?: number; reportDir: string; faults?: boolean; stateful?: boolean },
): string[] {
  const { hostname, port, protocol } = new URL(url);
  const scheme = protocol === 'https:' ? 'https://' : ''; // syncthing cli speaks TLS given an https:// address
  const stops = [
    'Ctrl-C',
    'SIGTERM',
    ...(opts.count !== undefined ? [`after ${opts.count} exchange(s)`] : []),
    ...(opts.untilIdle !== undefined ? [`after ${opts.untilIdle} s without a request`] : []),
  ];
  return [
    `synconf proxy: forwarding to ${upstream.description} (${upstream.url}, Syncthing ${upstream.version ?? '(version unknown)'}); --errors ${opts.errors}`,
    `URL      ${url}`,
    `API key  ${upstream.apiKey}`,
    `Report   ${opts.reportDir}`,
    ...(opts.stateful
      ? ['Stateful: the recordings remember what the client writes (as synconf serve --stateful)']
      : []),
    ...(opts.faults
      ? [
          `Faults   ${url}/__synconf/faults (GET lists, POST adds, DELETE clears); an exchange a fault touches is not judged`,
        ]
      : []),
    `e.g. syncthing cli --gui-address=${scheme}${hostname}:${port} --gui-apikey=${upstream.apiKey} show system`,
    `Stops on ${stops.join(', ')}.`,
  ];
}

/** a CI job's log (CI set, as every CI service sets it) is no one's console: each exchange would be a line of it */
const inCi = (env: NodeJS.ProcessEnv) => !!env.CI && env.CI !== 'false' && env.CI !== '0';

/** where a line per exchange goes: stdout when it is a terminal, not in CI and not --quiet; else nowhere */
export function exchangeConsole(
  quiet: boolean | undefined,
  stream: NodeJS.WriteStream = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): ((line: string) => void) | undefined {
  if (quiet || stream.isTTY !== true || inCi(env)) return undefined;
  return (line) => void stream.write(`${line}\n`);
}

/** a URL longer than this is cut on the console (the HAR keeps it whole) */
const URL_SHOWN = 100;

/** `#12 GET /rest/db/status?folder=x → 200 pass (3 ms)`: what the client and the agent sent, escaped for a terminal */
export function exchangeLine(judged: Pick<Judged, 'n' | 'url' | 'word'>, x: Exchange): string {
  const url = judged.url.length > URL_SHOWN ? `${judged.url.slice(0, URL_SHOWN - 1)}…` : judged.url;
  const status = x.response?.status ?? x.error?.code ?? '-';
  const ms = Math.round(x.durationMs);
  return printableLine(`#${judged.n} ${x.request.method} ${url} → ${status} ${judged.word} (${ms} ms)`);
}
