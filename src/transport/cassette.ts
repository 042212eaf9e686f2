// Cassettes: HAR 1.2 files, one per scenario. Converting exchanges to entries (redacted) and
// back, match keys, and reading a cassette with a clear error for every way it can be broken.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ROOT } from '../paths.js';
import type { Cassette, CassetteMeta, HarEntry } from '../schema/generated/types.js';
import type { Exchange, IncomingResponse, OutgoingRequest } from './types.js';
import { validate } from '../schema/registry.js';
import { kindOfYaml, kindProblem, KIND_NAMES } from '../schema/file-kind.js';
import type { Redactor } from './redact.js';
import { InputError } from '../errors.js';
import { parseJson, readTextFile, TextFileError } from '../text-file.js';
import { jsonTextTooLarge } from '../json.js';

export const RUN_CASSETTE = '_run';

export class CassetteError extends InputError {
  override name = 'CassetteError';
  constructor(
    readonly file: string,
    cause: string,
    /** `:line:column` of the cause in the file, when it has one */
    at = '',
  ) {
    super(`cassette ${file}${at}: ${cause}`);
  }
}

export const cassettePath = (dir: string, scenario: string) => join(dir, `${scenario}.har`);

/**
 * The one check of a recordings folder a user names (replay, mutate, serve, drift, matrix): an InputError naming it
 * when it does not exist or is a file, or (`needsRun`: to be replayed) when it holds no recorded run.
 */
export function checkRecordingsFolder(dir: string, needsRun = false): void {
  if (!existsSync(dir)) throw new InputError(`recordings folder ${dir} does not exist`);
  if (!statSync(dir).isDirectory())
    throw new InputError(`recordings folder ${dir} is a file, not a folder of .har cassettes`);
  if (needsRun && !existsSync(cassettePath(dir, RUN_CASSETTE)))
    throw new InputError(
      `recordings folder ${dir} holds no recorded run (${RUN_CASSETTE}.har; record one with \`synconf run --record ${dir}\`)`,
    );
}

/**
 * a cassette file as reports name it: relative to the package when inside it, else absolute (a report is read from
 * elsewhere, and its HTML links the file relative to the package: a path relative to the working folder would miss)
 */
export function harFile(dir: string, scenario: string): string {
  const file = resolve(cassettePath(dir, scenario));
  const rel = relative(ROOT, file);
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}

/** where an exchange is kept: the cassette file (harFile) and the entry's place in it */
export const harRef = (dir: string, scenario: string, entry: number) => ({ file: harFile(dir, scenario), entry });

const pairs = (o: Record<string, string>) => Object.entries(o).map(([name, value]) => ({ name, value }));

/** a header's value whatever the case of its name (the proxy keeps names lower-case, scenarios as written); '' if none */
const headerOf = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1] ?? '';

/** the HAR entry of an exchange, with every secret replaced by its placeholder */
export function toEntry(x: Exchange, step: string, r: Redactor): HarEntry {
  if (x.request.body !== undefined) r.learnFrom(x.request.body);
  if (x.response) r.learnFrom(x.response.body);
  const url = new URL(x.request.url, `http://${x.request.target}`);
  const res = x.response;
  const entry: HarEntry = {
    startedDateTime: x.startedAt,
    time: Math.round(x.durationMs * 1000) / 1000,
    request: {
      method: x.request.method,
      url: r.text(url.toString()),
      httpVersion: 'HTTP/1.1',
      headers: pairs(r.headers(x.request.headers)),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value: r.text(value) })),
      headersSize: -1,
      bodySize: x.request.body === undefined ? 0 : Buffer.byteLength(x.request.body),
    },
    response: {
      status: res?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: res ? pairs(r.headers(res.headers)) : [],
      content: {
        size: res ? Buffer.byteLength(res.body) : 0,
        mimeType: res?.headers['content-type'] ?? '',
        text: res ? r.text(res.body) : '',
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: res ? Buffer.byteLength(res.body) : 0,
    },
    cache: {},
    timings: { send: 0, wait: Math.round(x.durationMs * 1000) / 1000, receive: 0 },
    _target: x.request.target,
    _step: step,
  };
  if (x.request.body !== undefined)
    entry.request.postData = { mimeType: headerOf(x.request.headers, 'content-type'), text: r.text(x.request.body) };
  if (x.error) entry._error = x.error;
  return entry;
}

// The response of a recorded entry is made once: `synconf mutate` replays a cassette once per mutant, and each
// replay gets the same object, so what a run derives from it (its parsed body) is derived once as well. Keyed by the
// entry itself: read entries are never changed (a mutant answers with copies), and no one changes a response.
const responses = new WeakMap<HarEntry, IncomingResponse>();

function responseOf(e: HarEntry): IncomingResponse {
  let response = responses.get(e);
  if (!response) {
    const headers = Object.fromEntries(e.response.headers.map((h) => [h.name, h.value]));
    response = { status: e.response.status, headers, body: e.response.content.text };
    responses.set(e, response);
  }
  return response;
}

/** the exchange a recorded entry stands for, answering `request` */
export function fromEntry(e: HarEntry, request: OutgoingRequest): Exchange {
  return {
    request,
    ...(e._error ? { error: e._error } : { response: responseOf(e) }),
    startedAt: e.startedDateTime,
    durationMs: e.time,
  };
}

// Requests repeat: a replay of the 1.19.2 recordings keys 480 recorded requests (and as many asked) that are 212
// distinct ones, and synconf mutate replays them again for every mutant. A key is made once per distinct request: it
// depends on the five values it is made of alone. The memo forgets everything when full (live runs ask new ones).
const made = new Map<string, string>();
const MADE_AT_MOST = 10_000;

/** what identifies a request: instance, method, path, query (order-free), API key mode, body */
export function matchKey(
  target: string,
  method: string,
  url: string,
  apiKey: string | undefined,
  body: string | undefined,
): string {
  const of = JSON.stringify([target, method, url, apiKey ?? null, body ?? '']);
  let key = made.get(of);
  if (key === undefined) {
    if (made.size >= MADE_AT_MOST) made.clear();
    key = makeKey(target, method, url, apiKey ?? null, body ?? '');
    made.set(of, key);
  }
  return key;
}

function makeKey(target: string, method: string, url: string, apiKey: string | null, body: string): string {
  const u = new URL(url, `http://${target}`);
  // Code-unit order (both sides of a match use this key, so any total order will do): a process's first
  // localeCompare builds an ICU collator (~5 ms), and it calls some distinct strings equal.
  const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  // (no query string, no parameters: the parameters' iterator is slow to start, and most requests have none)
  const query = u.search ? [...u.searchParams].sort(([a, x], [b, y]) => byCodeUnit(a, b) || byCodeUnit(x, y)) : [];
  let normalBody = body;
  try {
    if (normalBody) normalBody = JSON.stringify(JSON.parse(normalBody));
  } catch {
    /* plain text stays as is */
  }
  return JSON.stringify([target, method, u.pathname, query, apiKey, normalBody]);
}

export function requestKey(req: OutgoingRequest, r: Redactor): string {
  if (req.body !== undefined) r.learnFrom(req.body); // a password sent in a body is redacted in the cassette too
  return matchKey(
    req.target,
    req.method,
    r.text(req.url),
    req.headers['X-API-Key'] === undefined ? undefined : r.text(req.headers['X-API-Key']),
    req.body === undefined ? undefined : r.text(req.body),
  );
}

export function entryKey(e: HarEntry): string {
  const u = new URL(e.request.url);
  const key = e.request.headers.find((h) => h.name.toLowerCase() === 'x-api-key')?.value;
  return matchKey(e._target, e.request.method, u.pathname + u.search, key, e.request.postData?.text);
}

export function describeEntry(e: HarEntry): string {
  const u = new URL(e.request.url);
  return `${e.request.method} ${u.pathname}${u.search} on ${e._target}`;
}

export function newCassette(meta: CassetteMeta, creatorVersion: string, entries: HarEntry[] = []): Cassette {
  return { log: { version: '1.2', creator: { name: 'synconf', version: creatorVersion }, entries, _synconf: meta } };
}

/** read and check a cassette; undefined when there is none */
/** the first recorded body (JSON) beyond the bounds of docs/recordings.md, as "entry N: its response body …" */
function bodiesTooLarge(cassette: Cassette): string | undefined {
  for (const [i, e] of cassette.log.entries.entries())
    for (const [which, text] of [
      ['request', e.request.postData?.text],
      ['response', e.response.content.text],
    ] as const) {
      const problem = text && /^\s*[[{]/.test(text) ? jsonTextTooLarge(text) : undefined;
      if (problem) return `entry ${i + 1} (${e.request.method} ${e.request.url}): its ${which} body is ${problem}`;
    }
  return undefined;
}

export function readCassette(dir: string, scenario: string): Cassette | undefined {
  const file = cassettePath(dir, scenario);
  if (!existsSync(file)) return undefined;
  let doc: unknown;
  try {
    doc = parseJson(readTextFile(file, file), file);
  } catch (e) {
    if (!(e instanceof TextFileError)) throw e;
    const yaml = e.reason.startsWith('not JSON') ? kindOfYaml(readTextFile(file, file)) : undefined;
    if (yaml && yaml !== 'cassette')
      throw new CassetteError(file, `this is ${KIND_NAMES[yaml]} (YAML), not ${KIND_NAMES.cassette}`);
    throw new CassetteError(file, e.reason, e.line ? `:${e.line}:${e.column}` : '');
  }
  const wrongKind = kindProblem(doc, 'cassette');
  if (wrongKind === `this is ${KIND_NAMES['foreign-har']}, not ${KIND_NAMES.cassette}`)
    throw new CassetteError(file, `${wrongKind}: synconf replays the HAR files it records (synconf run --record)`);
  if (wrongKind) throw new CassetteError(file, wrongKind);
  const errors = validate('cassette', doc);
  if (errors.length) {
    const version = (doc as { log?: { version?: unknown } })?.log?.version;
    if (version !== undefined && version !== '1.2')
      throw new CassetteError(file, `HAR version ${JSON.stringify(version)}; synconf reads HAR 1.2`);
    throw new CassetteError(
      file,
      `not a synconf HAR 1.2 cassette: ${errors
        .slice(0, 3)
        .map((e) => `${e.pointer || '/'}: ${e.message}`)
        .join('; ')}`,
    );
  }
  const cassette = doc as Cassette;
  cassette.log.entries.forEach((e, i) => checkEntry(file, e, i));
  const tooLarge = bodiesTooLarge(cassette);
  if (tooLarge) throw new CassetteError(file, tooLarge);
  if (cassette.log._synconf.scenario !== scenario)
    throw new CassetteError(file, `it records scenario "${cassette.log._synconf.scenario}", not "${scenario}"`);
  return cassette;
}

/**
 * what the schema cannot say of an entry, said before it is used: a URL that parses, a base64 body that decodes
 * (bodies: bodiesTooLarge). A base64 body is decoded in place: every reader of a cassette (replay, serve, drift,
 * mutate) takes the body as text, as synconf records it, and would otherwise judge the agent by the base64.
 */
function checkEntry(file: string, e: HarEntry, i: number): void {
  if (!URL.canParse(e.request.url))
    throw new CassetteError(file, `entry ${i}: request.url ${JSON.stringify(e.request.url.slice(0, 80))} is not a URL`);
  const content = e.response.content;
  if (content.encoding !== 'base64') return;
  const text = fromBase64(content.text);
  if (typeof text !== 'string')
    throw new CassetteError(
      file,
      `entry ${i}: response.content.text is marked "encoding": "base64" but ${text.problem}`,
    );
  content.text = text;
  delete content.encoding;
}

// Strict base64 (RFC 4648, padded, no line breaks): Buffer.from(text, 'base64') skips what it cannot read.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** the text a base64 body stands for, or why there is none */
function fromBase64(base64: string): string | { problem: string } {
  if (!BASE64.test(base64)) {
    const bad = /[^A-Za-z0-9+/=]/.exec(base64);
    return {
      problem: bad
        ? `is not base64 (${JSON.stringify(bad[0])} at character ${bad.index + 1})`
        : `is not base64 (wrong padding or length: ${base64.length} characters)`,
    };
  }
  try {
    return UTF8.decode(Buffer.from(base64, 'base64'));
  } catch {
    return { problem: 'decodes to bytes that are not UTF-8 text (synconf compares bodies as text)' };
  }
}
