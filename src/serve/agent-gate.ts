// What Syncthing's GUI server does before any handler, which recordings do not hold (a client of synconf never sends
// it), played by serve as the agent does it, so a client that works against serve works against the agent:
//  - the Host check (localhostMiddleware): on a loopback address, a request whose Host is not localhost or a loopback
//    IP is 403 "Host check error" (DNS rebinding); outermost, before CORS and the API key
//  - CORS (corsMiddleware): an OPTIONS preflight is 204 with the allowed methods and headers, without a key
//  - GET /rest/noauth/health: {"status": "OK"}, without a key
//  - the API key as `Authorization: Bearer <key>` as well as X-API-Key
//  - a path the agent cannot read (400) or redirects to its cleaned form (transport/agent-route.ts), or to the route
//    it differs from in case or by a trailing slash (fixed-path.ts)
import { isIP } from 'node:net';
import gte from 'semver/functions/gte.js';
import coerce from 'semver/functions/coerce.js';
import type { IncomingResponse } from '../transport/types.js';
import type { TargetRoute } from '../transport/agent-route.js';

const TEXT = 'text/plain; charset=utf-8';

/** localhost, *.localhost or a loopback IP, with or without a port (Syncthing's addressIsLocalhost) */
export function isLocalhost(hostHeader: string): boolean {
  let host = hostHeader.toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (bracketed) host = bracketed[1];
  else if (/^[^:]+:\d+$/.test(host)) host = host.slice(0, host.lastIndexOf(':'));
  if (host === 'localhost' || host === 'localhost.' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

/** the agent's own answer to a request no recording needs to hold; undefined when the recordings answer it */
export function gateAnswer(
  method: string,
  path: string,
  host: string | undefined,
  onLoopback: boolean,
): IncomingResponse | undefined {
  if (onLoopback && !isLocalhost(host ?? ''))
    return {
      status: 403,
      headers: { 'content-type': TEXT, 'x-content-type-options': 'nosniff' },
      body: 'Host check error\n',
    };
  if (method === 'OPTIONS')
    return {
      status: 204,
      headers: {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': 'Content-Type, X-API-Key',
        'access-control-max-age': '600',
      },
      body: '',
    };
  if (method === 'GET' && path === '/rest/noauth/health')
    return {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ status: 'OK' }, null, 2) + '\n',
    };
  return undefined;
}

/** the key a client sends, as X-API-Key or as a Bearer token (the agent takes either) */
export function sentKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const key = headers['x-api-key'];
  if (typeof key === 'string') return key;
  const auth = headers.authorization;
  const bearer = typeof auth === 'string' ? /^Bearer (.+)$/i.exec(auth)?.[1] : undefined;
  return bearer?.trim();
}

/** Go's server on a request target whose path holds a % that starts no escape (before any handler) */
export const BAD_REQUEST: IncomingResponse = {
  status: 400,
  headers: { 'content-type': TEXT, connection: 'close' },
  body: '400 Bad Request',
};

/** the builds recorded from 1.30.0 on (Go 1.26) redirect with 307 where 1.29.5 and older (Go 1.24 and older) say 301 */
const newerGo = (version: string | undefined) => {
  const v = version === undefined ? null : coerce(version);
  return v !== null && gte(v, '1.30.0');
};

/** Go's redirect of a path that is not clean to its cleaned form (http.Redirect: a small HTML body for GET and HEAD),
 * with the status the recorded builds answer: 301, from 1.30.0 on 307 for a path written unclean (the ServeMux) or
 * a method other than GET escaped unclean (the router); measured on 1.19.2, 1.29.5 and 2.1.2 */
export function redirectAnswer(
  method: string,
  redirect: NonNullable<Extract<TargetRoute, { path: string }>['redirect']>,
  agentVersion: string | undefined,
): IncomingResponse {
  const temporary = newerGo(agentVersion) && (redirect.unclean === 'written' || method !== 'GET');
  return goRedirect(method, redirect.location, temporary ? 307 : 301);
}

/** the router's redirect of a path that differs from a route in case or by a trailing slash: 301 for GET, 307 for
 * any other method (httprouter's RedirectFixedPath and RedirectTrailingSlash), in every measured version */
export const routerRedirect = (method: string, location: string): IncomingResponse =>
  goRedirect(method, location, method === 'GET' ? 301 : 307);

/** Go's http.Redirect: the Location, and a small HTML body for GET and HEAD */
function goRedirect(method: string, location: string, status: 301 | 307): IncomingResponse {
  const text = status === 307 ? 'Temporary Redirect' : 'Moved Permanently';
  const headers = { location };
  if (method !== 'GET' && method !== 'HEAD') return { status, headers, body: '' };
  const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };
  const href = location.replace(/[&<>"']/g, (c) => escapes[c]);
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
    body: `<a href="${href}">${text}</a>.\n\n`,
  };
}
