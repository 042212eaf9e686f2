// Drift: compare two recordings of the same scenarios by shape — status codes, media types,
// which JSON fields exist and their types, the form their values take where the spec's schema
// constrains it (a pattern, a format, an enum: a path that lost its trailing separator), event
// types — ignoring volatile values (times, ids, counters, device IDs, addresses, paths). This is
// how a maintainer sees what changed between two agent versions.
import type { Cassette, HarEntry } from '../schema/generated/types.js';
import { jsonType, unescapePointer } from '../json.js';
import { agentGone } from '../transport/types.js';
import { endpointKey, loadEndpoints } from '../schema/endpoints.js';
import { validate } from '../schema/registry.js';
import { DEVICE_ID, normalKey } from '../schema/normal-key.js';

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
  status: number | string;
  mediaType: string;
  shape: Map<string, Set<string>> | null;
  broken: Set<string>;
  eventTypes: Set<string>;
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
  const path = u.pathname
    .split('/')
    .map((seg) => (DEVICE_ID.test(decodeURIComponent(seg)) ? '<deviceId>' : seg))
    .join('/');
  return `${e._target} ${e._step}: ${e.request.method} ${path}${query ? `?${query}` : ''}`;
}

/** opening an event cursor (since=0, timeout=0) is synconf's bookkeeping: what it returns depends on the agent's history */
function opensCursor(e: HarEntry): boolean {
  const u = new URL(e.request.url);
  return u.pathname === '/rest/events' && u.searchParams.get('since') === '0' && u.searchParams.get('timeout') === '0';
}

function observe(entries: HarEntry[], tmp: string | undefined): Map<string, Observed> {
  const out = new Map<string, Observed>();
  for (const e of entries.filter((x) => !opensCursor(x))) {
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
      status: e._error ? (agentGone(e._error) ? 'no response (refused or reset)' : e._error.code) : e.response.status,
      mediaType: (e.response.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '')
        .split(';')[0]
        .trim(),
      shape: doc === undefined ? null : shapeOf(doc, tmp),
      broken: resource ? valueRulesBroken(resource, doc, tmp) : new Set(),
      eventTypes,
    });
  }
  return out;
}

/** the fields of `a` that `b` lacks, a field whose parent is also missing counted under the parent */
function fieldsOnlyIn(a: Map<string, Set<string>>, b: Map<string, Set<string>>, change: string): string[] {
  const missing = [...a.keys()].filter((p) => p && !b.has(p));
  const top = missing.filter((p) => !missing.some((q) => q !== p && p.startsWith(`${q}/`)));
  return top.map((p) => {
    const inside = missing.filter((q) => q.startsWith(`${p}/`) && !q.endsWith('/[]')).length; // array items are not fields
    return `field ${p} ${change}${inside ? ` (with ${inside} field${inside === 1 ? '' : 's'} inside)` : ''}`;
  });
}

/** the differences between two cassettes of one scenario, one line each */
export function driftOf(before: Cassette, after: Cassette): string[] {
  const a = observe(before.log.entries, before.log._synconf.tmp);
  const b = observe(after.log.entries, after.log._synconf.tmp);
  const out: string[] = [];
  for (const id of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(id);
    const y = b.get(id);
    if (!x) {
      out.push(`${id}: only in the new recording`);
      continue;
    }
    if (!y) {
      out.push(`${id}: only in the old recording`);
      continue;
    }
    if (x.status !== y.status) out.push(`${id}: status ${x.status} → ${y.status}`);
    if (x.mediaType !== y.mediaType)
      out.push(`${id}: media type ${x.mediaType || '(none)'} → ${y.mediaType || '(none)'}`);
    if (x.shape && y.shape) {
      for (const [path, types] of x.shape) {
        const other = y.shape.get(path);
        if (other && [...types].sort().join('|') !== [...other].sort().join('|'))
          out.push(`${id}: field ${path || '/'} type ${[...types].join('|')} → ${[...other].join('|')}`);
      }
      out.push(...fieldsOnlyIn(x.shape, y.shape, 'removed').map((f) => `${id}: ${f}`));
      out.push(...fieldsOnlyIn(y.shape, x.shape, 'added').map((f) => `${id}: ${f}`));
      const rule = (r: string) => r.split('\t');
      for (const r of y.broken)
        if (!x.broken.has(r))
          out.push(`${id}: values at ${rule(r)[0]} no longer match the spec's schema (${rule(r)[1]})`);
      for (const r of x.broken)
        if (!y.broken.has(r)) out.push(`${id}: values at ${rule(r)[0]} match the spec's schema now (${rule(r)[1]})`);
    } else if (!!x.shape !== !!y.shape)
      out.push(`${id}: body ${x.shape ? 'JSON' : 'not JSON'} → ${y.shape ? 'JSON' : 'not JSON'}`);
    for (const t of x.eventTypes) if (!y.eventTypes.has(t)) out.push(`${id}: event ${t} no longer seen`);
    for (const t of y.eventTypes) if (!x.eventTypes.has(t)) out.push(`${id}: event ${t} newly seen`);
  }
  return out;
}
