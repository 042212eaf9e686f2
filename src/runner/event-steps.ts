// Event steps: a cursor on the agent's event stream (GET /rest/events, long-polled), and a wait on it for an event
// that matches a step's assertions, whose data is then checked against its schema.
import type { Step, CheckResult } from '../schema/generated/types.js';
import type { Exchange, OutgoingRequest } from '../transport/types.js';
import { bodyOf } from './exchange-checks.js';
import { noteUndocumented } from './undocumented.js';
import { evaluate } from './assertions.js';
import { parseDuration } from './clock.js';
import { validate } from '../schema/registry.js';
import { brokenStatements, schemaStatements } from '../schema/schema-statements.js';
// RECORDING_ENDS: a replay ends an event poll where the live run ended it.
import { RECORDING_ENDS } from '../transport/types.js';
import { cited, type Phase, type StepIO } from './step-io.js';

type ExpectEvent = NonNullable<Step['expectEvent']>;

interface Cursor {
  target: string;
  types: string[];
  lastId: number;
  generation: number;
}

function errorsFree(checks: CheckResult[], step: string): boolean {
  return checks.filter((c) => c.step === step).every((c) => c.verdict === 'pass');
}

/** the event cursors a scenario opened, by name, and the steps that open and read them */
export class EventSteps {
  private readonly cursors = new Map<string, Cursor>();

  constructor(private readonly io: StepIO) {}

  private eventsRequest(c: Cursor, since: number, timeoutS: number): OutgoingRequest {
    const q = new URLSearchParams({ events: c.types.join(','), since: String(since), timeout: String(timeoutS) });
    // The long poll may take its timeout; beyond that, an agent that hangs gets a short bound.
    return {
      target: c.target,
      method: 'GET',
      url: `/rest/events?${q}`,
      headers: { 'X-API-Key': this.io.ctx.apiKeys[c.target] },
      timeoutMs: timeoutS * 1000 + Math.min(this.io.ctx.requestTimeoutMs, 2000),
    };
  }

  /** (re)open: the first request of a mask creates the agent's subscription; older events are skipped */
  private async open(c: Cursor, step: string): Promise<Exchange> {
    const x = await this.io.send(this.eventsRequest(c, 0, 0), step);
    c.generation = this.io.ctx.generations[c.target] ?? 0;
    const events = x.response ? bodyOf(x.response).json : undefined;
    c.lastId = Array.isArray(events) ? Math.max(0, ...events.map((e: { id?: number }) => e.id ?? 0)) : 0;
    return x;
  }

  async openEvents(step: Step, phase: Phase): Promise<boolean> {
    const spec = step.openEvents!;
    const c: Cursor = { target: step.agent ?? 'agent', types: spec.types, lastId: 0, generation: 0 };
    this.cursors.set(spec.cursor, c);
    const x = await this.open(c, step.name);
    const ok = x.response?.status === 200;
    if (!ok)
      this.io.add(
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

  async expectEvent(step: Step, phase: Phase): Promise<boolean> {
    const spec = this.io.renderWithAssertions(step.expectEvent!);
    const c = this.cursors.get(spec.cursor)!;
    this.io.ctx.observe?.({
      scenario: this.io.s.id,
      step: step.name,
      kind: 'event',
      expectEvent: spec,
      target: c.target,
    });
    const started = this.io.ctx.clock.now();
    const { match, seen, last, polls } = await this.pollForEvent(spec, c, step.name, started);
    const name = `event:${spec.type}`;
    // the event check proves what its block and its assertions cite (the assertions are how it matches)
    const proves = cited([...(spec.statements ?? []), ...(spec.assert ?? []).flatMap((a) => a.statements ?? [])]);
    const elapsedMs = Math.round(this.io.ctx.clock.now() - started);
    if (!match) {
      const why = (spec.assert ?? [])
        .map((a) => (seen.length ? evaluate(a, seen.at(-1), {}).message : ''))
        .filter(Boolean);
      this.io.add(
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
    this.io.add(step.name, phase, {
      name,
      kind: 'event',
      verdict: 'pass',
      message: `${spec.type} event ${match.id} after ${elapsedMs} ms`,
      actual: match,
      ...proves,
    });
    if (spec.schema) this.eventSchemaChecks(step.name, phase, spec.schema, match);
    return errorsFree(this.io.checks, step.name);
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
      if ((this.io.ctx.generations[c.target] ?? 0) !== c.generation) await this.open(c, step);
      const left = within - (this.io.ctx.clock.now() - started);
      if (left <= 0 && polls > 0) break;
      // The agent's long-poll timeout is in whole seconds: under 1 s left, poll without waiting
      // and pause between polls instead, so the last second is not a tight loop.
      const timeoutS = left >= 1000 ? 1 : 0;
      const x = await this.io.send(this.eventsRequest(c, c.lastId, timeoutS), step, polls + 1);
      if (x.error?.code === RECORDING_ENDS && polls > 0) break;
      polls++;
      last = x;
      const events = x.response?.status === 200 ? bodyOf(x.response).json : undefined;
      if (!Array.isArray(events)) {
        await this.io.pause(250);
        continue;
      }
      if (events.length === 0 && timeoutS === 0) await this.io.pause(Math.min(200, Math.max(left, 1)));
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
    const errors = validate(schema, match.data, this.io.ctx.agentVersion ?? undefined);
    this.io.add(
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
      this.io.ctx.undocumented,
      'GET /rest/events',
      schema,
      match.data,
      this.io.s.id,
      'event-undocumented',
    );
    if (judged) this.io.add(step, phase, judged);
  }
}
