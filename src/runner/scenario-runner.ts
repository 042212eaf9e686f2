// Runs one scenario: setup, steps, cleanup (always), and turns each step into checks. What a step does is in its own
// module: step-io.ts (sending, recording checks), request-step.ts, event-steps.ts, gate-probes.ts (absent mode).
import type { Scenario, Step, CheckResult, ScenarioResult } from '../schema/generated/types.js';
import type { RunContext, Capability } from './context.js';
import { render, MissingVariableError, type Vars } from '../scenario/template.js';
import { monotonicMs, parseDuration } from './clock.js';
import { atLeast } from '../schema/version.js';
import { missingSince } from './endpoint-gates.js';
import { scenarioVerdict } from '../verdict/verdicts.js';
import type { LoadedScenario } from '../scenario/load.js';
import { checkStop, Stopped, turnNowAndThen } from './stop.js';
import { cited, StepIO, type Phase } from './step-io.js';
import { requestStep } from './request-step.js';
import { EventSteps } from './event-steps.js';
import { absentChecks, dependsOn, probe, scenarioStatements, unobservable } from './gate-probes.js';

/** the steps of one scenario, each handed to the module of its kind */
class ScenarioRun {
  private readonly io: StepIO;
  private readonly events: EventSteps;

  constructor(s: Scenario, ctx: RunContext, vars: Vars) {
    this.io = new StepIO(s, ctx, vars);
    this.events = new EventSteps(this.io);
  }

  get checks(): CheckResult[] {
    return this.io.checks;
  }

  async runStep(step: Step, phase: Phase): Promise<boolean> {
    if (step.since && this.io.ctx.agentVersion && !atLeast(this.io.ctx.agentVersion, step.since)) {
      this.io.add(step.name, phase, {
        name: 'version-gate',
        kind: 'version-gate',
        verdict: 'skip',
        message: `step needs agent ${step.since} or later`,
        skipReason: `agent ${this.io.ctx.agentVersion} predates ${step.since}`,
      });
      return true;
    }
    try {
      if (step.request && (step.request.auth ?? 'key') === 'key') {
        const since = missingSince(this.io.ctx.agentVersion, `${step.request.method} ${step.request.path}`);
        if (since)
          return await probe(
            this.io,
            `${step.request.method} ${step.request.path}`,
            since,
            step.name,
            phase,
            'version-gate',
          );
      }
      if (step.request) return await requestStep(this.io, step, phase);
      if (step.openEvents) return await this.events.openEvents(step, phase);
      if (step.expectEvent) return await this.events.expectEvent(step, phase);
      if (step.sleep) {
        await this.io.pause(parseDuration(step.sleep));
        return true;
      }
      if (step.file) return await this.file(step, phase);
    } catch (e) {
      if (!(e instanceof MissingVariableError)) throw e;
      this.io.add(step.name, phase, {
        name: 'request',
        kind: 'request',
        verdict: 'skip',
        message: `not sent: ${e.message}`,
        skipReason: e.message,
      });
      return false;
    }
    return true;
  }

  private async file(step: Step, phase: Phase): Promise<boolean> {
    // {{n}} is the repetition counter, filled in by the action itself
    const action = render(step.file!, { ...this.io.vars, n: '{{n}}' });
    const roots = [
      this.io.vars.tmp,
      ...['agent', 'peer'].map((n) => (this.io.vars[n] as Vars | undefined)?.dataDir),
    ].filter((r): r is string => typeof r === 'string');
    try {
      await this.io.ctx.actions.apply(action, roots);
      return true;
    } catch (e) {
      this.io.add(step.name, phase, {
        name: 'file',
        kind: 'file',
        verdict: 'fail',
        message: `file action on ${action.path} failed: ${(e as Error).message}`,
      });
      return false;
    }
  }
}

/** a step, once the scenario may go on: a signal lands between steps, and a stopped scenario starts no step */
async function stepIn(run: ScenarioRun, step: Step, phase: Phase, ctx: RunContext): Promise<boolean> {
  await turnNowAndThen();
  checkStop(ctx.signal);
  return run.runStep(step, phase);
}

/** setup, steps (skipped when setup failed), cleanup, in a temporary folder of the scenario's own */
async function runPhases(s: Scenario, ctx: RunContext): Promise<{ checks: CheckResult[]; stopped?: Stopped }> {
  const tmp = await ctx.actions.makeTempDir(s.id);
  ctx.transport.annotate?.(s.id, { tmp });
  const vars: Vars = { ...ctx.vars, ...(s.vars ?? {}), vars: s.vars ?? {}, tmp };
  const run = new ScenarioRun(s, ctx, vars);
  try {
    await allPhases(s, run, ctx);
  } catch (e) {
    // stopped part-way: the checks made so far are the scenario's result; its cleanup is not run (the scenario was
    // told to stop), its folder is removed all the same
    if (!(e instanceof Stopped)) throw e;
    await ctx.actions.removeTempDir(tmp);
    return { checks: run.checks, stopped: e };
  }
  await ctx.actions.removeTempDir(tmp);
  return { checks: run.checks };
}

async function allPhases(s: Scenario, run: ScenarioRun, ctx: RunContext): Promise<void> {
  let failedSetup: string | undefined;
  for (const step of s.setup ?? []) {
    if (!(await stepIn(run, step, 'setup', ctx))) {
      failedSetup = step.name;
      break;
    }
  }
  for (const step of s.steps) {
    if (failedSetup) {
      run.checks.push({
        id: `${s.id}/${step.name}/step`,
        step: step.name,
        phase: 'steps',
        kind: 'request',
        verdict: 'skip',
        message: 'not run: setup failed',
        skipReason: `setup step "${failedSetup}" failed`,
      });
      continue;
    }
    await stepIn(run, step, 'steps', ctx);
  }
  for (const step of s.cleanup ?? []) await stepIn(run, step, 'cleanup', ctx);
}

/** the note of a scenario deprecated since some version (and whether the agent is past it) */
function deprecationNote(s: Scenario, agentVersion: string | null): string {
  return `deprecated since ${s.deprecated}${agentVersion && atLeast(agentVersion, s.deprecated!) ? ` (the agent, ${agentVersion}, is past it; it must still work)` : ''}`;
}

/** one scenario: run, probed for absence (its endpoints predate the agent) or skipped (a capability is missing) */
export async function runScenario(loaded: LoadedScenario, ctx: RunContext): Promise<ScenarioResult> {
  const { scenario: s, file } = loaded;
  const wall0 = monotonicMs();
  const result: ScenarioResult = {
    id: s.id,
    title: s.title,
    file,
    spec: s.spec,
    mode: 'normal',
    verdict: 'pass',
    durationMs: 0,
    checks: [],
  };
  const notes: string[] = [];
  let stopped: Stopped | undefined;
  if (s.deprecated) notes.push(deprecationNote(s, ctx.agentVersion));
  const missing = (s.needs ?? [])
    .map((n) => [n, ctx.capabilities[n as Capability]] as const)
    .filter(([, v]) => v !== true);
  // the gates: the scenario's own `since`, and the one of each endpoint it exercises
  const scenarioGate = s.since && ctx.agentVersion && !atLeast(ctx.agentVersion, s.since) ? s.since : undefined;
  const gated = dependsOn(s).filter((e) => missingSince(ctx.agentVersion, e));
  // absent mode probes the agent alone, so it needs no peer, files, restart
  if (scenarioGate || gated.length) {
    result.mode = 'absent';
    const predated = gated.map((e) => `${e} (since ${missingSince(ctx.agentVersion, e)})`).join(', ');
    notes.push(
      scenarioGate
        ? `added in ${scenarioGate}; agent ${ctx.agentVersion} predates it, so its endpoints must be absent`
        : `agent ${ctx.agentVersion} predates ${predated}: each endpoint is checked against its own gate`,
    );
    const probed = await absentChecks(s, ctx, scenarioGate);
    stopped = probed.stopped;
    result.checks = [...probed.checks, ...unobservable(s, probed.checks, ctx.agentVersion, scenarioGate ?? predated)];
  } else if (missing.length) {
    result.mode = 'skipped';
    result.skipReason = missing.map(([n, why]) => `needs ${n}: ${why}`).join('; ');
    // A skipped scenario is a skipped check in the totals and in JUnit, never silently absent.
    result.checks = [
      {
        id: `${s.id}/scenario/needs`,
        step: 'scenario',
        phase: 'steps',
        kind: 'capability',
        verdict: 'skip',
        message: `not run: ${result.skipReason}`,
        skipReason: result.skipReason,
        ...cited(scenarioStatements(s)),
      },
    ];
  } else {
    const ran = await runPhases(s, ctx);
    result.checks = ran.checks;
    stopped = ran.stopped;
  }
  await ctx.transport.endScenario?.(s.id);
  if (notes.length) result.notes = notes;
  if (stopped) noteStopped(result, stopped.message);
  result.verdict = scenarioVerdict(result.checks);
  result.durationMs = Math.round(monotonicMs() - wall0);
  if (stopped) throw new ScenarioStopped(result, stopped);
  return result;
}

/** a scenario stopped part-way stands as a skip, never a pass: the checks it did not reach are one skipped check */
function noteStopped(result: ScenarioResult, why: string): void {
  result.skipReason = `stopped part-way: ${why}`;
  result.checks.push({
    id: `${result.id}/scenario/stopped`,
    step: 'scenario',
    phase: 'steps',
    kind: 'stopped',
    verdict: 'skip',
    message: `not run to its end: ${why}`,
    skipReason: result.skipReason,
  });
}

/** a scenario stopped part-way (ScenarioRun's Stopped): its result so far, and why it stopped */
export class ScenarioStopped extends Error {
  override name = 'ScenarioStopped';
  readonly wholeRun: boolean;
  constructor(
    readonly result: ScenarioResult,
    cause: Stopped,
  ) {
    super(cause.message);
    this.wholeRun = cause.wholeRun;
  }
}
