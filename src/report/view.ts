// One view of a run, computed once from report.json and rendered by every writer (HTML,
// Markdown, JUnit, the console): what fails the run and what to do about it, the known
// deviations by endpoint with their reasons, flaky checks, the comparison with a baseline,
// coverage, timings. Writers format; they never decide a verdict, a hint or an exit code.
import type {
  BaselineClass,
  CheckResult,
  FailOn,
  Report,
  ScenarioResult,
  UndocumentedMember,
  Verdict,
} from '../schema/generated/types.js';
import { type CoverageRow, type EndpointEntry, coverage, loadEndpoints } from './coverage.js';
import { endpointKey } from '../schema/endpoints.js';
import { curlOf } from './curl.js';
import { checkKind, fold, foldedCount, harnessKind, type Kept } from './fold.js';
import { drained, pacedDrain, pacer, type Pace } from '../turns.js';
import {
  DEFAULT_FAIL_ON,
  VERDICTS,
  VERDICT_LABEL,
  countVerdicts,
  failsRun,
  isProblem,
  runStatus,
} from '../verdict/verdicts.js';

export interface CheckView {
  check: CheckResult;
  scenario: ScenarioResult;
  /** index of the scenario in report.scenarios, and of the check in it */
  si: number;
  ci: number;
  /** the HTML anchor of the check */
  anchor: string;
  /** "GET /rest/system/status": the request's method and path, else the scenario's first endpoint */
  endpoint: string;
  /** scenario file and the step's line, e.g. suites/system/status.yaml:12 */
  location: string;
  /** true when this check makes the run non-conforming (the gate's one rule, failsRun) */
  fails: boolean;
  /** what a reader should do or know beyond the message (one place: never in the message too) */
  hint: string | null;
  /** the request as a curl command (key as $SYNCTHING_API_KEY), for checks a reader may repeat */
  curl: string | null;
  /** in the list that holds it: how many checks like this one follow it, folded (fold.ts); 0 for none */
  more: number;
}

export interface ScenarioView {
  scenario: ScenarioResult;
  si: number;
  anchor: string;
  counts: Record<Verdict, number>;
  /** shown open: it holds a problem (known deviations are listed on their own) */
  open: boolean;
  /** its checks, repeated identical problems folded */
  checks: CheckView[];
  /** checks a bounded report.json left out (neither kept nor like a kept one) */
  omitted: number;
}

/** known deviations of one endpoint that share what the agent does and why: one row of a table, not one per check */
export interface DeviationRow {
  observed: string;
  reason: string;
  checks: CheckView[];
}

export interface DeviationGroup {
  endpoint: string;
  checks: CheckView[];
  /** the checks by what the agent does and why, in the order they first occur */
  rows: DeviationRow[];
  /** the deviations it holds, folded ones counted */
  count: number;
}

export interface BaselineView {
  file: string;
  startedAt: string | null;
  counts: NonNullable<Report['baseline']>['counts'];
  /** checks by class, in report order (unchanged ones left out) */
  byClass: Record<Exclude<BaselineClass, 'unchanged'>, CheckView[]>;
  gone: NonNullable<Report['baseline']>['gone'];
}

export interface RunView {
  report: Report;
  failOn: readonly FailOn[];
  status: string;
  tone: 'ok' | 'bad' | 'error';
  /** "agent 1.19.2" */
  agent: string;
  /** the page's title: "agent 1.19.2 conforms"; what went wrong with the run first ("harness error (agent …)") */
  headline: string;
  /** every check, in report order */
  checks: CheckView[];
  /** checks that fail the run, then problems that do not (e.g. still failing under --fail-on new-failure); folded */
  problems: CheckView[];
  /** the harness errors, folded */
  harnessErrors: Kept<Report['harnessErrors'][number]>[];
  /** known deviations by endpoint, each group folded */
  deviations: DeviationGroup[];
  flaky: CheckView[];
  baseline: BaselineView | null;
  coverage: {
    rows: CoverageRow[];
    listError: string | null;
    spec: number;
    covered: number;
    notRun: number;
    notCovered: number;
    unknown: number;
    related: number;
    relatedCovered: number;
  };
  /** attention first (the sort is stable: suite order within a verdict) */
  scenarios: ScenarioView[];
  /** the five slowest scenarios */
  slowest: ScenarioView[];
  /** members of responses their schema does not name: notes, or failures under --strict */
  undocumented: { notes: UndocumentedMember[]; strict: boolean };
}

export const BASELINE_CLASS_LABEL: Record<BaselineClass | 'gone', string> = {
  'new-failure': 'new failure',
  fixed: 'fixed',
  'still-failing': 'still failing',
  'new-check': 'new check',
  unchanged: 'unchanged',
  gone: 'gone',
};

const checkAnchor = (si: number, ci: number) => `s${si}-c${ci}`;

/** the request's "METHOD /path" (no query), else the scenario's first endpoint */
function endpointOf(c: CheckResult, s: ScenarioResult): string {
  const req = c.evidence?.request;
  if (req) return endpointKey(req.method, req.url);
  return s.spec[0] ?? s.id;
}

function hintOf(c: CheckResult): string | null {
  const parts: string[] = [];
  if (c.flaky && c.runs)
    parts.push(
      `flaky: ${c.runs.map((v, i) => `run ${i + 1} ${VERDICT_LABEL[v]}`).join(', ')}${c.oddRun ? `; the evidence is of run ${c.oddRun}` : ''}`,
    );
  if (c.verdict === 'unexpected-pass') {
    parts.push(
      `listed as a known deviation${c.deviation?.file ? ` in ${c.deviation.file}` : ''} (${c.deviation?.reason ?? 'no reason given'}), but the agent conforms now: remove the entry`,
    );
  }
  if (c.verdict === 'fail' && c.deviation)
    parts.push(`a known deviation is listed for this check (${c.deviation.reason}), but not every error it shows`);
  if (c.baseline?.class === 'new-failure')
    parts.push(`new since the baseline (was ${c.baseline.verdict ? VERDICT_LABEL[c.baseline.verdict] : 'absent'})`);
  if (c.baseline?.class === 'still-failing') parts.push('already failing in the baseline');
  return parts.length ? parts.join('; ') : null;
}

function coverageView(report: Report, endpoints: EndpointEntry[] | undefined): RunView['coverage'] {
  let listError: string | null = null;
  if (!endpoints) {
    try {
      endpoints = loadEndpoints();
    } catch (err) {
      listError = (err as Error).message;
      endpoints = [];
    }
  }
  const rows = coverage(report, endpoints);
  const spec = rows.filter((r) => r.endpoint && !r.endpoint.related);
  const related = rows.filter((r) => r.endpoint?.related);
  return {
    rows,
    listError,
    spec: spec.length,
    covered: spec.filter((r) => r.state === 'covered').length,
    notRun: spec.filter((r) => r.state === 'not run').length,
    notCovered: spec.filter((r) => r.state === 'not covered').length,
    unknown: rows.filter((r) => !r.endpoint).length,
    related: related.length,
    relatedCovered: related.filter((r) => r.state === 'covered').length,
  };
}

/** the view of one check of a scenario */
function checkView(report: Report, s: ScenarioResult, si: number, failOn: readonly FailOn[]) {
  return (c: CheckResult, ci: number): CheckView => {
    const fails = failsRun(c, failOn);
    const interesting = fails || isProblem(c.verdict) || c.verdict === 'expected-fail' || !!c.flaky;
    return {
      check: c,
      scenario: s,
      si,
      ci,
      anchor: checkAnchor(si, ci),
      endpoint: endpointOf(c, s),
      location: c.line ? `${s.file}:${c.line}` : s.file,
      fails,
      hint: hintOf(c),
      curl: interesting ? curlOf(c, report.run.target) : null,
      more: c.more ?? 0,
    };
  };
}

/** one scenario of the run with its checks (`own`, repeats folded); `open` when it needs attention */
function scenarioView(s: ScenarioResult, si: number, own: CheckView[]): ScenarioView {
  const counts = countVerdicts(s.checks.map((c) => c.verdict));
  // a bounded report.json: each check counts those folded into it, and the scenario those it left out
  for (const c of s.checks) counts[c.verdict] += c.more ?? 0;
  for (const v of VERDICTS) counts[v] += s.omitted?.[v] ?? 0;
  const open =
    own.some((c) => c.fails || isProblem(c.check.verdict) || c.check.flaky) ||
    (s.checks.length === 0 && s.verdict !== 'pass');
  const omitted = Object.values(s.omitted ?? {}).reduce((a, b) => a + b, 0);
  return { scenario: s, si, anchor: `s${si}`, counts, open, checks: folded(own), omitted };
}

/** `list` with repeated identical problems folded: the first few kept, the last of them counting the rest */
function folded(list: CheckView[]): CheckView[] {
  return fold(
    list,
    (v) => checkKind(v.check, v.scenario.id),
    (v) => 1 + v.more,
  ).map(({ item, more }) => (more === item.more ? item : { ...item, more }));
}

/** `items` grouped by `key`, groups in the order their first item comes */
function groupBy<T>(items: T[], key: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(item);
  }
  return [...groups.values()];
}

/**
 * The known deviations (expected failures) grouped by endpoint, and within it by what the agent does and why: one
 * listed deviation often explains many checks (11 of the browse change), and its reason once is easier to read.
 */
function deviationGroups(checks: CheckView[]): RunView['deviations'] {
  const listed = checks.filter((x) => x.check.verdict === 'expected-fail');
  return groupBy(listed, (c) => c.endpoint).map((group) => {
    const list = folded(group);
    const observed = (c: CheckView) => c.check.deviation?.observed ?? c.check.message;
    const rows = groupBy(list, (c) => `${observed(c)}\u0000${c.check.deviation?.reason ?? ''}`).map((same) => ({
      observed: observed(same[0]),
      reason: same[0].check.deviation?.reason ?? '',
      checks: same,
    }));
    return { endpoint: group[0].endpoint, checks: list, rows, count: foldedCount(list) };
  });
}

/** the comparison with --baseline, the checks sorted by their change class; null without a baseline */
function baselineView(report: Report, checks: CheckView[]): BaselineView | null {
  if (!report.baseline) return null;
  const of = (k: BaselineClass) => checks.filter((c) => c.check.baseline?.class === k);
  return {
    file: report.baseline.file,
    startedAt: report.baseline.startedAt ?? null,
    counts: report.baseline.counts,
    gone: report.baseline.gone,
    byClass: {
      'new-failure': of('new-failure'),
      fixed: of('fixed'),
      'still-failing': of('still-failing'),
      'new-check': of('new-check'),
    },
  };
}

/**
 * The view of a run. `endpoints` defaults to schemas/endpoints.json; when it cannot be read the
 * coverage lists only the endpoints scenarios name, and `coverage.listError` says why.
 */
export const viewOf = (report: Report, endpoints?: EndpointEntry[]): RunView => drained(viewSteps(report, endpoints));

/**
 * The same view, a turn of the event loop now and then (`pace`): of 50,000 checks it takes seconds, which in one
 * piece left a signal unheard (issue 41).
 */
export const pacedViewOf = (report: Report, pace: Pace = pacer(), endpoints?: EndpointEntry[]): Promise<RunView> =>
  pacedDrain(viewSteps(report, endpoints), pace);

/**
 * The view, piece by piece: it yields after each check and each harness error (whose kinds it works out: cached, the
 * folds after only look them up) and between the folds, where a paced caller may take a turn.
 */
function* viewSteps(report: Report, endpoints?: EndpointEntry[]): Generator<void, RunView> {
  const failOn = report.run.failOn ?? DEFAULT_FAIL_ON;
  const own: CheckView[][] = report.scenarios.map(() => []);
  for (const [si, s] of report.scenarios.entries())
    for (const [ci, c] of s.checks.entries()) {
      own[si].push(checkView(report, s, si, failOn)(c, ci));
      checkKind(c, s.id);
      yield;
    }
  for (const e of report.harnessErrors) {
    harnessKind(e);
    yield;
  }
  const scenarios = report.scenarios.map((s, si) => scenarioView(s, si, own[si]));
  yield;
  const checks = own.flat();
  const problems = folded([
    ...checks.filter((c) => c.fails),
    ...checks.filter((c) => !c.fails && isProblem(c.check.verdict)),
  ]);
  yield;
  const harnessErrors = fold(report.harnessErrors, harnessKind, (e) => 1 + (e.more ?? 0));
  yield;
  const deviations = deviationGroups(checks);
  yield;
  const ordered = [...scenarios].sort(
    (a, b) => VERDICTS.indexOf(a.scenario.verdict) - VERDICTS.indexOf(b.scenario.verdict),
  );
  const slowest = [...scenarios].sort((a, b) => b.scenario.durationMs - a.scenario.durationMs).slice(0, 5);
  const agent = `agent ${report.agent.version ?? 'of unknown version'}`;
  const status = runStatus(report.exitCode);
  return {
    report,
    failOn,
    status,
    tone: report.exitCode === 0 ? 'ok' : report.exitCode === 1 ? 'bad' : 'error',
    agent,
    headline: report.exitCode <= 1 ? `${agent} ${status}` : `${status} (${agent})`,
    checks,
    problems,
    harnessErrors,
    deviations,
    flaky: checks.filter((c) => c.check.flaky),
    baseline: baselineView(report, checks),
    coverage: coverageView(report, endpoints),
    scenarios: ordered,
    slowest,
    undocumented: { notes: report.undocumented ?? [], strict: report.run.strict ?? false },
  };
}
