// Which spec endpoints a run covered: every entry of schemas/endpoints.json with the scenarios
// that name it in `spec:`, so an endpoint nobody tests is visible instead of silently missing.
// Honest about scope: an endpoint only scenarios left out by --only cover is "not run", not
// "not covered".
import type { Report, Verdict } from '../schema/generated/types.js';
import { loadEndpoints, type EndpointEntry } from '../schema/endpoints.js';
import { worst } from '../verdict/verdicts.js';

export { loadEndpoints, type EndpointEntry };

export type CoverageState = 'covered' | 'not run' | 'not covered';

export interface CoverageRow {
  id: string;
  /** null: a scenario names an id that endpoints.json does not list (a typo, or a stale list) */
  endpoint: EndpointEntry | null;
  /** indexes into report.scenarios */
  scenarios: number[];
  /** ids of scenarios that cover it but were not selected (--only) */
  notRun: string[];
  state: CoverageState;
  /** the verdict needing most attention among the covering scenarios; null when none ran */
  verdict: Verdict | null;
}

/** the spec heading an endpoint is described under, as a reader finds it in the spec */
export function sectionTitle(section: string | undefined): string {
  if (!section) return '';
  // Endpoint headings ("GET /rest/…", "Related paths that are named") sit under "## Endpoints".
  const underEndpoints = /^(GET|POST|PUT|PATCH|DELETE) \//.test(section) || /^Related paths/.test(section);
  return `§ ${underEndpoints ? 'Endpoints › ' : ''}${section}`;
}

/** one row per listed endpoint, in list order, then one per unlisted id that scenarios name */
export function coverage(report: Report, endpoints: EndpointEntry[]): CoverageRow[] {
  const byId = new Map<string, number[]>();
  report.scenarios.forEach((s, i) => {
    for (const id of new Set(s.spec)) byId.set(id, [...(byId.get(id) ?? []), i]);
  });
  const notRunBy = new Map<string, string[]>();
  for (const s of report.notSelected ?? [])
    for (const id of new Set(s.spec)) notRunBy.set(id, [...(notRunBy.get(id) ?? []), s.id]);
  const row = (id: string, endpoint: EndpointEntry | null): CoverageRow => {
    const scenarios = byId.get(id) ?? [];
    const notRun = notRunBy.get(id) ?? [];
    const state: CoverageState = scenarios.length ? 'covered' : notRun.length ? 'not run' : 'not covered';
    return {
      id,
      endpoint,
      scenarios,
      notRun,
      state,
      verdict: scenarios.length ? worst(scenarios.map((i) => report.scenarios[i].verdict)) : null,
    };
  };
  const listed = new Set(endpoints.map((e) => e.id));
  const named = new Set([...byId.keys(), ...notRunBy.keys()]);
  return [
    ...endpoints.map((e) => row(e.id, e)),
    ...[...named].filter((id) => !listed.has(id)).map((id) => row(id, null)),
  ];
}
