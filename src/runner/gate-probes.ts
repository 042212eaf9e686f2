// Absent mode: a scenario whose endpoints (or whose own `since`) the agent predates does not run its steps; each of
// its endpoints is probed against its own gate instead, and the statements no probe can prove are skipped, with why.
import type { Scenario, CheckResult } from '../schema/generated/types.js';
import type { Exchange } from '../transport/types.js';
import type { RunContext } from './context.js';
import { endpointEntry, missingSince } from './endpoint-gates.js';
import { endpointKey } from '../schema/endpoints.js';
import { otherMethods as otherMethodsOf, showsAbsent } from '../verdict/absent.js';
import { Stopped } from './stop.js';
import { cited, StepIO, type Phase } from './step-io.js';

/**
 * An endpoint checked against its own gate: absent (404) on an agent older than `since`, present (any answer but
 * the router's 404) on a newer one. The request carries the API key and no parameters: the agent routes before it
 * reads them, and an endpoint that needs one may answer 404 from its own handler (GET /rest/db/status without
 * ?folder= is 404 "no such folder"), which is not the router's "404 page not found" (Go's mux) of an absent one.
 */
export async function probe(
  io: StepIO,
  endpoint: string,
  since: string | undefined,
  step: string,
  phase: Phase,
  name = endpoint,
): Promise<boolean> {
  const [method, path] = endpoint.split(' ');
  const x = await io.send(
    {
      target: 'agent',
      method,
      url: path,
      headers: { 'X-API-Key': io.ctx.apiKeys.agent },
      timeoutMs: io.ctx.requestTimeoutMs,
    },
    step,
  );
  const status = x.response?.status;
  const answered = status ?? x.error?.code;
  const agent = io.ctx.agentVersion;
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
  const gateStatements = io.ctx.gateStatements?.[endpoint] ?? [];
  const existsStatements = endpointEntry(method, path)?.existsStatements ?? [];
  io.add(
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
  if (since && existsStatements.length) existsCheck(io, endpoint, since, routed, existsStatements, step, phase, x);
  return ok;
}

/**
 * The spec names the path, so an agent of its release has it: an agent that predates the endpoint (its gate
 * check passes on the 404) fails the statements that say the path exists, in a check of their own.
 */
function existsCheck(
  io: StepIO,
  endpoint: string,
  since: string,
  routed: boolean,
  ids: string[],
  step: string,
  phase: Phase,
  x: Exchange,
): void {
  const agent = io.ctx.agentVersion;
  io.add(
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
async function probeAbsent(io: StepIO, scenarioSince: string | undefined): Promise<void> {
  for (const endpoint of io.s.spec) {
    const since = scenarioSince ?? missingSince(io.ctx.agentVersion, endpoint);
    await probe(io, endpoint, since, since ? 'absent' : 'present', 'steps');
  }
}

/** every statement the scenario's steps cite */
export function scenarioStatements(s: Scenario): string[] {
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
export function unobservable(
  s: Scenario,
  probes: CheckResult[],
  agent: string | null,
  predated: string,
): CheckResult[] {
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

/**
 * the endpoints of `spec` the scenario needs working: the ones it calls with the API key. A scenario that names an
 * endpoint only to call it without a key (or with a method it does not have) tests the agent's refusal, which does not
 * depend on the endpoint's version: it runs normally.
 */
export function dependsOn(s: Scenario): string[] {
  const called = new Set(
    [...(s.setup ?? []), ...s.steps, ...(s.cleanup ?? [])]
      .filter((st) => st.request && (st.request.auth ?? 'key') === 'key' && (st.agent ?? 'agent') === 'agent')
      .map((st) => endpointKey(st.request!.method, st.request!.path)),
  );
  return s.spec.filter((e) => called.has(e));
}

/** absent mode: each endpoint against its gate, the checks so far when the scenario must stop */
export async function absentChecks(s: Scenario, ctx: RunContext, scenarioGate: string | undefined) {
  const io = new StepIO(s, ctx, { ...ctx.vars });
  try {
    await probeAbsent(io, scenarioGate);
  } catch (e) {
    if (!(e instanceof Stopped)) throw e;
    return { checks: io.checks, stopped: e };
  }
  return { checks: io.checks, stopped: undefined };
}
