// One synconf run: load the scenarios, set up the target (lab, a given agent, or recordings),
// run every scenario, apply the known deviations, and build the Report. Writing it is the caller's.
import { nextTurn, pacedMap, pacer } from '../turns.js';
import type { FailOn, Report, ScenarioResult } from '../schema/generated/types.js';
import { DEFAULT_FAIL_ON } from '../verdict/verdicts.js';
import { finalize, totalsOf } from '../verdict/totals.js';
import type { LoadedScenario } from '../scenario/load.js';
import type { Selection } from '../scenario/select.js';
import { hash12 } from '../scenario/shard.js';
import { runScenario, ScenarioStopped } from './scenario-runner.js';
import { runBounds, restartWatch } from './bounds.js';
import { reasonOf } from './stop.js';
import type { RunContext, Capability } from './context.js';
import {
  applyDeviations,
  indexDeviations,
  staleDeviations,
  expectationsToApply,
  type LoadedExpectations,
} from './expectations.js';
import type { Transport } from '../transport/types.js';
import type { LiveTransport } from '../transport/live.js';
import { Redactor } from '../transport/redact.js';
import { monotonicMs, type Clock } from './clock.js';
import type { AgentWatch, LocalActions } from './context.js';
import { SYNCONF_VERSION } from '../paths.js';
import { releaseOf } from '../schema/version.js';
import { gateStatements, loadStatements } from '../schema/statements.js';
import { parseBody } from './exchange-checks.js';
import { undocumentedNotes, sortedNotes } from './undocumented.js';

/** who the agent is, as the report says it */
export type AgentIdentity = Report['agent'];

/** What a target (lab, given agent, recordings) provides to a run. */
export interface Target {
  mode: Report['run']['mode'];
  description: string;
  transport: Transport;
  clock: Clock;
  actions: LocalActions;
  apiKeys: Record<string, string>;
  capabilities: Record<Capability, true | string>;
  vars: Record<string, unknown>;
  /** a live target's look at its instances past the recorder (whether they answer, when they started) */
  watch?: AgentWatch;
  close(): Promise<void>;
}

/** sets up the target of one run; `wrap` puts a recorder (or a fault injector) between the runner and a live agent */
export type MakeTarget = (needsPeer: boolean, wrap?: (t: LiveTransport) => Transport) => Promise<Target>;

export interface RunOptions {
  /** files, folders or globs of scenario files; default every suites/**\/*.yaml */
  suites?: string[];
  /** scenario ids to run (globs allowed); default all */
  only?: string[];
  agentVersion?: string;
  /** an expectations file, false for none, undefined to pick expectations/ by agent version */
  expectations?: string | false;
  requestTimeoutMs?: number;
  expensiveIntervalMs?: number;
  /** what makes the exit code 1 (default DEFAULT_FAIL_ON) */
  failOn?: readonly FailOn[];
  /** an undocumented member of a response fails the check of its exchange (otherwise it is a note) */
  strict?: boolean;
  /** progress output, one call per finished scenario */
  onScenario?: (s: ScenarioResult, index: number, total: number) => void | Promise<void>;
  onStart?: (s: LoadedScenario, index: number, total: number) => void;
  /** receives the report as soon as it exists (it fills in as scenarios end), e.g. to write it on Ctrl-C */
  onReport?: (report: Report) => void;
  /** aborted (Ctrl-C), with the reason: the scenario under way stops between steps, no further scenario starts */
  signal?: AbortSignal;
  /** the bound of the whole run (--run-timeout); past it, the run stops as on Ctrl-C, with a harness error */
  runTimeoutMs?: number;
  /** the bound of each scenario (--scenario-timeout); past it, the scenario stops with a harness error */
  scenarioTimeoutMs?: number;
}

/**
 * The context scenarios of one target run in: its transport, clock, keys and variables, fresh pacing and
 * generations, defaults for the rest (the run, replays of mutants and live mutants all start from here).
 */
export function contextFor(target: Target, agentVersion: string | null, over: Partial<RunContext> = {}): RunContext {
  return {
    transport: target.transport,
    clock: target.clock,
    actions: target.actions,
    redactor: new Redactor(Object.values(target.apiKeys)),
    agentVersion,
    apiKeys: target.apiKeys,
    capabilities: target.capabilities,
    vars: target.vars,
    requestTimeoutMs: 10_000,
    expensiveIntervalMs: 500,
    expensiveCalls: {},
    lastExpensiveAt: {},
    generations: {},
    undocumented: undocumentedNotes(false),
    watch: target.watch,
    ...over,
  };
}

/** ask the agent who it is: GET /rest/system/version */
export async function identify(target: Target, timeoutMs: number): Promise<AgentIdentity> {
  const x = await target.transport.send(
    {
      target: 'agent',
      method: 'GET',
      url: '/rest/system/version',
      headers: { 'X-API-Key': target.apiKeys.agent },
      timeoutMs,
    },
    { scenario: '_run', step: 'identify' },
  );
  const v =
    x.response?.status === 200 ? (parseBody(x.response.body).json as Record<string, unknown> | undefined) : undefined;
  const str = (k: string) => (typeof v?.[k] === 'string' ? (v[k] as string) : null);
  const deviceId = x.response?.headers['x-syncthing-id'] ?? null;
  return {
    version: str('version'),
    versionSource: str('version') ? 'agent' : 'unknown',
    longVersion: str('longVersion'),
    os: str('os'),
    arch: str('arch'),
    deviceId,
  };
}

/** the report of a run before any scenario ran: who ran what, against which target, no results yet */
function startReport(selection: Selection, target: Target, opts: RunOptions, startedAt: Date): Report {
  const report: Report = {
    format: 'synconf-report/1',
    synconf: { version: SYNCONF_VERSION },
    run: {
      mode: target.mode,
      startedAt: startedAt.toISOString(),
      durationMs: 0,
      target: target.description,
      expectations: null,
      strict: opts.strict ?? false,
    },
    agent: { version: null, versionSource: 'unknown', longVersion: null, os: null, arch: null, deviceId: null },
    totals: totalsOf([]),
    exitCode: 0,
    verdict: '',
    expensiveCalls: {},
    harnessErrors: [...selection.errors],
    scenarios: [],
  };
  if (selection.notSelected?.length)
    report.notSelected = selection.notSelected.map((s) => ({ id: s.scenario.id, spec: s.scenario.spec }));
  return report;
}

const sameRelease = (a: string, b: string) => {
  try {
    return releaseOf(a) === releaseOf(b);
  } catch {
    return a === b;
  }
};

/** who the agent is (--agent-version overrides what it says), noted in the recording; a harness error if unknown */
async function identifyForRun(target: Target, opts: RunOptions, report: Report, timeoutMs: number): Promise<boolean> {
  const identity = await identify(target, timeoutMs);
  // Recorded answers of one version checked as another blame the recording for every difference between the two.
  if (
    target.mode === 'replay' &&
    opts.agentVersion &&
    identity.version &&
    !sameRelease(identity.version, opts.agentVersion)
  ) {
    report.harnessErrors.push({
      message: `--agent-version ${opts.agentVersion}: the recordings in ${target.description} are of ${identity.version}; replay them without --agent-version, or give recordings of ${opts.agentVersion}`,
    });
    return false;
  }
  if (opts.agentVersion) Object.assign(identity, { version: opts.agentVersion, versionSource: 'option' });
  report.agent = identity;
  target.transport.annotate?.('_run', {
    vars: target.vars,
    capabilities: target.capabilities,
    agent: {
      version: identity.version,
      longVersion: identity.longVersion ?? null,
      deviceId: identity.deviceId ?? null,
    },
  });
  if (!identity.version)
    report.harnessErrors.push({
      message:
        'the agent did not say its version (GET /rest/system/version); checks use the spec as is. Give --agent-version to apply a version overlay.',
    });
  return true;
}

/** one scenario; a throw (a defect of synconf or a broken recording) is a harness error and a skipped scenario */
async function runOne(
  loaded: LoadedScenario,
  ctx: RunContext,
  harnessErrors: Report['harnessErrors'],
  stopRun: (reason: string) => void = () => {},
) {
  try {
    return await runScenario(loaded, ctx);
  } catch (e) {
    // stopped part-way: what it checked is kept, why it stopped is a harness error (and the run's end, if it must)
    if (e instanceof ScenarioStopped) {
      harnessErrors.push({ file: loaded.file, scenario: loaded.scenario.id, message: e.message });
      if (e.wholeRun) stopRun(e.message);
      return e.result;
    }
    harnessErrors.push({ file: loaded.file, scenario: loaded.scenario.id, message: (e as Error).message });
    const skipped: ScenarioResult = {
      id: loaded.scenario.id,
      title: loaded.scenario.title,
      file: loaded.file,
      spec: loaded.scenario.spec,
      mode: 'skipped',
      skipReason: `harness error: ${(e as Error).message}`,
      verdict: 'skip',
      durationMs: 0,
      checks: [],
    };
    return skipped;
  }
}

/** what the transport says after the scenarios: its problems, recorded exchanges nobody used; stale deviations */
function afterScenarios(report: Report, target: Target, deviations: ReturnType<typeof indexDeviations>): void {
  for (const p of target.transport.problems?.() ?? [])
    report.harnessErrors.push({ scenario: p.scenario, message: p.message });
  const unused = target.transport.unused?.() ?? [];
  if (unused.length) report.unusedExchanges = unused;
  const stale = staleDeviations(report.scenarios, deviations);
  if (stale.length) report.staleExpectations = stale;
}

/** each scenario in turn, within the run's and its own time bound, into the report as it ends */
async function runEach(
  selection: Selection,
  target: Target,
  opts: RunOptions,
  ctx: RunContext,
  report: Report,
  deviations: ReturnType<typeof indexDeviations>,
): Promise<void> {
  const { harnessErrors } = report;
  const total = selection.scenarios.length;
  const bounds = runBounds(opts);
  const restarts = target.watch && restartWatch(target.watch);
  await restarts?.start();
  try {
    for (const [i, loaded] of selection.scenarios.entries()) {
      await nextTurn(); // a Ctrl-C lands here
      if (bounds.run.aborted) {
        // Ctrl-C is said by the command; a time bound or a silent agent here, once (a scenario may have said it)
        const why = reasonOf(bounds.run);
        if (!opts.signal?.aborted && !harnessErrors.some((h) => h.message === why))
          harnessErrors.push({ message: why });
        break;
      }
      opts.onStart?.(loaded, i, total);
      const scenario = bounds.scenario(loaded.scenario.id);
      const result = await runOne(loaded, { ...ctx, signal: scenario.signal }, harnessErrors, scenario.stopRun);
      scenario.done();
      if (result.mode === 'normal') await restarts?.check(loaded, result);
      for (const c of result.checks) if (loaded.stepLines[c.step]) c.line = loaded.stepLines[c.step];
      applyDeviations(result, deviations);
      report.scenarios.push(result);
      await opts.onScenario?.(result, i, total); // its output may take a while: awaited, paced
    }
  } finally {
    bounds.done();
  }
}

/** `value` with the secrets `redactor` knows replaced: itself when it quotes none (the kinds of its checks cached) */
function redacted<T>(redactor: Redactor, value: T): T {
  const text = JSON.stringify(value);
  const clean = redactor.text(text);
  return clean === text ? value : (JSON.parse(clean) as T);
}

/** the scenarios redacted check by check, a turn now and then: 50,000 checks in one piece were seconds deaf to signals */
async function redactedScenarios(scenarios: ScenarioResult[], redactor: Redactor): Promise<ScenarioResult[]> {
  const pace = pacer();
  const out: ScenarioResult[] = [];
  for (const s of scenarios) {
    // the checks keep their place among the scenario's members
    const checks = await pacedMap(s.checks, (c) => redacted(redactor, c), pace);
    out.push(Object.assign(redacted(redactor, { ...s, checks: [] }), { checks }));
  }
  return out;
}

/** run the selected scenarios against a target that is already set up */
export async function runScenarios(selection: Selection, target: Target, opts: RunOptions): Promise<Report> {
  const t0 = monotonicMs();
  const failOn = opts.failOn ?? DEFAULT_FAIL_ON;
  const report = startReport(selection, target, opts, new Date());
  const harnessErrors = report.harnessErrors;
  opts.onReport?.(report);
  const redactor = new Redactor(Object.values(target.apiKeys));
  const undocumented = undocumentedNotes(opts.strict ?? false);
  // a turn between the pieces of the end (a report of 50,000 checks takes seconds): a signal lands (issue 41)
  const finish = async (): Promise<Report> => {
    report.run.durationMs = Math.round(monotonicMs() - t0);
    await nextTurn();
    // Evidence, captured values and messages may quote a secret: the report says its placeholder.
    report.scenarios = await redactedScenarios(report.scenarios, redactor);
    report.undocumented = JSON.parse(redactor.text(JSON.stringify(sortedNotes(undocumented))));
    return finalize(report, failOn);
  };
  if (harnessErrors.length) return finish(); // a malformed scenario: nothing runs

  const timeoutMs = opts.requestTimeoutMs ?? 10_000;
  if (!(await identifyForRun(target, opts, report, timeoutMs))) return finish(); // recordings of another version
  let expectations: LoadedExpectations[];
  try {
    // decided here: the agent's version is known once the agent (or its recordings) said it
    expectations = expectationsToApply(opts.expectations, report.agent.version);
  } catch (e) {
    harnessErrors.push({ message: (e as Error).message });
    return finish();
  }
  report.run.expectations = expectations.map((e) => e.file).join(', ') || null;
  report.run.expectationsHash = hash12(JSON.stringify(expectations.map((e) => e.data)));

  const ctx = contextFor(target, report.agent.version, {
    redactor,
    requestTimeoutMs: timeoutMs,
    expensiveIntervalMs: opts.expensiveIntervalMs ?? 500,
    expensiveCalls: report.expensiveCalls,
    undocumented,
    gateStatements: gateStatements(await loadStatements()),
  });
  const deviations = indexDeviations(expectations);
  await runEach(selection, target, opts, ctx, report, deviations);
  await nextTurn();
  afterScenarios(report, target, deviations);
  return finish();
}
