// Drift: compare two recordings of the same scenarios by shape — status codes, media types,
// which JSON fields exist and their types, the form their values take where the spec's schema
// constrains it (a pattern, a format, an enum: a path that lost its trailing separator), event
// types — ignoring volatile values (times, ids, counters, device IDs, addresses, paths). This is
// how a maintainer sees what changed between two agent versions.
import type { Cassette, HarEntry } from '../schema/generated/types.js';
import { escapePointer, jsonType, unescapePointer } from '../json.js';
import { agentGone } from '../transport/types.js';
import { endpointKey, loadEndpoints } from '../schema/endpoints.js';
import { validate } from '../schema/registry.js';
import { DEVICE_ID, normalKey } from '../schema/normal-key.js';
import { plural } from '../plural.js';
import { showsAbsent } from '../verdict/absent.js';
import { drained } from '../turns.js';

/** every path of a JSON document with the JSON types found there; array items share one path */
export function shapeOf(doc: unknown, tmp?: string): Map<string, Set<string>> {
  const shape = new Map<string, Set<string>>();
  const walk = (v: unknown, path: string) => {
    const t = jsonType(v);
    // integer ⊂ number: a counter that happens to be whole is not a change of type
    const kind = t === 'integer' ? 'number' : t;
    shape.set(path, (shape.get(path) ?? new Set()).add(kind));
    if (Array.isArray(v)) v.forEach((item) => walk(item, `${path}/[]`));
    else if (v && typeof v === 'object')
      for (const [k, child] of Object.entries(v)) walk(child, `${path}/${normalKey(k, tmp)}`);
  };
  walk(doc, '');
  return shape;
}

/** schema rules the shape already shows (a missing field, another type) or that only sum up other errors */
const SHAPE_RULES = new Set([
  'required',
  'type',
  'if',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'additionalProperties',
  'propertyNames',
]);

/** the response resource of each endpoint of the catalog, by "METHOD path" */
let responses: Map<string, string> | undefined;
const responseOf = (method: string, url: string) =>
  (responses ??= new Map(loadEndpoints().flatMap((e) => (e.response ? [[e.id, e.response] as const] : [])))).get(
    endpointKey(method, url),
  );

/** the value rules of the spec's schema a response breaks, each "<path>\t<rule>" with the shape's path names */
function valueRulesBroken(resource: string, doc: unknown, tmp: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const e of validate(resource, doc)) {
    if (SHAPE_RULES.has(e.rule)) continue;
    let node: unknown = doc;
    const path = e.pointer
      .split('/')
      .slice(1)
      .map((raw) => {
        const key = unescapePointer(raw);
        const inArray = Array.isArray(node);
        node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
        return inArray ? '[]' : normalKey(key, tmp);
      });
    out.add(
      `${path.map((p) => `/${p}`).join('') || '/'}\t${e.rule}${e.rule === 'pattern' || e.rule === 'format' ? ` ${String(e.expected)}` : ''}`,
    );
  }
  return out;
}

interface Observed {
  /** "METHOD /path", device IDs in the path as placeholders */
  endpoint: string;
  status: number | string;
  /** the answer shows the endpoint absent (verdict/absent.ts: the router's 404, or a 405 naming other methods) */
  absent: boolean;
  mediaType: string;
  /** the media type's parameters ("charset=utf-8"), lower-case and sorted; '' none */
  mediaParameters: string;
  shape: Map<string, Set<string>> | null;
  broken: Set<string>;
  eventTypes: Set<string>;
  /** configuration booleans and numbers (configuration endpoints only) */
  values: Map<string, string>;
}

/** the answer's media type and, apart, its parameters (2.0.14 dropped `; charset=utf-8`: syncthing#10508) */
function mediaTypeOf(e: HarEntry): Pick<Observed, 'mediaType' | 'mediaParameters'> {
  const [type, ...parameters] = (
    e.response.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? ''
  ).split(';');
  const named = parameters.map((p) => p.trim().toLowerCase()).filter(Boolean);
  return { mediaType: type.trim(), mediaParameters: named.sort().join('; ') };
}

/** a request identified without its volatile parts (since/timeout of event polls, ids, tmp paths) */
function requestId(e: HarEntry, tmp: string | undefined): string {
  const u = new URL(e.request.url);
  const query = [...u.searchParams]
    .filter(([k]) => !(u.pathname === '/rest/events' && (k === 'since' || k === 'timeout')))
    .map(
      ([k, v]) =>
        `${k}=${DEVICE_ID.test(v) ? '<deviceId>' : tmp && v.startsWith(tmp) ? `<tmp>${v.slice(tmp.length)}` : v}`,
    )
    .sort()
    .join('&');
  return `${e._target} ${e._step}: ${endpointOf(e)}${query ? `?${query}` : ''}`;
}

/** the folder ID of a configuration path (/rest/config/folders/ID): a name a scenario chose, not a new endpoint */
const CONFIG_FOLDER = /^(\/rest\/config\/folders\/)[^/]+/;

/** "METHOD /path" of an entry, device and folder IDs in the path as placeholders */
const endpointOf = (e: HarEntry): string => endpointName(e.request.method, e.request.url);

/** a path segment decoded, or as it is when it holds an invalid escape (a client's HAR may: it names no ID then) */
function decodedSegment(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

/** "METHOD /path" of a request (a URL or a path and query), device and folder IDs in the path as placeholders */
export function endpointName(method: string, url: string): string {
  const path = new URL(url, 'http://agent').pathname
    .replace(CONFIG_FOLDER, '$1<folderId>')
    .split('/')
    .map((seg) => (DEVICE_ID.test(decodedSegment(seg)) ? '<deviceId>' : seg))
    .join('/');
  return `${method.toUpperCase()} ${path}`;
}

/** configuration endpoints, whose booleans and numbers are the agent's defaults where the lab set nothing */
const CONFIG = /^\/rest\/(system\/)?config(\/|$)/;

/** a folder or device of a configuration list by its ID (<ID>), not by its place: versions order lists differently */
const itemKey = (k: string, child: unknown, inArray: boolean): string => {
  const item = inArray && child && typeof child === 'object' ? (child as Record<string, unknown>) : undefined;
  const id = item?.id ?? item?.deviceID;
  return typeof id === 'string' ? `<${escapePointer(id)}>` : escapePointer(k);
};

/** the boolean and number members of a configuration document by concrete pointer (its schema version left out) */
function configScalars(doc: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, pointer: string) => {
    if (typeof v === 'boolean' || typeof v === 'number') out.set(pointer, JSON.stringify(v));
    else if (v && typeof v === 'object')
      for (const [k, child] of Object.entries(v)) walk(child, `${pointer}/${itemKey(k, child, Array.isArray(v))}`);
  };
  walk(doc, '');
  out.delete('/version');
  return out;
}

/** opening an event cursor (since=0, timeout=0) is synconf's bookkeeping: what it returns depends on the agent's history */
function opensCursor(e: HarEntry): boolean {
  const u = new URL(e.request.url);
  return u.pathname === '/rest/events' && u.searchParams.get('since') === '0' && u.searchParams.get('timeout') === '0';
}

/** the answer of an entry as verdict/absent.ts reads it */
const answerOf = (e: HarEntry) => ({
  status: e.response.status,
  headers: Object.fromEntries(e.response.headers.map((h) => [h.name.toLowerCase(), h.value])),
  body: e.response.content.text,
});

/** what each exchange of a cassette answered, by request; it yields after each, where a paced caller may take a turn */
function* observe(entries: HarEntry[], tmp: string | undefined): Generator<void, Map<string, Observed>> {
  const out = new Map<string, Observed>();
  for (const e of entries.filter((x) => !opensCursor(x))) {
    yield;
    const id = requestId(e, tmp);
    let doc: unknown;
    try {
      doc = e.response.content.text ? JSON.parse(e.response.content.text) : undefined;
    } catch {
      doc = undefined;
    }
    const prior = out.get(id);
    const resource =
      e.response.status === 200 && doc !== undefined ? responseOf(e.request.method, e.request.url) : undefined;
    const eventTypes = prior?.eventTypes ?? new Set<string>();
    if (Array.isArray(doc) && new URL(e.request.url).pathname === '/rest/events')
      for (const ev of doc) if (ev?.type) eventTypes.add(String(ev.type));
    // Polls repeat a request a varying number of times: the last answer is the one the step judged.
    out.set(id, {
      endpoint: endpointOf(e),
      values: doc !== undefined && CONFIG.test(new URL(e.request.url).pathname) ? configScalars(doc) : new Map(),
      status: e._error ? (agentGone(e._error) ? 'no response (refused or reset)' : e._error.code) : e.response.status,
      absent: !e._error && showsAbsent(e.request.method, answerOf(e)),
      ...mediaTypeOf(e),
      shape: doc === undefined ? null : shapeOf(doc, tmp),
      broken: resource ? valueRulesBroken(resource, doc, tmp) : new Set(),
      eventTypes,
    });
  }
  return out;
}

/** what kind of difference: the line of each is written by `describeDifference` */
export type DifferenceKind =
  | 'only-before'
  | 'only-after'
  | 'status'
  | 'media-type'
  | 'media-type-parameters'
  | 'type'
  | 'removed'
  | 'added'
  | 'value-broken'
  | 'value-conforms'
  | 'value'
  | 'body-json'
  | 'event-gone'
  | 'event-new';

/** one difference of one exchange between two recordings of a scenario */
export interface Difference {
  /** "<target> <step>: METHOD /path?query", the exchange as both recordings name it */
  exchange: string;
  /** "METHOD /path", device IDs in the path as placeholders */
  endpoint: string;
  /** the answer's status in the older and the newer recording (null: no such exchange there) */
  status: [number | string | null, number | string | null];
  /** whether the answer showed the endpoint absent in the older and the newer recording (null: no such exchange) */
  absent: [boolean | null, boolean | null];
  kind: DifferenceKind;
  /** where in the body: a shape path (array items as /[], keys in disguise as placeholders), '' the whole body */
  path?: string;
  /** the older and the newer form: types, statuses, media types, a value; the broken rule; an event type */
  before?: string;
  after?: string;
  /** how many fields an added or removed field holds */
  inside?: number;
}

/** the paths `p` lies inside ("/a/b/c": "/a", "/a/b"), shortest first */
function* parentsOf(p: string): Generator<string> {
  for (let i = p.indexOf('/', 1); i > 0; i = p.indexOf('/', i + 1)) yield p.slice(0, i);
}

/**
 * The fields of `a` that `b` lacks, a field whose parent is also missing counted under the parent. Linear in the
 * fields (times their depth): each missing field looks up its own parents, where comparing every missing field with
 * every other took 16.7 s for an answer of 20,000 new members.
 */
function fieldsOnlyIn(a: Map<string, Set<string>>, b: Map<string, Set<string>>): { path: string; inside: number }[] {
  const missing = new Set([...a.keys()].filter((p) => p && !b.has(p)));
  const inside = new Map<string, number>(); // each outermost missing field, with how many missing fields it holds
  for (const p of missing) {
    let top: string | undefined;
    for (const parent of parentsOf(p))
      if (missing.has(parent)) {
        top = parent;
        break;
      }
    if (top === undefined) inside.set(p, inside.get(p) ?? 0);
    else if (!p.endsWith('/[]')) inside.set(top, (inside.get(top) ?? 0) + 1); // array items are not fields
  }
  return [...inside].map(([path, n]) => ({ path, inside: n }));
}

/** the differences of the bodies of one exchange seen on both sides */
function bodyDifferences(x: Observed, y: Observed, at: Omit<Difference, 'kind'>): Difference[] {
  const out: Difference[] = [];
  if (x.shape && y.shape) {
    for (const [path, types] of x.shape) {
      const other = y.shape.get(path);
      if (other && [...types].sort().join('|') !== [...other].sort().join('|'))
        out.push({ ...at, kind: 'type', path, before: [...types].join('|'), after: [...other].join('|') });
    }
    for (const f of fieldsOnlyIn(x.shape, y.shape)) out.push({ ...at, kind: 'removed', ...f });
    for (const f of fieldsOnlyIn(y.shape, x.shape)) out.push({ ...at, kind: 'added', ...f });
    const rule = (r: string) => r.split('\t');
    for (const r of y.broken)
      if (!x.broken.has(r)) out.push({ ...at, kind: 'value-broken', path: rule(r)[0], after: rule(r)[1] });
    for (const r of x.broken)
      if (!y.broken.has(r)) out.push({ ...at, kind: 'value-conforms', path: rule(r)[0], before: rule(r)[1] });
    for (const [path, value] of x.values) {
      const other = y.values.get(path);
      if (other !== undefined && other !== value) out.push({ ...at, kind: 'value', path, before: value, after: other });
    }
  } else if (!!x.shape !== !!y.shape)
    out.push({ ...at, kind: 'body-json', before: x.shape ? 'JSON' : 'not JSON', after: y.shape ? 'JSON' : 'not JSON' });
  return out;
}

/** the differences between two cassettes of one scenario */
export const differencesOf = (before: Cassette, after: Cassette): Difference[] =>
  drained(differenceSteps(before, after));

/**
 * The same, exchange by exchange: it yields after each, where a paced caller may take a turn (a cassette of 20,000
 * exchanges compares for seconds, which in one piece left a signal unheard: issue 41)
 */
export function* differenceSteps(before: Cassette, after: Cassette): Generator<void, Difference[]> {
  const a = yield* observe(before.log.entries, before.log._synconf.tmp);
  const b = yield* observe(after.log.entries, after.log._synconf.tmp);
  const out: Difference[] = [];
  for (const exchange of new Set([...a.keys(), ...b.keys()])) {
    yield;
    const x = a.get(exchange);
    const y = b.get(exchange);
    const at = {
      exchange,
      endpoint: (x ?? y)!.endpoint,
      status: [x?.status ?? null, y?.status ?? null] as Difference['status'],
      absent: [x?.absent ?? null, y?.absent ?? null] as Difference['absent'],
    };
    if (!x || !y) {
      out.push({ ...at, kind: x ? 'only-before' : 'only-after' });
      continue;
    }
    if (x.status !== y.status) out.push({ ...at, kind: 'status', before: String(x.status), after: String(y.status) });
    if (x.mediaType !== y.mediaType)
      out.push({ ...at, kind: 'media-type', before: x.mediaType || '(none)', after: y.mediaType || '(none)' });
    else if (x.mediaParameters !== y.mediaParameters)
      out.push({
        ...at,
        kind: 'media-type-parameters',
        before: x.mediaParameters || '(none)',
        after: y.mediaParameters || '(none)',
      });
    // one by one: a body of 100,000 members has as many differences, past what a spread may pass as arguments
    for (const d of bodyDifferences(x, y, at)) out.push(d);
    for (const t of x.eventTypes) if (!y.eventTypes.has(t)) out.push({ ...at, kind: 'event-gone', before: t });
    for (const t of y.eventTypes) if (!x.eventTypes.has(t)) out.push({ ...at, kind: 'event-new', after: t });
  }
  return out;
}

const inside = (n: number | undefined) => (n ? ` (with ${plural(n, 'field')} inside)` : '');

/** what a difference of each kind says: a table of functions of it, not closures made anew for each difference */
const WHAT: Record<DifferenceKind, (d: Difference) => string> = {
  'only-before': () => 'only in the old recording',
  'only-after': () => 'only in the new recording',
  status: (d) => `status ${d.before} → ${d.after}`,
  'media-type': (d) => `media type ${d.before} → ${d.after}`,
  'media-type-parameters': (d) => `media type parameters ${d.before} → ${d.after}`,
  type: (d) => `field ${d.path || '/'} type ${d.before} → ${d.after}`,
  removed: (d) => `field ${d.path} removed${inside(d.inside)}`,
  added: (d) => `field ${d.path} added${inside(d.inside)}`,
  'value-broken': (d) => `values at ${d.path} no longer match the spec's schema (${d.after})`,
  'value-conforms': (d) => `values at ${d.path} match the spec's schema now (${d.before})`,
  value: (d) => `value at ${d.path} ${d.before} → ${d.after}`,
  'body-json': (d) => `body ${d.before} → ${d.after}`,
  'event-gone': (d) => `event ${d.before} no longer seen`,
  'event-new': (d) => `event ${d.after} newly seen`,
};

/** a difference as one line */
export const describeDifference = (d: Difference): string => `${d.exchange}: ${WHAT[d.kind](d)}`;
