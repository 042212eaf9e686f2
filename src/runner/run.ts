// One synconf run: load the scenarios, set up the target (lab, a given agent, or recordings),
// run every scenario, apply the known deviations, and build the Report. Writing it is the caller's.
import type { FailOn, Report, ScenarioResult } from '../schema/generated/types.js';
import { DEFAULT_FAIL_ON } from '../verdict/verdicts.js';
import { finalize, totalsOf } from '../verdict/totals.js';
import type { LoadedScenario } from '../scenario/load.js';
import type { Selection } from '../scenario/select.js';
import { runScenario } from './scenario-runner.js';
import type { RunContext, Capability } from './context.js';
import {
  applyDeviations,
  indexDeviations,
  staleDeviations,
  expectationsFor,
  loadExpectations,
  type LoadedExpectations,
} from './expectations.js';
import type { Transport } from '../transport/types.js';
import type { LiveTransport } from '../transport/live.js';
import { Redactor } from '../transport/redact.js';
import type { Clock } from './clock.js';
import type { LocalActions } from './context.js';
import { SYNCONF_VERSION } from '../paths.js';
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
  onScenario?: (s: ScenarioResult, index: number, total: number) => void;
  onStart?: (s: LoadedScenario, index: number, total: number) => void;
  /** receives the report as soon as it exists (it fills in as scenarios end), e.g. to write it on Ctrl-C */
  onReport?: (report: Report) => void;
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

/** run the selected scenarios against a target that is already set up */
// eslint-disable-next-line max-lines-per-function -- to be split (issue 19)
export async function runScenarios(selection: Selection, target: Target, opts: RunOptions): Promise<Report> {
  const startedAt = new Date();
  const t0 = performance.now();
  const failOn = opts.failOn ?? DEFAULT_FAIL_ON;
  const harnessErrors: Report['harnessErrors'] = [...selection.errors];
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
    harnessErrors,
    scenarios: [],
  };
  if (selection.notSelected?.length)
    report.notSelected = selection.notSelected.map((s) => ({ id: s.scenario.id, spec: s.scenario.spec }));
  opts.onReport?.(report);
  const redactor = new Redactor(Object.values(target.apiKeys));
  const undocumented = undocumentedNotes(opts.strict ?? false);
  const finish = (): Report => {
    report.run.durationMs = Math.round(performance.now() - t0);
    // Evidence, captured values and messages may quote a secret: the report says its placeholder.
    report.scenarios = JSON.parse(redactor.text(JSON.stringify(report.scenarios)));
    report.undocumented = JSON.parse(redactor.text(JSON.stringify(sortedNotes(undocumented))));
    return finalize(report, failOn);
  };
  if (harnessErrors.length) return finish(); // a malformed scenario: nothing runs

  const timeoutMs = opts.requestTimeoutMs ?? 10_000;
  const identity = await identify(target, timeoutMs);
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
    harnessErrors.push({
      message:
        'the agent did not say its version (GET /rest/system/version); checks use the spec as is. Give --agent-version to apply a version overlay.',
    });

  let expectations: LoadedExpectations[] = [];
  try {
    if (opts.expectations) expectations = [loadExpectations(opts.expectations)];
    else if (opts.expectations === undefined && identity.version) expectations = expectationsFor(identity.version);
  } catch (e) {
    harnessErrors.push({ message: (e as Error).message });
    return finish();
  }
  report.run.expectations = expectations.map((e) => e.file).join(', ') || null;

  const ctx = contextFor(target, identity.version, {
    redactor,
    requestTimeoutMs: timeoutMs,
    expensiveIntervalMs: opts.expensiveIntervalMs ?? 500,
    expensiveCalls: report.expensiveCalls,
    undocumented,
  });
  const deviations = indexDeviations(expectations);
  const total = selection.scenarios.length;
  for (const [i, loaded] of selection.scenarios.entries()) {
    opts.onStart?.(loaded, i, total);
    let result: ScenarioResult;
    try {
      result = await runScenario(loaded, ctx);
    } catch (e) {
      // A defect of synconf or a broken recording: the scenario has no verdict, the run goes on.
      harnessErrors.push({ file: loaded.file, scenario: loaded.scenario.id, message: (e as Error).message });
      result = {
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
    }
    for (const c of result.checks) if (loaded.stepLines[c.step]) c.line = loaded.stepLines[c.step];
    applyDeviations(result, deviations);
    report.scenarios.push(result);
    opts.onScenario?.(result, i, total);
  }
  for (const p of target.transport.problems?.() ?? []) harnessErrors.push({ scenario: p.scenario, message: p.message });
  const unused = target.transport.unused?.() ?? [];
  if (unused.length) report.unusedExchanges = unused;
  const stale = staleDeviations(report.scenarios, deviations);
  if (stale.length) report.staleExpectations = stale;
  return finish();
}
