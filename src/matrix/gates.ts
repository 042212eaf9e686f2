// Version gates by check: which `since`/`deprecated` versions stand behind a check, so that the matrix can tell a
// verdict that moved because an endpoint or a field came or went (a version change) from one that moved because
// the agent changed its behaviour. Sources, all the project's own: the scenario (and step) `since`/`deprecated`,
// the endpoint catalog (schemas/endpoints.json) for the endpoint a step calls, and `x-since`/`x-deprecated` on the
// resource schema a step validates against.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadedScenario } from '../scenario/load.js';
import { endpointKey, loadEndpoints, type EndpointEntry } from '../schema/endpoints.js';
import { SCHEMAS_DIR } from '../paths.js';

export interface Gate {
  /** what is gated: an endpoint id, a scenario, a step, or "<resource> field <name>" */
  what: string;
  since?: string;
  deprecated?: string;
  /** set for a field gate: the property name; it applies only to schema checks whose errors name it */
  field?: string;
}

/** the gates behind a check id (<scenario>/<step>/<check>) */
export type GateIndex = (checkId: string) => readonly Gate[];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function endpointGate(e: EndpointEntry | undefined): Gate[] {
  if (!e || (!e.since && !e.deprecated)) return [];
  return [
    { what: e.id, ...(e.since ? { since: e.since } : {}), ...(e.deprecated ? { deprecated: e.deprecated } : {}) },
  ];
}

const schemaCache = new Map<string, Gate[]>();

/** the gates of a resource schema: on the resource itself, and on any property (by name) within it */
export function schemaGates(resource: string, dir = SCHEMAS_DIR): Gate[] {
  const key = `${dir}\0${resource}`;
  const cached = schemaCache.get(key);
  if (cached) return cached;
  const file = join(dir, `${resource}.schema.json`);
  const gates: Gate[] = [];
  if (existsSync(file)) {
    const schema: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const versionOf = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const gateOf = (node: Json, what: string, field?: string): Gate | undefined => {
      const since = versionOf(node['x-since']);
      const deprecated = versionOf(node['x-deprecated']);
      if (!since && !deprecated) return undefined;
      return { what, ...(since ? { since } : {}), ...(deprecated ? { deprecated } : {}), ...(field ? { field } : {}) };
    };
    if (isObject(schema)) {
      const own = gateOf(schema, `${resource} (the resource)`);
      if (own) gates.push(own);
    }
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!isObject(node)) return;
      const props = node['properties'];
      if (isObject(props)) {
        for (const [name, p] of Object.entries(props)) {
          const g = isObject(p) ? gateOf(p, `${resource} field ${name}`, name) : undefined;
          if (g) gates.push(g);
        }
      }
      Object.values(node).forEach(walk);
    };
    walk(schema);
  }
  schemaCache.set(key, gates);
  return gates;
}

/** the gate index of a set of scenarios (the ones a matrix ran) */
export function gateIndex(scenarios: LoadedScenario[], endpoints: EndpointEntry[] = loadEndpoints()): GateIndex {
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  const scenarioGates = new Map<string, Gate[]>();
  const stepGates = new Map<string, Gate[]>();
  for (const { scenario: s } of scenarios) {
    const own: Gate[] = [];
    if (s.since || s.deprecated)
      own.push({
        what: `scenario ${s.id}`,
        ...(s.since ? { since: s.since } : {}),
        ...(s.deprecated ? { deprecated: s.deprecated } : {}),
      });
    scenarioGates.set(s.id, own);
    // absent mode probes every endpoint of `spec` against its gate: checks absent/<endpoint id> or present/<endpoint id>
    for (const id of s.spec)
      for (const probe of ['absent', 'present']) stepGates.set(`${s.id}/${probe}/${id}`, endpointGate(byId.get(id)));
    for (const step of [...(s.setup ?? []), ...(s.steps ?? []), ...(s.cleanup ?? [])]) {
      const gates: Gate[] = [];
      if (step.since) gates.push({ what: `step ${step.name}`, since: step.since });
      if (step.request) gates.push(...endpointGate(byId.get(endpointKey(step.request.method, step.request.path))));
      if (step.expect?.schema) gates.push(...schemaGates(step.expect.schema));
      stepGates.set(`${s.id}/${step.name}`, gates);
    }
  }
  // asked once per check and column (and again per version statement): each check's gates are worked out once
  const known = new Map<string, readonly Gate[]>();
  return (checkId) => {
    const hit = known.get(checkId);
    if (hit) return hit;
    const [scenario, step, ...rest] = checkId.split('/');
    const own = scenarioGates.get(scenario) ?? [];
    const exact = stepGates.get(`${scenario}/${step}/${rest.join('/')}`);
    const gates = [...(exact ?? stepGates.get(`${scenario}/${step}`) ?? []), ...own]; // the finest gate first: it names the endpoint
    known.set(checkId, gates);
    return gates;
  };
}
