// A client's footprint restricts a drift to what that client used: a difference counts for it when it is on an
// endpoint it called and, inside an answer's body, at a member it received (or above one: a removed object takes its
// members with it). A member it never received, or an endpoint it never called, changes nothing for that client.
// The footprint is the `proxy.footprint` of a proxy report (schemas/report.schema.json), shape paths as drift names them.
import type { ContractEndpoint, Report } from '../schema/generated/types.js';
import type { Difference } from './compare.js';

export type Footprint = NonNullable<Report['proxy']>['footprint'];

/** the kinds of difference that are about one member of a body (the others are about the whole exchange) */
const AT_A_MEMBER = new Set<Difference['kind']>([
  'type',
  'removed',
  'added',
  'value-broken',
  'value-conforms',
  'value',
]);

/** whether the difference touches the footprint */
export function touchesFootprint(footprint: Footprint, d: Difference): boolean {
  const used = footprint.find((f) => f.endpoint === d.endpoint);
  if (!used) return false;
  if (!AT_A_MEMBER.has(d.kind) || !d.path) return true;
  const path = d.path;
  return used.members.some((m) => m === path || m.startsWith(`${path}/`)) || (used.membersCut ?? 0) > 0;
}

/** the kinds of difference that are about the types of the events an answer holds */
const EVENT_KINDS = new Set<Difference['kind']>(['event-gone', 'event-new']);

/** the kinds of difference that reach every client that called the endpoint, whatever it reads of the answer */
const ALWAYS = new Set<Difference['kind']>(['status', 'only-before']);

/**
 * With a client's contract (the endpoints and members its author says it reads): a status changed (an endpoint
 * removed among them) or an exchange gone on an endpoint the client called counts always; any other difference only
 * on an endpoint the contract names and, inside a body, at a member it reads (or above one); an event type fired or
 * no longer fired only where it reads the events' /[]/type.
 */
export function touchesContract(footprint: Footprint, contract: ContractEndpoint[], d: Difference): boolean {
  if (!touchesFootprint(footprint, d)) return false;
  if (ALWAYS.has(d.kind)) return true;
  const named = contract.find((c) => c.endpoint === d.endpoint);
  if (!named) return false;
  // an event type seen or gone is a change of the events' /[]/type: it counts for a client that reads their types
  const path = EVENT_KINDS.has(d.kind) ? '/[]/type' : d.path;
  if (!path || (!AT_A_MEMBER.has(d.kind) && !EVENT_KINDS.has(d.kind))) return true;
  return named.members.some((m) => m === path || m.startsWith(`${path}/`));
}
