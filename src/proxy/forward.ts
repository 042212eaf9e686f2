// The proxy on the wire: every request of the client forwarded to the agent unchanged (method, path, query, Host,
// the API key, the web GUI's CSRF cookie and header), the answer streamed back as it comes (a long poll of
// /rest/events waits at the agent, never in the proxy) while a copy is kept to judge it once it ended. With
// `--errors refuse` a request against the spec is answered 400 here and never reaches the agent; with `mark` answers
// are held until judged, and a violating one carries the header X-Synconf-Violation (its check ids and statements).
// Every body is bounded and none is cut silently: a request body over MAX_REQUEST_BODY is refused here (413, said in
// words, kept in the session), an answer over KEEP_AT_MOST is relayed whole and kept cut (not judged, said so), an
// agent's reset mid-answer is a reset at the client at once, and an exchange the stop cuts is kept as cut by it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { isIP } from 'node:net';
import { agentRequest } from '../agent-https.js';
import type { AddressInfo } from 'node:net';
import { MAX_REQUEST_BODY, type Exchange } from '../transport/types.js';
import type { Check } from '../runner/exchange-checks.js';
import { REPORT_FILE_BOUND } from '../report/bound.js';
import { InputError } from '../errors.js';

export type ErrorsMode = 'pass' | 'refuse' | 'mark';

/** the header a violating answer carries under --errors mark */
export const VIOLATION_HEADER = 'x-synconf-violation';
/** the header of an answer too large to hold under --errors mark: relayed whole, never judged */
export const NOT_JUDGED_HEADER = 'x-synconf-not-judged';

/** an answer's bytes kept to judge it and for the session's HAR: the bound of a report file */
export const KEEP_AT_MOST = REPORT_FILE_BOUND;

const MIB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;

/**
 * What the proxy did to an exchange beyond forwarding it, kept with it in the HAR and counted in the report:
 * `spec-refused` a request --errors refuse answered itself (text: the checks it failed; the 400 is the proxy's),
 * `too-large` a request body over the bound (413), `stopped` cut by the stop, `cut` an answer kept cut,
 * `recorded-drop` a connection the recordings standing in for the agent dropped as recorded, `fault` an exchange a
 * fault of the recordings standing in for the agent touched (proxy --recordings --fault, --faults).
 */
export interface ExchangeNote {
  kind: 'spec-refused' | 'too-large' | 'stopped' | 'cut' | 'recorded-drop' | 'fault';
  text: string;
}

export interface ForwardOptions {
  upstream: string;
  host: string;
  port: number;
  errors: ErrorsMode;
  /** the request's own violations, before it is forwarded (for --errors refuse) */
  requestViolations: (method: string, url: string, body: string | undefined) => Check[];
  /** each finished exchange; returns the failing checks of its judgement (for --errors mark) */
  onExchange: (x: Exchange, note?: ExchangeNote) => { violations: { id: string; statements?: string[] }[] };
  /** --tls-cert, --tls-key: listen with TLS for clients that insist on it (PEM texts) */
  tls?: { cert: string; key: string };
  /** a request started (idle and count limits) */
  onRequest?: () => void;
  /** a request ended: answered in full, broken off, or its client gone (idle limit) */
  onRequestEnd?: () => void;
}

export interface Forwarder {
  url: string;
  /** requests begun (their body read, forwarded, or answered) and not yet ended */
  inFlight(): number;
  /** stops listening; every exchange still under way is ended, and kept as cut by the stop */
  close(): Promise<void>;
}

const headersOf = (m: IncomingMessage): Record<string, string> =>
  Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]));

/** the error code of a failed forward, in the transport's words (refused, reset, …) */
const codeOf = (e: NodeJS.ErrnoException) =>
  e.code === 'ECONNREFUSED' ? 'refused' : e.code === 'ECONNRESET' ? 'reset' : (e.code ?? 'error');

const violationHeader = (vs: { id: string; statements?: string[] }[]) =>
  vs.map((v) => `${v.id}${v.statements?.length ? ` (${v.statements.join(' ')})` : ''}`).join(', ');

const TEXT = { 'content-type': 'text/plain; charset=utf-8' };

/** one request in flight: its exchange as it began, and whether it is settled (judged once, whatever ends it) */
interface Flight {
  request: Exchange['request'];
  startedAt: string;
  t0: number;
  res: ServerResponse;
  settled: boolean;
  /** the agent's answer began (its status and headers came): a failure from then on is an answer broken off */
  answered?: boolean;
  /** ends it at the agent (the client left, or the proxy stops) */
  abort: () => void;
}

/** the exchange judged, once: the first of its ends (answer, failure, the client leaving, the stop) counts */
function settle(
  opts: ForwardOptions,
  pending: Set<Flight>,
  f: Flight,
  rest: Pick<Exchange, 'response' | 'error'>,
  note?: ExchangeNote,
) {
  if (f.settled) return undefined;
  f.settled = true;
  pending.delete(f);
  const x: Exchange = { request: f.request, ...rest, startedAt: f.startedAt, durationMs: performance.now() - f.t0 };
  return opts.onExchange(x, note);
}

/** the request's body, up to the bound; undefined when it is over it (then answered 413 here, said in words) */
function readBounded(req: IncomingMessage): Promise<{ body: Buffer } | { over: number }> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_REQUEST_BODY) return resolve({ over: declared });
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_REQUEST_BODY) return void chunks.push(c);
      req.pause(); // never buffered: refused as it arrives
      resolve({ over: size });
    });
    req.on('end', () => resolve({ body: Buffer.concat(chunks) }));
    req.on('error', reject);
  });
}

/** a request body over the bound: 413 in words, the client's connection closed once it is sent (no more is read) */
function refuseLarge(f: Flight, req: IncomingMessage, over: number): ExchangeNote {
  const text = `request body over ${MIB(MAX_REQUEST_BODY)} (${over} bytes or more): answered 413 by synconf proxy, not forwarded to the agent`;
  f.res.writeHead(413, { ...TEXT, connection: 'close' });
  f.res.end(`synconf proxy: ${text}\n`, () => req.destroy());
  return { kind: 'too-large', text };
}

/**
 * --errors refuse: the request's own violations answered 400 here, and the exchange judged as refused (in the report
 * and the HAR, whose fault and which statement); false when it has none (it is forwarded)
 */
function refused(opts: ForwardOptions, pending: Set<Flight>, f: Flight): boolean {
  const violations = opts.requestViolations(f.request.method, f.request.url, f.request.body);
  if (!violations.length) return false;
  const names = violations.map((v) => v.name).join(', ');
  const headers = { ...TEXT, [VIOLATION_HEADER]: names };
  const body = `synconf proxy: refused, the request is against the spec: ${violations.map((v) => v.message).join('; ')}\n`;
  f.res.writeHead(400, headers);
  f.res.end(body);
  settle(opts, pending, f, { response: { status: 400, headers, body } }, { kind: 'spec-refused', text: names });
  return true;
}

/** the kept copy of an answer: its first KEEP_AT_MOST bytes, and how many there were */
class KeptBody {
  private readonly chunks: Buffer[] = [];
  kept = 0;
  total = 0;
  add(c: Buffer): void {
    this.total += c.length;
    const room = KEEP_AT_MOST - this.kept;
    if (room <= 0) return;
    const part = c.length > room ? c.subarray(0, room) : c;
    this.chunks.push(part);
    this.kept += part.length;
  }
  get cut(): boolean {
    return this.total > this.kept;
  }
  buffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
  note(): ExchangeNote {
    return {
      kind: 'cut',
      text: `answer body of ${this.total} bytes relayed whole; the first ${this.kept} kept (the bound of a report file): not judged`,
    };
  }
}

/** the agent's answer: streamed to the client as it comes (held until judged under --errors mark), then judged */
function relay(opts: ForwardOptions, pending: Set<Flight>, f: Flight, answer: IncomingMessage): void {
  let hold = opts.errors === 'mark';
  f.answered = true;
  const body = new KeptBody();
  const status = answer.statusCode ?? 502;
  if (!hold) f.res.writeHead(status, answer.rawHeaders);
  answer.on('data', (c: Buffer) => {
    body.add(c);
    if (hold && body.cut) {
      // too large to hold: relayed whole from here, said so in a header, never judged
      hold = false;
      f.res.writeHead(status, [...answer.rawHeaders, NOT_JUDGED_HEADER, `answer over ${MIB(KEEP_AT_MOST)}`]);
      f.res.write(body.buffer());
      f.res.write(c.subarray(c.length - (body.total - body.kept))); // the part of this chunk past the kept bytes
      return;
    }
    if (!hold && !f.res.write(c)) {
      answer.pause(); // a slow client slows the agent: nothing piles up in the proxy
      f.res.once('drain', () => answer.resume());
    }
  });
  answer.on('end', () => {
    const response = { status: answer.statusCode ?? 0, headers: headersOf(answer), body: body.buffer().toString() };
    const judged = settle(opts, pending, f, { response }, body.cut ? body.note() : undefined);
    if (!hold) return void f.res.end();
    const headers = [...answer.rawHeaders];
    if (judged?.violations.length) headers.push(VIOLATION_HEADER, violationHeader(judged.violations));
    f.res.writeHead(status, headers);
    f.res.end(body.buffer());
  });
  answer.on('error', () => {}); // an answer broken off: its 'close' without its end says so
  answer.on('close', () => {
    if (answer.complete || forgotten(pending, f)) return;
    // The agent broke off its answer before its end (a long poll open across a restart): the client's answer is
    // broken off the same way at once (never a clean, empty 200, nor a stall until a timeout), and the exchange is
    // recorded as aborted with what came.
    const response = { status: status, headers: headersOf(answer), body: body.buffer().toString() };
    const error = {
      code: 'aborted',
      message: `the agent broke off its answer after ${body.total} byte(s) of its body`,
    };
    f.res.destroy();
    settle(opts, pending, f, { response, error });
  });
}

/** the client left before its answer ended (a closed page's long poll): not the agent's doing, the exchange not kept */
function forgotten(pending: Set<Flight>, f: Flight): boolean {
  if (f.settled || !f.res.destroyed || f.res.writableFinished) return false;
  f.settled = true;
  pending.delete(f);
  return true;
}

/** no answer from the agent (refused, reset): judged as such, and the client told so with a 502 */
function failed(opts: ForwardOptions, pending: Set<Flight>, f: Flight, e: NodeJS.ErrnoException): void {
  // a reset once the answer began (a TCP reset mid-body) is an answer broken off: the relay's close ends it as such
  if (f.answered || forgotten(pending, f)) return;
  const error = { code: codeOf(e), message: e.message };
  if (!settle(opts, pending, f, { error })) return; // settled already: the proxy stopped it
  if (f.res.headersSent) return void f.res.destroy();
  f.res.writeHead(502, TEXT);
  f.res.end(`synconf proxy: the agent at ${opts.upstream} gave no answer (${error.code}: ${e.message})\n`);
}

/** one client request: read (bounded), refused or forwarded, its answer relayed */
async function handle(opts: ForwardOptions, pending: Set<Flight>, req: IncomingMessage, res: ServerResponse) {
  opts.onRequest?.();
  const [method, url] = [req.method ?? 'GET', req.url ?? '/'];
  const request: Exchange['request'] = { target: 'agent', method, url, headers: headersOf(req), timeoutMs: 0 };
  const f: Flight = {
    request,
    startedAt: new Date().toISOString(),
    t0: performance.now(),
    res,
    settled: false,
    abort() {},
  };
  pending.add(f);
  const read = await readBounded(req).catch(() => undefined);
  if (!read) return void forgotten(pending, f); // the client left before its request was whole
  if ('over' in read) {
    const note = refuseLarge(f, req, read.over);
    return void settle(opts, pending, f, { response: { status: 413, headers: TEXT, body: note.text } }, note);
  }
  if (read.body.length) request.body = read.body.toString('utf8');
  if (opts.errors === 'refuse' && refused(opts, pending, f)) return;
  const upstream = new URL(opts.upstream);
  // unchanged: the Host header included (the agent's host check sees what the client sent); over TLS the agent's
  // certificate is checked against the agent's own host name, never the client's Host (no SNI for an IP address)
  const servername = isIP(upstream.hostname.replace(/^\[|\]$/g, '')) ? '' : upstream.hostname;
  const up = agentRequest(upstream, { method, path: url, headers: req.headers, servername });
  f.abort = () => up.destroy();
  // a client that hangs up (a closed page's long poll) ends its request at the agent too
  res.on('close', () => {
    if (!res.writableFinished) up.destroy();
  });
  up.on('response', (answer) => relay(opts, pending, f, answer));
  up.on('error', (e: NodeJS.ErrnoException) => failed(opts, pending, f, e));
  up.end(read.body);
}

/** the proxy's server: plain HTTP, or TLS with the given certificate and key (which one cannot use is said, not its text) */
function listener(tls: ForwardOptions['tls'], handler: (req: IncomingMessage, res: ServerResponse) => void) {
  if (!tls) return createServer(handler);
  try {
    return createHttpsServer({ cert: tls.cert, key: tls.key }, handler);
  } catch (e) {
    throw new InputError(`--tls-cert, --tls-key: cannot listen with them (${(e as Error).message})`);
  }
}

export async function startForwarder(opts: ForwardOptions): Promise<Forwarder> {
  const pending = new Set<Flight>();
  let open = 0;
  const server = listener(opts.tls, (req, res) => {
    open++;
    res.on('close', () => {
      open--;
      opts.onRequestEnd?.();
    });
    handle(opts, pending, req, res).catch((e: Error) => {
      if (!res.headersSent) res.writeHead(500, TEXT);
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
    url: `${opts.tls ? 'https' : 'http'}://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`,
    inFlight: () => open,
    async close() {
      for (const f of [...pending]) {
        const text = 'the proxy stopped before the exchange ended: cut by the stop, not judged';
        settle(opts, pending, f, { error: { code: 'stopped', message: text } }, { kind: 'stopped', text });
        f.abort();
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
