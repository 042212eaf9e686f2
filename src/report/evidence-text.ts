// A check's evidence as plain text: the body of a JUnit <failure>, readable in any CI log viewer.
import type { CheckResult } from '../schema/generated/types.js';
import { showValue } from './text.js';

const headerLines = (h: Record<string, string> | undefined) =>
  Object.entries(h ?? {}).map(([k, v]) => `  ${k}: ${v}`);

export function evidenceText(check: CheckResult): string {
  const out: string[] = [check.message];
  const ev = check.evidence;
  if (ev?.request) {
    out.push('', `request: ${ev.request.method} ${ev.request.url}`, ...headerLines(ev.request.headers));
    if (ev.request.body !== undefined) out.push('request body:', ev.request.body);
  }
  if (ev?.error !== undefined) out.push('', `transport error: ${ev.error}`);
  if (ev?.attempts !== undefined) out.push(`attempts: ${ev.attempts}`);
  if (ev?.response) {
    out.push('', `status: ${ev.response.status}`, ...headerLines(ev.response.headers));
    if (ev.response.body !== undefined) {
      out.push(`body${ev.response.bodyTruncated ? ' (excerpt)' : ''}:`, ev.response.body);
    }
  }
  if (check.schemaErrors?.length) {
    out.push('', 'schema errors:');
    for (const e of check.schemaErrors) out.push(`  ${e.pointer || '/'} [${e.rule}]${e.known ? ' (known)' : ''}: ${e.message}`);
  }
  if (check.expected !== undefined) out.push('', 'expected:', showValue(check.expected));
  if (check.actual !== undefined) out.push('', 'actual:', showValue(check.actual));
  if (check.deviation) {
    out.push('', `known deviation: ${check.deviation.reason}`, `  observed: ${check.deviation.observed}`);
    if (check.deviation.file) out.push(`  listed in: ${check.deviation.file}`);
  }
  return out.join('\n');
}
