// What every step of a scenario does the same way: send a request (paced, redacted, raced against the scenario's
// stop signal, watched for an agent that went silent) and record a check with the evidence of its exchange.
import type { Scenario, CheckResult, Evidence, Assertion } from '../schema/generated/types.js';
import type { Exchange, OutgoingRequest } from '../transport/types.js';
import type { RunContext } from './context.js';
import { EXPENSIVE } from './context.js';
import { render, renderPointer, type Vars } from '../scenario/template.js';
import { bodyOf, type Check, type UndocumentedHook } from './exchange-checks.js';
import { noteUndocumented } from './undocumented.js';
import { endpointKey } from '../schema/endpoints.js';
import { evidenceOf } from './evidence.js';
import { agentGone } from '../transport/types.js';
import { raceStop, Stopped } from './stop.js';

/** the `statements` member of a check citing `ids` (none when there are none) */
export const cited = (ids: string[]): { statements?: string[] } =>
  ids.length ? { statements: [...new Set(ids)] } : {};

export type Phase = 'setup' | 'steps' | 'cleanup';

/** one scenario's requests and the checks they made so far */
export class StepIO {
  readonly checks: CheckResult[] = [];

  constructor(
    readonly s: Scenario,
    readonly ctx: RunContext,
    readonly vars: Vars,
  ) {}

  add(step: string, phase: Phase, c: Check, x?: Exchange, extra: Partial<Evidence> = {}): void {
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
  pause(ms: number): Promise<void> {
    return raceStop(this.ctx.clock.sleep(ms), this.ctx.signal);
  }

  /** send through the transport, pacing and counting the expensive endpoints */
  async send(req: OutgoingRequest, step: string, attempt = 1): Promise<Exchange> {
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

  /** templates in an object with assertions; in assertion paths they fill pointer segments (a value with "/" stays one segment) */
  renderWithAssertions<T extends { assert?: Assertion[] }>(spec: T): T {
    const assert = spec.assert?.map((a) => ({
      ...render({ ...a, path: '' }, this.vars),
      path: renderPointer(a.path, this.vars),
    }));
    return { ...render({ ...spec, assert: undefined }, this.vars), ...(assert ? { assert } : {}) };
  }

  /** notes undocumented members of the responses of `req` (the final exchange of a step, not each wait attempt) */
  undocumented(req: OutgoingRequest): UndocumentedHook {
    const endpoint = endpointKey(req.method, req.url);
    return (resource, doc) => noteUndocumented(this.ctx.undocumented, endpoint, resource, doc, this.s.id);
  }
}
