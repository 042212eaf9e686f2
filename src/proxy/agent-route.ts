// A request as Syncthing will route it, for deciding what `drift --against` must never ask an agent again. The HAR
// holds a path still percent-encoded and a method as the client spelled it; the agent's Go server decodes the path
// (r.URL.Path: "%73hutdown" is "shutdown", "%2F" a "/"), its ServeMux and router (httprouter) clean it ("//", "/./",
// "/../" as path.Clean does) and redirect a path that differs in case or a trailing slash to the route, and Node's
// client sends the method in capitals ("post" goes out as POST, which Go compares exactly). So a request is judged
// on its path decoded and cleaned, case aside, and its method in capitals; a path that cannot be decoded is not
// judged at all (undecidable), and the caller does not ask it.

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

/** the method and path (WHATWG-serialised, as the request is sent) of a request as the agent routes it */
export function agentRoute(method: string, pathname: string): AgentRoute {
  if (!TOKEN.test(method)) return { undecidable: 'its method is no HTTP token' };
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { undecidable: 'its path holds an invalid percent escape' };
  }
  if (CONTROL.test(decoded)) return { undecidable: 'its path holds a control character once decoded' };
  return { method: method.toUpperCase(), path: cleanPath(decoded) };
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
];

/** why a request routed so must not be asked of an agent, or undefined */
export function neverAsked(route: Routed): string | undefined {
  return NEVER_ASKED.find(([methods, path]) => methods.test(route.method) && path.test(route.path))?.[2];
}
