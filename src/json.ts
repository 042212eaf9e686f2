// JSON pointers (RFC 6901) and JSON type names, shared by validation errors, assertions,
// captures, templates and drift.

/** what resolvePointer returns when a segment does not exist */
export const MISSING = Symbol('missing');

export const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
/** a segment of a JSON pointer as the key it names (~1 is /, ~0 is ~) */
export const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** the value at a JSON pointer ("" is the whole document; "/-1" the last array item), or MISSING */
export function resolvePointer(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  let node: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.includes('~') ? unescapePointer(raw) : raw; // (most segments have nothing to unescape)
    if (Array.isArray(node)) {
      const index = key === '-1' ? node.length - 1 : Number(key);
      if (!Number.isInteger(index) || index < 0 || index >= node.length) return MISSING;
      node = node[index];
    } else if (node !== null && typeof node === 'object' && Object.hasOwn(node, key)) {
      node = (node as Record<string, unknown>)[key];
    } else return MISSING;
  }
  return node;
}

/** the JSON Schema type name of a value; whole numbers are "integer" */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * How deep JSON text nests (arrays and objects), counted without parsing and stopping past `limit`: a body nested
 * 200,000 deep parses, but every recursive walk of it (schema validation, comparison, redaction) overflows the stack.
 * Text that is not JSON is counted all the same (brackets inside strings skipped): the limit is what matters.
 */
export function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** the deepest nesting of a body synconf checks: far beyond any Syncthing answer (under 10), far below the stack's */
export const MAX_NESTING = 1000;
