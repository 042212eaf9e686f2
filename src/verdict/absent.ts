// What an answer shows of an endpoint (METHOD path): absent is the router's 404, or a 405 whose Allow names only the
// path's other methods (DELETE /rest/cluster/pending/* on 1.13.0-1.17.x, where the path has a GET). The version gate
// (runner) and the boundary reader (matrix) judge "absent" by this one rule. A 404 from the endpoint's own handler
// (GET /rest/db/status without ?folder= answers 404 "no such folder") shows it present; a 405 without Allow, or whose
// Allow lists the method itself, does not show the path has another method, and shows nothing.

/** the router's answer to a path it has no route for (Go's mux) */
const ROUTER_404 = '404 page not found';

export interface Answer {
  status: number;
  /** response headers, names lower-case */
  headers?: Record<string, string>;
  body?: string;
}

/** the other methods the path answers when `method` is refused with 405 and Allow names them, else undefined */
export function otherMethods(method: string, a: Answer): string | undefined {
  if (a.status !== 405) return undefined;
  const allow = (a.headers?.['allow'] ?? '')
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter(Boolean);
  if (!allow.length || allow.includes(method.toUpperCase())) return undefined;
  return allow.join(', ');
}

/** true when the answer shows the endpoint absent: the router's 404, or a 405 naming the path's other methods */
export function showsAbsent(method: string, a: Answer): boolean {
  return (a.status === 404 && (a.body ?? '').trim() === ROUTER_404) || otherMethods(method, a) !== undefined;
}
