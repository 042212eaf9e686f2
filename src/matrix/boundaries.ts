// Version boundaries against the spec: for each version statement of the statement index (added in, since,
// deprecated since), what each tested version showed of it, the oldest tested version where it holds, and whether
// that agrees with the version the spec names (its `boundary`, spec/statements.yaml).
//
// A version statement says when something exists. On a version it holds when a check citing it passed or its
// endpoint answered (a status check of a step calling it, or the runner's version-gate probe), and does not hold
// when its endpoint was absent (404, or 405 where its path answers another method: DELETE /rest/cluster/pending/*
// on 1.13.0-1.17.x) or every check citing it failed. A check citing it that failed while another
// passed is about how the thing answers, not whether it exists: the verdict reports it. The observations are the
// checks' verdicts, which already count in each version's exit code; the comparison with the boundary is a view.
import type {
  BoundaryObservation,
  BoundaryVerdict,
  CheckResult,
  MatrixBoundary,
  MatrixBoundaryCell,
  Report,
  Statement,
  StatementBoundary,
} from '../schema/generated/types.js';
import { citationState } from '../verdict/statement-coverage.js';
import { atLeast } from '../schema/version.js';
import { showsAbsent } from '../verdict/absent.js';
import type { GateIndex } from './gates.js';
import { plural } from '../plural.js';

/** a tested version as the verdict needs it: its label, its release (null when unknown) and what it showed */
export interface Tested {
  label: string;
  version: string | null;
  observed: BoundaryObservation;
}

const list = (tested: Tested[]) => tested.map((t) => t.label).join(', ');

/** statuses that do not show an endpoint there */
const NOT_SHOWN = [401, 403, 404, 405];

/**
 * What a status check's answer shows of the endpoint. The evidence a failed check keeps (headers, body) is judged by
 * the gate's own rule (verdict/absent.ts: the router's 404, or 405 with Allow naming only other methods); a check that
 * passed kept none, and its 405 was what the scenario expected of a method the path lacks: absent too.
 */
function statusShows(c: CheckResult): boolean | undefined {
  const response = c.evidence?.response;
  const method = c.evidence?.request?.method;
  if (response && method && (response.status === 404 || response.status === 405))
    return showsAbsent(method, response) ? false : undefined;
  if (c.actual === 405) return false;
  // an unrouted path answers 404, a request without the API key 401/403 before any routing: only another status
  // shows the endpoint there
  return typeof c.actual === 'number' && !NOT_SHOWN.includes(c.actual) ? true : undefined;
}

/** whether the endpoint answered on this check: true present, false absent, undefined the check does not say */
function endpointShown(c: CheckResult): boolean | undefined {
  if (c.verdict === 'skip') return undefined;
  if (c.kind === 'version-gate') {
    const passed = c.verdict === 'pass' || c.verdict === 'unexpected-pass';
    return c.expected === 404 ? !passed : passed; // an absent-probe expects 404 (or 405); a present-probe "not 404"
  }
  return c.kind === 'status' ? statusShows(c) : undefined;
}

/** what one version's checks showed of a statement with its own boundary */
function observe(s: Statement, report: Report, gates: GateIndex): MatrixBoundaryCell {
  const endpoint = s.boundary?.endpoint;
  const n = { passed: 0, failed: 0, present: 0, absent: 0 };
  for (const scenario of report.scenarios)
    for (const c of scenario.checks) {
      // a version-gate check cites the version statements of its endpoint, and its pass means absent before the
      // version or present from it: what it shows is whether the endpoint is there (below), not a pass of the thing
      const cites = c.statements?.includes(s.id) && c.kind !== 'version-gate';
      const state = cites ? citationState(c, s.id) : null;
      if (state === 'passed') n.passed++;
      else if (state) n.failed++;
      const shown = endpoint && gates(c.id).some((g) => g.what === endpoint) ? endpointShown(c) : undefined;
      if (shown === true) n.present++;
      if (shown === false) n.absent++;
    }
  const holds = [n.present && `${endpoint} answered`, n.passed && `${plural(n.passed, 'check')} citing it passed`];
  const not = [
    n.absent && `${endpoint} absent (404, or 405 where its path has another method)`,
    n.failed && `${plural(n.failed, 'check')} citing it failed`,
  ];
  const by = (parts: (string | 0)[]) => parts.filter(Boolean).join('; ');
  if (n.present || n.passed) return { observed: 'holds', by: by(holds) };
  if (n.absent || n.failed) return { observed: 'does not hold', by: by(not) };
  return { observed: 'not observed', by: s.notCheckable ? 'not checkable' : 'no check cites it' };
}

/** a restating statement on one version: it holds when all it restates hold, not when any does not */
function combine(cells: MatrixBoundaryCell[], sameAs: string[]): MatrixBoundaryCell {
  const by = `restates ${sameAs.join(', ')}`;
  if (cells.some((c) => c.observed === 'does not hold')) return { observed: 'does not hold', by };
  if (cells.every((c) => c.observed === 'holds')) return { observed: 'holds', by };
  const unseen = sameAs.filter((_, i) => cells[i].observed === 'not observed');
  return { observed: 'not observed', by: `${by}; ${unseen.join(', ')} not observed` };
}

/** the verdict on one boundary from what the tested versions (oldest first) showed */
export function boundaryVerdict(
  boundary: Pick<StatementBoundary, 'version' | 'holds'> | undefined,
  tested: Tested[],
): { verdict: BoundaryVerdict; why: string } {
  if (!boundary) return { verdict: 'cannot tell', why: 'the spec names no version' };
  const { version, holds } = boundary;
  const known = tested.filter((t) => t.version !== null);
  const before = (t: Tested) => !atLeast(t.version!, version);
  const onSide = (t: Tested) => (holds === 'from' ? !before(t) : before(t));
  const sideName = (t: Tested) => (before(t) ? `before ${version}` : `from ${version} on`);
  const wrong = known.filter((t) => t.observed !== 'not observed' && (t.observed === 'holds') !== onSide(t));
  // on the "from" side, a version where it no longer holds after one where it did: removed since, which the
  // spec's "added in" does not say (the spec describes the newest release, so this disagrees all the same)
  const lastHeld = (t: Tested) =>
    known.filter((u) => !before(u) && u.observed === 'holds' && known.indexOf(u) < known.indexOf(t)).at(-1);
  const wrongOn = (t: Tested) => {
    const held = holds === 'from' && !before(t) ? lastHeld(t) : undefined;
    return held
      ? `${t.observed} on ${t.label}, ${sideName(t)}, after it held on ${held.label} (removed since)`
      : `${t.observed} on ${t.label}, ${sideName(t)} (${before(t) ? 'too early' : 'too late'})`;
  };
  if (wrong.length) return { verdict: 'disagrees', why: wrong.map(wrongOn).join('; ') };
  const seen = known.filter((t) => t.observed !== 'not observed');
  if (!seen.length) return { verdict: 'cannot tell', why: 'not observed on any tested version' };
  const sides = [known.filter(onSide), known.filter((t) => !onSide(t))];
  const seenSides = sides.map((side) => side.filter((t) => seen.includes(t)));
  const shown = (['does not hold', 'holds'] as const)
    .map((o) => [o, seen.filter((t) => t.observed === o)] as const)
    .filter(([, ts]) => ts.length)
    .map(([o, ts]) => `${o} on ${list(ts)}`)
    .join('; ');
  if (seenSides.every((side) => side.length))
    return {
      verdict: 'agrees',
      why: `${shown}: ${holds === 'from' ? 'from' : 'only before'} ${version}, as the spec says`,
    };
  const missing = sides.findIndex((side, i) => !seenSides[i].length);
  const where = (onSideMissing: boolean) =>
    (holds === 'from') === onSideMissing ? `from ${version} on` : `before ${version}`;
  const why = sides[missing].length
    ? `${list(sides[missing])} (${where(missing === 0)}) not observed`
    : `no tested version ${where(missing === 0)}`;
  return { verdict: 'cannot tell', why: `${why}; ${shown}` };
}

export interface BoundaryInput {
  /** the statement index: its version statements are the rows */
  statements: Statement[];
  reports: Report[];
  /** column indexes, oldest version first */
  order: number[];
  labels: string[];
  /** each column's release, null when unknown */
  versions: (string | null)[];
  gates: GateIndex;
}

/** the boundary a restating statement takes: the one all the statements it restates share */
function sharedBoundary(restated: Statement[]): StatementBoundary | undefined {
  const [first, ...rest] = restated.map((s) => s.boundary);
  const same = (b?: StatementBoundary) => b?.version === first?.version && b?.holds === first?.holds;
  return first && rest.every(same) ? { version: first.version, holds: first.holds } : undefined;
}

/** why a statement cannot be checked on the tested agents: its own reason, or that of all it restates */
function notCheckableWhy(s: Statement, restated: Statement[]): string | undefined {
  if (s.notCheckable) return s.notCheckable;
  return restated.length && restated.every((r) => r.notCheckable) ? restated[0].notCheckable : undefined;
}

/** one row per version statement of the index, in its order */
export function boundariesOf(input: BoundaryInput): MatrixBoundary[] {
  const { statements, reports, order, labels, versions, gates } = input;
  const byId = new Map(statements.map((s) => [s.id, s]));
  const own = new Map<string, MatrixBoundaryCell[]>();
  const ownCells = (s: Statement) => {
    let cells = own.get(s.id);
    if (!cells) own.set(s.id, (cells = reports.map((r) => observe(s, r, gates))));
    return cells;
  };
  const row = (s: Statement): MatrixBoundary => {
    const restated = (s.sameAs ?? []).map((id) => byId.get(id)!);
    const cells = s.sameAs
      ? reports.map((_, col) =>
          combine(
            restated.map((r) => ownCells(r)[col]),
            s.sameAs!,
          ),
        )
      : ownCells(s);
    const boundary = s.boundary ?? (restated.length ? sharedBoundary(restated) : undefined);
    const tested = order.map((col) => ({ label: labels[col], version: versions[col], observed: cells[col].observed }));
    const notCheckable = notCheckableWhy(s, restated);
    const { verdict, why } = notCheckable
      ? { verdict: 'cannot tell' as const, why: `not checkable: ${notCheckable}` }
      : boundaryVerdict(boundary, tested);
    // nothing observed anywhere: say why, when every version gives the same reason (no check cites it, …)
    const reasons = new Set(cells.map((c) => c.by));
    const unseen = cells.every((c) => c.observed === 'not observed') && reasons.size === 1 && !notCheckable;
    const first = order.find((col) => cells[col].observed === 'holds');
    const spec = { version: boundary?.version ?? null, holds: boundary?.holds ?? null };
    const said = unseen ? `${why} (${[...reasons][0]})` : why;
    return { statement: s.id, quote: s.quote, ...spec, cells, firstHolds: first ?? null, verdict, why: said };
  };
  return statements.filter((s) => s.kind === 'version').map(row);
}
