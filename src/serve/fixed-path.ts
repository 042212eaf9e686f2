// The agent's router (httprouter, its RedirectFixedPath and RedirectTrailingSlash) on a path it has no route for:
// when the method has a route that differs from the path in case alone or by a trailing slash, it redirects there
// (agent-gate.ts routerRedirect: GET 301, any other method 307, the query kept); else its 404. A method with no
// route there (POST /rest/System/Status) is 404, not redirected. Measured on 1.19.2, 1.29.5 and 2.1.2 with curl
// --path-as-is (tests/serve-routes.test.ts). The router serves /rest/ only (the ServeMux before it matches that prefix
// as written: /REST/... is 404). serve knows the routes of a version by what its recordings show the router took (a
// method on a path answered with anything but the router's 404 page or 405) and, with --stateful, the state's rows.
// A parameter segment (a folder's or device's ID) keeps the client's spelling, as the router keeps it.
import type { HarEntry } from '../schema/generated/types.js';

/** the agent's routes with a parameter: the segment after these is an ID, any spelling */
const PARAM_ROUTE = /^(\/rest\/config\/(?:folders|devices)\/)[^/]+$/;
const PARAM = ':id';
/** what the router answers a path it has no route for (the agent's 404 page) */
const NOT_FOUND_PAGE = '404 page not found\n';

const templateOf = (path: string) => path.replace(PARAM_ROUTE, `$1${PARAM}`);
/** the router's part of the path space, as the ServeMux hands it over */
const ROUTER_PREFIX = '/rest/';
const segments = (path: string) => path.split('/');

/** whether `path` is `route` (a template), segment by segment; `fold`: case aside */
function fits(route: string[], path: string[], fold: boolean): boolean {
  if (route.length !== path.length) return false;
  return route.every((r, i) =>
    r === PARAM ? path[i] !== '' : fold ? r.toLowerCase() === path[i].toLowerCase() : r === path[i],
  );
}

export class RouteTable {
  /** by method, the route templates the recordings show, split in segments */
  private readonly routes = new Map<string, string[][]>();

  private readonly seen = new Set<string>();

  /** `extra`: routes the stand-in answers beyond the recordings (the state's rows), as METHOD and path */
  constructor(entries: HarEntry[], extra: { method: string; path: string }[] = []) {
    for (const e of entries) {
      const { status, content } = e.response;
      if (status === 405 || (status === 404 && content.text === NOT_FOUND_PAGE) || e._error) continue;
      this.add(e.request.method, new URL(e.request.url).pathname);
    }
    for (const { method, path } of extra) this.add(method, path);
  }

  private add(method: string, pathname: string): void {
    const path = templateOf(pathname);
    if (!path.startsWith(ROUTER_PREFIX) || this.seen.has(`${method} ${path}`)) return;
    this.seen.add(`${method} ${path}`);
    this.routes.set(method, [...(this.routes.get(method) ?? []), segments(path)]);
  }

  /** the route a path the method has no route for is redirected to (the ID as the client spelt it), or undefined:
   * the path is a route, or none fits it */
  fixedPath(method: string, path: string): string | undefined {
    if (!path.startsWith(ROUTER_PREFIX)) return undefined;
    const routes = this.routes.get(method) ?? [];
    const asked = segments(path);
    if (routes.some((r) => fits(r, asked, false))) return undefined;
    const trimmed = path.length > 1 && path.endsWith('/') ? segments(path.slice(0, -1)) : asked;
    const route = routes.find((r) => fits(r, trimmed, true));
    return route?.map((r, i) => (r === PARAM ? trimmed[i] : r)).join('/');
  }
}
