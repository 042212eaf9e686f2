// Known deviations for the proxy. expectations/ lists them by check id of the suite ("db-localchanged/listed/schema");
// the proxy's checks have ids of their own (one per endpoint and exchange). A schema deviation that lists its errors
// ("/files/*/flags required") says what the agent does to a resource, whoever asks: the proxy applies it to every
// answer validated against that resource, by the errors it lists (any other error still fails). Other deviations
// (assertions of one scenario's values) say nothing of a client's exchange and are left out.
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

export type ResourceDeviations = Map<string, Deviation[]>;

/** the schema deviations of the agent's version that list their errors, by resource */
export function resourceDeviations(
  expectations: LoadedExpectations[],
  scenarios: LoadedScenario[],
): ResourceDeviations {
  const resources = schemaChecks(scenarios);
  const out: ResourceDeviations = new Map();
  for (const f of expectations)
    for (const d of f.data.deviations) {
      const resource = resources.get(d.check);
      if (!resource || !d.errors?.length) continue;
      out.set(resource, [...(out.get(resource) ?? []), { ...d, file: f.file }]);
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

/** marks the proxy's failing schema checks of a scenario by the deviations of the resource each validated */
export function applyResourceDeviations(s: ScenarioResult, byResource: ResourceDeviations): void {
  const index: DeviationIndex = new Map();
  for (const c of s.checks) {
    if (c.kind !== 'schema' || c.verdict !== 'fail' || !c.schemaErrors) continue;
    const list = byResource.get(String((c as CheckResult).expected));
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
