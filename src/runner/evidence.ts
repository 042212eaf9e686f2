// The evidence of a check: its exchange as the report shows it, every secret replaced by its placeholder and the
// bodies cut to an excerpt (the whole exchange is in the HAR the evidence points to). The runner and the proxy both
// attach it to the checks that do not pass.
import type { Evidence } from '../schema/generated/types.js';
import type { Exchange } from '../transport/types.js';
import type { Redactor } from '../transport/redact.js';

const BODY_EXCERPT = 4096;

export function evidenceOf(x: Exchange, r: Redactor): Evidence {
  const ev: Evidence = {
    request: { method: x.request.method, url: r.text(x.request.url), headers: r.headers(x.request.headers) },
  };
  if (x.request.body !== undefined) ev.request!.body = r.text(x.request.body).slice(0, BODY_EXCERPT);
  if (x.response) {
    const body = r.text(x.response.body);
    ev.response = {
      status: x.response.status,
      headers: r.headers(x.response.headers),
      body: body.slice(0, BODY_EXCERPT),
    };
    if (body.length > BODY_EXCERPT) ev.response.bodyTruncated = true;
  }
  if (x.error) ev.error = `${x.error.code}: ${x.error.message}`;
  if (x.har) ev.har = x.har;
  return ev;
}
