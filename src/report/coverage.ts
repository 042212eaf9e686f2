// Which spec endpoints a run covered: every entry of schemas/endpoints.json with the scenarios
// that name it in `spec:`, so an endpoint nobody tests is visible instead of silently missing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report, Verdict } from '../schema/generated/types.js';
import { SCHEMAS_DIR } from '../paths.js';
import { worst } from './verdicts.js';

/** the fields of an endpoints.json entry the reports show (endpoints.json is a list, not a resource schema) */
export interface EndpointEntry {
  id: string;
  method?: string;
  path?: string;
  section?: string;
  response?: string | null;
  since?: string;
  deprecated?: string;
  related?: unknown;
}

export interface CoverageRow {
  id: string;
  /** null: a scenario names an id that endpoints.json does not list (a typo, or a stale list) */
  endpoint: EndpointEntry | null;
  /** indexes into report.scenarios */
  scenarios: number[];
  /** the verdict needing most attention among the covering scenarios; null when none covers it */
  verdict: Verdict | null;
}

/** schemas/endpoints.json, read when a report is generated */
export function loadEndpoints(file = join(SCHEMAS_DIR, 'endpoints.json')): EndpointEntry[] {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { endpoints?: unknown };
  if (!Array.isArray(doc.endpoints)) throw new Error(`${file}: no "endpoints" array`);
  return doc.endpoints as EndpointEntry[];
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
