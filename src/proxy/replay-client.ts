// A client's session, asked again of another agent: each request of the session's HAR sent in its order, with the
// other agent's key instead of the credentials the client had (cookies and CSRF tokens of a web GUI belong to the old
// agent), so that `synconf drift --against` compares the two agents' answers to the same client, exchange by exchange
// (each keeps its step, "#12"). Requests that would end, reset or reconfigure the agent are not asked, judged on the
// path as the agent routes it (agent-route.ts); long polls wait a second.
import type { HarEntry } from '../schema/generated/types.js';
import type { Exchange, OutgoingRequest } from '../transport/types.js';
import { LiveTransport } from '../transport/live.js';
import { toEntry } from '../transport/cassette.js';
import type { Redactor } from '../transport/redact.js';
import { agentRoute, changesAgent, neverAsked } from '../transport/agent-route.js';

/** what redaction left in a body: asked again, the placeholder would be stored as a key or a password */
const PLACEHOLDER = /<(API_KEY|PASSWORD_HASH|PASSWORD|REDACTED)>/;
/** the headers a client's request keeps: what it says of its body and what it accepts, no credential or host */
const KEPT_HEADERS = new Set(['content-type', 'accept', 'accept-encoding']);
/** how long each request may take when the caller names no time (drift gives its --timeout) */
const TIMEOUT_MS = 30_000;

export interface ReplayedSession {
  entries: HarEntry[];
  /** requests of the session not asked, each "METHOD /path: why" */
  skipped: string[];
}

/**
 * The framing of the client's body, as the client framed it: chunked, or its length (counted again from the body
 * kept). Without it node sends a GET's body bare, and the agent reads those bytes as the next request (a 400 that
 * came from the replaying, not from the version: node-syncthing sends `""` on every GET).
 */
function framingOf(e: HarEntry): Record<string, string> {
  const sent = (name: string) => e.request.headers.find((h) => h.name.toLowerCase() === name)?.value;
  if (/\bchunked\b/i.test(sent('transfer-encoding') ?? '')) return { 'Transfer-Encoding': 'chunked' };
  const body = e.request.postData?.text;
  if (body !== undefined || sent('content-length') !== undefined)
    return { 'Content-Length': String(Buffer.byteLength(body ?? '')) };
  return {};
}

/** an exchange synconf made in the session, not the agent (HarEntry _note): nothing of the agent's to compare */
const NOT_THE_AGENTS: Partial<Record<NonNullable<HarEntry['_note']>, string>> = {
  fault: "a fault synconf injected in the session (the recordings' --fault, --faults) made its answer",
  'recorded-drop': 'the recordings standing in for the agent dropped it as recorded in the session',
  cut: 'its answer was kept cut in the session: nothing whole to compare',
};

/** how the session is asked again: each request's bound, and whether the agent may be changed */
export interface AskOptions {
  timeoutMs: number;
  /** false for an agent synconf did not start, unless the user said --allow-writes: its writes are not asked */
  writes: boolean;
}

/** the request of an entry as it is asked again: path and query, the body, and the other agent's key */
function requestOf(e: HarEntry, apiKey: string, ask: AskOptions): OutgoingRequest | string {
  const url = new URL(e.request.url);
  if (e._refused !== undefined) return 'the proxy refused it (--errors refuse): the agent never saw it';
  const synconfs = e._note && NOT_THE_AGENTS[e._note];
  if (synconfs) return synconfs;
  if (e._error?.code === 'aborted') return 'the agent broke off its answer in the session: nothing to compare';
  // a long poll still open when the session stopped has no answer to compare: asked again it answers, 'stopped → 200'
  if (e._error?.code === 'stopped') return "the proxy's stop cut it in the session: nothing to compare";
  const route = agentRoute(e.request.method, url.pathname);
  if ('undecidable' in route) return `${route.undecidable}: where the agent would route it cannot be told`;
  const harm = neverAsked(route);
  if (harm) return harm;
  if (!/^\/rest\//i.test(route.path)) return 'not the REST API (pages and assets of a web GUI)';
  if (!ask.writes && changesAgent(route))
    return 'it would change an agent synconf did not start (its configuration, folders, pauses, ignores or data); --allow-writes asks it';
  if (e.request.postData && PLACEHOLDER.test(e.request.postData.text)) return 'its body holds a redacted secret';
  // a long poll waits for the old agent's next event id, which the other agent may never reach (and without a
  // timeout, the agent's default minute): a second is enough to see what it has
  if (route.path.startsWith('/rest/events')) url.searchParams.set('timeout', '1');
  const headers: Record<string, string> = { 'X-API-Key': apiKey, ...framingOf(e) };
  for (const h of e.request.headers) if (KEPT_HEADERS.has(h.name.toLowerCase())) headers[h.name] = h.value;
  return {
    target: 'agent',
    method: route.method,
    url: url.pathname + url.search,
    headers,
    ...(e.request.postData ? { body: e.request.postData.text } : {}),
    timeoutMs: ask.timeoutMs,
  };
}

/**
 * The agent's HTTP server refused the request as it was framed, before any handler read it (Go's bare "400 Bad
 * Request", the connection closed), where the client had an answer: synconf did not ask what the client asked. That
 * is synconf's fault, never a change of the version (an Error: exit 3).
 */
function refusedUnread(e: HarEntry, x: Exchange): void {
  const r = x.response;
  if (!r || r.status !== 400 || r.body.trim() !== '400 Bad Request' || e.response.status === 400) return;
  throw new Error(
    `${e.request.method} ${new URL(e.request.url).pathname} (${e._step}) asked again was refused by the agent's HTTP server before any handler (400 Bad Request), where the client had ${e.response.status}: synconf did not ask it as the client did`,
  );
}

/** a request not asked, as the agent would route it (and as it was written, when that differs) */
export function requestLabel(e: HarEntry): string {
  const path = new URL(e.request.url).pathname;
  const route = agentRoute(e.request.method, path);
  if ('undecidable' in route) return `${e.request.method} ${path}`;
  if (!/^\/rest\//i.test(route.path)) return `${route.method} (outside /rest/)`;
  return `${route.method} ${route.path}${route.path === path && route.method === e.request.method ? '' : ` (written ${e.request.method} ${path})`}`;
}

/** the session's requests asked of the agent at `url`, in order; the answers as HAR entries (redacted) */
export async function replaySession(
  entries: HarEntry[],
  agent: { url: string; apiKey: string },
  redactor: Redactor,
  ask: Partial<AskOptions> = {},
): Promise<ReplayedSession> {
  const asked: AskOptions = { timeoutMs: ask.timeoutMs ?? TIMEOUT_MS, writes: ask.writes ?? false };
  const live = new LiveTransport({ agent });
  const out: ReplayedSession = { entries: [], skipped: [] };
  try {
    for (const e of entries) {
      const request = requestOf(e, agent.apiKey, asked);
      if (typeof request === 'string') {
        out.skipped.push(`${requestLabel(e)}: ${request}`);
        continue;
      }
      const x: Exchange = await live.send(request);
      refusedUnread(e, x);
      out.entries.push(toEntry(x, e._step, redactor));
    }
  } finally {
    await live.close();
  }
  return out;
}
