// Version gates per endpoint, from schemas/endpoints.json (`since`): an agent older than an endpoint's `since`
// does not have it, and a request to it with a valid API key must answer 404 (Syncthing routes after it checks the
// key, so a request without one is refused with 403 on every version and stays an ordinary check).
import { endpointKey, loadEndpoints, type EndpointEntry } from '../schema/endpoints.js';
import { atLeast } from '../schema/version.js';

let byId: Map<string, EndpointEntry> | undefined;

/** the catalog entry of "METHOD /path" (a query string is ignored) */
export function endpointEntry(method: string, path: string): EndpointEntry | undefined {
  byId ??= new Map(loadEndpoints().map((e) => [e.id, e]));
  return byId.get(endpointKey(method, path));
}

/** the `since` of the endpoint when the agent predates it (the endpoint must be absent), else undefined */
export function missingSince(agentVersion: string | null, endpointId: string): string | undefined {
  const [method, path] = endpointId.split(' ');
  const since = endpointEntry(method, path)?.since;
  return since && agentVersion && !atLeast(agentVersion, since) ? since : undefined;
}
