// Several runs (agent versions, platforms) side by side: one row per check id, one column per
// run. A row whose verdict differs between runs is `changed`: that is where a release moved.
import type { Report, Verdict, Matrix, MatrixColumn, MatrixRow } from '../schema/generated/types.js';
import { platform } from './text.js';

export type { Matrix, MatrixColumn, MatrixRow };

function labels(reports: Report[], files: (string | null)[]): string[] {
  const base = reports.map((r) => [r.agent.version ?? 'unknown version', platform(r.agent)].filter(Boolean).join(' '));
  const named = base.map((b, i) => (base.filter((x) => x === b).length > 1 ? files[i] ?? `run ${i + 1}` : b));
  // Same file name twice too (a/report.json, b/report.json given as bare names): number them.
  return named.map((n, i) => (named.filter((x) => x === n).length > 1 ? `${n} #${i + 1}` : n));
}

/** `files[i]` names where reports[i] came from; used for the label when runs look alike */
export function mergeReports(reports: Report[], files: (string | null)[] = []): Matrix {
  const ids = new Map<string, { scenario: string; cells: (Verdict | null)[] }>();
  reports.forEach((r, col) => {
    for (const s of r.scenarios) {
      for (const c of s.checks) {
        let row = ids.get(c.id);
        if (!row) ids.set(c.id, (row = { scenario: s.id, cells: reports.map(() => null) }));
        row.cells[col] = c.verdict;
      }
    }
  });
  const rows: MatrixRow[] = [...ids].map(([id, { scenario, cells }]) => ({
    id,
    scenario,
    cells,
    changed: new Set(cells.filter((v) => v !== null)).size > 1,
  }));
  rows.sort((a, b) => Number(b.changed) - Number(a.changed)); // stable: run order otherwise
  const names = labels(reports, reports.map((_, i) => files[i] ?? null));
  return {
    format: 'synconf-matrix/1',
    columns: reports.map((r, i) => ({
      label: names[i],
      file: files[i] ?? null,
      agentVersion: r.agent.version,
      platform: platform(r.agent),
      mode: r.run.mode,
      startedAt: r.run.startedAt,
      exitCode: r.exitCode,
      totals: r.totals,
    })),
    rows,
    changed: rows.filter((r) => r.changed).length,
  };
}
