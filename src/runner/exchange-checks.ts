// The checks a request step's expectations make of one exchange.
import type { StepExpectations, CheckResult } from '../schema/generated/types.js';
import { agentGone, type Exchange, type IncomingResponse } from '../transport/types.js';
import { validate, short } from '../schema/registry.js';
import { evaluate, assertionLabel, failures } from './assertions.js';
import { resolvePointer, MISSING, MAX_DEPTH, jsonTextTooLarge } from '../json.js';
import type { Vars } from '../scenario/template.js';
import { schemaStatements, brokenStatements } from '../schema/schema-statements.js';
import { plural } from '../plural.js';

export type Check = Omit<CheckResult, 'id' | 'step' | 'phase'> & { name: string };

export interface ParsedBody {
  json?: unknown;
  jsonError?: string;
}

export function parseBody(body: string): ParsedBody {
  if (body.trim() === '') return { jsonError: 'the body is empty' };
  // an answer nested past any walk's stack is judged as what it is, not parsed into a crash
  // (a live answer of many members is judged as it is: only its depth is bounded here)
  if (jsonTextTooLarge(body, Infinity))
    return { jsonError: `the body nests deeper than ${MAX_DEPTH} levels (synconf checks no deeper)` };
  try {
    return { json: JSON.parse(body) };
  } catch (e) {
    return { jsonError: `the body is not JSON (${(e as Error).message})` };
  }
}

// A response's body is parsed once, however often it is read: the secrets it may hold, each attempt of a wait and its
// final checks, and (a replayed answer being one object per recorded entry) every replay of the same cassette. Keyed
// by the response object, whose body no one changes; the parsed value is only read.
const parsedBodies = new WeakMap<IncomingResponse, ParsedBody>();

/** the body of a response, parsed (once per response) */
export function bodyOf(res: IncomingResponse): ParsedBody {
  let parsed = parsedBodies.get(res);
  if (!parsed) {
    parsed = parseBody(res.body);
    parsedBodies.set(res, parsed);
  }
  return parsed;
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

/** `unreachable: true`: the agent must give no HTTP response at all (refused or reset) */
function unreachableCheck(x: Exchange): Check {
  const gone = !x.response && agentGone(x.error);
  return (gone ? pass : fail)(
    'unreachable',
    'request',
    gone
      ? `no HTTP response (${x.error?.code}), as expected`
      : x.response
        ? `the agent still answers (status ${x.response.status})`
        : `no response, but ${x.error?.code} rather than refused or reset`,
    { expected: 'refused or reset', actual: x.response ? x.response.status : x.error?.code },
  );
}

function statusCheck(status: NonNullable<StepExpectations['status']>, res: IncomingResponse): Check {
  const allowed = Array.isArray(status) ? status : [status];
  const ok = allowed.includes(res.status);
  return (ok ? pass : fail)(
    'status',
    'status',
    `status ${res.status}${ok ? '' : `, expected ${allowed.join(' or ')}`}`,
    {
      expected: status,
      actual: res.status,
    },
  );
}

function mediaTypeCheck(mediaType: string | null, res: IncomingResponse): Check {
  const actual = mediaTypeOf(res.headers);
  const ok = actual === (mediaType === null ? null : mediaType.toLowerCase());
  const show = (v: string | null) => (v === null ? 'no Content-Type' : v);
  return (ok ? pass : fail)(
    'media-type',
    'media-type',
    `media type ${show(actual)}${ok ? '' : `, expected ${show(mediaType)}`}`,
    {
      expected: mediaType,
      actual,
    },
  );
}

function emptyBodyCheck(emptyBody: boolean, res: IncomingResponse): Check {
  const empty = res.body.length === 0;
  const ok = empty === emptyBody;
  return (ok ? pass : fail)(
    'body',
    'body',
    emptyBody
      ? ok
        ? 'body is empty'
        : `body is not empty: ${short(res.body)}`
      : ok
        ? 'body is not empty'
        : 'body is empty',
    { expected: emptyBody ? '' : 'a body', actual: short(res.body, 200) },
  );
}

function textCheck(text: NonNullable<StepExpectations['text']>, res: IncomingResponse): Check {
  // equals, contains and matches are the rows of the operator table, judged on the body as a string
  const problems = failures(res.body, { ...text });
  return (problems.length ? fail : pass)(
    'text',
    'body',
    problems.length
      ? `body ${problems.join('; ')}`
      : `body text ${Object.entries(text)
          .map(([k, v]) => `${k} ${short(v)}`)
          .join(', ')}`,
    { expected: text, actual: short(res.body, 200) },
  );
}

/** the body against the named schema (for the agent's version), then the undocumented members it has */
function schemaChecks(
  schema: string,
  body: ParsedBody,
  res: IncomingResponse,
  agentVersion: string | null,
  undocumented?: UndocumentedHook,
): Check[] {
  if (body.jsonError)
    return [
      fail('schema', 'schema', `${schema}: ${body.jsonError}`, { expected: schema, actual: short(res.body, 200) }),
    ];
  const errors = validate(schema, body.json, agentVersion ?? undefined);
  const checks = [
    errors.length
      ? fail(
          'schema',
          'schema',
          `not a valid ${schema}: ${plural(errors.length, 'error')} (${errors
            .slice(0, 3)
            .map((x) => `${x.pointer || '/'} ${x.rule}`)
            .join(', ')}${errors.length > 3 ? ', …' : ''})`,
          { expected: schema, schemaErrors: errors },
        )
      : pass('schema', 'schema', `valid ${schema}${agentVersion ? ` (agent ${agentVersion})` : ''}`, {
          expected: schema,
        }),
  ];
  const judged = undocumented?.(schema, body.json);
  if (judged) checks.push(judged);
  return checks;
}

/** one check per assertion; the same assertion twice is numbered (#2) so each keeps its own id */
function assertChecks(
  asserts: NonNullable<StepExpectations['assert']>,
  body: ParsedBody,
  res: IncomingResponse,
): Check[] {
  const seen = new Map<string, number>();
  return asserts.map((a) => {
    const label = assertionLabel(a);
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    const name = `assert:${label}${n > 1 ? ` #${n}` : ''}`;
    if (!a.path.startsWith('header:') && body.jsonError)
      return cite(fail(name, 'assert', `${a.path || 'body'}: ${body.jsonError}`, { expected: a }), a.statements ?? []);
    const out = evaluate(a, body.json, res.headers);
    const check = (out.ok ? pass : fail)(name, 'assert', out.message, { expected: out.expected, actual: out.actual });
    return cite(check, a.statements ?? []);
  });
}

/** `capture`: each variable from its pointer into the body, written into `vars` */
function captureChecks(capture: Record<string, string>, body: ParsedBody, vars: Vars): Check[] {
  return Object.entries(capture).map(([variable, pointer]) => {
    const name = `capture:${variable}`;
    if (body.jsonError) return fail(name, 'capture', `cannot capture ${variable}: ${body.jsonError}`);
    const value = resolvePointer(body.json, pointer);
    if (value === MISSING || value === undefined)
      return fail(name, 'capture', `cannot capture ${variable}: nothing at ${pointer || '/'}`, { expected: pointer });
    vars[variable] = value;
    return pass(name, 'capture', `${variable} = ${short(value)}`, { actual: value });
  });
}

/** checks of `expect` (and `capture`, which writes into vars) for an exchange that has a response */
/** the ids a check cites: its own (`expect.statements`, an assertion's) and, for a schema check, the schema's */
function cite(check: Check, ids: string[]): Check {
  if (!ids.length) return check; // (most assertions cite nothing)
  const unique = [...new Set(ids)];
  return unique.length ? { ...check, statements: unique } : check;
}

/** each check with the statements it proves: a failing schema check breaks those its errors fall under */
function citing(checks: Check[], expect: StepExpectations | undefined): Check[] {
  const own = expect?.statements ?? [];
  return checks.map((c) => {
    if (c.kind === 'assert' || c.kind === 'capture') return c;
    if (c.kind !== 'schema' || !expect?.schema) return cite(c, own);
    const cited = cite(c, [...own, ...schemaStatements(expect.schema)]);
    if (c.verdict !== 'fail' || !c.schemaErrors) return cited;
    return {
      ...cited,
      breaks: [
        ...own,
        ...brokenStatements(
          expect.schema,
          c.schemaErrors.map((e) => e.pointer),
        ),
      ],
    };
  });
}

export function checkExchange(
  x: Exchange,
  expect: StepExpectations | undefined,
  capture: Record<string, string> | undefined,
  vars: Vars,
  agentVersion: string | null,
  undocumented?: UndocumentedHook,
): Check[] {
  if (expect?.unreachable) return citing([unreachableCheck(x)], expect);
  if (!x.response) {
    return [
      fail('request', 'request', `no response: ${x.error?.code ?? 'error'}: ${x.error?.message ?? 'unknown'}`, {
        expected: 'an HTTP response',
        actual: x.error?.code,
      }),
    ];
  }
  const res = x.response;
  const body = bodyOf(res);
  const e: StepExpectations = expect ?? {};
  const checks: Check[] = [];
  if (e.status !== undefined) checks.push(statusCheck(e.status, res));
  if (e.mediaType !== undefined) checks.push(mediaTypeCheck(e.mediaType, res));
  if (e.emptyBody !== undefined) checks.push(emptyBodyCheck(e.emptyBody, res));
  if (e.text) checks.push(textCheck(e.text, res));
  if (e.schema) checks.push(...schemaChecks(e.schema, body, res, agentVersion, undocumented));
  checks.push(...assertChecks(e.assert ?? [], body, res));
  checks.push(...captureChecks(capture ?? {}, body, vars));
  return citing(checks, expect);
}
