// The proxy on the wire: every request of the client forwarded to the agent unchanged (method, path, query, Host,
// the API key, the web GUI's CSRF cookie and header), the answer streamed back as it comes (a long poll of
// /rest/events waits at the agent, never in the proxy) while a copy is kept to judge it once it ended. With
// `--errors refuse` a request against the spec is answered 400 here and never reaches the agent; with `mark` answers
// are held until judged, and a violating one carries the header X-Synconf-Violation (its check ids and statements).
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Exchange } from '../transport/types.js';
import type { Check } from '../runner/exchange-checks.js';
import { InputError } from '../errors.js';

export type ErrorsMode = 'pass' | 'refuse' | 'mark';

/** the header a violating answer carries under --errors mark */
export const VIOLATION_HEADER = 'x-synconf-violation';

/** bodies larger than this are forwarded whole but kept cut (the judgement then says so: not valid JSON) */
const KEEP_AT_MOST = 16 * 1024 * 1024;

export interface ForwardOptions {
  upstream: string;
  host: string;
  port: number;
  errors: ErrorsMode;
  /** the request's own violations, before it is forwarded (for --errors refuse) */
  requestViolations: (method: string, url: string, body: string | undefined) => Check[];
  /**
   * each finished exchange; returns the failing checks of its judgement (for --errors mark). `refused` names the
   * checks of a request --errors refuse answered itself (its response is the proxy's 400, not the agent's).
   */
  onExchange: (x: Exchange, refused?: string) => { violations: { id: string; statements?: string[] }[] };
  /** a request started (idle and count limits) */
  onRequest?: () => void;
  /** a request ended: answered in full, broken off, or its client gone (idle limit) */
  onRequestEnd?: () => void;
}

export interface Forwarder {
  url: string;
  /** requests begun (their body read, forwarded, or answered) and not yet ended */
  inFlight(): number;
  close(): Promise<void>;
}

const headersOf = (m: IncomingMessage): Record<string, string> =>
  Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]));

function readAll(m: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    m.on('data', (c: Buffer) => chunks.push(c));
    m.on('end', () => resolve(Buffer.concat(chunks)));
    m.on('error', reject);
  });
}

/** the error code of a failed forward, in the transport's words (refused, reset, …) */
const codeOf = (e: NodeJS.ErrnoException) =>
  e.code === 'ECONNREFUSED' ? 'refused' : e.code === 'ECONNRESET' ? 'reset' : (e.code ?? 'error');

const violationHeader = (vs: { id: string; statements?: string[] }[]) =>
  vs.map((v) => `${v.id}${v.statements?.length ? ` (${v.statements.join(' ')})` : ''}`).join(', ');

/**
 * --errors refuse: the request's own violations answered 400 here, and the exchange judged as refused (in the report
 * and the HAR, whose fault and which statement); false when it has none (it is forwarded)
 */
function refused(opts: ForwardOptions, f: Omit<Flight, 'done'>): boolean {
  const violations = opts.requestViolations(f.request.method, f.request.url, f.request.body);
  if (!violations.length) return false;
  const names = violations.map((v) => v.name).join(', ');
  const headers = { 'content-type': 'text/plain; charset=utf-8', [VIOLATION_HEADER]: names };
  const body = `synconf proxy: refused, the request is against the spec: ${violations.map((v) => v.message).join('; ')}\n`;
  f.res.writeHead(400, headers);
  f.res.end(body);
  opts.onExchange(finished(f, { response: { status: 400, headers, body } }), names);
  return true;
}

/** one request in flight: its exchange as it began, and how to end it when it is answered or fails */
interface Flight {
  request: Exchange['request'];
  startedAt: string;
  t0: number;
  res: ServerResponse;
  done: () => void;
}

const finished = (f: Omit<Flight, 'done'>, rest: Pick<Exchange, 'response' | 'error'>): Exchange => ({
  request: f.request,
  ...rest,
  startedAt: f.startedAt,
  durationMs: performance.now() - f.t0,
});

/**
 * The agent broke off its answer before its end (a long poll open across a restart): the client's answer is broken
 * off the same way (a clean, empty 200 read as a success), and the exchange is recorded as aborted with what came.
 */
function brokenOff(opts: ForwardOptions, f: Flight, answer: IncomingMessage, body: Buffer, bytes: number): void {
  f.done();
  f.res.destroy();
  const response = { status: answer.statusCode ?? 0, headers: headersOf(answer), body: body.toString('utf8') };
  const error = { code: 'aborted', message: `the agent broke off its answer after ${bytes} byte(s) of its body` };
  opts.onExchange(finished(f, { response, error }));
}

/** the agent's answer: streamed to the client as it comes (held until judged under --errors mark), then judged */
function relay(opts: ForwardOptions, f: Flight, answer: IncomingMessage): void {
  const hold = opts.errors === 'mark';
  const chunks: Buffer[] = [];
  let kept = 0;
  let bytes = 0;
  if (!hold) f.res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
  answer.on('data', (c: Buffer) => {
    bytes += c.length;
    if (kept < KEEP_AT_MOST) {
      chunks.push(c);
      kept += c.length;
    }
    if (!hold) f.res.write(c);
  });
  answer.on('end', () => {
    f.done();
    const body = Buffer.concat(chunks);
    const response = { status: answer.statusCode ?? 0, headers: headersOf(answer), body: body.toString('utf8') };
    const judged = opts.onExchange(finished(f, { response }));
    if (!hold) return void f.res.end();
    const headers = [...answer.rawHeaders];
    if (judged.violations.length) headers.push(VIOLATION_HEADER, violationHeader(judged.violations));
    f.res.writeHead(answer.statusCode ?? 502, headers);
    f.res.end(body);
  });
  answer.on('error', () => {}); // an answer broken off: its 'close' without its end says so
  answer.on('close', () => {
    if (!answer.complete && !f.res.writableEnded && !f.res.destroyed)
      brokenOff(opts, f, answer, Buffer.concat(chunks), bytes);
    else f.done();
  });
}

/** no answer from the agent (refused, reset): judged as such, and the client told so with a 502 */
function failed(opts: ForwardOptions, f: Flight, e: NodeJS.ErrnoException): void {
  f.done();
  if (f.res.destroyed || f.res.writableEnded) return; // the client left, or the proxy is stopping
  const error = { code: codeOf(e), message: e.message };
  opts.onExchange(finished(f, { error }));
  if (!f.res.headersSent) f.res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
  f.res.end(`synconf proxy: the agent at ${opts.upstream} gave no answer (${error.code}: ${e.message})\n`);
}

export async function startForwarder(opts: ForwardOptions): Promise<Forwarder> {
  const upstream = new URL(opts.upstream);
  const pending = new Set<() => void>();

  let open = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    open++;
    opts.onRequest?.();
    res.on('close', () => {
      open--;
      opts.onRequestEnd?.();
    });
    const startedAt = new Date().toISOString();
    const t0 = performance.now();
    const raw = await readAll(req);
    const body = raw.length ? raw.toString('utf8') : undefined;
    const [method, url] = [req.method ?? 'GET', req.url ?? '/'];
    const request: Exchange['request'] = { target: 'agent', method, url, headers: headersOf(req), body, timeoutMs: 0 };
    if (opts.errors === 'refuse' && refused(opts, { request, startedAt, t0, res })) return;
    // unchanged: the Host header included (the agent's host check sees what the client sent)
    const up = httpRequest({ host: upstream.hostname, port: upstream.port, method, path: url, headers: req.headers });
    const abort = () => up.destroy();
    pending.add(abort);
    const f: Flight = { request, startedAt, t0, res, done: () => pending.delete(abort) };
    // a client that hangs up (a closed page's long poll) ends its request at the agent too
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    up.on('response', (answer) => relay(opts, f, answer));
    up.on('error', (e: NodeJS.ErrnoException) => failed(opts, f, e));
    up.end(raw);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`synconf proxy: ${e.message}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(new InputError(`--port ${opts.port} on ${opts.host}: cannot listen (${e.code ?? e.message})`)),
    );
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`,
    inFlight: () => open,
    async close() {
      for (const abort of pending) abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
