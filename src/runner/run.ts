// One synconf run: load the scenarios, set up the target (lab, a given agent, or recordings),
// run every scenario, apply the known deviations, and build the Report. Writing it is the caller's.
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import type { FailOn, Report, ScenarioResult } from '../schema/generated/types.js';
import { DEFAULT_FAIL_ON, failsRun } from '../report/verdicts.js';
import { loadScenario, ScenarioError, type LoadedScenario } from '../scenario/load.js';
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
import { Redactor } from '../transport/redact.js';
import { wallClock, type Clock } from './clock.js';
import type { LocalActions } from './context.js';
import { SUITES_DIR, SYNCONF_VERSION } from '../paths.js';
import { loadEndpoints } from '../schema/endpoints.js';
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

export { DEFAULT_FAIL_ON };

export interface Selection {
  scenarios: LoadedScenario[];
  errors: { file: string; step?: string; message: string }[];
  /** scenarios of the suite that --only left out */
  notSelected?: LoadedScenario[];
}

/** a scenario id pattern of --only (`*` any run of characters, `?` one) as a regular expression */
export function idPattern(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
}

/** find and load scenario files; every malformed file is reported, none is run */
export async function selectScenarios(suites: string[] | undefined, only: string[] | undefined): Promise<Selection> {
  const given = suites?.length ? suites : [SUITES_DIR];
  const errors: Selection['errors'] = [];
  const found = new Set<string>();
  // Each --suite path on its own, so that one matching nothing is named rather than lost among the others.
  for (const p of given) {
    const abs = resolve(p);
    const pattern = /\.(ya?ml)$/.test(abs) || /[*?{]/.test(p) ? abs : `${abs}/**/*.yaml`;
    // Plain file names need no globbing (and a run of one file should not pay for it: tinyglobby's
    // fdir loads picomatch from node_modules when its module is evaluated).
    const files =
      /\.ya?ml$/.test(pattern) && !/[*?{[]/.test(pattern) && existsSync(pattern)
        ? [pattern]
        : await (await import('tinyglobby')).glob(pattern, { absolute: true });
    if (files.length === 0)
      errors.push({
        file: '--suite',
        message: `"${p}" matches no scenario file${existsSync(abs) ? '' : ' (no such file or folder)'}`,
      });
    for (const f of files) found.add(f);
  }
  const files = [...found].sort();
  const endpointIds = new Set(loadEndpoints().map((e) => e.id));
  const scenarios: LoadedScenario[] = [];
  for (const f of files) {
    try {
      scenarios.push(await loadScenario(f, endpointIds));
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      errors.push({
        file: e.line ? `${e.file}:${e.line}` : e.file,
        ...(e.step ? { step: e.step } : {}),
        message: e.cause_,
      });
    }
  }
  const ids = new Map<string, string>();
  for (const s of scenarios) {
    const other = ids.get(s.scenario.id);
    if (other) errors.push({ file: s.file, message: `scenario id "${s.scenario.id}" is also used by ${other}` });
    ids.set(s.scenario.id, s.file);
  }
  let selected = scenarios;
  let notSelected: LoadedScenario[] = [];
  if (only?.length) {
    const re = only.map(idPattern);
    selected = scenarios.filter((s) => re.some((r) => r.test(s.scenario.id)));
    notSelected = scenarios.filter((s) => !selected.includes(s));
    // Every pattern must match: one that matches nothing is a typo, even when another one matches.
    const unmatched = only.filter((_, i) => !scenarios.some((s) => re[i].test(s.scenario.id)));
    if (unmatched.length && scenarios.length)
      errors.push({
        file: '--only',
        message: `${unmatched.map((p) => `"${p}"`).join(', ')} match${unmatched.length === 1 ? 'es' : ''} no scenario id (known: ${scenarios
          .map((s) => s.scenario.id)
          .sort()
          .join(', ')})`,
      });
  }
  // Destructive scenarios go last: after a shutdown there is no agent left to check.
  selected = [...selected].sort(
    (a, b) =>
      Number(a.scenario.needs?.includes('shutdown') ?? false) - Number(b.scenario.needs?.includes('shutdown') ?? false),
  );
  return { scenarios: selected, errors, notSelected };
}

/** ask the agent who it is: GET /rest/system/version */
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

export function totalsOf(scenarios: ScenarioResult[]): Report['totals'] {
  const t: Report['totals'] = {
    scenarios: scenarios.length,
    checks: 0,
    pass: 0,
    fail: 0,
    'expected-fail': 0,
    'unexpected-pass': 0,
    skip: 0,
  };
  for (const s of scenarios) {
    for (const c of s.checks) {
      t.checks++;
      t[c.verdict]++;
    }
  }
  return t;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function verdictLine(
  r: Pick<Report, 'totals' | 'exitCode' | 'harnessErrors' | 'undocumented' | 'baseline' | 'repeat'> & {
    scenarios?: Report['scenarios'];
  },
  failOn: readonly FailOn[],
): string {
  const t = r.totals;
  const head =
    r.exitCode === 3
      ? 'INTERNAL ERROR'
      : r.exitCode === 2
        ? 'HARNESS ERROR'
        : r.exitCode === 1
          ? 'DOES NOT CONFORM'
          : 'CONFORMS';
  const errors = plural(r.harnessErrors.length, 'harness error');
  if (t.scenarios === 0 && r.harnessErrors.length)
    return `synconf: ${head}: no scenario ran; ${errors} (exit ${r.exitCode})`;
  const parts = [
    `${t.pass} passed`,
    `${t.fail} failed`,
    plural(t['expected-fail'], 'expected failure'),
    plural(t['unexpected-pass'], 'unexpected pass', 'unexpected passes'),
    `${t.skip} skipped`,
  ];
  const notRun = r.scenarios?.filter((s) => s.skipReason?.startsWith('harness error')).length ?? 0;
  const undocumented = r.undocumented?.length
    ? `; ${r.undocumented.length} undocumented member${r.undocumented.length > 1 ? 's' : ''}`
    : '';
  let tail = `${undocumented}${r.harnessErrors.length ? `; ${errors}` : ''}`;
  if (r.repeat) tail += `; over ${r.repeat.runs} runs ${r.repeat.flaky.length} flaky`;
  const b = r.baseline?.counts;
  if (b)
    tail += `; against the baseline: ${b['new-failure']} new failures, ${b.fixed} fixed, ${b['still-failing']} still failing, ${b['new-check']} new checks, ${b.gone} gone`;
  return `synconf: ${head}: ${plural(t.scenarios, 'scenario')}${notRun ? ` (${notRun} not run: harness error)` : ''}, ${plural(t.checks, 'check')}: ${parts.join(', ')}${tail} (failing on: ${failOn.join(', ')}; exit ${r.exitCode})`;
}

/** totals, exit code and verdict line of a report, from its scenarios and harness errors */
export function finalize(report: Report, failOn: readonly FailOn[]): Report {
  report.totals = totalsOf(report.scenarios);
  report.run.failOn = [...failOn];
  const nonConforming = report.scenarios.some((s) => s.checks.some((c) => failsRun(c, failOn)));
  report.exitCode = report.harnessErrors.length ? 2 : nonConforming ? 1 : 0;
  report.verdict = verdictLine(report, failOn);
  return report;
}

/**
 * the report of a run that could not start (no scenarios loaded, no target): a harness error, exit 2;
 * or of a run a fault of synconf ended (exitCode 3, what the process then exits with)
 */
export function emptyReport(mode: Report['run']['mode'], target: string, message: string, exitCode: 2 | 3 = 2): Report {
  const report: Report = {
    format: 'synconf-report/1',
    synconf: { version: SYNCONF_VERSION },
    run: { mode, startedAt: new Date().toISOString(), durationMs: 0, target, expectations: null },
    agent: { version: null, versionSource: 'unknown', longVersion: null, os: null, arch: null, deviceId: null },
    totals: totalsOf([]),
    exitCode,
    verdict: '',
    expensiveCalls: {},
    harnessErrors: [{ message }],
    scenarios: [],
  };
  report.verdict = verdictLine(report, []);
  return report;
}

/** run the selected scenarios against a target that is already set up */
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
