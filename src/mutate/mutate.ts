// `synconf mutate`: how sensitive the suite is. Mutants of the recorded answers (derived from what
// the scenarios check, from the schemas, and from the requests that change the agent) are replayed
// one at a time; a mutant no check notices is a blind spot of the suite, listed with its place.
import type { MutantResult, MutationReport, ScenarioResult, StatementScore } from '../schema/generated/types.js';
import type { LoadedScenario } from '../scenario/load.js';
import { selectScenarios } from '../scenario/select.js';
import { replayTarget } from '../runner/replay-target.js';
import { expectationsToApply, indexDeviations, type LoadedExpectations } from '../runner/expectations.js';
import { readCassette, RUN_CASSETTE } from '../transport/cassette.js';
import { InputError, EXIT, exitCodeOfAbort } from '../errors.js';
import { SYNCONF_VERSION } from '../paths.js';
import { MutationEngine, type Outcome } from './engine.js';
import { runLive, type LiveRun } from './live.js';
import type { Mutant } from './mutants.js';
import { tally, tallyBy, percent } from './score.js';
import { labTarget } from '../runner/targets.js';
import { nextTurn } from '../turns.js';
import { loadStatements } from '../schema/statements.js';
import { mutateStatement, statementTotals, type Replayed } from './spec-mutants.js';
import { scoreProxySession, type ProxySessionInput } from './proxy-score.js';

/** where the mutants come from: the spec's statements, the suite's checks, or both */
export type DerivedFrom = NonNullable<MutationReport['derivedFrom']>;
export const DEFAULT_FROM: DerivedFrom = 'both';

export interface MutateOptions {
  /** folder of cassettes */
  dir: string;
  suites?: string[];
  only?: string[];
  /** an expectations file, false for none, undefined to pick by the recorded agent version */
  expectations?: string | false;
  /** the gate: a score below it makes the exit code 1 */
  minScore?: number;
  onScenario?(id: string, results: MutantResult[]): void;
  /** spec: a mutant per statement of the index; checks: from what the suite's checks read; both (the default) */
  from?: DerivedFrom;
  /** live mode: the mutants of these operators, through a fault injector in front of a lab agent */
  live?: { operators: MutantResult['operator'][]; binary?: string };
  /** live mode: the lab is up, `mutants` of `scenarios` are to run */
  onLive?(mutants: number, scenarios: number): void;
  /** aborted (Ctrl-C): no further mutant runs; the report holds the scenarios done */
  signal?: AbortSignal;
}

/** a mutant as the report lists it: what it is and its outcome (not the replacement answers themselves) */
function describeResult(m: Mutant, o: Outcome): MutantResult {
  const { replace: _replace, aims: _aims, equivalentBecause: _eq, live: _live, ...described } = m;
  return { ...described, ...o };
}

/** the score, the exit code and the verdict line: a failing unmutated replay is a harness error, not a score */
function judge(
  results: MutantResult[],
  baselineProblems: string[],
  minScore: number | null,
  statements: StatementScore | undefined,
  interrupted?: { done: number; of: number; unit: string; exitCode: number },
) {
  const totals = tally(results);
  const scores = [totals.score, statements?.totals.score].filter((s): s is number => s !== null && s !== undefined);
  const below = minScore !== null && scores.some((s) => s < minScore);
  // an interrupted run is not a verdict: exit 2 in the report (as a run's), 128 + n for the process
  const exitCode = baselineProblems.length || interrupted ? EXIT.usage : below ? EXIT.nonConforming : EXIT.ok;
  const mutantCounts = `${totals.mutants} mutants: ${totals.killed} killed, ${totals.survived} survived, ${totals.equivalent} equivalent`;
  const counts = statements ? `${statementLine(statements)}; ${mutantCounts}` : mutantCounts;
  const gate =
    minScore === null
      ? ''
      : below
        ? `; below --min-score ${percent(minScore)}`
        : `; at least --min-score ${percent(minScore)}`;
  const verdict = interrupted
    ? `synconf mutate: INTERRUPTED after ${interrupted.done} of ${interrupted.of} ${interrupted.unit}: score so far ${percent(totals.score)} (${counts}) (exit ${interrupted.exitCode})`
    : baselineProblems.length
      ? `synconf mutate: HARNESS ERROR: ${baselineProblems.length} check(s) fail without any mutant, so the recordings cannot tell mutants apart (exit ${exitCode})`
      : statements
        ? `synconf mutate: statement score ${percent(statements.totals.score)}, mutant score ${percent(totals.score)} (${counts})${gate} (exit ${exitCode})`
        : `synconf mutate: score ${percent(totals.score)} (${counts})${gate} (exit ${exitCode})`;
  return { totals, exitCode, verdict };
}

/** the statement score in words: the statements whose violation the suite catches */
function statementLine({ totals: t }: StatementScore): string {
  return `${t.caught} of ${t.caught + t.survived} statements caught, ${t.survived} survived, ${t.masked} masked by a known deviation, ${t.noOperator} without an operator on these recordings, ${t.notCheckable} not checkable, ${t.restating} restating`;
}

/** the tallies by scenario, by endpoint and by operator */
function breakdowns(results: MutantResult[]) {
  return {
    byScenario: tallyBy(results, (r) => r.scenario).map(([scenario, t]) => ({
      scenario,
      file: results.find((r) => r.scenario === scenario)!.file,
      ...t,
    })),
    byEndpoint: tallyBy(results, (r) => r.endpoint)
      .map(([endpoint, t]) => ({ endpoint, ...t }))
      .sort((a, b) => a.endpoint.localeCompare(b.endpoint)),
    byOperator: tallyBy(results, (r) => r.operator).map(([operator, t]) => ({ operator, ...t })),
  };
}

/** live mode: the chosen mutants through a fault injector in front of one lab agent */
async function liveResults(
  opts: MutateOptions & { live: NonNullable<MutateOptions['live']> },
  liveRuns: LiveRun[],
  expectations: LoadedExpectations[],
  results: MutantResult[],
): Promise<void> {
  const runs = liveRuns.filter((r) => r.mutants.length);
  const needsPeer = runs.some((r) => r.loaded.scenario.needs?.includes('peer'));
  const binary = opts.live.binary;
  const outcomes = await runLive(
    runs,
    indexDeviations(expectations),
    async (wrap) => {
      const target = await labTarget({ needsPeer, allowDestructive: true, wrap, binary });
      opts.onLive?.(
        runs.reduce((n, r) => n + r.mutants.length, 0),
        runs.length,
      );
      return target;
    },
    undefined,
    opts.signal,
  );
  // a scenario is in the report once all its mutants ran (a Ctrl-C leaves the rest out)
  for (const r of runs.filter((run) => run.mutants.every((m) => outcomes.has(m.id)))) {
    const mine = r.mutants.map((m) => describeResult(m, outcomes.get(m.id)!));
    results.push(...mine);
    opts.onScenario?.(r.loaded.scenario.id, mine);
  }
}

/** each mutant of one scenario replayed, one turn of the event loop apart (a Ctrl-C stops them) */
async function replayMutants(
  engine: MutationEngine,
  loaded: LoadedScenario,
  baseline: ScenarioResult,
  mutants: Mutant[],
  signal?: AbortSignal,
): Promise<MutantResult[]> {
  const mine: MutantResult[] = [];
  for (const m of mutants) {
    await nextTurn();
    if (signal?.aborted) break;
    mine.push(describeResult(m, await engine.run(loaded, baseline, m)));
  }
  return mine;
}

/** a mutant per statement of the index, over every scenario's recordings; their results join `results` */
async function specMutants(
  engine: MutationEngine,
  replayed: Replayed[],
  agentVersion: string | null,
  results: MutantResult[],
  signal?: AbortSignal,
): Promise<StatementScore> {
  const entries: StatementScore['entries'] = [];
  for (const s of await loadStatements()) {
    if (signal?.aborted) break;
    const { entry, result } = await mutateStatement(engine, s, replayed, agentVersion);
    entries.push(entry);
    if (result) results.push(result);
  }
  return { totals: statementTotals(entries), entries };
}

/** the scenarios chosen, the replay target and the engine over the recordings, with their agent's deviations */
async function prepare(opts: MutateOptions) {
  const selection = await selectScenarios(opts.suites, opts.only);
  if (selection.errors.length)
    throw new InputError(
      selection.errors.map((e) => `${e.file}: ${e.step ? `step "${e.step}": ` : ''}${e.message}`).join('; '),
    );
  const target = replayTarget(opts.dir);
  const agentVersion = readCassette(opts.dir, RUN_CASSETTE)?.log._synconf.agent?.version ?? null;
  const expectations = expectationsToApply(opts.expectations, agentVersion);
  const engine = new MutationEngine(opts.dir, target, agentVersion, indexDeviations(expectations));
  return { selection, target, agentVersion, expectations, engine };
}

interface Collected {
  results: MutantResult[];
  baselineProblems: string[];
  liveRuns: LiveRun[];
  replayed: Replayed[];
}

/** each scenario replayed unmutated, then (unless only spec mutants run) its check-derived mutants */
async function perScenario(
  opts: MutateOptions,
  engine: MutationEngine,
  scenarios: LoadedScenario[],
  from: DerivedFrom,
): Promise<Collected> {
  const out: Collected = { results: [], baselineProblems: [], liveRuns: [], replayed: [] };
  for (const loaded of scenarios) {
    await nextTurn(); // a Ctrl-C lands here
    if (opts.signal?.aborted) break;
    const { baseline, mutants } =
      from === 'spec' ? { baseline: await engine.replay(loaded), mutants: [] } : await engine.derive(loaded);
    out.replayed.push({ loaded, baseline, entries: engine.cassette(loaded.scenario.id).log.entries });
    for (const c of baseline.checks)
      if (c.verdict === 'fail' || c.verdict === 'unexpected-pass') out.baselineProblems.push(`${c.id}: ${c.message}`);
    if (opts.live) {
      const ops = opts.live.operators;
      out.liveRuns.push({
        loaded,
        replayBaseline: baseline,
        mutants: mutants.filter((m) => ops.includes(m.operator) && m.live && !m.equivalentBecause),
      });
      continue;
    }
    if (from === 'spec') continue;
    const mine = await replayMutants(engine, loaded, baseline, mutants, opts.signal);
    out.results.push(...mine);
    opts.onScenario?.(loaded.scenario.id, mine);
  }
  return out;
}

export async function mutate(opts: MutateOptions): Promise<MutationReport> {
  const startedAt = new Date();
  const t0 = performance.now();
  const { selection, target, agentVersion, expectations, engine } = await prepare(opts);
  const from: DerivedFrom = opts.live ? 'checks' : (opts.from ?? DEFAULT_FROM);
  const { results, baselineProblems, liveRuns, replayed } = await perScenario(opts, engine, selection.scenarios, from);
  const statements =
    from !== 'checks' && !opts.signal?.aborted
      ? await specMutants(engine, replayed, agentVersion, results, opts.signal)
      : undefined;
  await target.close();
  if (opts.live && !baselineProblems.length && !opts.signal?.aborted)
    await liveResults({ ...opts, live: opts.live }, liveRuns, expectations, results);
  const aborted = opts.signal?.aborted;

  const minScore = opts.minScore ?? null;
  const done = {
    done: new Set(results.map((r) => r.scenario)).size,
    of: selection.scenarios.length,
    unit: 'scenarios',
    exitCode: exitCodeOfAbort(opts.signal),
  };
  const judged = judge(results, baselineProblems, minScore, statements, aborted ? done : undefined);
  return {
    format: 'synconf-mutation/1',
    synconf: { version: SYNCONF_VERSION },
    mode: opts.live ? 'live' : 'replay',
    recordings: opts.dir,
    agentVersion,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - t0),
    minScore,
    exitCode: judged.exitCode,
    verdict: judged.verdict,
    ...(baselineProblems.length ? { baselineProblems } : {}),
    derivedFrom: from,
    ...(statements ? { statements } : {}),
    totals: judged.totals,
    ...breakdowns(results),
    mutants: results,
  };
}

export interface SessionMutateOptions extends ProxySessionInput {
  minScore?: number;
}

/** `--proxy-session`: the statements broken in a client's session, each judged by the proxy's checks */
export async function mutateSession(opts: SessionMutateOptions): Promise<MutationReport> {
  const startedAt = new Date();
  const t0 = performance.now();
  const { statements, results, violations } = await scoreProxySession(opts);
  const minScore = opts.minScore ?? null;
  const done = {
    done: statements.entries.length,
    of: (await loadStatements()).length,
    unit: 'statements',
    exitCode: exitCodeOfAbort(opts.signal),
  };
  const judged = judge(results, [], minScore, statements, opts.signal?.aborted ? done : undefined);
  return {
    format: 'synconf-mutation/1',
    synconf: { version: SYNCONF_VERSION },
    mode: 'proxy',
    recordings: opts.file,
    agentVersion: opts.agentVersion,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - t0),
    minScore,
    exitCode: judged.exitCode,
    verdict: judged.verdict.replace(/^synconf mutate: /, 'synconf mutate --proxy-session: '),
    ...(violations.length ? { sessionViolations: violations } : {}),
    derivedFrom: 'spec',
    statements,
    totals: judged.totals,
    ...breakdowns(results),
    mutants: results,
  };
}

/**
 * The report of a mutation run that ended, marked interrupted by a signal that came once it was written (exit
 * `exitCode`, 128 + n): every scenario (or statement) done, the verdict INTERRUPTED as the process's exit says.
 */
export function interruptedAfterEnd(report: MutationReport, exitCode: number): MutationReport {
  const proxy = report.mode === 'proxy';
  const n = proxy ? (report.statements?.entries.length ?? 0) : report.byScenario.length;
  const done = { done: n, of: n, unit: proxy ? 'statements' : 'scenarios', exitCode };
  const judged = judge(report.mutants, [], report.minScore, report.statements, done);
  const verdict = proxy
    ? judged.verdict.replace(/^synconf mutate: /, 'synconf mutate --proxy-session: ')
    : judged.verdict;
  return { ...report, exitCode: judged.exitCode, verdict };
}
