// A client's request against the spec: the endpoint and its method, the query parameters the spec requires or
// forbids, the body's shape. What the spec says of requests is data in schemas/endpoints.json (`request`); a request
// against it is the client's fault, so every failing check here is blamed on the client.
import type { Check } from '../runner/exchange-checks.js';
import { parseBody } from '../runner/exchange-checks.js';
import { loadEndpoints, type EndpointEntry } from '../schema/endpoints.js';
import { validate, short } from '../schema/registry.js';
import { brokenStatements } from '../schema/schema-statements.js';

const JSON_BODIES = 'endpoints.json-bodies';

/** where a request stands: an endpoint of the spec (judged), a method the agent has beyond it, a path it does not name */
export type Scope = 'spec' | 'beyond-spec' | 'outside-spec' | 'not-rest';

export interface RequestVerdict {
  scope: Scope;
  /**
   * the catalog entry the request is judged by (scope spec), the path's first entry (a method not in the spec), or
   * the entry of a path the spec never names (outside the spec, not judged: its polls of /rest/events are watched)
   */
  endpoint?: EndpointEntry;
  checks: Check[];
}

export interface ClientRequest {
  method: string;
  /** path and query as the client sent them */
  url: string;
  body?: string;
}

let byPath: Map<string, EndpointEntry[]> | undefined;
function entriesOf(path: string): EndpointEntry[] {
  byPath ??= loadEndpoints().reduce((m, e) => m.set(e.path, [...(m.get(e.path) ?? []), e]), new Map());
  return byPath.get(path) ?? [];
}

const check = (
  name: string,
  ok: boolean,
  message: string,
  statements: string[],
  extra: Partial<Check> = {},
): Check => ({
  name,
  kind: 'request',
  verdict: ok ? 'pass' : 'fail',
  message,
  statements,
  ...(ok ? {} : { blame: 'client' as const }),
  ...extra,
});

/** the parameters: each the spec requires is there; none where the spec says "No parameters" */
function queryChecks(e: EndpointEntry, params: URLSearchParams): Check[] {
  const out: Check[] = [];
  for (const [name, rule] of Object.entries(e.request?.query ?? {})) {
    if (!rule.required) continue;
    const given = params.get(name);
    out.push(
      check(
        `request:query ${name}`,
        given !== null && given !== '',
        given === null
          ? `the client's request lacks the query parameter ${name}, which ${e.id} requires`
          : given === ''
            ? `the client's request gives ${name} empty; ${e.id} requires a value`
            : `query parameter ${name} given`,
        rule.statements,
        { expected: name, actual: given },
      ),
    );
  }
  if (e.request?.noQuery) {
    const names = [...new Set(params.keys())];
    out.push(
      check(
        'request:no parameters',
        names.length === 0,
        names.length
          ? `the client's request has query parameter(s) ${names.join(', ')}; ${e.id} takes no parameters`
          : 'no query parameters',
        e.request.noQuery,
        { actual: names },
      ),
    );
  }
  return out;
}

/** the body: empty where the spec says so, else valid against the request body's schema */
function bodyChecks(e: EndpointEntry, body: string | undefined): Check[] {
  const rule = e.request?.body;
  if (!rule) return [];
  const text = body ?? '';
  if (rule.empty)
    return [
      check(
        'request:body',
        text.trim() === '',
        text.trim() === ''
          ? 'empty request body'
          : `the client's request has a body (${short(text)}); ${e.id} takes none`,
        rule.statements,
      ),
    ];
  if (!rule.schema) return [];
  const parsed = parseBody(text);
  // "Bodies are JSON unless stated": a body that is not JSON breaks that before any statement of its shape
  if (parsed.jsonError)
    return [
      check(
        'request:body',
        false,
        `the client's request body: ${parsed.jsonError}`,
        [JSON_BODIES, ...rule.statements],
        {
          breaks: [JSON_BODIES],
        },
      ),
    ];
  const errors = validate(rule.schema, parsed.json);
  return [
    check(
      'request:body',
      errors.length === 0,
      errors.length
        ? `the client's request body is not a valid ${rule.schema}: ${errors
            .slice(0, 3)
            .map((x) => `${x.pointer || '/'} ${x.rule}`)
            .join(', ')}`
        : `valid ${rule.schema} request body`,
      rule.statements,
      errors.length
        ? {
            schemaErrors: errors,
            breaks: brokenStatements(
              rule.schema,
              errors.map((e) => e.pointer),
            ),
          }
        : {},
    ),
  ];
}

/** the request judged: its scope and, for an endpoint of the spec, one check per rule the spec gives */
export function checkRequest(req: ClientRequest): RequestVerdict {
  const url = new URL(req.url, 'http://proxy');
  if (!url.pathname.startsWith('/rest/')) return { scope: 'not-rest', checks: [] };
  const entries = entriesOf(url.pathname);
  if (!entries.length) return { scope: 'outside-spec', checks: [] };
  const method = req.method.toUpperCase();
  const endpoint = entries.find((e) => e.method === method);
  if (!endpoint) {
    const main = entries.find((e) => e.request) ?? entries[0];
    if (main.request?.beyondSpec?.includes(method as 'GET'))
      return { scope: 'beyond-spec', endpoint: main, checks: [] };
    // a related path the spec names without its shape (GET only) says nothing of other methods
    if (!main.request) return { scope: 'outside-spec', checks: [] };
    const allowed = entries.map((e) => e.method).join(' or ');
    const statement = main.request.methodStatement;
    return {
      scope: 'spec',
      endpoint: main,
      checks: [
        check('request:method', false, `the client sent ${method} to ${url.pathname}, which takes ${allowed}`, [
          statement,
        ]),
      ],
    };
  }
  // a path the spec never names (Syncthing's events and version): outside it, its entry kept for the events watch
  if (endpoint.unnamed) return { scope: 'outside-spec', endpoint, checks: [] };
  const checks = endpoint.request
    ? [
        check('request:method', true, `${endpoint.id}`, [endpoint.request.methodStatement]),
        ...queryChecks(endpoint, url.searchParams),
        ...bodyChecks(endpoint, req.body),
      ]
    : [];
  return { scope: 'spec', endpoint, checks };
}
