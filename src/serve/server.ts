// `synconf serve`: a recordings folder answering over HTTP as the agent it recorded. Requests are
// matched by the cassette matcher replay uses (recorded-agent.ts chooses among scenarios), the API
// key is enforced as the agent enforces it (its recorded 403), events are served from the recorded
// ones with a real long poll, and a request nothing answers is a 404 naming the closest recorded one.
import { MISS_PREFIX } from './miss.js';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HarEntry } from '../schema/generated/types.js';
import { MAX_REQUEST_BODY, type Exchange, type IncomingResponse, type OutgoingRequest } from '../transport/types.js';
import { describeEntry } from '../transport/cassette.js';
import { Redactor, API_KEY } from '../transport/redact.js';
import { loadRecordings, type Recordings } from './recordings.js';
import { EventLog } from './events.js';
import { RecordedAgent } from './recorded-agent.js';
import { StatefulAgent } from './stateful.js';
import { CONTROL_PATH, Faults, describeFault, type Fault } from './faults.js';
import { controlAnswer, deliver, faultStatus, reset } from './fault-delivery.js';
import { RequestLog, type Outcome } from './request-log.js';
import { UsageError } from '../errors.js';
import { BAD_REQUEST, gateAnswer, isLocalhost, redirectAnswer, routerRedirect, sentKey } from './agent-gate.js';
import { RouteTable } from './fixed-path.js';
import { encodedPath, targetRoute } from '../transport/agent-route.js';

export interface ServeOptions {
  dir: string;
  /** the recordings of `dir`, when the caller loaded them already */
  recordings?: Recordings;
  host: string;
  /** 0: any free port */
  port: number;
  apiKey: string;
  /** the request log (HAR) */
  logFile: string;
  /** what a failure to write the log says, given its cause (default: names --log) */
  logFailure?: (cause: string) => string;
  /** one line per miss (and per refused connection), for the terminal */
  onLine?: (line: string) => void;
  /** writes change what later reads answer (the configuration, errors, pending records, events) */
  stateful?: boolean;
  /** a request answered with a dropped connection, as recorded (where): the proxy tells it from the agent's fault */
  onRecordedDrop?: (method: string, url: string, origin: string) => void;
  /** a request a fault touched (which): the proxy tells it from the agent's fault */
  onFault?: (method: string, url: string, fault: string) => void;
  /** a request the state answered (--stateful; the rule): the proxy tells the model's answer from a recorded one */
  onState?: (method: string, url: string, rule: string) => void;
  /** --faults: the control endpoint /__synconf/faults answers */
  faultControl?: boolean;
  /** --fault: faults in force from the start */
  faults?: Fault[];
  /** --fault-seed: the seed of the shares drawn */
  faultSeed?: number;
}

export interface Server {
  url: string;
  apiKey: string;
  agentVersion: string | null;
  recorded: number;
  /** answered, of them from the state (--stateful), and missed */
  counts: { served: number; fromState: number; missed: number };
  close(): Promise<void>;
}

/** headers that describe the recorded transfer, not the answer */
const TRANSFER_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'content-encoding',
]);
const DEFAULT_EVENT_TIMEOUT_S = 60;
/** what a client gets from an agent a POST /rest/system/shutdown stopped (--stateful): its connection reset */
const GONE = { code: 'ECONNRESET', message: 'the agent was shut down (POST /rest/system/shutdown)' }; // the agent's default for a long poll

/** a request's path without its query: what serve's own words repeat of a request (a query may hold a secret) */
const pathOf = (url: string) => url.split(/[?#]/)[0];
const recordedKey = (e: HarEntry) => e.request.headers.find((h) => h.name.toLowerCase() === 'x-api-key')?.value;

/** the request as the client sent it; the API key under the name the recordings use */
function outgoing(inc: http.IncomingMessage, chunks: Buffer[]): OutgoingRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(inc.headers))
    if (value !== undefined && name !== 'x-api-key') headers[name] = Array.isArray(value) ? value.join(', ') : value;
  const key = sentKey(inc.headers);
  if (key !== undefined) headers['X-API-Key'] = key;
  const body = chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined;
  return {
    target: 'agent',
    method: inc.method ?? 'GET',
    url: inc.url ?? '/',
    headers,
    ...(body !== undefined ? { body } : {}),
    timeoutMs: 0,
  };
}

/** What the served recordings answer: the recorded answer, events, the agent's refusal, or a 404 naming the closest. */
class Answers {
  readonly agent: RecordedAgent;
  readonly log: RequestLog;
  readonly counts = { served: 0, fromState: 0, missed: 0 };
  /** the long polls open, with the request each answers (`url` as the client sent it) */
  readonly polls = new Set<{ timer: NodeJS.Timeout; res: http.ServerResponse; url: string }>();
  /** --stateful: what the state answers before the recordings */
  private readonly stateful: StatefulAgent | undefined;
  /** the faults in force (--fault, and the control endpoint of --faults) */
  private readonly faults: Faults | undefined;
  private readonly events: EventLog;
  /** the agent's answers to requests without the right key */
  private readonly refusals: HarEntry[];
  private readonly eventHeaders: HarEntry['response']['headers'];
  private readonly say: (line: string) => void;
  /** serving on a loopback address: the agent then checks the Host header */
  private readonly onLoopback: boolean;
  private readonly agentVersion: string | undefined;
  /** --stateful: a client shut the agent down; every later request is reset, as by a process that is gone */
  private shutDown = false;
  /** the routes the recordings show, for the router's redirect of a path differing in case or a trailing slash */
  private readonly routes: RouteTable;

  constructor(
    private readonly opts: ServeOptions,
    rec: ReturnType<typeof loadRecordings>,
  ) {
    const redactor = new Redactor([opts.apiKey]);
    this.agent = new RecordedAgent(rec, redactor);
    this.events = new EventLog(this.agent.entries);
    this.log = new RequestLog(opts.logFile, redactor, opts.apiKey, opts.onLine, opts.logFailure);
    this.faults =
      opts.faultControl || opts.faults?.length ? new Faults(opts.faults ?? [], opts.faultSeed ?? 1) : undefined;
    this.stateful = opts.stateful
      ? new StatefulAgent(this.agent.entries, this.events, rec.agentVersion ?? undefined)
      : undefined;
    this.refusals = this.agent.entries.filter(
      (e) => (e.response.status === 401 || e.response.status === 403) && recordedKey(e) !== API_KEY,
    );
    this.eventHeaders = this.agent.entries.find(
      (e) => e.response.status === 200 && new URL(e.request.url).pathname === '/rest/events',
    )?.response.headers ?? [{ name: 'content-type', value: 'application/json; charset=utf-8' }];
    this.say = opts.onLine ?? (() => {});
    this.onLoopback = isLocalhost(opts.host.includes(':') ? `[${opts.host}]` : opts.host);
    this.agentVersion = rec.agentVersion ?? undefined;
    this.routes = new RouteTable(this.agent.entries, this.stateful?.routes);
  }

  private recorded(e: HarEntry): IncomingResponse {
    return {
      status: e.response.status,
      headers: Object.fromEntries(
        e.response.headers
          .filter((h) => !TRANSFER_HEADERS.has(h.name.toLowerCase()))
          .map((h) => [h.name, h.value.split(API_KEY).join(this.opts.apiKey)]),
      ),
      body: e.response.content.text.split(API_KEY).join(this.opts.apiKey),
    };
  }

  private refusal(req: OutgoingRequest): HarEntry | undefined {
    const path = new URL(req.url, 'http://agent').pathname;
    return (
      this.refusals.find((e) => e.request.method === req.method && new URL(e.request.url).pathname === path) ??
      this.refusals[0]
    );
  }

  private missText(req: OutgoingRequest): string {
    const closest = this.agent.closest(req);
    return (
      `${MISS_PREFIX}${req.method} ${pathOf(req.url)} in ${this.opts.dir}\n` +
      (closest
        ? `closest recorded: ${describeEntry(closest.entry).replace(/ on agent$/, '')} (${this.agent.originOf(closest.entry)})\ndiffers in: ${closest.differs}\n`
        : 'the recordings hold no request of the agent\n')
    );
  }

  /** GET /rest/events (`disk`: /rest/events/disk): the recorded events after `since`; none new holds the request for
   * its timeout. `url`: the path as routed, the query as sent */
  private eventsAnswer(url: URL, disk: boolean, res: http.ServerResponse, done: (r: IncomingResponse) => void): void {
    const int = (name: string, fallback: number) => {
      const v = url.searchParams.get(name);
      return v === null || v === '' ? fallback : Number.parseInt(v, 10);
    };
    const since = int('since', 0);
    const timeoutS = int('timeout', DEFAULT_EVENT_TIMEOUT_S);
    const limit = int('limit', 0);
    if ([since, timeoutS, limit].some(Number.isNaN))
      return done({
        status: 400,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: 'Invalid since, timeout or limit\n',
      });
    const types = url.searchParams.get('events')?.split(',').filter(Boolean);
    const list = this.events.query({ disk, types, since, limit });
    const answer = (items: unknown[]) =>
      done({
        status: 200,
        headers: Object.fromEntries(
          this.eventHeaders.filter((h) => !TRANSFER_HEADERS.has(h.name.toLowerCase())).map((h) => [h.name, h.value]),
        ),
        body: JSON.stringify(items, null, 2) + '\n',
      });
    if (list.length || timeoutS <= 0) return answer(list);
    // Nothing new: the agent holds the request for its timeout, or until an event it asked for comes (a write of
    // --stateful; without it nothing new ever comes).
    const end = () => {
      clearTimeout(poll.timer);
      stopWatching();
      this.polls.delete(poll);
    };
    const stopWatching = this.events.onAppend(() => {
      const fresh = this.events.query({ disk, types, since, limit });
      if (!fresh.length) return;
      end();
      answer(fresh);
    });
    const poll = {
      res,
      url: url.pathname + url.search,
      timer: setTimeout(() => {
        end();
        answer([]);
      }, timeoutS * 1000),
    };
    this.polls.add(poll);
    res.on('close', end);
  }

  /** an answer the state gave: counted, and said to the proxy (which tells the model's answer from a recorded one) */
  private fromState(req: OutgoingRequest, rule: string): void {
    this.counts.fromState++;
    this.opts.onState?.(req.method, req.url, rule);
  }

  /** an agent restart (a fault, or a client's POST /rest/system/restart or /shutdown of --stateful): every open long
   * poll ends without an answer, as its connection is reset */
  private restart(fault = true): void {
    for (const poll of [...this.polls]) {
      clearTimeout(poll.timer);
      this.polls.delete(poll);
      if (fault) this.opts.onFault?.('GET', poll.url, 'restart, which ended this long poll');
      reset(poll.res);
    }
  }

  /** the router's redirect to the route a path differs from in case or by a trailing slash (fixed-path.ts), asked
   * after the key as the other redirects */
  private fixedRoute(req: OutgoingRequest, path: string, authorized: boolean): IncomingResponse | undefined {
    if (!authorized && path.startsWith('/rest')) return undefined;
    const fixed = this.routes.fixedPath(req.method, path);
    if (fixed === undefined) return undefined;
    const at = req.url.indexOf('?');
    return routerRedirect(req.method, encodedPath(fixed) + (at < 0 ? '' : req.url.slice(at)));
  }

  /** answers one request (its body read), logs it and counts it; every decision on its path as the agent routes it */
  answer(req: OutgoingRequest, res: http.ServerResponse): void {
    const startedAt = new Date();
    const t0 = performance.now();
    const authorized = req.headers['X-API-Key'] === this.opts.apiKey;
    const route = targetRoute(req.url);
    const path = 'path' in route ? route.path : pathOf(req.url);
    const control = this.opts.faultControl && this.faults && path === CONTROL_PATH;
    const fault = control ? undefined : this.faults?.pick(path);
    if (fault) {
      this.say(`${req.method} ${req.url}: fault ${describeFault(fault)}`);
      this.opts.onFault?.(req.method, req.url, describeFault(fault));
    }
    if (fault?.mode === 'restart') this.restart();
    const finish = (outcome: Outcome, given?: IncomingResponse, error?: Exchange['error']) => {
      const response = fault?.mode === 'status' ? faultStatus(fault) : given;
      if (fault) outcome = { ...outcome, fault: describeFault(fault) };
      const x: Exchange = {
        request: req,
        startedAt: startedAt.toISOString(),
        durationMs: performance.now() - t0,
        ...(response ? { response } : {}),
        ...(error ? { error } : {}),
      };
      this.log.add(x, outcome);
      if (outcome.served === 'miss') this.counts.missed++;
      else if (outcome.served !== 'control') this.counts.served++;
      if (outcome.served === 'state') this.fromState(req, outcome.origin!);
      // the recorded agent gave no answer (it was restarting or gone), or the agent restarts now
      if (!response || fault?.mode === 'restart') return void reset(res);
      deliver(res, response, fault);
    };

    if (control)
      return finish({ served: 'control' }, controlAnswer(this.faults!, req.method, req.body, this.polls.size));
    if (this.shutDown) return finish({ served: 'agent', origin: 'the agent was shut down' }, undefined, GONE);
    if ('badRequest' in route)
      return finish(
        { served: 'agent', origin: "what the agent's HTTP server answers a path it cannot read" },
        BAD_REQUEST,
      );
    // the recordings and the state are asked as the agent routes the request: its path decoded
    const routed: OutgoingRequest = { ...req, url: route.asRecorded };
    const gate = gateAnswer(req.method, path, req.headers.host, this.onLoopback);
    if (gate && !(gate.status === 200 && this.agent.answer(routed)))
      return finish({ served: 'agent', origin: 'what the agent answers before any handler' }, gate);
    // the key is asked first of a path under /rest (the agent's CSRF guard reads r.URL.Path), the redirect then
    if (route.redirect && (authorized || !path.startsWith('/rest')))
      return finish(
        { served: 'agent', origin: 'the agent redirects a path that is not clean' },
        redirectAnswer(req.method, route.redirect, this.agentVersion),
      );
    const fixed = route.redirect ? undefined : this.fixedRoute(req, path, authorized);
    if (fixed)
      return finish(
        { served: 'agent', origin: 'the agent redirects a path differing from its route in case or a trailing slash' },
        fixed,
      );
    if (req.method === 'GET' && authorized && !route.redirect && /^\/rest\/events(\/disk)?$/.test(path)) {
      const url = new URL(route.asRecorded, 'http://agent');
      return this.eventsAnswer(url, path.endsWith('/disk'), res, (r) => finish({ served: 'events' }, r));
    }
    this.answerRest(req, routed, path, authorized, finish);
  }

  /** what the state, the recordings or the agent's refusal answer, else a miss */
  private answerRest(
    req: OutgoingRequest,
    routed: OutgoingRequest,
    path: string,
    authorized: boolean,
    finish: (outcome: Outcome, given?: IncomingResponse, error?: Exchange['error']) => void,
  ): void {
    const fromState = authorized ? this.stateful?.answer(routed, path) : undefined;
    if (fromState) {
      finish({ served: 'state', origin: fromState.rule }, fromState.response);
      // the agent answered, then starts again or stops: its open long polls end; stopped, it answers nothing more
      if (fromState.after) this.restart(false);
      if (fromState.after === 'shutdown') this.shutDown = true;
      return;
    }
    // the placeholder stands for the key in the recordings; sent as a key, it is a wrong key, never a match
    const placeholder = !authorized && req.headers['X-API-Key'] === API_KEY;
    const entry = placeholder ? undefined : this.agent.answer(routed);
    if (entry) {
      const origin = this.agent.originOf(entry);
      if (entry._error) {
        this.say(`${req.method} ${pathOf(req.url)}: connection closed, as recorded (${entry._error.code}, ${origin})`);
        this.opts.onRecordedDrop?.(req.method, req.url, origin);
      }
      return finish({ served: 'recorded', origin }, entry._error ? undefined : this.recorded(entry), entry._error);
    }
    const refused = authorized ? undefined : this.refusal(routed);
    if (refused) return finish({ served: 'refusal', origin: this.agent.originOf(refused) }, this.recorded(refused));
    const text = this.missText(req);
    this.say(text.trimEnd().replace(/\n/g, '; '));
    finish(
      { served: 'miss', miss: text },
      { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: text },
    );
  }
}

/** listens on --host/--port; a port in use or an address not of this machine is the user's error */
async function listen(server: http.Server, opts: ServeOptions): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'EADDRINUSE'
          ? new UsageError(`${opts.host}:${opts.port} is in use (give another --port, or 0 for any free one)`)
          : e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND'
            ? new UsageError(`--host ${opts.host}: not an address of this machine`)
            : e,
      ),
    );
    server.listen(opts.port, opts.host, () => resolve());
  });
}

export async function startServer(opts: ServeOptions): Promise<Server> {
  const rec = opts.recordings ?? loadRecordings(opts.dir);
  const answers = new Answers(opts, rec);
  // node:http loaded here, not by every command that loads the engine (see transport/live.ts)
  const server = process.getBuiltinModule('node:http').createServer((inc, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    inc.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_REQUEST_BODY) return void chunks.push(c);
      // refused as it arrives: a 60 MB POST is never buffered, matched or redacted while other clients wait
      if (!res.headersSent) {
        res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
        res.end(`request body over ${MAX_REQUEST_BODY / 1024 / 1024} MiB\n`);
        opts.onLine?.(
          `${inc.method} ${pathOf(inc.url ?? '/')}: request body over ${MAX_REQUEST_BODY / 1024 / 1024} MiB, refused (413)`,
        );
      }
      inc.destroy();
    });
    inc.on('end', () => {
      if (size <= MAX_REQUEST_BODY) answers.answer(outgoing(inc, chunks), res);
    });
  });
  await listen(server, opts);
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;

  return {
    url: `http://${host}:${port}`,
    apiKey: opts.apiKey,
    agentVersion: rec.agentVersion,
    recorded: answers.agent.entries.length,
    counts: answers.counts,
    async close() {
      for (const p of answers.polls) {
        clearTimeout(p.timer);
        p.res.destroy();
      }
      answers.polls.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      answers.log.write();
    },
  };
}
