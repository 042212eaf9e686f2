// A recorded client session judged again, offline: every entry of its HAR through a fresh proxy session, in order, as
// the proxy judged it when the client's exchanges passed. `synconf mutate --proxy-session` scores the proxy's checks
// with it (the session as recorded, then with each statement of the spec broken in its answers).
import type { CheckResult, HarEntry } from '../schema/generated/types.js';
import { fromEntry } from '../transport/cassette.js';
import { Redactor } from '../transport/redact.js';
import { ProxySession } from './session.js';
import type { ResourceDeviations } from './deviations.js';
import type { ExchangeNote } from './forward.js';

export interface SessionOf {
  agentVersion: string | null;
  deviations: ResourceDeviations;
  /** the HAR file, as the checks' evidence names it */
  harFile: string;
}

/** the request of a recorded entry, as the client sent it (path and query, headers, body) */
function requestOf(e: HarEntry) {
  const url = new URL(e.request.url);
  return {
    target: 'agent',
    method: e.request.method,
    url: url.pathname + url.search,
    headers: Object.fromEntries(e.request.headers.map((h) => [h.name, h.value])),
    ...(e.request.postData ? { body: e.request.postData.text } : {}),
    timeoutMs: 0,
  };
}

/** what the proxy did to a recorded exchange beyond forwarding it, as its entry says (none: forwarded whole) */
export function noteOf(e: HarEntry): ExchangeNote | undefined {
  // a HAR of a proxy before the notes were kept names only its own answers (_refused)
  const kind = e._note ?? (e._refused === undefined ? undefined : 'spec-refused');
  return kind && { kind, text: e._refused ?? e.comment ?? kind };
}

/** every check the proxy makes of the session's entries (none folded), the end of the session included */
export function judgeSession(entries: HarEntry[], of: SessionOf): CheckResult[] {
  const checks: CheckResult[] = [];
  const session = new ProxySession({
    agentVersion: of.agentVersion,
    deviations: of.deviations,
    redactor: new Redactor(), // the entries are redacted already
    apiKey: undefined,
    harFile: of.harFile,
    onEntry: () => {},
    onChecks: (made) => checks.push(...made),
  });
  // an exchange the proxy cut, refused or saw dropped as recorded is judged as it was then: its answer not blamed
  for (const e of entries) session.judge(fromEntry(e, requestOf(e)), noteOf(e));
  session.finish();
  return checks;
}
