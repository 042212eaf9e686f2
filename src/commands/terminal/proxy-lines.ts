// What `synconf proxy` prints when it listens: where to point the client, with which key, what it forwards to and
// how it stops. Tests and CI scripts read the URL line (`URL  http://127.0.0.1:PORT`).
import type { Upstream } from '../../session/proxy-upstream.js';

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
