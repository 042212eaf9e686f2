// Text helpers shared by the writers. Every string in a report comes from the agent or from a
// scenario file, so it is treated as hostile: escaped for the target format and bounded in size.

const HTML_SPECIAL = /[&<>"']/;

/**
 * Escape for HTML text and for double- or single-quoted attribute values: each special character as `&#` and its
 * code. Replaced character by character, not by one pattern with a function, which is called for every match (JSON
 * values hold many quotes).
 */
export function escapeHtml(s: string): string {
  if (!HTML_SPECIAL.test(s)) return s;
  return s
    .replaceAll('&', '&#38;')
    .replaceAll('<', '&#60;')
    .replaceAll('>', '&#62;')
    .replaceAll('"', '&#34;')
    .replaceAll("'", '&#39;');
}

/**
 * The texts with `separator` between them, as join() gives them, but left as one concatenation: join copies every
 * text into a new string, and writing the file copies them all again (report.html's check lists take megabytes).
 */
export function concatenated(texts: readonly string[], separator: string): string {
  return texts.length ? texts.reduce((all, text) => all + separator + text) : '';
}

/** `s` cut to `max` characters, saying how much was left out */
export function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length - max} more characters)`;
}

/** whitespace (newlines included) collapsed to single spaces */
export function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** for a GitHub-flavoured Markdown table cell or list item: one line, no HTML, no table breaks */
export function escapeMarkdown(s: string): string {
  return oneLine(s)
    .replace(/[\\`*_[\]|]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** a JSON value as readable text (strings as themselves) */
export function showValue(v: unknown): string {
  if (typeof v === 'string') return v;
  return JSON.stringify(v, null, 2) ?? String(v);
}

/** seconds with millisecond precision, as JUnit wants it */
export function seconds(ms: number | undefined): string {
  return ((ms ?? 0) / 1000).toFixed(3);
}

/** a duration for a reader: "850 ms", "2.35 s", "61.2 s" */
export const duration = (ms: number) =>
  ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/** the agent's platform, e.g. linux/amd64, or null when unknown */
export function platform(agent: { os?: string | null; arch?: string | null }): string | null {
  const parts = [agent.os, agent.arch].filter((p): p is string => !!p);
  return parts.length ? parts.join('/') : null;
}

/** one line per undocumented member: `GET /rest/system/ping: undocumented member "extra"` */
export function noteLine(n: { endpoint: string; member: string; more?: number }): string {
  return `${n.endpoint}: undocumented member "${n.member}"${n.more ? ` (and ${n.more.toLocaleString('en-US')} more not listed)` : ''}`;
}
