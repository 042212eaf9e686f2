// The one cassette matcher, shared by replay and serve (one per cassette in both):
// recorded entries queued by match key (method, path, query order-free, API key, body), taken in
// recorded order, and, for a request nothing answers, the closest recorded entry and what differs.
import type { HarEntry } from '../schema/generated/types.js';
import type { OutgoingRequest } from './types.js';
import { entryKey, requestKey } from './cassette.js';
import { API_KEY, type Redactor } from './redact.js';
import { editDistance } from '../did-you-mean.js';
import { bodyDifference } from './body-difference.js';

type KeyParts = [string, string, string, [string, string][], string | null, string];

/**
 * what differs between a request and a recorded entry, in words; with `echo` false the request's own query, key and
 * body are not repeated (a stranger's request to serve: the answer, its log and the terminal must not hold its
 * secrets), only that they differ and what was recorded (redacted when it was recorded)
 */
export function difference(req: OutgoingRequest, e: HarEntry, r: Redactor, echo = true): string {
  const [target, method, path, query, key, body] = JSON.parse(requestKey(req, r)) as KeyParts;
  const [rt, rm, rp, rq, rk, rb] = JSON.parse(entryKey(e)) as KeyParts;
  const out: string[] = [];
  if (target !== rt) out.push(`instance ${target} vs recorded ${rt}`);
  if (method !== rm) out.push(`method ${method} vs recorded ${rm}`);
  if (path !== rp) out.push(`path ${path} vs recorded ${rp}`);
  const q = (list: [string, string][]) => list.map(([k, v]) => `${k}=${v}`).join('&') || '(none)';
  const sent = (shown: string, words: string) => (echo || shown === '(none)' ? shown : words);
  if (q(query) !== q(rq)) out.push(`query ${sent(q(query), `of ${query.length} parameter(s)`)} vs recorded ${q(rq)}`);
  if (key !== rk)
    out.push(`API key ${sent(key ?? '(none)', key === API_KEY ? API_KEY : 'another')} vs recorded ${rk ?? '(none)'}`);
  if (body !== rb) out.push(bodyDifference(body, rb, echo));
  return out.join('; ');
}

/** the recorded entry of `pool` that differs least from the request (fewest parts, then the nearest path), and how */
export function closestEntry(
  req: OutgoingRequest,
  r: Redactor,
  pool: HarEntry[],
  echo = true,
): { entry: HarEntry; differs: string } | undefined {
  const path = new URL(req.url, 'http://agent').pathname;
  return pool
    .map((entry) => ({
      entry,
      differs: difference(req, entry, r, echo),
      far: editDistance(path, new URL(entry.request.url).pathname),
    }))
    .sort(
      (a, b) =>
        a.differs.split(';').length - b.differs.split(';').length ||
        a.far - b.far ||
        a.differs.length - b.differs.length,
    )[0];
}

/** the match key of each recorded entry, and the places of the entries of each key in recorded order */
interface KeyIndex {
  keys: string[];
  byKey: Map<string, number[]>;
}

// A cassette's entries are keyed once, not once per replay: `synconf mutate` replays each cassette once per mutant.
// Keyed by the entry list itself: read cassettes are never changed (a mutant answers with copies of entries), and a
// list that has grown since (a length that differs) is keyed again.
const indexes = new WeakMap<readonly HarEntry[], KeyIndex>();

function keyIndex(entries: readonly HarEntry[]): KeyIndex {
  const known = indexes.get(entries);
  if (known && known.keys.length === entries.length) return known;
  const keys = entries.map(entryKey);
  const byKey = new Map<string, number[]>();
  keys.forEach((key, i) => {
    const list = byKey.get(key);
    if (list) list.push(i);
    else byKey.set(key, [i]);
  });
  const index = { keys, byKey };
  indexes.set(entries, index);
  return index;
}

export class Matcher {
  private readonly byKey: Map<string, number[]>;
  private readonly taken = new Map<string, number>();
  /** the match key of each entry, in recorded order */
  readonly keys: readonly string[];

  constructor(readonly entries: HarEntry[]) {
    ({ keys: this.keys, byKey: this.byKey } = keyIndex(entries));
  }

  /** the place in `entries` of the next recorded answer to a request with this key (none past the last), taken */
  takeIndex(key: string): number | undefined {
    const list = this.byKey.get(key);
    if (!list) return undefined;
    const n = this.taken.get(key) ?? 0;
    this.taken.set(key, n + 1);
    return list[n];
  }

  /** the next recorded answer to a request with this key: the n-th asking gets the n-th answer, none past the last */
  take(key: string): HarEntry | undefined {
    const i = this.takeIndex(key);
    return i === undefined ? undefined : this.entries[i];
  }

  /** the answer `take` would give next, without taking it (none past the last) */
  peek(key: string): HarEntry | undefined {
    const i = this.byKey.get(key)?.[this.taken.get(key) ?? 0];
    return i === undefined ? undefined : this.entries[i];
  }

  /** some answer to this key was taken already */
  played(key: string): boolean {
    return (this.taken.get(key) ?? 0) > 0;
  }

  /** recorded entries never taken */
  untaken(): HarEntry[] {
    return [...this.byKey].flatMap(([key, list]) => list.slice(this.taken.get(key) ?? 0).map((i) => this.entries[i]));
  }

  /** the recorded entry of `pool` that differs least from the request, and how */
  closest(req: OutgoingRequest, r: Redactor, pool: HarEntry[] = this.entries) {
    return closestEntry(req, r, pool);
  }
}
