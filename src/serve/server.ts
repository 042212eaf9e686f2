// `synconf serve`: a recordings folder answering over HTTP as the agent it recorded. Requests are
// matched by the cassette matcher replay uses (recorded-agent.ts chooses among scenarios), the API
// key is enforced as the agent enforces it (its recorded 403), events are served from the recorded
// ones with a real long poll, and a request nothing answers is a 404 naming the closest recorded one.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HarEntry } from '../schema/generated/types.js';
import type { Exchange, IncomingResponse, OutgoingRequest } from '../transport/types.js';
import { describeEntry } from '../transport/cassette.js';
import { Redactor, API_KEY } from '../transport/redact.js';
import { loadRecordings } from './recordings.js';
import { EventLog } from './events.js';
import { RecordedAgent } from './recorded-agent.js';
import { RequestLog, type Outcome } from './request-log.js';
import { UsageError } from '../errors.js';

export interface ServeOptions {
  dir: string;
  host: string;
  /** 0: any free port */
  port: number;
  apiKey: string;
  /** the request log (HAR) */
  logFile: string;
  /** one line per miss (and per refused connection), for the terminal */
  onLine?: (line: string) => void;
}

export interface Server {
  url: string;
  apiKey: string;
  agentVersion: string | null;
  recorded: number;
  counts: { served: number; missed: number };
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
const DEFAULT_EVENT_TIMEOUT_S = 60; // the agent's default for a long poll

const recordedKey = (e: HarEntry) => e.request.headers.find((h) => h.name.toLowerCase() === 'x-api-key')?.value;

// eslint-disable-next-line max-lines-per-function -- to be split (issue 19)
export async function startServer(opts: ServeOptions): Promise<Server> {
  const rec = loadRecordings(opts.dir);
  const redactor = new Redactor([opts.apiKey]);
  const agent = new RecordedAgent(rec, redactor);
  const events = new EventLog(agent.entries);
  const log = new RequestLog(opts.logFile, redactor);
  // the agent's answers to requests without the right key
  const refusals = agent.entries.filter(
    (e) => (e.response.status === 401 || e.response.status === 403) && recordedKey(e) !== API_KEY,
  );
  const eventHeaders = agent.entries.find(
    (e) => e.response.status === 200 && new URL(e.request.url).pathname === '/rest/events',
  )?.response.headers ?? [{ name: 'content-type', value: 'application/json; charset=utf-8' }];
  const counts = { served: 0, missed: 0 };
  const polls = new Set<{ timer: NodeJS.Timeout; res: http.ServerResponse }>();
  const say = opts.onLine ?? (() => {});

  const recorded = (e: HarEntry): IncomingResponse => ({
    status: e.response.status,
    headers: Object.fromEntries(
      e.response.headers
        .filter((h) => !TRANSFER_HEADERS.has(h.name.toLowerCase()))
        .map((h) => [h.name, h.value.split(API_KEY).join(opts.apiKey)]),
    ),
    body: e.response.content.text.split(API_KEY).join(opts.apiKey),
  });

  function refusal(req: OutgoingRequest): HarEntry | undefined {
    const path = new URL(req.url, 'http://agent').pathname;
    return (
      refusals.find((e) => e.request.method === req.method && new URL(e.request.url).pathname === path) ?? refusals[0]
    );
  }

  function missText(req: OutgoingRequest): string {
    const closest = agent.closest(req);
    return (
      `synconf serve: no recorded answer to ${req.method} ${req.url} in ${opts.dir}\n` +
      (closest
        ? `closest recorded: ${describeEntry(closest.entry).replace(/ on agent$/, '')} (${agent.originOf(closest.entry)})\ndiffers in: ${closest.differs}\n`
        : 'the recordings hold no request of the agent\n')
    );
  }

  function eventsAnswer(url: URL, res: http.ServerResponse, done: (r: IncomingResponse) => void): void {
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
    const list = events.query({ disk: url.pathname.endsWith('/disk'), types, since, limit });
    const answer = (items: unknown[]) =>
      done({
        status: 200,
        headers: Object.fromEntries(
          eventHeaders.filter((h) => !TRANSFER_HEADERS.has(h.name.toLowerCase())).map((h) => [h.name, h.value]),
        ),
        body: JSON.stringify(items, null, 2) + '\n',
      });
    if (list.length || timeoutS <= 0) return answer(list);
    // Nothing new: the agent holds the request for its timeout, and nothing new will come.
    const poll = {
      res,
      timer: setTimeout(() => {
        polls.delete(poll);
        answer([]);
      }, timeoutS * 1000),
    };
    polls.add(poll);
    res.on('close', () => {
      clearTimeout(poll.timer);
      polls.delete(poll);
    });
  }

  const server = http.createServer((inc, res) => {
    const chunks: Buffer[] = [];
    inc.on('data', (c: Buffer) => chunks.push(c));
    inc.on('end', () => {
      const startedAt = new Date();
      const t0 = performance.now();
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(inc.headers))
        if (value !== undefined && name !== 'x-api-key')
          headers[name] = Array.isArray(value) ? value.join(', ') : value;
      const key = inc.headers['x-api-key'];
      if (typeof key === 'string') headers['X-API-Key'] = key;
      const body = chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined;
      const req: OutgoingRequest = {
        target: 'agent',
        method: inc.method ?? 'GET',
        url: inc.url ?? '/',
        headers,
        ...(body !== undefined ? { body } : {}),
        timeoutMs: 0,
      };
      const authorized = key === opts.apiKey;
      const finish = (outcome: Outcome, response?: IncomingResponse, error?: Exchange['error']) => {
        const x: Exchange = {
          request: req,
          startedAt: startedAt.toISOString(),
          durationMs: performance.now() - t0,
          ...(response ? { response } : {}),
          ...(error ? { error } : {}),
        };
        log.add(x, outcome);
        if (outcome.served === 'miss') counts.missed++;
        else counts.served++;
        if (!response) return void res.destroy(); // the recorded agent gave no answer (it was restarting or gone)
        res.writeHead(response.status, response.headers);
        res.end(response.body);
      };

      const url = new URL(req.url, 'http://agent');
      if (req.method === 'GET' && authorized && /^\/rest\/events(\/disk)?$/.test(url.pathname)) {
        return eventsAnswer(url, res, (r) => finish({ served: 'events' }, r));
      }
      const entry = agent.answer(req);
      if (entry) {
        const origin = agent.originOf(entry);
        if (entry._error)
          say(`${req.method} ${req.url}: connection closed, as recorded (${entry._error.code}, ${origin})`);
        return finish({ served: 'recorded', origin }, entry._error ? undefined : recorded(entry), entry._error);
      }
      const refused = authorized ? undefined : refusal(req);
      if (refused) return finish({ served: 'refusal', origin: agent.originOf(refused) }, recorded(refused));
      const text = missText(req);
      say(text.trimEnd().replace(/\n/g, '; '));
      finish(
        { served: 'miss', miss: text },
        { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: text },
      );
    });
  });

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
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;

  return {
    url: `http://${host}:${port}`,
    apiKey: opts.apiKey,
    agentVersion: rec.agentVersion,
    recorded: agent.entries.length,
    counts,
    async close() {
      for (const p of polls) {
        clearTimeout(p.timer);
        p.res.destroy();
      }
      polls.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      log.write();
    },
  };
}
