// The agent's answer to a request of the spec, judged with the runner's own one-exchange checks (status, media type,
// empty body, the resource's schema for the agent's version, and the statements each cites): the expectations are
// made from the catalog (schemas/endpoints.json: the response resource, `answers` per status) instead of a scenario.
import type { StepExpectations } from '../schema/generated/types.js';
import { checkExchange, type Check } from '../runner/exchange-checks.js';
import type { EndpointEntry } from '../schema/endpoints.js';
import type { Exchange } from '../transport/types.js';
import { missingSince } from '../runner/endpoint-gates.js';
import { absenceCheckName } from './deviations.js';

/**
 * What the spec expects of an answer with this status, or undefined when it says nothing: the spec shows no error
 * statuses but those it names (`answers`), so a 4xx (a refused key, an unknown folder) is not judged; a 5xx or a 2xx
 * other than 200 on a request that conforms is against the statements of the success answer.
 */
export function expectationsFor(endpoint: EndpointEntry, status: number): StepExpectations | undefined {
  const named = endpoint.answers?.[String(status)];
  const success = endpoint.answers?.['200']?.statements ?? endpoint.existsStatements;
  if (status === 200)
    return {
      ...(endpoint.response ? { schema: endpoint.response } : {}),
      ...(named?.emptyBody !== undefined ? { emptyBody: named.emptyBody } : {}),
      ...(named?.mediaType !== undefined ? { mediaType: named.mediaType } : {}),
      ...(success ? { statements: success } : {}),
    };
  if (named)
    return {
      status,
      ...(named.emptyBody !== undefined ? { emptyBody: named.emptyBody } : {}),
      ...(named.mediaType !== undefined ? { mediaType: named.mediaType } : {}),
      statements: named.statements,
    };
  if (status >= 500 || (status >= 200 && status < 400)) {
    const allowed = [200, ...Object.keys(endpoint.answers ?? {}).map(Number)].filter(
      (s, i, all) => all.indexOf(s) === i,
    );
    return {
      status: allowed.length === 1 ? 200 : (allowed as [number, ...number[]]),
      ...(success ? { statements: success } : {}),
    };
  }
  return undefined;
}

/** Go's router's answer to a path it has no handler for (a handler's own 404, "no such folder", says otherwise) */
const ROUTER_404 = '404 page not found';

/**
 * An endpoint of the spec the agent answered with its router's 404: the agent's version lacks it. Against the spec
 * (which describes the path) unless the version gate says the agent predates it and the spec names no statement of
 * the path's existence, as `synconf run` judges the same answer (its status check, or its "exists" check).
 */
function absentCheck(endpoint: EndpointEntry, agentVersion: string | null): Check {
  const since = missingSince(agentVersion, endpoint.id);
  const cites = endpoint.existsStatements ?? (since ? [] : (endpoint.answers?.['200']?.statements ?? []));
  const agent = agentVersion ?? 'of unknown version';
  const gated = since ? ` (added in ${since}; the agent predates it)` : '';
  const absent = `${endpoint.id} is absent on agent ${agent} (its router's "${ROUTER_404}")`;
  const expected = since && !cites.length;
  return blameAgent({
    name: absenceCheckName(endpoint.id),
    kind: 'version-gate',
    verdict: expected ? 'pass' : 'fail',
    message: expected ? `${absent}, as expected before ${since}` : `${absent}${gated}: the spec describes the path`,
    expected: expected ? 404 : 'not 404',
    actual: 404,
    ...(cites.length ? { statements: cites } : {}),
  });
}

/** the answer's checks (none when the spec says nothing of its status); each failing one is the agent's */
export function checkAnswer(x: Exchange, endpoint: EndpointEntry, agentVersion: string | null): Check[] {
  // a long poll open across a restart: what came of the answer is no answer to judge, and no fault seen
  if (x.error?.code === 'aborted')
    return [
      {
        name: 'answer',
        kind: 'request',
        verdict: 'skip',
        message: `cannot tell: ${x.error.message} (the client's answer was broken off the same way)`,
      },
    ];
  if (!x.response) return checkExchange(x, undefined, undefined, {}, agentVersion).map(blameAgent);
  if (x.response.status === 404 && x.response.body.trim() === ROUTER_404) return [absentCheck(endpoint, agentVersion)];
  const expect = expectationsFor(endpoint, x.response.status);
  if (!expect) return [];
  return checkExchange(x, expect, undefined, {}, agentVersion).map(blameAgent);
}

const blameAgent = (c: Check): Check => (c.verdict === 'fail' ? { ...c, blame: 'agent' } : c);
