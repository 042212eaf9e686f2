// Which spec endpoints a run covered: every entry of schemas/endpoints.json with the scenarios
// that name it in `spec:`, so an endpoint nobody tests is visible instead of silently missing.
import type { Report, Verdict } from '../schema/generated/types.js';
import { loadEndpoints, type EndpointEntry } from '../schema/endpoints.js';
import { worst } from './verdicts.js';

export { loadEndpoints, type EndpointEntry };

export interface CoverageRow {
  id: string;
  /** null: a scenario names an id that endpoints.json does not list (a typo, or a stale list) */
  endpoint: EndpointEntry | null;
  /** indexes into report.scenarios */
  scenarios: number[];
  /** the verdict needing most attention among the covering scenarios; null when none covers it */
  verdict: Verdict | null;
}

/** one row per listed endpoint, in list order, then one per unlisted id that scenarios name */
export function coverage(report: Report, endpoints: EndpointEntry[]): CoverageRow[] {
  const byId = new Map<string, number[]>();
  report.scenarios.forEach((s, i) => {
    for (const id of new Set(s.spec)) byId.set(id, [...(byId.get(id) ?? []), i]);
  });
  const row = (id: string, endpoint: EndpointEntry | null): CoverageRow => {
    const scenarios = byId.get(id) ?? [];
    return { id, endpoint, scenarios, verdict: scenarios.length ? worst(scenarios.map((i) => report.scenarios[i].verdict)) : null };
  };
  const listed = new Set(endpoints.map((e) => e.id));
  return [
    ...endpoints.map((e) => row(e.id, e)),
    ...[...byId.keys()].filter((id) => !listed.has(id)).map((id) => row(id, null)),
  ];
}
