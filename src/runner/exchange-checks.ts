// The checks a request step's expectations make of one exchange.
import type { StepExpectations, CheckResult } from '../schema/generated/types.js';
import { agentGone, type Exchange } from '../transport/types.js';
import { validate, short } from '../schema/registry.js';
import { evaluate, assertionLabel } from './assertions.js';
import { resolvePointer, MISSING } from '../json.js';
import type { Vars } from '../scenario/template.js';

export type Check = Omit<CheckResult, 'id' | 'step' | 'phase'> & { name: string };

export interface ParsedBody {
  json?: unknown;
  jsonError?: string;
}

export function parseBody(body: string): ParsedBody {
  if (body.trim() === '') return { jsonError: 'the body is empty' };
  try {
    return { json: JSON.parse(body) };
  } catch (e) {
    return { jsonError: `the body is not JSON (${(e as Error).message})` };
  }
}

export function mediaTypeOf(headers: Record<string, string>): string | null {
  const ct = headers['content-type'];
  return ct ? ct.split(';')[0].trim().toLowerCase() : null;
}

const pass = (name: string, kind: Check['kind'], message: string, extra: Partial<Check> = {}): Check => ({
  name,
  kind,
  verdict: 'pass',
  message,
  ...extra,
});
const fail = (name: string, kind: Check['kind'], message: string, extra: Partial<Check> = {}): Check => ({
  name,
  kind,
  verdict: 'fail',
  message,
  ...extra,
});

/** notes the undocumented members of a checked document; returns the check judging them under --strict */
export type UndocumentedHook = (resource: string, doc: unknown) => Check | undefined;

/** checks of `expect` (and `capture`, which writes into vars) for an exchange that has a response */
// eslint-disable-next-line max-lines-per-function -- to be split (issue 19)
export function checkExchange(
  x: Exchange,
  expect: StepExpectations | undefined,
  capture: Record<string, string> | undefined,
  vars: Vars,
  agentVersion: string | null,
  undocumented?: UndocumentedHook,
): Check[] {
  const checks: Check[] = [];
  if (expect?.unreachable) {
    const gone = !x.response && agentGone(x.error);
    return [
      (gone ? pass : fail)(
        'unreachable',
        'request',
        gone
          ? `no HTTP response (${x.error?.code}), as expected`
          : x.response
            ? `the agent still answers (status ${x.response.status})`
            : `no response, but ${x.error?.code} rather than refused or reset`,
        { expected: 'refused or reset', actual: x.response ? x.response.status : x.error?.code },
      ),
    ];
  }
  if (!x.response) {
    return [
      fail('request', 'request', `no response: ${x.error?.code ?? 'error'}: ${x.error?.message ?? 'unknown'}`, {
        expected: 'an HTTP response',
        actual: x.error?.code,
      }),
    ];
  }
  const res = x.response;
  const body = parseBody(res.body);
  const e: StepExpectations = expect ?? {};
  if (e.status !== undefined) {
    const allowed = Array.isArray(e.status) ? e.status : [e.status];
    const ok = allowed.includes(res.status);
    checks.push(
      (ok ? pass : fail)('status', 'status', `status ${res.status}${ok ? '' : `, expected ${allowed.join(' or ')}`}`, {
        expected: e.status,
        actual: res.status,
      }),
    );
  }
  if (e.mediaType !== undefined) {
    const actual = mediaTypeOf(res.headers);
    const ok = actual === (e.mediaType === null ? null : e.mediaType.toLowerCase());
    const show = (v: string | null) => (v === null ? 'no Content-Type' : v);
    checks.push(
      (ok ? pass : fail)(
        'media-type',
        'media-type',
        `media type ${show(actual)}${ok ? '' : `, expected ${show(e.mediaType)}`}`,
        { expected: e.mediaType, actual },
      ),
    );
  }
  if (e.emptyBody !== undefined) {
    const empty = res.body.length === 0;
    const ok = empty === e.emptyBody;
    checks.push(
      (ok ? pass : fail)(
        'body',
        'body',
        e.emptyBody
          ? ok
            ? 'body is empty'
            : `body is not empty: ${short(res.body)}`
          : ok
            ? 'body is not empty'
            : 'body is empty',
        { expected: e.emptyBody ? '' : 'a body', actual: short(res.body, 200) },
      ),
    );
  }
  if (e.text) {
    const problems: string[] = [];
    if (e.text.equals !== undefined && res.body !== e.text.equals)
      problems.push(`is ${short(res.body)}, expected ${short(e.text.equals)}`);
    if (e.text.contains !== undefined && !res.body.includes(e.text.contains))
      problems.push(`does not contain ${short(e.text.contains)}`);
    if (e.text.matches !== undefined && !new RegExp(e.text.matches).test(res.body))
      problems.push(`does not match /${e.text.matches}/`);
    checks.push(
      (problems.length ? fail : pass)(
        'text',
        'body',
        problems.length
          ? `body ${problems.join('; ')}`
          : `body text ${Object.entries(e.text)
              .map(([k, v]) => `${k} ${short(v)}`)
              .join(', ')}`,
        { expected: e.text, actual: short(res.body, 200) },
      ),
    );
  }
  if (e.schema) {
    if (body.jsonError)
      checks.push(
        fail('schema', 'schema', `${e.schema}: ${body.jsonError}`, {
          expected: e.schema,
          actual: short(res.body, 200),
        }),
      );
    else {
      const errors = validate(e.schema, body.json, agentVersion ?? undefined);
      checks.push(
        errors.length
          ? fail(
              'schema',
              'schema',
              `not a valid ${e.schema}: ${errors.length} error${errors.length > 1 ? 's' : ''} (${errors
                .slice(0, 3)
                .map((x) => `${x.pointer || '/'} ${x.rule}`)
                .join(', ')}${errors.length > 3 ? ', …' : ''})`,
              { expected: e.schema, schemaErrors: errors },
            )
          : pass('schema', 'schema', `valid ${e.schema}${agentVersion ? ` (agent ${agentVersion})` : ''}`, {
              expected: e.schema,
            }),
      );
      const judged = undocumented?.(e.schema, body.json);
      if (judged) checks.push(judged);
    }
  }
  const seen = new Map<string, number>();
  for (const a of e.assert ?? []) {
    const label = assertionLabel(a);
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    const name = `assert:${label}${n > 1 ? ` #${n}` : ''}`;
    if (!a.path.startsWith('header:') && body.jsonError) {
      checks.push(fail(name, 'assert', `${a.path || 'body'}: ${body.jsonError}`, { expected: a }));
      continue;
    }
    const out = evaluate(a, body.json, res.headers);
    checks.push((out.ok ? pass : fail)(name, 'assert', out.message, { expected: out.expected, actual: out.actual }));
  }
  for (const [variable, pointer] of Object.entries(capture ?? {})) {
    const name = `capture:${variable}`;
    if (body.jsonError) {
      checks.push(fail(name, 'capture', `cannot capture ${variable}: ${body.jsonError}`));
      continue;
    }
    const value = resolvePointer(body.json, pointer);
    if (value === MISSING || value === undefined)
      checks.push(
        fail(name, 'capture', `cannot capture ${variable}: nothing at ${pointer || '/'}`, { expected: pointer }),
      );
    else {
      vars[variable] = value;
      checks.push(pass(name, 'capture', `${variable} = ${short(value)}`, { actual: value }));
    }
  }
  return checks;
}
