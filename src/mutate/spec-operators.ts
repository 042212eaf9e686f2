// The spec-derived operators (SPEC_OPERATORS in operators.ts): each breaks one statement in the recorded answers
// of one scenario, as a target (spec-targets.ts) says where. Pure: a cassette's entries in, the replaced entries out
// (none when the recordings hold nothing the target names). Answers stay well-shaped where the statement allows:
// a value keeps its type, a refusal its plain-text body.
import { isDeepStrictEqual } from 'node:util';
import type { HarEntry } from '../schema/generated/types.js';
import { resolvePointer, MISSING, escapePointer, unescapePointer } from '../json.js';
import { changeAt, DROP } from './schema-mutations.js';
import { answered, answerOf, headersOf, isJsonBody } from './mutants.js';
import { entryKey } from '../transport/cassette.js';
import type { SpecOperator } from './operators.js';

/** where an operator applies: which answers, where in their bodies, with what */
export interface SpecTarget {
  operator: SpecOperator;
  /** the endpoints whose answers change, "METHOD /path" (the path exactly; `{id}` stands for one segment) */
  endpoints: string[];
  /** a JSON pointer into the body (`*`: every member or item) */
  at?: string;
  /** set-value and add-item: the value; refuse: the status */
  value?: unknown;
  /** drop-events: the event type; a pointer into GET /rest/events answers: only the events of this type */
  event?: string;
  /** only answers with these recorded statuses */
  statuses?: number[];
  /** only requests that carry (true) or lack (false) these query parameters */
  query?: Record<string, boolean>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const serialize = (doc: unknown) => JSON.stringify(doc, null, 2);
const isOk = (e: HarEntry) => !e._error && e.response.status >= 200 && e.response.status < 300;
const isRefused = (e: HarEntry) => !e._error && e.response.status >= 400;
const isEvents = (e: HarEntry) => requestOf(e).url.pathname === '/rest/events';

/** recorded bodies parsed once for all statements (never changed in place: changeAt works on a copy) */
const parsed = new WeakMap<HarEntry, unknown>();
function bodyOf(e: HarEntry): unknown {
  if (!parsed.has(e)) parsed.set(e, isJsonBody(e.response.content.text));
  return parsed.get(e);
}

/** "GET /rest/config/folders/{id}" as a pattern: `{id}` is one path segment */
const patterns = new Map<string, RegExp>();
function patternOf(endpoint: string): RegExp {
  let re = patterns.get(endpoint);
  if (!re) {
    const escaped = endpoint.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    re = new RegExp(`^${escaped.replace(/\{[a-z]+\}/gi, '[^/]+')}$`);
    patterns.set(endpoint, re);
  }
  return re;
}

/** the request's "METHOD /path" and URL, worked out once per entry (every statement asks of every entry) */
const requests = new WeakMap<HarEntry, { endpoint: string; url: URL }>();
function requestOf(e: HarEntry): { endpoint: string; url: URL } {
  let r = requests.get(e);
  if (!r) {
    const url = new URL(e.request.url);
    r = { endpoint: `${e.request.method} ${url.pathname}`, url };
    requests.set(e, r);
  }
  return r;
}

/** does the recorded request answer to one of the target's endpoints (and its query parameters)? */
export function selects(t: SpecTarget, e: HarEntry): boolean {
  const { endpoint, url } = requestOf(e);
  if (!t.endpoints.some((x) => x === endpoint || (x.includes('{') && patternOf(x).test(endpoint)))) return false;
  if (t.statuses && (e._error || !t.statuses.includes(e.response.status))) return false;
  return Object.entries(t.query ?? {}).every(([name, has]) => url.searchParams.has(name) === has);
}

/** the concrete pointers a pattern names in a document (`*` expanded); a missing last segment only for set-value */
export function expand(doc: unknown, pattern: string, lastMayBeMissing = false): string[] {
  if (pattern === '') return [''];
  let paths = [''];
  const segs = pattern.split('/').slice(1);
  segs.forEach((seg, i) => {
    const last = i === segs.length - 1;
    paths = paths.flatMap((p) => {
      const node = resolvePointer(doc, p);
      if (node === MISSING || node === null || typeof node !== 'object') return [];
      if (seg === '*') return Object.keys(node).map((k) => `${p}/${escapePointer(k)}`);
      const present = Object.hasOwn(node, Array.isArray(node) ? Number(seg) : unescapePointer(seg));
      return present || (last && lastMayBeMissing) ? [`${p}/${seg}`] : [];
    });
  });
  return paths;
}

/** another device ID of the same form: the first group rotated one letter (ABCDEFG → BCDEFGH) */
export function foreignId(id: string): string {
  const next = (c: string) =>
    c === 'Z' ? 'A' : c === '7' ? '2' : /[A-Y2-6]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 1) : c;
  return [...id].map((c, i) => (i < 7 ? next(c) : c)).join('');
}

/** a value of the same JSON type that differs (another type only for null) */
export function otherValue(v: unknown): unknown {
  if (typeof v === 'string') return v === '' ? 'mutant' : `${v}-mutant`;
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return !v;
  if (Array.isArray(v)) return v.length ? [] : ['mutant'];
  if (v !== null && typeof v === 'object') {
    const [k, x] = Object.entries(v)[0] ?? [];
    return k === undefined ? { mutant: 1 } : { ...v, [k]: otherValue(x) };
  }
  return 'mutant';
}

function retyped(v: unknown): unknown {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string' || typeof v === 'boolean') return [v];
  if (Array.isArray(v)) return { items: v };
  if (v !== null && typeof v === 'object') return [v];
  return 0;
}

const strings = (v: unknown, f: (s: string) => string): unknown =>
  typeof v === 'string' ? f(v) : Array.isArray(v) ? v.map((x) => strings(x, f)) : v;

/** the body operators: the value at a pointer → its replacement (DROP removes it; undefined: nothing to change) */
const VALUE_OPS: Partial<Record<SpecOperator, (v: unknown, t: SpecTarget) => unknown>> = {
  retype: retyped,
  'drop-member': () => DROP,
  'other-value': otherValue,
  'set-value': (_v, t) => t.value,
  'counter-skew': (v) => (typeof v === 'number' ? v + 1 : undefined),
  'drop-key': () => DROP,
  'rename-keys': (v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [`mutant-${k}`, x]))
      : undefined,
  'add-item': (v, t) => (Array.isArray(v) ? [...v, t.value] : undefined),
  'swap-separator': (v) => strings(v, (s) => s.replace(/[/\\]/g, (c) => (c === '/' ? '\\' : '/'))),
  'relative-path': (v) => strings(v, (s) => s.replace(/^[/\\]+/, '')),
  'absolute-path': (v) => strings(v, (s) => (s.startsWith('/') ? s : `/${s}`)),
  'strip-trailing-separator': (v) => strings(v, (s) => s.replace(/[/\\]+$/, '')),
  'drop-offset': (v) => strings(v, (s) => s.replace(/(Z|[+-]\d\d:?\d\d)$/, '')),
  'foreign-id': (v) => strings(v, foreignId),
};

/** `root` with the value at `pointer` set (DROP: removed) in place; the root itself when the pointer is "" */
function setIn(root: unknown, pointer: string, value: unknown): unknown {
  if (pointer === '') return value;
  const cut = pointer.lastIndexOf('/');
  const parent = resolvePointer(root, pointer.slice(0, cut)) as Record<string, unknown> | unknown[];
  const key = unescapePointer(pointer.slice(cut + 1));
  if (Array.isArray(parent)) {
    if (value === DROP) parent.splice(Number(key), 1);
    else parent[Number(key)] = value;
  } else if (value === DROP) delete parent[key];
  else parent[key] = value;
  return root;
}

/** a JSON answer with the value operator applied at every place the pattern names (the last first: drops keep
 * the earlier indexes), on one copy of the recorded body */
function changedBody(e: HarEntry, t: SpecTarget): HarEntry | undefined {
  const doc = bodyOf(e);
  const op = VALUE_OPS[t.operator];
  if (doc === undefined || !op) return undefined;
  const ofType = (p: string) => !t.event || resolvePointer(doc, `/${p.split('/')[1]}/type`) === t.event;
  const pointers = expand(doc, t.at ?? '', t.operator === 'set-value')
    .filter(ofType)
    .reverse();
  if (!pointers.length) return undefined;
  let after: unknown = structuredClone(doc);
  for (const p of pointers) {
    const before = resolvePointer(after, p);
    const next: unknown = op(before === MISSING ? undefined : before, t);
    if (next !== undefined) after = setIn(after, p, next);
  }
  if (isDeepStrictEqual(after, doc)) return undefined;
  // a shallow copy: replayed answers are only read, and the recorded body of a configuration is large
  const text = serialize(after);
  return { ...e, response: { ...e.response, content: { ...e.response.content, text, size: Buffer.byteLength(text) } } };
}

const plain = (e: HarEntry, status: number, body: string) =>
  answered(e, { status, body, headers: { ...headersOf(e), 'content-type': TEXT_TYPE } });
const asJson = (e: HarEntry, status: number, body: string) =>
  answered(e, { status, body, headers: { ...headersOf(e), 'content-type': JSON_TYPE } });

/** the answer operators: one recorded answer → its replacement, or undefined where the operator does not apply */
const ANSWER_OPS: Partial<Record<SpecOperator, (e: HarEntry, t: SpecTarget) => HarEntry | undefined>> = {
  refuse: (e, t) => (isOk(e) ? plain(e, Number(t.value ?? 400), 'mutant: request refused\n') : undefined),
  'accept-refused': (e) => (isRefused(e) ? asJson(e, 200, '{}') : undefined),
  'error-body': (e) =>
    isRefused(e) && isJsonBody(e.response.content.text) === undefined
      ? asJson(e, e.response.status, serialize({ error: e.response.content.text.trim() || 'mutant' }))
      : undefined,
  'fill-body': (e) =>
    isOk(e) && e.response.content.text.trim() === '' ? asJson(e, e.response.status, '{}') : undefined,
  'media-type': (e) =>
    isOk(e) && (headersOf(e)['content-type'] ?? '').startsWith('application/json')
      ? answered(e, { headers: { ...headersOf(e), 'content-type': TEXT_TYPE } })
      : undefined,
  // any answer but the router's 404 shows the path exists, a refusal of its own handler too
  absent: (e) => (!e._error && e.response.status !== 404 ? plain(e, 404, '404 page not found\n') : undefined),
  present: (e) => (!e._error && e.response.status === 404 ? asJson(e, 200, '{}') : undefined),
};

/** the events of a type removed from every recorded answer of GET /rest/events */
function withoutEvents(entries: HarEntry[], type: string): Map<number, HarEntry> {
  const out = new Map<number, HarEntry>();
  entries.forEach((e, i) => {
    const events = isEvents(e) && isOk(e) ? bodyOf(e) : undefined;
    if (!Array.isArray(events)) return;
    const kept = events.filter((ev) => (ev as { type?: string })?.type !== type);
    if (kept.length < events.length) out.set(i, answered(e, { body: serialize(kept) }));
  });
  return out;
}

/**
 * Each selected request (a success that is not a GET) answered as recorded, but every later answer of the same
 * request to the same instance replayed from before it: the recordings of the state after show no effect
 * (`value: 'last'`: only the last such answer, as an agent that comes back after a while).
 */
function undoneEffects(entries: HarEntry[], t: SpecTarget): Map<number, HarEntry> {
  const keys = entries.map((e) => entryKey(e));
  const out = new Map<number, HarEntry>();
  entries.forEach((e, i) => {
    if (e.request.method === 'GET' || !isOk(e) || !selects(t, e)) return;
    for (let j = i + 1; j < entries.length; j++) {
      if (entries[j]._target !== e._target || isEvents(entries[j])) continue;
      const k = keys.lastIndexOf(keys[j], i - 1);
      if (k >= 0 && !isDeepStrictEqual(answerOf(entries[k]), answerOf(entries[j])))
        out.set(j, answered(entries[j], answerOf(entries[k])));
    }
  });
  if (t.value !== 'last' || out.size < 2) return out;
  const last = Math.max(...out.keys());
  return new Map([[last, out.get(last)!]]);
}

/** every selected answer after the first with the first one's value at the pointer */
function frozen(entries: HarEntry[], t: SpecTarget): Map<number, HarEntry> {
  const out = new Map<number, HarEntry>();
  let first: unknown = MISSING;
  entries.forEach((e, i) => {
    const doc = isOk(e) && selects(t, e) ? bodyOf(e) : undefined;
    const value = doc === undefined ? MISSING : resolvePointer(doc, t.at ?? '');
    if (value === MISSING) return;
    if (first === MISSING) first = value;
    else if (!isDeepStrictEqual(value, first))
      out.set(i, answered(e, { body: serialize(changeAt(doc, t.at ?? '', () => structuredClone(first))) }));
  });
  return out;
}

/** the entries of one scenario's cassette that the target's operator replaces (empty: nothing to break here) */
export function applyTarget(entries: HarEntry[], t: SpecTarget): Map<number, HarEntry> {
  if (t.operator === 'drop-events') return withoutEvents(entries, t.event ?? '');
  if (t.operator === 'undo-effect') return undoneEffects(entries, t);
  if (t.operator === 'freeze-value') return frozen(entries, t);
  const one = ANSWER_OPS[t.operator] ?? ((e: HarEntry) => (isOk(e) ? changedBody(e, t) : undefined));
  const out = new Map<number, HarEntry>();
  entries.forEach((e, i) => {
    const changed = selects(t, e) ? one(e, t) : undefined;
    if (changed) out.set(i, changed);
  });
  return out;
}
