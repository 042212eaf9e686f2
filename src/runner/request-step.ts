// A request step: the request its templates make, sent once or, for a step that waits, again until its checks hold.
import type { Step } from '../schema/generated/types.js';
import type { Exchange, OutgoingRequest } from '../transport/types.js';
import { render } from '../scenario/template.js';
import { headerProblem } from '../scenario/headers.js';
import { checkExchange, type Check } from './exchange-checks.js';
import { parseDuration } from './clock.js';
// RECORDING_ENDS: a replay ends a wait where the live run ended it.
import { RECORDING_ENDS } from '../transport/types.js';
import { Stopped } from './stop.js';
import type { Phase, StepIO } from './step-io.js';
import { plural } from '../plural.js';

const WRONG_KEY = 'synconf-wrong-api-key';

function buildRequest(io: StepIO, step: Step): OutgoingRequest {
  const spec = render(step.request!, io.vars);
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
  if (auth === 'key') headers['X-API-Key'] = io.ctx.apiKeys[target];
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
    timeoutMs: spec.timeout ? parseDuration(spec.timeout) : io.ctx.requestTimeoutMs,
  };
}

export async function requestStep(io: StepIO, step: Step, phase: Phase): Promise<boolean> {
  const req = buildRequest(io, step);
  const expect = step.expect && io.renderWithAssertions(step.expect);
  let x: Exchange;
  let checks: Check[];
  let attempts = 0;
  const started = io.ctx.clock.now();
  if (!step.wait) {
    x = await io.send(req, step.name);
    checks = checkExchange(x, expect, step.capture, io.vars, io.ctx.agentVersion, io.undocumented(req));
  } else {
    const timeout = parseDuration(step.wait.timeout);
    const interval = parseDuration(step.wait.interval ?? '250ms');
    for (;;) {
      // An attempt that hangs must not outlast the wait.
      const left = Math.max(timeout - (io.ctx.clock.now() - started), 250);
      const next = await io.send({ ...req, timeoutMs: Math.min(req.timeoutMs, left) }, step.name, attempts + 1);
      if (next.error?.code === RECORDING_ENDS && attempts > 0) break;
      x = next;
      attempts++;
      const trial = checkExchange(x, expect, undefined, {}, io.ctx.agentVersion);
      checks = trial;
      if (trial.every((c) => c.verdict === 'pass')) break;
      if (io.ctx.clock.now() - started + interval > timeout) break;
      await io.pause(interval);
    }
    checks = checkExchange(x!, expect, step.capture, io.vars, io.ctx.agentVersion, io.undocumented(req));
    const held = checks.every((c) => c.verdict === 'pass' || c.kind === 'capture');
    const elapsed = Math.round(io.ctx.clock.now() - started);
    checks.unshift({
      name: 'wait',
      kind: 'wait',
      verdict: held ? 'pass' : 'fail',
      message: held
        ? `held after ${plural(attempts, 'attempt')} (${elapsed} ms)`
        : `did not hold within ${step.wait.timeout} (${attempts} attempts)`,
      expected: step.wait,
      actual: { attempts, elapsedMs: elapsed },
    });
  }
  for (const c of checks!)
    io.add(step.name, phase, c, x!, step.wait ? { attempts, elapsedMs: Math.round(io.ctx.clock.now() - started) } : {});
  io.ctx.observe?.({
    scenario: io.s.id,
    step: step.name,
    kind: 'request',
    expect,
    capture: step.capture,
    exchange: x!,
  });
  return checks!.every((c) => c.verdict === 'pass');
}
