// Where serve --stateful starts: the state of the agent as its recordings show it, and the recorded shapes its own
// answers take (an error of this version, a folder's status, the headers of a write's answer).
import type { HarEntry } from '../schema/generated/types.js';

type Json = Record<string, unknown>;

export interface Seed {
  /** the configuration of the earliest recorded answer of GET /rest/config or /rest/system/config */
  config: Json | undefined;
  /** the first recorded pending records that hold any (a client has something to dismiss), else the first */
  pendingDevices: Json | undefined;
  pendingFolders: Json | undefined;
  /** a recorded error of this version, the posted text in its message replaced by `{}` */
  errorTemplate: { item: Json; message: string } | undefined;
  /** what GET /rest/system/error answers when there are none (`{"errors": null}` in the recordings) */
  noErrors: unknown;
  /** the recorded status of each folder, and one of any folder (the shape of a folder the client adds) */
  folderStatus: Map<string, Json>;
  /** the status texts of this version: GET /rest/db/status of a folder that does not exist */
  noSuchFolder: string | undefined;
  /** the recorded answer of GET /rest/db/ignores with no patterns (its members: this version's shape) */
  noIgnores: Json | undefined;
  /** each folder's recorded GET /rest/db/need, the first with files queued (the queue POST /rest/db/prio reorders) */
  need: Map<string, Json>;
  /** the data of the first recorded event of each type (Starting, StartupComplete: what a restart emits) */
  eventData: Map<string, unknown>;
  /** the body of the first 2xx answer recorded to a method on a path (what restart and shutdown say) */
  answerText: (method: string, path: string) => string | undefined;
  /** whether the recordings answered a method on a path (pattern) with 2xx: what this version has */
  answered: (method: string, path: RegExp) => boolean;
  /** the headers of a recorded answer of each kind, without the transfer's own */
  headers: { json: Record<string, string>; empty: Record<string, string>; text: Record<string, string> };
}

const pathOf = (e: HarEntry) => new URL(e.request.url).pathname;
const ok = (e: HarEntry) => e.response.status >= 200 && e.response.status < 300;

function parsed(e: HarEntry | undefined): unknown {
  if (!e) return undefined;
  try {
    return JSON.parse(e.response.content.text);
  } catch {
    return undefined;
  }
}

const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** the recorded answers to GET `path` (200), oldest first */
function gets(entries: HarEntry[], path: RegExp): HarEntry[] {
  return entries
    .filter((e) => e.request.method === 'GET' && e.response.status === 200 && path.test(pathOf(e)))
    .sort((a, b) => Date.parse(a.startedDateTime) - Date.parse(b.startedDateTime));
}

function firstHolding(entries: HarEntry[], path: RegExp): Json | undefined {
  const all = gets(entries, path).map(parsed).filter(isJson);
  return all.find((v) => Object.keys(v).length > 0) ?? all[0];
}

/** a recorded error item and its message with the text a recorded POST /rest/system/error sent replaced by {} */
function errorTemplate(entries: HarEntry[]): Seed['errorTemplate'] {
  const posted = entries
    .filter((e) => e.request.method === 'POST' && pathOf(e) === '/rest/system/error' && ok(e))
    .map((e) => e.request.postData?.text ?? '')
    .filter(Boolean);
  for (const answer of gets(entries, /^\/rest\/system\/error$/).map(parsed)) {
    const items = isJson(answer) && Array.isArray(answer.errors) ? (answer.errors as Json[]) : [];
    for (const item of items) {
      const text = posted.find((p) => typeof item.message === 'string' && item.message.includes(p));
      if (text) return { item, message: (item.message as string).split(text).join('{}') };
    }
  }
  return undefined;
}

const HOP_BY_HOP = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-encoding']);

function headersOf(e: HarEntry | undefined, fallback: Record<string, string>): Record<string, string> {
  if (!e) return fallback;
  return Object.fromEntries(
    e.response.headers.filter((h) => !HOP_BY_HOP.has(h.name.toLowerCase())).map((h) => [h.name, h.value]),
  );
}

function recordedHeaders(entries: HarEntry[]): Seed['headers'] {
  const json = gets(entries, /^\/rest\/(system\/)?config$/)[0];
  const empty = entries.find(
    (e) => e.request.method !== 'GET' && e.response.status === 200 && !e.response.content.text,
  );
  const text = entries.find((e) => e.response.status === 404 && pathOf(e) === '/rest/db/status');
  return {
    json: headersOf(json, { 'content-type': 'application/json' }),
    empty: headersOf(empty, {}),
    text: headersOf(text, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }),
  };
}

/** the first recorded answer of GET `path` for each folder (its `folder` parameter) */
function byFolder(entries: HarEntry[], path: RegExp): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const e of gets(entries, path)) {
    const folder = new URL(e.request.url).searchParams.get('folder');
    const answer = parsed(e);
    if (folder && isJson(answer) && !out.has(folder)) out.set(folder, answer);
  }
  return out;
}

/** each folder's need queue: the first recorded GET /rest/db/need with files queued (a client has something to
 * reorder), else the first recorded */
function queues(entries: HarEntry[]): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const e of gets(entries, /^\/rest\/db\/need$/)) {
    const folder = new URL(e.request.url).searchParams.get('folder');
    const need = parsed(e);
    if (!folder || !isJson(need)) continue;
    const queued = Array.isArray(need.queued) && need.queued.length > 0;
    const held = out.get(folder);
    if (!held || (queued && !(Array.isArray(held.queued) && held.queued.length > 0))) out.set(folder, need);
  }
  return out;
}

/** the data of the first recorded event of each type, as any GET /rest/events answered it */
function eventData(entries: HarEntry[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const answer of gets(entries, /^\/rest\/events$/).map(parsed))
    for (const ev of Array.isArray(answer) ? answer.filter(isJson) : [])
      if (typeof ev.type === 'string' && !out.has(ev.type)) out.set(ev.type, ev.data);
  return out;
}

export function seedFrom(entries: HarEntry[]): Seed {
  const folderStatus = byFolder(entries, /^\/rest\/db\/status$/);
  const emptyErrors = gets(entries, /^\/rest\/system\/error$/)
    .map(parsed)
    .find((v) => isJson(v) && (v.errors === null || (Array.isArray(v.errors) && !v.errors.length)));
  const noSuch = entries.find((e) => e.response.status === 404 && pathOf(e) === '/rest/db/status');
  return {
    config: gets(entries, /^\/rest\/(system\/)?config$/)
      .map(parsed)
      .find(isJson),
    pendingDevices: firstHolding(entries, /^\/rest\/cluster\/pending\/devices$/),
    pendingFolders: firstHolding(entries, /^\/rest\/cluster\/pending\/folders$/),
    errorTemplate: errorTemplate(entries),
    noErrors: emptyErrors ?? { errors: null },
    folderStatus,
    noSuchFolder: noSuch?.response.content.text,
    noIgnores: gets(entries, /^\/rest\/db\/ignores$/)
      .map(parsed)
      .filter(isJson)
      .find((v) => !Array.isArray(v.ignore) || !v.ignore.length),
    need: queues(entries),
    eventData: eventData(entries),
    answerText: (method, path) =>
      entries.find((e) => e.request.method === method && ok(e) && pathOf(e) === path)?.response.content.text,
    answered: (method, path) => entries.some((e) => e.request.method === method && ok(e) && path.test(pathOf(e))),
    headers: recordedHeaders(entries),
  };
}
