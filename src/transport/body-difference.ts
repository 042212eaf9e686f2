// Where two request bodies first differ, in words, for a miss of replay or serve: "body differs at /folders/0/path:
// sent "/tmp/b" vs recorded "/tmp/a"" (JSON: the first JSON pointer whose values differ) or "at character 112: …"
// (text), each side a short excerpt, its control characters escaped (printable.ts); the two excerpts start where the
// bodies part, not at their (equal) beginnings. The bodies given are redacted already (the key, a learnt password); a
// member or a text parameter whose name says it holds a credential is shown as <REDACTED> whatever it holds. Without
// `echo` (a stranger's request to serve: its answer, log and terminal must not repeat it) the sent side is described,
// never quoted: "a string of 11 characters".

import { printableLine } from '../printable.js';

/** characters of each excerpt: enough to tell the bodies apart in one line */
const EXCERPT = 40;
/** a member name that holds a credential (as a header's or a query parameter's name is read, redact.ts) */
const CREDENTIAL_MEMBER = /apikey|token|secret|passw(or)?d|credential|authori[sz]ation|cookie/;

const parsed = (text: string): { json: unknown } | undefined => {
  try {
    return text ? { json: JSON.parse(text) } : undefined;
  } catch {
    return undefined;
  }
};

const escapeSegment = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';

/** the pointer of the first place two JSON values differ (a member missing on one side, another value) */
function firstDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (!isObject(a) || !isObject(b) || Array.isArray(a) !== Array.isArray(b))
    return JSON.stringify(a) === JSON.stringify(b) ? undefined : at;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const k of keys) {
    if (!(k in a) || !(k in b)) return `${at}/${escapeSegment(k)}`;
    const inner = firstDifference(a[k], b[k], `${at}/${escapeSegment(k)}`);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

function valueAt(doc: unknown, pointer: string): string {
  let node = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const k = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) || !(k in node)) return '(missing)';
    node = node[k];
  }
  return JSON.stringify(node);
}

const cut = (text: string) => (text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text);
const quoted = (text: string) => (text === '(missing)' || text === '(none)' ? text : `"${printableLine(cut(text))}"`);

/** a credential's value in text ("password=…", "token: …"), up to the next separator */
const CREDENTIAL_IN_TEXT =
  /((?:api[-_]?key|token|secret|passw(?:or)?d|credential|authori[sz]ation|cookie)\W{0,3}[=:]\W{0,3})[^\s&;,"']+/gi;

/** the excerpt of a text body from a little before `offset` */
const around = (text: string, offset: number) => {
  let from = Math.max(0, offset - 10);
  // not from inside a placeholder: "…<REDACTED>&x=2", never "…DACTED>&x=2"
  const placeholder = text.lastIndexOf('<REDACTED>', from);
  if (placeholder >= 0 && placeholder + '<REDACTED>'.length > from) from = placeholder;
  return `${from ? '…' : ''}${text.slice(from, from + EXCERPT)}`;
};

/** a value of the sent body without its content: what kind of value, how long */
function described(json: string): string {
  if (json === '(missing)' || json === '(none)') return json;
  const value: unknown = JSON.parse(json);
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  return value === null ? 'null' : `${typeof value === 'object' ? 'an object' : `a ${typeof value}`}`;
}

/** where `sent` first differs from `recorded`, with a short excerpt of each (of the sent one only with `echo`) */
export function bodyDifference(sent: string, recorded: string, echo: boolean): string {
  const [a, b] = [parsed(sent), parsed(recorded)];
  if (a && b) {
    const pointer = firstDifference(a.json, b.json) ?? '';
    const secret = pointer.split('/').some((s) => CREDENTIAL_MEMBER.test(s.toLowerCase().replace(/[-_\s]/g, '')));
    const show = (doc: unknown, ours: boolean) => {
      const value = valueAt(doc, pointer);
      if (secret && value !== '(missing)') return '<REDACTED>';
      // a JSON value is shown as its JSON text (a string in its quotes)
      return ours || echo ? printableLine(cut(value)) : described(value);
    };
    return `body differs at ${pointer || '/ (the whole body)'}: sent ${show(a.json, false)} vs recorded ${show(b.json, true)}`;
  }
  // a credential's value is masked before the texts are compared: no excerpt can start inside one
  const [x, y] = [sent, recorded].map((t) => t.replace(CREDENTIAL_IN_TEXT, '$1<REDACTED>'));
  let offset = 0;
  while (offset < x.length && x[offset] === y[offset]) offset++;
  const excerpt = (text: string) => (text ? quoted(around(text, offset)) : '(none)');
  const ours = echo || !x ? excerpt(x) : `a body of ${Buffer.byteLength(sent)} bytes`;
  return `body differs at character ${offset}: sent ${ours} vs recorded ${excerpt(y)}`;
}
