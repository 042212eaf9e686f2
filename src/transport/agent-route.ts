// A request as Syncthing will route it: for deciding what `drift --against` must never ask an agent again, and what
// `serve` answers (targetRoute). The HAR holds a path still percent-encoded and a method as the client spelled it; the
// agent's Go server decodes the path (r.URL.Path: "%73hutdown" is "shutdown", "%2F" a "/"), its ServeMux and router
// (httprouter) clean it ("//", "/./", "/../" as path.Clean does) and redirect a path that differs in case or a
// trailing slash to the route, and Node's client sends the method in capitals ("post" goes out as POST, which Go
// compares exactly). So a request is judged on its path decoded and cleaned, case aside, and its method in capitals; a
// path that cannot be decoded is not judged at all (undecidable), and the caller does not ask it.

export interface Routed {
  /** in capitals, as it is sent */
  method: string;
  /** decoded and cleaned, the case as written */
  path: string;
}

/** a route, or why the request cannot be told (it is not asked again) */
export type AgentRoute = Routed | { undecidable: string };

/** what makes a method a token, as HTTP (and Node's client, which refuses anything else) requires */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** C0 controls, DEL and C1 controls: no route holds one */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** `p` with empty, "." and ".." segments resolved as Go's path.Clean does on a rooted path (no trailing slash) */
function cleanPath(p: string): string {
  const segments: string[] = [];
  for (const s of p.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') segments.pop();
    else segments.push(s);
  }
  return '/' + segments.join('/');
}

/** a path decoded as Go's r.URL.Path holds it, or why it cannot be told */
function decodePath(pathname: string): { decoded: string } | { undecidable: string } {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { undecidable: 'its path holds an invalid percent escape' };
  }
  if (CONTROL.test(decoded)) return { undecidable: 'its path holds a control character once decoded' };
  return { decoded };
}

/** the method and path (WHATWG-serialised, as the request is sent) of a request as the agent routes it */
export function agentRoute(method: string, pathname: string): AgentRoute {
  if (!TOKEN.test(method)) return { undecidable: 'its method is no HTTP token' };
  const path = decodePath(pathname);
  if ('undecidable' in path) return path;
  return { method: method.toUpperCase(), path: cleanPath(path.decoded) };
}

/** A request target (its path and query as a client sent them) as the agent's Go server takes it, measured on 1.19.2,
 * 1.29.5 and 2.1.2: a `%` that starts no escape is 400 Bad Request before any handler; a path clean once decoded
 * is routed decoded (`/rest/%65vents` is the events); one that is not (`//`, a `.` or `..` segment, written or
 * escaped) is redirected to its cleaned form with the query, by the ServeMux when written so (`redirect:
 * 'written'`), by the router when escaped. A path whose decoding no route can hold (bad UTF-8, a control
 * character) is left as written: nothing routes it. */
export type TargetRoute =
  | { badRequest: true }
  | {
      /** decoded (as written when it cannot be) */
      path: string;
      /** the path and query as the recordings spell them (a recorded URL is WHATWG-serialised) */
      asRecorded: string;
      redirect?: { location: string; unclean: 'written' | 'escaped' };
    };

/** `p` cleaned as Go's ServeMux cleans it: path.Clean, the trailing slash kept */
const muxClean = (p: string) => {
  const clean = cleanPath(p);
  return p.endsWith('/') && clean !== '/' ? `${clean}/` : clean;
};

/** a decoded path written as a URL's path again ("%", "?", "#" and "\\" escaped, the rest as WHATWG writes it) */
export const encodedPath = (path: string) =>
  new URL(
    path.replace(/[%?#\\]/g, (c) => encodeURIComponent(c)),
    'http://agent',
  ).pathname;

export function targetRoute(target: string): TargetRoute {
  const at = target.indexOf('?');
  const written = at < 0 ? target : target.slice(0, at);
  const search = at < 0 ? '' : target.slice(at);
  if (/%(?![0-9A-Fa-f]{2})/.test(written)) return { badRequest: true };
  const decoded = decodePath(written);
  const path = 'decoded' in decoded ? decoded.decoded : written;
  const asRecorded = ('decoded' in decoded ? encodedPath(path) : written) + search;
  const clean = muxClean(path);
  if (clean === path) return { path, asRecorded };
  const unclean = muxClean(written) === written ? 'escaped' : 'written';
  return { path, asRecorded, redirect: { location: encodedPath(clean) + search, unclean } };
}

/** what each request never asked again would do to the agent, by method and routed path (any case: the router
 * redirects a path that differs in case alone) */
const NEVER_ASKED: [methods: RegExp, path: RegExp, why: string][] = [
  [/^POST$/, /^\/rest\/system\/(shutdown|restart|reset|upgrade)$/i, 'it would stop or reset the agent'],
  [
    /^(PUT|POST|PATCH|DELETE)$/,
    /^\/rest\/(system\/)?config$/i,
    "it would replace the agent's whole configuration with the old agent's",
  ],
  [
    /^(PUT|PATCH)$/,
    /^\/rest\/config\/gui$/i,
    "it would set the agent's GUI (its API key, address, user and password) to the old agent's",
  ],
  [/^PUT$/, /^\/rest\/config\/(devices|folders)$/i, "it would replace all the agent's devices or folders"],
  // a PUT of a section sets every member it does not hold to its default: measured on 2.1.2, a session's PUT of
  // /rest/config/options turned on global discovery, relays, crash and usage reporting and automatic upgrades, and
  // replaced the listen addresses; LDAP settings decide who may log in to the GUI
  [
    /^PUT$/,
    /^\/rest\/config\/(options|ldap)$/i,
    "it would replace all the agent's options (listen addresses, discovery, upgrades) or LDAP settings with the old agent's",
  ],
];

/** requests that change nothing of the agent though their method could: asked of any agent */
const HARMLESS_WRITES: [methods: RegExp, path: RegExp][] = [[/^POST$/, /^\/rest\/system\/ping$/i]];

/**
 * A request that would change an agent (its configuration, folders, devices, pauses, ignore files, errors, data):
 * every method but GET, HEAD and OPTIONS, less the harmless ones. Asked only of an agent synconf started, or when
 * the user said so (drift --allow-writes): synconf never rewrites what it did not create.
 */
export function changesAgent(route: Routed): boolean {
  if (['GET', 'HEAD', 'OPTIONS'].includes(route.method)) return false;
  return !HARMLESS_WRITES.some(([methods, path]) => methods.test(route.method) && path.test(route.path));
}

/** why a request routed so must not be asked of an agent, or undefined */
export function neverAsked(route: Routed): string | undefined {
  return NEVER_ASKED.find(([methods, path]) => methods.test(route.method) && path.test(route.path))?.[2];
}
