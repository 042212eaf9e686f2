// A mutant: the recordings of one scenario with some answers replaced. Built in memory, applied by
// the replay (one mutant at a time), never written anywhere.
import { isDeepStrictEqual } from 'node:util';
import type { HarEntry, MutantResult } from '../schema/generated/types.js';
import { endpointKey, loadEndpoints } from '../schema/endpoints.js';
import type { LiveFault } from './fault-transport.js';

export interface Mutant extends Omit<MutantResult, 'outcome' | 'killedBy'> {
  /** index in the scenario's cassette → the entry that answers instead */
  replace: Map<number, HarEntry>;
  /** ids of the checks that exist to catch it (a survivor whose checks all fail already is masked by a known deviation) */
  aims?: string[];
  /** masked too when a check that already fails on this agent (a known deviation) fails otherwise under it */
  maskedWhenSeen?: boolean;
  /** the same mutant in front of a live agent (synconf mutate --live) */
  live?: LiveFault;
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  error?: HarEntry['_error'] | null;
}

/** a copy of a recorded entry answering differently */
export function answered(e: HarEntry, a: Answer): HarEntry {
  const copy = structuredClone(e);
  if (a.status !== undefined) copy.response.status = a.status;
  if (a.headers) copy.response.headers = Object.entries(a.headers).map(([name, value]) => ({ name, value }));
  if (a.body !== undefined)
    copy.response.content = { ...copy.response.content, text: a.body, size: Buffer.byteLength(a.body) };
  if (a.error === null) delete copy._error;
  else if (a.error) copy._error = a.error;
  return copy;
}

/** the answer of an entry (status, headers, body, error), to replay it in another place */
export function answerOf(e: HarEntry): Answer {
  return { status: e.response.status, headers: headersOf(e), body: e.response.content.text, error: e._error ?? null };
}

export const headersOf = (e: HarEntry): Record<string, string> =>
  Object.fromEntries(e.response.headers.map((h) => [h.name.toLowerCase(), h.value]));

/** true when the mutant replays every answer as recorded: nothing to tell apart */
export function changesNothing(entries: HarEntry[], replace: Map<number, HarEntry>): boolean {
  return [...replace].every(([i, e]) => isDeepStrictEqual(answerOf(entries[i]), answerOf(e)));
}

/** METHOD path of a request, as the id of schemas/endpoints.json when one is it; ids in deeper paths become {id} */
export function endpointOf(e: HarEntry): string {
  const path = new URL(e.request.url).pathname;
  const id = endpointKey(e.request.method, path);
  if (loadEndpoints().some((x) => x.id === id)) return id;
  return `${e.request.method} ${path
    .split('/')
    .map((s, i) => (i > 3 ? '{id}' : s))
    .join('/')}`;
}

export function isJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
