// Runs one scenario: setup, steps, cleanup (always), and turns each step into checks.
import type { Scenario, Step, CheckResult, ScenarioResult, Evidence, Assertion } from '../schema/generated/types.js';
import type { Exchange, OutgoingRequest } from '../transport/types.js';
import type { RunContext, Capability } from './context.js';
import { EXPENSIVE } from './context.js';
import { render, renderPointer, MissingVariableError, type Vars } from '../scenario/template.js';
import { headerProblem } from '../scenario/headers.js';
import { checkExchange, bodyOf, type Check, type UndocumentedHook } from './exchange-checks.js';
import { noteUndocumented } from './undocumented.js';
import { evaluate } from './assertions.js';
import { monotonicMs, parseDuration } from './clock.js';
import { atLeast } from '../schema/version.js';
import { endpointEntry, missingSince } from './endpoint-gates.js';
import { validate } from '../schema/registry.js';
import { brokenStatements, schemaStatements } from '../schema/schema-statements.js';
import { endpointKey } from '../schema/endpoints.js';
import { scenarioVerdict } from '../verdict/verdicts.js';
import { otherMethods as otherMethodsOf, showsAbsent } from '../verdict/absent.js';
import { evidenceOf } from './evidence.js';
// RECORDING_ENDS: a replay ends a wait or an event poll where the live run ended it.
import { agentGone, RECORDING_ENDS } from '../transport/types.js';
import type { LoadedScenario } from '../scenario/load.js';
import { checkStop, raceStop, Stopped, turnNowAndThen } from './stop.js';

type ExpectEvent = NonNullable<Step['expectEvent']>;

const WRONG_KEY = 'synconf-wrong-api-key';

/** the `statements` member of a check citing `ids` (none when there are none) */
const cited = (ids: string[]): { statements?: string[] } => (ids.length ? { statements: [...new Set(ids)] } : {});

type Phase = 'setup' | 'steps' | 'cleanup';

interface Cursor {
  target: string;
  types: string[];
  lastId: number;
  generation: number;
}

class ScenarioRun {
  readonly checks: CheckResult[] = [];
  private readonly cursors = new Map<string, Cursor>();

  constructor(
    private readonly s: Scenario,
    private readonly ctx: RunContext,
    private readonly vars: Vars,
  ) {}

  private add(step: string, phase: Phase, c: Check, x?: Exchange, extra: Partial<Evidence> = {}): void {
    const { name, ...rest } = c;
    const result: CheckResult = { id: `${this.s.id}/${step}/${name}`, step, phase, ...rest };
    if (x && c.verdict !== 'pass') result.evidence = { ...this.evidence(x), ...extra };
    // the time the check's exchange took (a whole wait, for a waiting step)
    if (x) result.durationMs = Math.round(extra.elapsedMs ?? x.durationMs);
    this.checks.push(result);
  }

  private evidence(x: Exchange): Evidence {
    return evidenceOf(x, this.ctx.redactor);
  }

  /**
   * whether `target` may be away for a while: the agent in a scenario that needs a restart or a shutdown, any
   * instance a step of the scenario asks to restart (a peer restarted so that it dials afresh)
   */
  private expectsAway(target: string): boolean {
    if (target === 'agent' && (this.s.needs ?? []).some((n) => n === 'restart' || n === 'shutdown')) return true;
    const steps = [...(this.s.setup ?? []), ...this.s.steps, ...(this.s.cleanup ?? [])];
    return steps.some(
      (st) =>
        (st.agent ?? 'agent') === target &&
        st.request?.method === 'POST' &&
        ['/rest/system/restart', '/rest/system/shutdown'].includes(st.request.path),
    );
  }

  /** a pause of the scenario's clock that ends early, as Stopped, when the scenario must stop */
  private pause(ms: number): Promise<void> {
    return raceStop(this.ctx.clock.sleep(ms), this.ctx.signal);
  }

  /** send through the transport, pacing and counting the expensive endpoints */
  private async send(req: OutgoingRequest, step: string, attempt = 1): Promise<Exchange> {
    const endpoint = endpointKey(req.method, req.url);
    if (EXPENSIVE.includes(endpoint)) {
      const key = `${req.target} ${endpoint}`;
      const last = this.ctx.lastExpensiveAt[key];
      const wait = last === undefined ? 0 : last + this.ctx.expensiveIntervalMs - this.ctx.clock.now();
      if (wait > 0) await this.pause(wait);
      this.ctx.lastExpensiveAt[key] = this.ctx.clock.now();
      this.ctx.expensiveCalls[endpoint] = (this.ctx.expensiveCalls[endpoint] ?? 0) + 1;
    }
    if (req.body !== undefined) this.ctx.redactor.learnFrom(req.body);
    const x = await raceStop(this.ctx.transport.send(req, { scenario: this.s.id, step, attempt }), this.ctx.signal);
    // No answer: a slow endpoint is the step's finding, an agent that answers nothing at all ends the run. A scenario
    // that asks for a restart or a shutdown expects the agent away for a while (or for good).
    const code = x.error?.code;
    const watched = code === 'timeout' || (agentGone(x.error) && !this.expectsAway(req.target));
    const silent = watched && code ? await this.ctx.watch?.silent(req.target, code) : undefined;
    if (silent) throw new Stopped(silent, true);
    const res = x.response;
    if (res) this.ctx.redactor.learnFrom(res.body, () => bodyOf(res).json);
    this.ctx.clock.elapse(x.durationMs);
    // Refused or reset: the instance went away (a restart), so its event ids may start again.
    if (agentGone(x.error)) this.ctx.generations[req.target] = (this.ctx.generations[req.target] ?? 0) + 1;
    return x;
  }

  private buildRequest(step: Step): OutgoingRequest {
    const spec = render(step.request!, this.vars);
    const target = step.agent ?? 'agent';
    const query = new URLSearchParams(Object.entries(spec.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
    // a header is text: a whole-string template keeps its variable's type (a captured number, or null in a mutant)
    const headers: Record<string, string> = Object.fromEntries(
      Object.entries(spec.headers ?? {}).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    );
    // a template filled in with what no HTTP client sends: the scenario's fault (exit 2), not the agent's; the scenario
    // stops here, as a replay would not notice it and a live run would fail to send the request
    for (const [name, value] of Object.entries(headers)) {
      const problem = headerProblem(name, value);
      if (problem) throw new Stopped(`step "${step.name}": once its templates are filled in, ${problem}`);
    }
    const auth = spec.auth ?? 'key';
    if (auth === 'key') headers['X-API-Key'] = this.ctx.apiKeys[target];
    if (auth === 'wrong') headers['X-API-Key'] = WRONG_KEY;
    let body: string | undefined;
    if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      headers['Content-Type'] ??= 'application/json';
    }
    if (spec.text !== undefined) {
      body = typeof spec.text === 'string' ? spec.text : JSON.stringify(spec.text);
      headers['Content-Type'] ??= 'text/plain';
    }
    return {
      target,
      method: spec.method,
      url: spec.path + (query ? `?${query}` : ''),
      headers,
      body,
      timeoutMs: spec.timeout ? parseDuration(spec.timeout) : this.ctx.requestTimeoutMs,
    };
  }

  async runStep(step: Step, phase: Phase): Promise<boolean> {
    if (step.since && this.ctx.agentVersion && !atLeast(this.ctx.agentVersion, step.since)) {
      this.add(step.name, phase, {
        name: 'version-gate',
        kind: 'version-gate',
        verdict: 'skip',
        message: `step needs agent ${step.since} or later`,
        skipReason: `agent ${this.ctx.agentVersion} predates ${step.since}`,
      });
      return true;
    }
    try {
      if (step.request && (step.request.auth ?? 'key') === 'key') {
        const since = missingSince(this.ctx.agentVersion, `${step.request.method} ${step.request.path}`);
        if (since)
          return await this.probe(
            `${step.request.method} ${step.request.path}`,
            since,
            step.name,
            phase,
            'version-gate',
          );
      }
      if (step.request) return await this.request(step, phase);
      if (step.openEvents) return await this.openEvents(step, phase);
      if (step.expectEvent) return await this.expectEvent(step, phase);
      if (step.sleep) {
        await this.pause(parseDuration(step.sleep));
        return true;
      }
      if (step.file) return await this.file(step, phase);
    } catch (e) {
      if (!(e instanceof MissingVariableError)) throw e;
      this.add(step.name, phase, {
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

  /** templates in an object with assertions; in assertion paths they fill pointer segments (a value with "/" stays one segment) */
  private renderWithAssertions<T extends { assert?: Assertion[] }>(spec: T): T {
    const assert = spec.assert?.map((a) => ({
      ...render({ ...a, path: '' }, this.vars),
      path: renderPointer(a.path, this.vars),
    }));
    return { ...render({ ...spec, assert: undefined }, this.vars), ...(assert ? { assert } : {}) };
  }

  /** notes undocumented members of the responses of `req` (the final exchange of a step, not each wait attempt) */
  private undocumented(req: OutgoingRequest): UndocumentedHook {
    const endpoint = endpointKey(req.method, req.url);
    return (resource, doc) => noteUndocumented(this.ctx.undocumented, endpoint, resource, doc, this.s.id);
  }

  private async request(step: Step, phase: Phase): Promise<boolean> {
    const req = this.buildRequest(step);
    const expect = step.expect && this.renderWithAssertions(step.expect);
    let x: Exchange;
    let checks: Check[];
    let attempts = 0;
    const started = this.ctx.clock.now();
    if (!step.wait) {
      x = await this.send(req, step.name);
      checks = checkExchange(x, expect, step.capture, this.vars, this.ctx.agentVersion, this.undocumented(req));
    } else {
      const timeout = parseDuration(step.wait.timeout);
      const interval = parseDuration(step.wait.interval ?? '250ms');
      for (;;) {
        // An attempt that hangs must not outlast the wait.
        const left = Math.max(timeout - (this.ctx.clock.now() - started), 250);
        const next = await this.send({ ...req, timeoutMs: Math.min(req.timeoutMs, left) }, step.name, attempts + 1);
        if (next.error?.code === RECORDING_ENDS && attempts > 0) break;
        x = next;
        attempts++;
        const trial = checkExchange(x, expect, undefined, {}, this.ctx.agentVersion);
        checks = trial;
        if (trial.every((c) => c.verdict === 'pass')) break;
        if (this.ctx.clock.now() - started + interval > timeout) break;
        await this.pause(interval);
      }
      checks = checkExchange(x!, expect, step.capture, this.vars, this.ctx.agentVersion, this.undocumented(req));
      const held = checks.every((c) => c.verdict === 'pass' || c.kind === 'capture');
      const elapsed = Math.round(this.ctx.clock.now() - started);
      checks.unshift({
        name: 'wait',
        kind: 'wait',
        verdict: held ? 'pass' : 'fail',
        message: held
          ? `held after ${attempts} attempt${attempts > 1 ? 's' : ''} (${elapsed} ms)`
          : `did not hold within ${step.wait.timeout} (${attempts} attempts)`,
        expected: step.wait,
        actual: { attempts, elapsedMs: elapsed },
      });
    }
    for (const c of checks!)
      this.add(
        step.name,
        phase,
        c,
        x!,
        step.wait ? { attempts, elapsedMs: Math.round(this.ctx.clock.now() - started) } : {},
      );
    this.ctx.observe?.({
      scenario: this.s.id,
      step: step.name,
      kind: 'request',
      expect,
      capture: step.capture,
      exchange: x!,
    });
    return checks!.every((c) => c.verdict === 'pass');
  }

  private eventsRequest(c: Cursor, since: number, timeoutS: number): OutgoingRequest {
    const q = new URLSearchParams({ events: c.types.join(','), since: String(since), timeout: String(timeoutS) });
    // The long poll may take its timeout; beyond that, an agent that hangs gets a short bound.
    return {
      target: c.target,
      method: 'GET',
      url: `/rest/events?${q}`,
      headers: { 'X-API-Key': this.ctx.apiKeys[c.target] },
      timeoutMs: timeoutS * 1000 + Math.min(this.ctx.requestTimeoutMs, 2000),
    };
  }

  /** (re)open: the first request of a mask creates the agent's subscription; older events are skipped */
  private async open(c: Cursor, step: string): Promise<Exchange> {
    const x = await this.send(this.eventsRequest(c, 0, 0), step);
    c.generation = this.ctx.generations[c.target] ?? 0;
    const events = x.response ? bodyOf(x.response).json : undefined;
    c.lastId = Array.isArray(events) ? Math.max(0, ...events.map((e: { id?: number }) => e.id ?? 0)) : 0;
    return x;
  }

  private async openEvents(step: Step, phase: Phase): Promise<boolean> {
    const spec = step.openEvents!;
    const c: Cursor = { target: step.agent ?? 'agent', types: spec.types, lastId: 0, generation: 0 };
    this.cursors.set(spec.cursor, c);
    const x = await this.open(c, step.name);
    const ok = x.response?.status === 200;
    if (!ok)
      this.add(
        step.name,
        phase,
        {
          name: 'request',
          kind: 'request',
          verdict: 'fail',
          message: `cannot open the event cursor: ${x.response ? `status ${x.response.status}` : x.error?.message}`,
        },
        x,
      );
    return ok;
  }

  private async expectEvent(step: Step, phase: Phase): Promise<boolean> {
    const spec = this.renderWithAssertions(step.expectEvent!);
    const c = this.cursors.get(spec.cursor)!;
    this.ctx.observe?.({ scenario: this.s.id, step: step.name, kind: 'event', expectEvent: spec, target: c.target });
    const started = this.ctx.clock.now();
    const { match, seen, last, polls } = await this.pollForEvent(spec, c, step.name, started);
    const name = `event:${spec.type}`;
    // the event check proves what its block and its assertions cite (the assertions are how it matches)
    const proves = cited([...(spec.statements ?? []), ...(spec.assert ?? []).flatMap((a) => a.statements ?? [])]);
    const elapsedMs = Math.round(this.ctx.clock.now() - started);
    if (!match) {
      const why = (spec.assert ?? [])
        .map((a) => (seen.length ? evaluate(a, seen.at(-1), {}).message : ''))
        .filter(Boolean);
      this.add(
        step.name,
        phase,
        {
          name,
          kind: 'event',
          verdict: 'fail',
          message: `no ${spec.type} event${spec.assert?.length ? ' matching the assertions' : ''} within ${spec.within ?? '5s'} (${seen.length} of that type seen${why.length ? `; last: ${why.join('; ')}` : ''})`,
          expected: { type: spec.type, assert: spec.assert },
          actual: seen.slice(-5),
          ...proves,
        },
        last,
        { attempts: polls, elapsedMs },
      );
      return false;
    }
    this.add(step.name, phase, {
      name,
      kind: 'event',
      verdict: 'pass',
      message: `${spec.type} event ${match.id} after ${elapsedMs} ms`,
      actual: match,
      ...proves,
    });
    if (spec.schema) this.eventSchemaChecks(step.name, phase, spec.schema, match);
    return errorsFree(this.checks, step.name);
  }

  /** polls the cursor until an event of the type matches the assertions or `within` has passed */
  private async pollForEvent(spec: ExpectEvent, c: Cursor, step: string, started: number) {
    const within = parseDuration(spec.within ?? '5s');
    const seen: unknown[] = [];
    let last: Exchange | undefined;
    let match: Record<string, unknown> | undefined;
    let polls = 0;
    while (!match) {
      // The agent did not answer since the cursor was opened: it may have restarted, and its
      // event ids start again at 1, so a cursor at the old id would see nothing.
      if ((this.ctx.generations[c.target] ?? 0) !== c.generation) await this.open(c, step);
      const left = within - (this.ctx.clock.now() - started);
      if (left <= 0 && polls > 0) break;
      // The agent's long-poll timeout is in whole seconds: under 1 s left, poll without waiting
      // and pause between polls instead, so the last second is not a tight loop.
      const timeoutS = left >= 1000 ? 1 : 0;
      const x = await this.send(this.eventsRequest(c, c.lastId, timeoutS), step, polls + 1);
      if (x.error?.code === RECORDING_ENDS && polls > 0) break;
      polls++;
      last = x;
      const events = x.response?.status === 200 ? bodyOf(x.response).json : undefined;
      if (!Array.isArray(events)) {
        await this.pause(250);
        continue;
      }
      if (events.length === 0 && timeoutS === 0) await this.pause(Math.min(200, Math.max(left, 1)));
      for (const ev of events as Record<string, unknown>[]) {
        if (typeof ev.id === 'number') c.lastId = Math.max(c.lastId, ev.id);
        if (ev.type !== spec.type) continue;
        seen.push(ev);
        if ((spec.assert ?? []).every((a) => evaluate(a, ev, {}).ok)) {
          match = ev;
          break;
        }
      }
    }
    return { match, seen, last, polls };
  }

  /** the matched event's data against its schema, and its undocumented members */
  private eventSchemaChecks(step: string, phase: Phase, schema: string, match: Record<string, unknown>): void {
    const errors = validate(schema, match.data, this.ctx.agentVersion ?? undefined);
    this.add(
      step,
      phase,
      errors.length
        ? {
            name: 'event-schema',
            kind: 'schema',
            verdict: 'fail',
            message: `event data is not a valid ${schema}: ${errors.map((e) => `${e.pointer || '/'} ${e.rule}`).join(', ')}`,
            schemaErrors: errors,
            actual: match,
            ...cited(schemaStatements(schema)),
            breaks: brokenStatements(
              schema,
              errors.map((e) => e.pointer),
            ),
          }
        : {
            name: 'event-schema',
            kind: 'schema',
            verdict: 'pass',
            message: `event data is a valid ${schema}`,
            ...cited(schemaStatements(schema)),
          },
    );
    const judged = noteUndocumented(
      this.ctx.undocumented,
      'GET /rest/events',
      schema,
      match.data,
      this.s.id,
      'event-undocumented',
    );
    if (judged) this.add(step, phase, judged);
  }

  private async file(step: Step, phase: Phase): Promise<boolean> {
    // {{n}} is the repetition counter, filled in by the action itself
    const action = render(step.file!, { ...this.vars, n: '{{n}}' });
    const roots = [this.vars.tmp, ...['agent', 'peer'].map((n) => (this.vars[n] as Vars | undefined)?.dataDir)].filter(
      (r): r is string => typeof r === 'string',
    );
    try {
      await this.ctx.actions.apply(action, roots);
      return true;
    } catch (e) {
      this.add(step.name, phase, {
        name: 'file',
        kind: 'file',
        verdict: 'fail',
        message: `file action on ${action.path} failed: ${(e as Error).message}`,
      });
      return false;
    }
  }

  /**
   * An endpoint checked against its own gate: absent (404) on an agent older than `since`, present (any answer but
   * the router's 404) on a newer one. The request carries the API key and no parameters: the agent routes before it
   * reads them, and an endpoint that needs one may answer 404 from its own handler (GET /rest/db/status without
   * ?folder= is 404 "no such folder"), which is not the router's "404 page not found" (Go's mux) of an absent one.
   */
  async probe(
    endpoint: string,
    since: string | undefined,
    step: string,
    phase: Phase,
    name = endpoint,
  ): Promise<boolean> {
    const [method, path] = endpoint.split(' ');
    const x = await this.send(
      {
        target: 'agent',
        method,
        url: path,
        headers: { 'X-API-Key': this.ctx.apiKeys.agent },
        timeoutMs: this.ctx.requestTimeoutMs,
      },
      step,
    );
    const status = x.response?.status;
    const answered = status ?? x.error?.code;
    const agent = this.ctx.agentVersion;
    const body = x.response?.body.trim() ?? '';
    const answer = x.response && { status: x.response.status, headers: x.response.headers, body };
    const otherMethods = answer && otherMethodsOf(method, answer);
    const routed = answer !== undefined && !showsAbsent(method, answer);
    const ok = since ? status === 404 || otherMethods !== undefined : routed;
    const present = status === 404 ? `404 from its own handler: ${JSON.stringify(body.slice(0, 80))}` : status;
    const absent = otherMethods ? `405: the path answers ${otherMethods}, not ${method}` : '404';
    const message = since
      ? ok
        ? `${endpoint} is absent (${absent}) on agent ${agent}, as expected before ${since}`
        : `${endpoint} answered ${answered} on agent ${agent}; an endpoint added in ${since} must answer 404 (or 405 where its path has another method)`
      : ok
        ? `${endpoint} is present (${present}) on agent ${agent}, which is past its gate`
        : `${endpoint} answered ${answered}${otherMethods ? ` (${absent})` : ''} on agent ${agent}; it must be present (not 404 or 405) from its version on`;
    const gateStatements = this.ctx.gateStatements?.[endpoint] ?? [];
    const existsStatements = endpointEntry(method, path)?.existsStatements ?? [];
    this.add(
      step,
      phase,
      {
        name,
        kind: 'version-gate',
        verdict: ok ? 'pass' : 'fail',
        message,
        expected: since ? 404 : 'not 404',
        actual: answered,
        ...cited([...gateStatements, ...(since ? [] : existsStatements)]),
      },
      x,
    );
    if (since && existsStatements.length) this.existsCheck(endpoint, since, routed, existsStatements, step, phase, x);
    return ok;
  }

  /**
   * The spec names the path, so an agent of its release has it: an agent that predates the endpoint (its gate
   * check passes on the 404) fails the statements that say the path exists, in a check of their own.
   */
  private existsCheck(
    endpoint: string,
    since: string,
    routed: boolean,
    ids: string[],
    step: string,
    phase: Phase,
    x: Exchange,
  ): void {
    const agent = this.ctx.agentVersion;
    this.add(
      step,
      phase,
      {
        name: `${endpoint} exists`,
        kind: 'version-gate',
        verdict: routed ? 'pass' : 'fail',
        message: routed
          ? `${endpoint} answers on agent ${agent}: the path the spec names exists`
          : `${endpoint} is absent on agent ${agent} (added in ${since}): the spec names the path`,
        expected: 'not 404',
        actual: x.response?.status ?? x.error?.code,
        ...cited(ids),
      },
      x,
    );
  }

  /**
   * absent mode: the agent predates a gate of the scenario. Each endpoint of the scenario is checked against its own
   * gate (schemas/endpoints.json), or the scenario's `since` when the agent predates that: the endpoints the agent
   * predates must answer 404, the others must answer (an agent between the gates of a GET and its DELETE has the one
   * and not the other).
   */
  async probeAbsent(scenarioSince: string | undefined): Promise<void> {
    for (const endpoint of this.s.spec) {
      const since = scenarioSince ?? missingSince(this.ctx.agentVersion, endpoint);
      await this.probe(endpoint, since, since ? 'absent' : 'present', 'steps');
    }
  }
}

/** every statement the scenario's steps cite */
function scenarioStatements(s: Scenario): string[] {
  const blocks = [...(s.setup ?? []), ...s.steps, ...(s.cleanup ?? [])].map((st) => st.expect ?? st.expectEvent);
  return [
    ...new Set(
      blocks.flatMap((b) => [...(b?.statements ?? []), ...(b?.assert ?? []).flatMap((a) => a.statements ?? [])]),
    ),
  ];
}

/**
 * In absent mode the steps do not run: the statements they cite that no probe proved are not observable on this
 * agent, and a skipped check says so (statement coverage gives them that reason instead of none).
 */
function unobservable(s: Scenario, probes: CheckResult[], agent: string | null, predated: string): CheckResult[] {
  const proved = new Set(probes.flatMap((c) => c.statements ?? []));
  const ids = scenarioStatements(s).filter((id) => !proved.has(id));
  if (!ids.length) return [];
  const why = `agent ${agent} predates ${predated}: the steps that check these statements cannot run on it`;
  return [
    {
      id: `${s.id}/absent/steps`,
      step: 'absent',
      phase: 'steps',
      kind: 'version-gate',
      verdict: 'skip',
      message: `not run: ${why}`,
      skipReason: why,
      statements: ids,
    },
  ];
}

function errorsFree(checks: CheckResult[], step: string): boolean {
  return checks.filter((c) => c.step === step).every((c) => c.verdict === 'pass');
}

/**
 * the endpoints of `spec` the scenario needs working: the ones it calls with the API key. A scenario that names an
 * endpoint only to call it without a key (or with a method it does not have) tests the agent's refusal, which does not
 * depend on the endpoint's version: it runs normally.
 */
function dependsOn(s: Scenario): string[] {
  const called = new Set(
    [...(s.setup ?? []), ...s.steps, ...(s.cleanup ?? [])]
      .filter((st) => st.request && (st.request.auth ?? 'key') === 'key' && (st.agent ?? 'agent') === 'agent')
      .map((st) => endpointKey(st.request!.method, st.request!.path)),
  );
  return s.spec.filter((e) => called.has(e));
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

/** absent mode: each endpoint against its gate, the checks so far when the scenario must stop */
async function absentChecks(s: Scenario, ctx: RunContext, scenarioGate: string | undefined) {
  const run = new ScenarioRun(s, ctx, { ...ctx.vars });
  try {
    await run.probeAbsent(scenarioGate);
  } catch (e) {
    if (!(e instanceof Stopped)) throw e;
    return { checks: run.checks, stopped: e };
  }
  return { checks: run.checks, stopped: undefined };
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
