// A check's evidence as plain text: the body of a JUnit <failure>, readable in any CI log viewer.
import type { CheckResult } from '../schema/generated/types.js';
import { cut, showValue } from './text.js';

/** a CI log viewer gets the same bound as report.html */
const MAX = 20_000;

const headerLines = (h: Record<string, string> | undefined) => Object.entries(h ?? {}).map(([k, v]) => `  ${k}: ${v}`);

export function evidenceText(check: CheckResult): string {
  const out: string[] = [cut(check.message, 2000)];
  const ev = check.evidence;
  if (ev?.request) {
    out.push('', `request: ${ev.request.method} ${ev.request.url}`, ...headerLines(ev.request.headers));
    if (ev.request.body !== undefined) out.push('request body:', cut(ev.request.body, MAX));
  }
  if (ev?.error !== undefined) out.push('', `transport error: ${ev.error}`);
  if (ev?.attempts !== undefined) out.push(`attempts: ${ev.attempts}`);
  if (ev?.response) {
    out.push('', `status: ${ev.response.status}`, ...headerLines(ev.response.headers));
    if (ev.response.body !== undefined) {
      out.push(`body${ev.response.bodyTruncated ? ' (excerpt)' : ''}:`, cut(ev.response.body, MAX));
    }
  }
  if (check.schemaErrors?.length) {
    out.push('', 'schema errors:');
    for (const e of check.schemaErrors)
      out.push(`  ${e.pointer || '/'} [${e.rule}]${e.known ? ' (known)' : ''}: ${e.message}`);
  }
  if (check.expected !== undefined) out.push('', 'expected:', cut(showValue(check.expected), MAX));
  if (check.actual !== undefined) out.push('', 'actual:', cut(showValue(check.actual), MAX));
  if (check.deviation) {
    out.push('', `known deviation: ${check.deviation.reason}`, `  observed: ${check.deviation.observed}`);
    if (check.deviation.file) out.push(`  listed in: ${check.deviation.file}`);
  }
  return out.join('\n');
}
