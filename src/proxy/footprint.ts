// The client's footprint: what of the API it used, by endpoint: how often, with which statuses answered, which query
// parameters, and the members of the JSON answers it received (shape paths as drift names them, so that `synconf
// drift` can keep to the causes that touch them). Bounded: a long session adds counts, not memory.
import type { Report } from '../schema/generated/types.js';
import { endpointName, shapeOf } from '../changes/compare.js';
import type { Scope } from './request-checks.js';

export type FootprintEntry = NonNullable<Report['proxy']>['footprint'][number];

/** members kept per endpoint; beyond them a count (a client that reads a map keyed by file names never ends) */
const MEMBERS_AT_MOST = 2000;
/** answers larger than this are not walked for their members (the time of one exchange stays small) */
const WALK_AT_MOST = 4 * 1024 * 1024;

interface Row {
  scope: Scope;
  count: number;
  statuses: Set<number>;
  params: Set<string>;
  members: Set<string>;
  membersCut: number;
}

export class Footprint {
  private readonly rows = new Map<string, Row>();

  /** one exchange: its request, the status answered (undefined: none) and the answer's JSON when it had one */
  add(scope: Scope, method: string, url: string, status: number | undefined, json: unknown): void {
    // pages and assets of a web GUI are one row per method: their paths are not the API's
    const endpoint = scope === 'not-rest' ? `${method.toUpperCase()} (outside /rest/)` : endpointName(method, url);
    let row = this.rows.get(endpoint);
    if (!row) {
      row = { scope, count: 0, statuses: new Set(), params: new Set(), members: new Set(), membersCut: 0 };
      this.rows.set(endpoint, row);
    }
    row.count++;
    if (status !== undefined) row.statuses.add(status);
    if (scope === 'not-rest') return;
    for (const name of new URL(url, 'http://proxy').searchParams.keys()) row.params.add(name);
    if (json === undefined) return;
    for (const path of shapeOf(json).keys()) {
      if (row.members.has(path)) continue;
      if (row.members.size < MEMBERS_AT_MOST) row.members.add(path);
      else row.membersCut++;
    }
  }

  /** whether an answer of this size is walked for its members */
  static walks(bytes: number): boolean {
    return bytes <= WALK_AT_MOST;
  }

  entries(): FootprintEntry[] {
    return [...this.rows]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([endpoint, r]) => ({
        endpoint,
        scope: r.scope,
        count: r.count,
        statuses: [...r.statuses].sort((a, b) => a - b),
        params: [...r.params].sort(),
        members: [...r.members].filter((m) => m !== '').sort(),
        ...(r.membersCut ? { membersCut: r.membersCut } : {}),
      }));
  }
}
