// schemas/endpoints.json, the spec's endpoints: scenarios name them in `spec:`, reports show
// coverage by them. Read once, and checked against schemas/endpoints.schema.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EndpointCatalog, EndpointEntry } from './generated/types.js';
import { validate, formatError } from './registry.js';
import { SCHEMAS_DIR } from '../paths.js';

export type { EndpointEntry };

/**
 * The key of a request in the catalog and everywhere synconf names an endpoint: "METHOD /path" without the query
 * string ("GET /rest/db/status"). A full URL (as cassettes hold) counts by its path.
 */
export function endpointKey(method: string, url: string): string {
  const path = /^[a-z][a-z\d+.-]*:\/\//i.test(url) ? new URL(url).pathname : url.split('?')[0];
  return `${method.toUpperCase()} ${path}`;
}

const cache = new Map<string, EndpointEntry[]>();

/** the catalog (read once per file); a catalog that breaks its schema is an error naming the file */
export function loadEndpoints(file = join(SCHEMAS_DIR, 'endpoints.json')): EndpointEntry[] {
  let endpoints = cache.get(file);
  if (endpoints) return endpoints;
  const doc: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const errors = validate('endpoints', doc);
  if (errors.length) throw new Error(`${file} is not a valid endpoint catalog: ${errors.map(formatError).join('; ')}`);
  endpoints = (doc as EndpointCatalog).endpoints;
  cache.set(file, endpoints);
  return endpoints;
}
