// Live transport: plain node:http with one keep-alive agent per run (connections are reused;
// no HTTP library is loaded, which keeps `synconf run` start-up small).
import type { Endpoint, Exchange, OutgoingRequest, Transport } from './types.js';
import { agentRequest, certificateFailure } from '../agent-https.js';

/** The code of a transport failure, in words a report reader understands. */
function failureCode(err: NodeJS.ErrnoException): string {
  if (certificateFailure(err)) return 'tls';
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'refused';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'reset';
    case 'ETIMEDOUT':
    case 'ESOCKETTIMEDOUT':
      return 'timeout';
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_STATUS':
    case 'HPE_INVALID_HEADER_TOKEN':
      return 'garbage';
    default:
      return err.code?.startsWith('HPE_') ? 'garbage' : (err.code ?? 'error').toLowerCase();
  }
}

/**
 * The most of a response body synconf reads: far beyond any answer of Syncthing's API, far below what a string can
 * hold (an answer over 512 MiB ended the run with an empty report folder). A larger one is a failed exchange.
 */
export const MAX_BODY = 64 * 1024 * 1024;

/** a response read to its end (or to MAX_BODY), as an exchange's response or error */
function readResponse(res: import('node:http').IncomingMessage, give: (rest: Partial<Exchange>) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  res.on('data', (c: Buffer) => {
    size += c.length;
    if (size <= MAX_BODY) return void chunks.push(c);
    give({ error: { code: 'too-large', message: `the response body is over ${MAX_BODY / 1024 / 1024} MiB` } });
    res.destroy();
  });
  res.on('end', () => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers))
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    give({ response: { status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') } });
  });
  res.on('error', (err: NodeJS.ErrnoException) =>
    give({ error: { code: failureCode(err), message: `response broke off: ${err.message}` } }),
  );
}

// node:http(s) is loaded when a live transport is made, not by every command that loads the engine (~2.5 ms of a replay)
const keepAlive = (scheme: 'http' | 'https') =>
  scheme === 'https'
    ? new (process.getBuiltinModule('node:https').Agent)({ keepAlive: true, maxSockets: 8 })
    : new (process.getBuiltinModule('node:http').Agent)({ keepAlive: true, maxSockets: 8 });

export class LiveTransport implements Transport {
  /** one keep-alive agent per scheme (an https:// agent beside a lab peer on http://), made when first needed */
  private readonly agents: Partial<Record<'http' | 'https', import('node:http').Agent>> = {};
  /** requests under way: a run that stops (Ctrl-C, a time bound) leaves none open behind it */
  private readonly inFlight = new Set<{ destroy(): void }>();
  constructor(private readonly endpoints: Record<string, Endpoint>) {}

  /** the API keys of the instances (recorders redact them) */
  endpointKeys(): Record<string, string> {
    return Object.fromEntries(Object.entries(this.endpoints).map(([k, v]) => [k, v.apiKey]));
  }

  endpoint(target: string): Endpoint {
    const ep = this.endpoints[target];
    if (!ep) throw new Error(`no instance "${target}" in this run`);
    return ep;
  }

  async send(request: OutgoingRequest): Promise<Exchange> {
    const first = await this.attempt(request);
    // A kept-alive connection the agent closed meanwhile (it restarted, say) fails on reuse with a
    // reset; that says nothing about the agent, so the request goes once more on a new connection.
    return first.reusedSocketReset ? (await this.attempt(request)).exchange : first.exchange;
  }

  private attempt(request: OutgoingRequest): Promise<{ exchange: Exchange; reusedSocketReset: boolean }> {
    const ep = this.endpoint(request.target);
    const startedAt = new Date();
    const t0 = performance.now();
    const done = (rest: Partial<Exchange>): Exchange => ({
      request,
      startedAt: startedAt.toISOString(),
      durationMs: performance.now() - t0,
      ...rest,
    });
    return new Promise((resolve) => {
      let settled = false;
      const settle = (exchange: Exchange, reusedSocketReset = false) => {
        if (!settled) {
          settled = true;
          resolve({ exchange, reusedSocketReset });
        }
      };
      const url = new URL(request.url, ep.url);
      const scheme = url.protocol === 'https:' ? 'https' : 'http';
      const agent = (this.agents[scheme] ??= keepAlive(scheme));
      const req = agentRequest(url, { method: request.method, headers: request.headers, agent });
      req.on('response', (res) => readResponse(res, (rest) => settle(done(rest))));
      // A hanging agent must not hang the run: the whole exchange is bounded.
      const timer = setTimeout(() => {
        settle(done({ error: { code: 'timeout', message: `no complete response within ${request.timeoutMs} ms` } }));
        req.destroy();
      }, request.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) =>
        settle(
          done({ error: { code: failureCode(err), message: certificateFailure(err) ?? err.message } }),
          req.reusedSocket && err.code === 'ECONNRESET',
        ),
      );
      const inFlight = {
        destroy: () => {
          clearTimeout(timer);
          settle(done({ error: { code: 'stopped', message: 'the run stopped before the response came' } }));
          req.destroy();
        },
      };
      this.inFlight.add(inFlight);
      req.on('close', () => {
        clearTimeout(timer);
        this.inFlight.delete(inFlight);
      });
      req.end(request.body);
    });
  }

  async close(): Promise<void> {
    for (const r of this.inFlight) r.destroy();
    this.inFlight.clear();
    for (const agent of Object.values(this.agents)) agent.destroy();
  }
}
