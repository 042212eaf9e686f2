// A fake agent for the runner's tests: a node:http server on 127.0.0.1 (port 0) that answers WRONGLY
// on purpose. It plays only the faults a real Syncthing cannot be made to show on demand (a wrong
// status or media type, a broken document, garbage bytes, a hang, a reset, a refused connection, a
// scripted event stream, a restart whose event ids start again at 1). Real behaviour is tested
// against the lab (tests/support/lab.ts).
//
// It answers what `synconf run --agent` needs — GET /rest/system/version (version configurable, to
// test version gates), /rest/system/status, /rest/config — plus ping and an event stream on
// GET /rest/events; every other route is 404 "404 page not found" as Go's mux says, until a test
// routes it:
//
//   fake.route('GET /rest/system/ping', json({ ping: 'pong' }, { status: 500 }));
//   fake.route('GET /rest/db/status', [json({ state: 'syncing' }), json({ state: 'idle' })]); // one per call, the last repeats
//   fake.route('GET /rest/system/browse', hang());
//   fake.route('POST /rest/system/restart', restart({ downMs: 200 }));
import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const FAKE_API_KEY = 'fake-agent-api-key-0123456789';
export const FAKE_DEVICE_ID = 'UFWNNAP-PLUMUCN-3L4R5CX-FYMVTE6-PYNEUE4-TO5RCFJ-OXPCX36-NAJPMQB';

/** A request as the fake received it. */
export interface FakeRequest {
  method: string;
  /** path without the query */
  path: string;
  query: URLSearchParams;
  /** path and query as sent */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** which life of the fake answered it (0, then 1 after the first restart, …) */
  generation: number;
  /** performance.now() when it arrived */
  at: number;
}

/** What the fake does with one request. */
export interface Reply {
  readonly describe: string;
  act(res: ServerResponse, req: FakeRequest, fake: FakeAgent): void;
}

/** a route: one reply for every call, one per call (the last repeats), or a function of the request and the call number (1, 2, …) */
export type Route = Reply | Reply[] | ((req: FakeRequest, call: number) => Reply);

interface BodyOptions {
  status?: number;
  /** null: no Content-Type header at all */
  contentType?: string | null;
  headers?: Record<string, string>;
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string | null,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  // Go's net/http always says Date and Content-Length; so does the fake. Without a type it sends none.
  res.statusCode = status;
  if (contentType !== null) res.setHeader('Content-Type', contentType);
  else res.removeHeader('Content-Type');
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/** a JSON body (default 200, application/json; charset=utf-8, as Syncthing sends) */
export function json(body: unknown, opts: BodyOptions = {}): Reply {
  const text = JSON.stringify(body, null, 2) + '\n';
  return {
    describe: `json ${opts.status ?? 200}`,
    act: (res) =>
      send(
        res,
        opts.status ?? 200,
        opts.contentType === undefined ? 'application/json; charset=utf-8' : opts.contentType,
        text,
        opts.headers,
      ),
  };
}

/** a text body sent as is (default 200, text/plain; charset=utf-8); with contentType application/json it is a broken JSON document */
export function text(body: string, opts: BodyOptions = {}): Reply {
  return {
    describe: `text ${opts.status ?? 200}`,
    act: (res) =>
      send(
        res,
        opts.status ?? 200,
        opts.contentType === undefined ? 'text/plain; charset=utf-8' : opts.contentType,
        body,
        opts.headers,
      ),
  };
}

/** bytes that are not HTTP at all, written on the socket, which is then closed */
export function garbage(bytes: string | Buffer = '\x00\x01SSH-2.0-not-http \xff\xfe\r\n\r\n'): Reply {
  return {
    describe: 'garbage',
    act: (res) => {
      const socket = res.socket!;
      res.detachSocket(socket); // the server must not write a response of its own on it
      socket.end(bytes);
    },
  };
}

/** a valid status line and headers, then part of the promised body, then the connection closes */
export function truncated(body: string, promisedLength = Buffer.byteLength(body) * 2 + 10): Reply {
  return {
    describe: 'truncated',
    act: (res) => {
      const socket = res.socket!;
      res.detachSocket(socket);
      socket.end(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${promisedLength}\r\n\r\n${body}`,
      );
    },
  };
}

/** status line and headers, part of the body, then nothing more (the connection stays open) */
export function stall(body = '{"ping":'): Reply {
  return {
    describe: 'stall',
    act: (res) => {
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(body) + 100),
      });
      res.write(body);
    },
  };
}

/** never answer (the fake destroys the connection when it closes) */
export function hang(): Reply {
  return { describe: 'hang', act: () => {} };
}

/** close the connection without an answer (socket.destroy()) */
export function reset(): Reply {
  return { describe: 'reset', act: (res) => res.socket?.destroy() };
}

/** die: stop listening (from now on connections are refused) and drop every connection, this one included; `revive` restarts it after that many ms */
export function die(revive?: { afterMs: number; resetEvents?: boolean }): Reply {
  return {
    describe: 'die',
    act: (_res, _req, fake) => {
      fake.down();
      if (revive) setTimeout(() => void fake.up({ resetEvents: revive.resetEvents ?? true }), revive.afterMs).unref();
    },
  };
}

/** answer first (with Connection: close), then go down; with downMs come back after that long as a new process (event ids start again at 1) */
export function thenDie(reply: Reply, downMs?: number): Reply {
  return {
    describe: `${reply.describe}, then die`,
    act: (res, req, fake) => {
      res.setHeader('Connection', 'close');
      res.on('finish', () => {
        fake.down();
        if (downMs !== undefined) setTimeout(() => void fake.up({ resetEvents: true }), downMs).unref();
      });
      reply.act(res, req, fake);
    },
  };
}

/** POST /rest/system/restart as Syncthing answers it, then down for downMs, then a fresh process */
export const restart = (opts: { downMs: number }) => thenDie(json({ ok: 'restarting' }), opts.downMs);
/** POST /rest/system/shutdown as Syncthing answers it, then down for good */
export const shutdown = () => thenDie(json({ ok: 'shutting down' }));

export interface FakeEvent {
  id: number;
  globalID: number;
  time: string;
  type: string;
  data: unknown;
}
export interface EventPoll {
  since: number;
  types: string[];
  timeoutS: number;
  generation: number;
  /** polls of this generation, 1-based */ n: number;
}

/**
 * The event stream of GET /rest/events?since=&events=&timeout=: events with an id above `since` whose
 * type is in the mask; with none, the request is held until one is emitted or `timeout` seconds pass
 * (as Syncthing does). `onPoll` runs before each poll is answered and may emit events.
 */
export class EventStream {
  private log: FakeEvent[] = [];
  private nextId = 1;
  private waiting = new Set<{ since: number; types: string[]; wake: () => void }>();
  readonly polls: EventPoll[] = [];
  onPoll?: (poll: EventPoll, stream: EventStream) => void;

  emit(type: string, data: unknown = {}): FakeEvent {
    const ev = { id: this.nextId, globalID: this.nextId, time: new Date().toISOString(), type, data };
    this.nextId++;
    this.log.push(ev);
    for (const w of this.waiting) if (this.matching(w.since, w.types).length) w.wake();
    return ev;
  }

  /** a new process: the log is empty and ids start again at 1 */
  restart(): void {
    this.log = [];
    this.nextId = 1;
  }

  clear(): void {
    this.restart();
    this.polls.length = 0;
    this.onPoll = undefined;
    for (const w of this.waiting) w.wake();
  }

  matching(since: number, types: string[]): FakeEvent[] {
    return this.log.filter((e) => e.id > since && (types.length === 0 || types.includes(e.type)));
  }

  /** the route of GET /rest/events */
  reply(): Reply {
    return {
      describe: 'events',
      act: (res, req, fake) => {
        const since = Number(req.query.get('since') ?? 0);
        const types = (req.query.get('events') ?? '').split(',').filter(Boolean);
        const timeoutS = Number(req.query.get('timeout') ?? 60);
        const poll: EventPoll = {
          since,
          types,
          timeoutS,
          generation: fake.generation,
          n: this.polls.filter((p) => p.generation === fake.generation).length + 1,
        };
        this.polls.push(poll);
        this.onPoll?.(poll, this);
        const answer = () => json(this.matching(since, types)).act(res, req, fake);
        if (this.matching(since, types).length || timeoutS <= 0) return answer();
        const w = {
          since,
          types,
          wake: () => {
            clearTimeout(timer);
            this.waiting.delete(w);
            if (!res.writableEnded && !res.destroyed) answer();
          },
        };
        const timer = setTimeout(w.wake, timeoutS * 1000);
        this.waiting.add(w);
        res.on('close', () => {
          clearTimeout(timer);
          this.waiting.delete(w);
        });
      },
    };
  }
}

export interface FakeAgentOptions {
  /** what GET /rest/system/version says (default v9.9.9) */
  version?: string;
  apiKey?: string;
  deviceId?: string;
}

/** a system status document that is valid for the spec */
export function systemStatus(deviceId = FAKE_DEVICE_ID): Record<string, unknown> {
  return {
    alloc: 33492944,
    connectionServiceStatus: {
      'tcp://127.0.0.1:28001': {
        error: null,
        lanAddresses: ['tcp://127.0.0.1:28001'],
        wanAddresses: ['tcp://0.0.0.0:0'],
      },
    },
    cpuPercent: 0,
    discoveryEnabled: false,
    discoveryErrors: {},
    discoveryMethods: 0,
    goroutines: 93,
    lastDialStatus: {},
    myID: deviceId,
    pathSeparator: '/',
    startTime: '2026-11-22T04:16:51Z',
    sys: 62325016,
    themes: ['default', 'dark'],
    tilde: '/root',
    uptime: 295,
  };
}

export class FakeAgent {
  readonly server: http.Server;
  readonly requests: FakeRequest[] = [];
  readonly events = new EventStream();
  readonly apiKey: string;
  readonly deviceId: string;
  version: string;
  /** answer 403 to requests without the right X-API-Key (as Syncthing does) */
  requireKey = true;
  /** 0, and +1 on every up() after a down() */
  generation = 0;
  port = 0;
  private routes = new Map<string, Route>();
  private calls = new Map<string, number>();
  private sockets = new Set<Socket>();
  private listening = false;

  constructor(opts: FakeAgentOptions = {}) {
    this.version = opts.version ?? 'v9.9.9';
    this.apiKey = opts.apiKey ?? FAKE_API_KEY;
    this.deviceId = opts.deviceId ?? FAKE_DEVICE_ID;
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    this.defaults();
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** start listening (the first time on a free port, later on the same one) */
  async up(opts: { resetEvents?: boolean } = {}): Promise<void> {
    if (this.listening) return;
    if (this.port !== 0) this.generation++;
    if (opts.resetEvents) {
      // a new process: its event ids start again at 1, after its own start-up events
      this.events.restart();
      this.events.emit('Starting', { home: '/fake' });
      this.events.emit('StartupComplete', {});
    }
    this.listening = true;
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      // With a numeric host the socket is bound and listening when listen() returns.
      this.server.listen(this.port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** stop listening and drop every connection: from now on connections are refused */
  down(): void {
    if (!this.listening) return;
    this.listening = false;
    this.server.close();
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  async close(): Promise<void> {
    this.down();
    this.events.clear();
  }

  /** route "METHOD /path" (query ignored) to a reply; replaces a route of that name */
  route(key: string, route: Route): this {
    if (!/^[A-Z]+ \//.test(key)) throw new Error(`fake agent: route "${key}" is not "METHOD /path"`);
    this.routes.set(key, route);
    this.calls.delete(key);
    return this;
  }

  /** back to the built-in routes, no recorded requests, an empty event stream, the given version */
  reset(opts: { version?: string } = {}): void {
    this.routes.clear();
    this.calls.clear();
    this.requests.length = 0;
    this.events.clear();
    this.version = opts.version ?? 'v9.9.9';
    this.requireKey = true;
    this.defaults();
  }

  /** requests received for "METHOD /path" (or every request) */
  received(key?: string): FakeRequest[] {
    return key ? this.requests.filter((r) => `${r.method} ${r.path}` === key) : [...this.requests];
  }

  private defaults(): void {
    this.route('GET /rest/system/version', () =>
      json({
        arch: 'amd64',
        longVersion: `syncthing ${this.version} "Fake Agent" (go1.22 linux-amd64) synconf@test`,
        os: 'linux',
        version: this.version,
        codename: 'Fake Agent',
        isBeta: false,
        isCandidate: false,
        isRelease: true,
        date: '2026-01-01T00:00:00Z',
        stamp: '1767225600',
        tags: [],
        user: 'synconf',
      }),
    );
    this.route('GET /rest/system/status', () =>
      json(systemStatus(this.deviceId), { headers: { 'X-Syncthing-Id': this.deviceId } }),
    );
    this.route('GET /rest/config', () =>
      json({
        version: 37,
        folders: [
          {
            id: 'abcd-1234',
            label: 'fake',
            path: '/tmp/fake',
            type: 'sendreceive',
            devices: [{ deviceID: this.deviceId }],
            paused: false,
          },
        ],
        devices: [{ deviceID: this.deviceId, name: 'fake' }],
        gui: { enabled: true, address: '127.0.0.1:8384', apiKey: this.apiKey },
        options: { listenAddresses: ['tcp://127.0.0.1:22000'] },
      }),
    );
    this.route('GET /rest/system/ping', json({ ping: 'pong' }));
    this.route('POST /rest/system/ping', json({ ping: 'pong' }));
    this.route('GET /rest/events', this.events.reply());
  }

  private handle(req: http.IncomingMessage, res: ServerResponse, body: string): void {
    const u = new URL(req.url ?? '/', 'http://fake');
    const r: FakeRequest = {
      method: req.method ?? 'GET',
      path: u.pathname,
      query: u.searchParams,
      url: req.url ?? '/',
      headers: req.headers,
      body,
      generation: this.generation,
      at: performance.now(),
    };
    this.requests.push(r);
    res.setHeader('X-Syncthing-Id', this.deviceId);
    res.setHeader('X-Syncthing-Version', this.version);
    if (this.requireKey && req.headers['x-api-key'] !== this.apiKey)
      return send(res, 403, 'text/plain; charset=utf-8', 'Forbidden\n');
    const key = `${r.method} ${r.path}`;
    const route = this.routes.get(key);
    if (!route) return send(res, 404, 'text/plain; charset=utf-8', '404 page not found\n');
    const call = (this.calls.get(key) ?? 0) + 1;
    this.calls.set(key, call);
    const reply =
      typeof route === 'function'
        ? route(r, call)
        : Array.isArray(route)
          ? route[Math.min(call, route.length) - 1]
          : route;
    reply.act(res, r, this);
  }
}

/** a fake agent listening on 127.0.0.1 and a free port */
export async function startFakeAgent(opts: FakeAgentOptions = {}): Promise<FakeAgent> {
  const fake = new FakeAgent(opts);
  await fake.up();
  return fake;
}
