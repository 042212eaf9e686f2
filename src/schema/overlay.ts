// Version overlay: the schemas describe the spec (as of 2.1.0); a property marked `x-since: V`
// is only required from agent version V on. The effective schema for an agent version drops such
// properties from `required` (they are still type-checked when present).
import { atLeast } from './version.js';

type Json = unknown;
type SchemaObject = Record<string, Json>;

const isObject = (v: Json): v is SchemaObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** every `x-since` version on a property (the ones that change what is required), without duplicates */
export function sinceVersions(schemas: Json[]): string[] {
  const found = new Set<string>();
  const walk = (node: Json): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObject(node)) return;
    const props = node['properties'];
    if (isObject(props))
      for (const p of Object.values(props))
        if (isObject(p) && typeof p['x-since'] === 'string') found.add(p['x-since']);
    Object.values(node).forEach(walk);
  };
  schemas.forEach(walk);
  return [...found];
}

/** a copy of `schema` in which properties introduced after `agentVersion` are not required */
export function effectiveSchema<T extends Json>(schema: T, agentVersion: string): T {
  const walk = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    const out: SchemaObject = {};
    for (const [key, value] of Object.entries(node)) out[key] = walk(value);
    const props = node['properties'];
    if (Array.isArray(node['required']) && isObject(props)) {
      out['required'] = (node['required'] as string[]).filter((name) => {
        const since = isObject(props[name]) ? props[name]['x-since'] : undefined;
        return typeof since !== 'string' || atLeast(agentVersion, since);
      });
    }
    return out;
  };
  return walk(schema) as T;
}
