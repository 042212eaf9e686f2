// What one difference is evidence of, and where it sits: a finding names its change rule, the endpoint, and the
// member's place (the schema that defines it, for a member several endpoints return, and a JSON pointer with array
// items and map keys as `*`). Findings with the same key are one cause (causes.ts); which rule a difference is found
// by is the rule table's (finders.ts).
import type { ChangeRuleId } from '../schema/generated/types.js';
import type { Difference } from './compare.js';
import { loadEndpoints } from '../schema/endpoints.js';
import { homeOf } from './schema-home.js';

export interface Finding {
  rule: ChangeRuleId;
  endpoint: string;
  /** the schema that defines the member: the cause is then keyed by it, not by the endpoint */
  schema?: string;
  /** within `schema` when there is one, else within the answer */
  pointer: string;
  /** the pointer in the answer */
  at?: string;
  /** an added member, grouped under `pointer` */
  member?: string;
  change: string;
  /** a change of the agent's HTTP layer, not of one endpoint: one cause over every endpoint it shows on */
  acrossEndpoints?: true;
}

let responses: Map<string, string> | undefined;

/**
 * The parts of the configuration its sub-paths answer with (GET /rest/config/options, /folders, /folders/ID, ...):
 * a member there is the member of the configuration object, as GET /rest/config answers it.
 */
const CONFIG_PART =
  /^GET \/rest\/config\/(options|gui|ldap|folders|devices|defaults\/folder|defaults\/device)(\/<\w+>)?$/;

/** the response resource of an endpoint ("METHOD /path") by the catalog, and where in it the answer sits */
function responseOf(endpoint: string): { resource: string; prefix: string[] } | undefined {
  responses ??= new Map(loadEndpoints().flatMap((e) => (e.response ? [[e.id, e.response] as const] : [])));
  const resource = responses.get(endpoint);
  if (resource) return { resource, prefix: [] };
  const part = CONFIG_PART.exec(endpoint);
  if (part) return { resource: 'config', prefix: [...part[1].split('/'), ...(part[2] ? ['*'] : [])] };
  return undefined;
}

/** a drift path or a pointer as segments, array items, indexes and keys in disguise (<deviceId>) as `*` */
export const segmentsOf = (path: string | undefined): string[] =>
  (path ?? '')
    .split('/')
    .slice(1)
    .filter((s, i, all) => s !== '' || i < all.length - 1)
    .map((s) => (s === '[]' || s.startsWith('<') || /^\d+$/.test(s) ? '*' : s));

const pointerOf = (segments: string[]) => segments.map((s) => `/${s}`).join('');

/** an answer's status that is no success: an error status, or no answer at all */
export const isError = (s: number | string | null) => typeof s !== 'number' || s >= 400;

/**
 * A finding about the member at `segments` of an answer, placed in the schema that defines it where known: the
 * schema of the object holding the member, or with `itself` the schema of the object at `segments` (whose
 * members were added).
 */
export function memberFinding(
  d: Difference,
  rule: ChangeRuleId,
  segments: string[],
  change: string,
  itself = false,
): Finding {
  const at = pointerOf(segments);
  const response = responseOf(d.endpoint);
  if (!response) return { rule, endpoint: d.endpoint, pointer: at, at, change };
  const inResource = [...response.prefix, ...segments];
  if (itself) return { rule, endpoint: d.endpoint, ...homeOf(response.resource, inResource), at, change };
  const home = homeOf(response.resource, inResource.slice(0, -1));
  const pointer = `${home.pointer}${inResource.length ? `/${inResource.at(-1)}` : ''}`;
  return { rule, endpoint: d.endpoint, schema: home.schema, pointer, at, change };
}

/** a finding about an endpoint as a whole (its status, media type, body kind, events) */
export const endpointFinding = (rule: ChangeRuleId, endpoint: string, change: string): Finding => ({
  rule,
  endpoint,
  pointer: '',
  change,
});
