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

/** how many mappings and lists aliases of a YAML file may add to those written in it (a 400-byte bomb stood for
 * billions) */
export const MAX_ALIAS_VALUES = 100_000;
/** how deep a document read from a file may nest (recursive checks and comparisons stay within the stack) */
export const MAX_DEPTH = 1000;

/**
 * Why a parsed YAML document is too large to use, or undefined. js-yaml gives an alias the very object of its
 * anchor, so loading a bomb is cheap and every walk of it (validation, expansion, comparison) is not: the mappings
 * and lists it stands for are counted once per distinct object (linear in what was written), stopping past the bound.
 */
export function yamlTooLarge(doc: unknown): string | undefined {
  const counted = new Map<object, number>();
  const count = (node: unknown, depth: number): number => {
    if (node === null || typeof node !== 'object') return 0;
    if (depth > MAX_DEPTH) throw new RangeError(`nested deeper than ${MAX_DEPTH} levels`);
    const known = counted.get(node);
    if (known !== undefined) return known;
    counted.set(node, Infinity); // an alias of a node inside itself stands for an endless value
    let n = 1;
    for (const child of Object.values(node as object)) {
      n += count(child, depth + 1);
      if (n - counted.size > MAX_ALIAS_VALUES) break; // the bound is passed: the rest need not be counted
    }
    counted.set(node, n);
    return n;
  };
  try {
    if (count(doc, 0) - counted.size > MAX_ALIAS_VALUES)
      return `its YAML aliases stand for more than ${MAX_ALIAS_VALUES.toLocaleString('en-US')} mappings and lists beyond those written (an alias bomb?)`;
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return `nested deeper than ${MAX_DEPTH} levels`;
  }
  return undefined;
}

/** how many members (or items) one object (or array) of a recorded body may hold */
export const MAX_MEMBERS = 100_000;

/**
 * Why a JSON text is too large to use (nested deeper than MAX_DEPTH, an object or array of more than MAX_MEMBERS),
 * or undefined. A scan of the text, not a parse: it runs on every body of a cassette before anything parses one, so a
 * body nested 200,000 deep is one line, not a stack overflow (exit 3) in the first recursive walk of it. Brackets in
 * strings are skipped; text that is not JSON is scanned all the same (the bound is what matters).
 */
export function jsonTextTooLarge(text: string, maxMembers = MAX_MEMBERS): string | undefined {
  const commas: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: to its closing quote, escapes skipped
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x7b || c === 0x5b) {
      if (commas.push(0) > MAX_DEPTH) return `nested deeper than ${MAX_DEPTH} levels`;
    } else if (c === 0x7d || c === 0x5d) commas.pop();
    else if (c === 0x2c && commas.length && ++commas[commas.length - 1] >= maxMembers)
      return `an object or array of more than ${maxMembers.toLocaleString('en-US')} members`;
  }
  return undefined;
}
