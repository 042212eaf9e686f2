// Live mode of `synconf mutate`: a fault injector in front of a live agent. It sits between the
// runner and the live transport (the place a proxy would take, without a port of its own) and, for
// the one mutant armed, either rewrites the agent's answers to the steps the mutant names, or keeps
// a request with a side effect from reaching the agent at all and answers it as recorded, so the
// agent's later answers really show no effect.
import type { Exchange, ExchangeContext, IncomingResponse, OutgoingRequest, ScenarioMeta, Transport } from '../transport/types.js';

export type LiveFault =
  /** every answer to these steps (all steps: '*') rewritten; the agent keeps answering so */
  | { kind: 'rewrite'; steps: string[] | '*'; rewrite(response: IncomingResponse, request: OutgoingRequest): IncomingResponse }
  /** the `occurrence`-th request of `step` never reaches the agent; `answer` is what it gets instead */
  | { kind: 'suppress'; step: string; occurrence: number; answer: IncomingResponse };

export class FaultTransport implements Transport {
  private armed?: { scenario: string; fault: LiveFault };
  private readonly seen = new Map<string, number>();
  constructor(private readonly inner: Transport) {}

  /** the fault of the next scenario run (undefined: none) */
  arm(scenario: string, fault: LiveFault | undefined): void {
    this.armed = fault ? { scenario, fault } : undefined;
    this.seen.clear();
  }

  async send(request: OutgoingRequest, ctx: ExchangeContext): Promise<Exchange> {
    const fault = this.armed?.scenario === ctx.scenario ? this.armed.fault : undefined;
    const n = (this.seen.get(ctx.step) ?? 0) + 1;
    this.seen.set(ctx.step, n);
    if (fault?.kind === 'suppress' && fault.step === ctx.step && fault.occurrence === n) {
      return { request, response: structuredClone(fault.answer), startedAt: new Date().toISOString(), durationMs: 0 };
    }
    const x = await this.inner.send(request, ctx);
    if (fault?.kind === 'rewrite' && x.response && (fault.steps === '*' || fault.steps.includes(ctx.step))) return { ...x, response: fault.rewrite(x.response, request) };
    return x;
  }

  endScenario(scenario: string): Promise<void> { return this.inner.endScenario?.(scenario) ?? Promise.resolve(); }
  annotate(scenario: string, meta: ScenarioMeta): void { this.inner.annotate?.(scenario, meta); }
  close(): Promise<void> { return this.inner.close(); }
}
