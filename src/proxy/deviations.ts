// Known deviations for the proxy. expectations/ lists them by check id of the suite ("db-localchanged/listed/schema");
// the proxy's checks have ids of their own (one per endpoint and exchange). A schema deviation that lists its errors
// ("/files/*/flags required") says what the agent does to a resource, whoever asks: the proxy applies it to every
// answer validated against that resource, by the errors it lists (any other error still fails). A deviation of the
// status of a step asking an endpoint for its success answer (or of the suite's "<endpoint> exists" check) says the
// version lacks the endpoint: the proxy applies it to its own check of that endpoint answered by the router's 404.
// Other deviations (assertions of one scenario's values) say nothing of a client's exchange and are left out.
import type { CheckResult, ScenarioResult } from '../schema/generated/types.js';
import type { LoadedScenario } from '../scenario/load.js';
import {
  applyDeviations,
  expectationsToApply,
  type DeviationIndex,
  type LoadedExpectations,
} from '../runner/expectations.js';
import { selectScenarios } from '../scenario/select.js';

type Deviation = LoadedExpectations['data']['deviations'][number] & { file: string };

/** check id → the resource its step validates ("<scenario>/<step>/schema" → "local-changed") */
function schemaChecks(scenarios: LoadedScenario[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (node: unknown, scenario: string, shared?: string) => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, scenario, shared));
    if (!node || typeof node !== 'object') return;
    const o = node as { name?: unknown; expect?: { schema?: unknown }; each?: unknown };
    const schema = typeof o.expect?.schema === 'string' ? o.expect.schema : shared;
    if (typeof o.name === 'string' && schema) out.set(`${scenario}/${o.name}/schema`, schema);
    if (o.each) walk(o.each, scenario, schema);
    for (const value of Object.values(o))
      if (value && typeof value === 'object' && value !== o.each) walk(value, scenario);
  };
  for (const s of scenarios) walk([s.scenario.setup, s.scenario.steps, s.scenario.cleanup], s.scenario.id);
  return out;
}

/**
 * check id → the endpoint the suite found absent: the status check of a step that asks the endpoint for its success
 * answer ("system-debug/get-debug/status" → "GET /rest/system/debug exists"), and the suite's own "<endpoint> exists"
 * check of an agent that predates the endpoint. A deviation of either says the agent's version lacks the endpoint.
 */
function absenceChecks(scenarios: LoadedScenario[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (node: unknown, scenario: string) => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, scenario));
    if (!node || typeof node !== 'object') return;
    const o = node as { name?: unknown; request?: { method?: unknown; path?: unknown }; expect?: { status?: unknown } };
    const { method, path } = o.request ?? {};
    const success = o.expect?.status === undefined || o.expect.status === 200;
    if (typeof o.name === 'string' && typeof method === 'string' && typeof path === 'string' && success)
      out.set(`${scenario}/${o.name}/status`, absenceCheckName(`${method.toUpperCase()} ${path.split('?')[0]}`));
    for (const value of Object.values(o)) if (value && typeof value === 'object') walk(value, scenario);
  };
  for (const s of scenarios) walk([s.scenario.setup, s.scenario.steps, s.scenario.cleanup], s.scenario.id);
  return out;
}

/** the name of the proxy's check of an endpoint the agent answered with its router's 404 */
export const absenceCheckName = (endpoint: string) => `${endpoint} exists`;

/**
 * The deviations the proxy applies, keyed by what its check names: a resource (schema deviations that list their
 * errors) or an absent endpoint's check name ("GET /rest/system/debug exists").
 */
export type ResourceDeviations = Map<string, Deviation[]>;

/** the deviations of the agent's version the proxy can apply: schema ones by resource, absent endpoints by name */
export function resourceDeviations(
  expectations: LoadedExpectations[],
  scenarios: LoadedScenario[],
): ResourceDeviations {
  const resources = schemaChecks(scenarios);
  const absences = absenceChecks(scenarios);
  const out: ResourceDeviations = new Map();
  const add = (key: string, d: Deviation) => out.set(key, [...(out.get(key) ?? []), d]);
  for (const f of expectations)
    for (const d of f.data.deviations) {
      const resource = resources.get(d.check);
      if (resource && d.errors?.length) add(resource, { ...d, file: f.file });
      const gate = / exists$/.test(d.check) ? d.check.split('/').slice(2).join('/') : absences.get(d.check);
      if (gate) add(gate, { ...d, file: f.file });
    }
  return out;
}

/** one entry standing for every listed deviation of a resource: their errors together, what each says */
function merged(list: Deviation[]): Deviation {
  const unique = (texts: string[]) => [...new Set(texts)].join(' ');
  return {
    check: list.map((d) => d.check).join(', '),
    errors: [...new Set(list.flatMap((d) => d.errors ?? []))],
    observed: unique(list.map((d) => d.observed)),
    reason: unique(list.map((d) => d.reason)),
    file: [...new Set(list.map((d) => d.file))].join(', '),
  };
}

/** the key of a failing check among the deviations: the resource a schema check validated, an absence's name */
function deviationKey(c: CheckResult): string | undefined {
  if (c.verdict !== 'fail') return undefined;
  if (c.kind === 'schema') return c.schemaErrors ? String(c.expected) : undefined;
  return c.kind === 'version-gate' ? c.id.split('/').slice(2).join('/') : undefined;
}

/** marks the proxy's failing checks of a scenario by the deviations of the resource or absent endpoint each names */
export function applyResourceDeviations(s: ScenarioResult, byResource: ResourceDeviations): void {
  const index: DeviationIndex = new Map();
  for (const c of s.checks) {
    const key = deviationKey(c);
    const list = key === undefined ? undefined : byResource.get(key);
    if (list) index.set(c.id, merged(list));
  }
  if (index.size) applyDeviations(s, index);
}

/**
 * The known deviations that say what the agent does to a resource, and the files they come from: those of its
 * version, or of the `file` given (false: none, as --no-expectations).
 */
export async function deviationsFor(
  version: string | null,
  file?: string | false,
): Promise<{ files: string[]; byResource: ResourceDeviations }> {
  const expectations = expectationsToApply(file, version);
  if (!expectations.length) return { files: [], byResource: new Map() };
  const selection = await selectScenarios(undefined, undefined);
  return { files: expectations.map((e) => e.file), byResource: resourceDeviations(expectations, selection.scenarios) };
}
