// A scenario file read once, by js-yaml: its value, and where each of its nodes starts, so that an error can name
// the line of the offending node. js-yaml reports each node as it opens and closes (its `listener` option); the
// nodes form a tree in the order of the text, which lineAt walks beside the value. The tree has more than the
// value says (js-yaml reads a block node by first trying it as a mapping key, and nests that try), so each step
// of the walk is checked against the value, and stops at the deepest node that matches it.
// A text the build parsed (src/schema/built-yaml.ts) is parsed again only when a line is asked for (an error).
import { load, CORE_SCHEMA, type LoadOptions } from 'js-yaml';
import { InputError } from '../errors.js';
import { MAX_DEPTH, yamlTooLarge } from '../json.js';
import { parsedAtBuild } from '../schema/built-yaml.js';

/** a node as js-yaml composed it: where it opened and closed in the text, its kind, its value, its nodes in order */
interface SourceNode {
  open: number;
  close: number;
  kind: string | null;
  result: unknown;
  children: SourceNode[];
}

export interface LocatedYaml {
  data: unknown;
  /** the 1-based line of the node at a JSON pointer, or of its nearest existing parent */
  lineAt(pointer: string): number | undefined;
}

/**
 * `text` parsed with the YAML 1.2 core schema (dates stay strings); throws js-yaml's YAMLException. `data` is the
 * value the build parsed from it, looked up here unless the caller has it.
 */
export function loadLocated(text: string, filename: string, data: unknown = parsedAtBuild(text)): LocatedYaml {
  if (data === undefined) return parseLocated(text, filename);
  let located: LocatedYaml | undefined;
  return { data, lineAt: (pointer) => (located ??= parseLocated(text, filename)).lineAt(pointer) };
}

/** a YAML file too large to use once read: aliases that stand for too much, nesting too deep (docs/scenario-format.md) */
export class YamlTooLargeError extends InputError {
  override name = 'YamlTooLargeError';
}

/**
 * `text` parsed by js-yaml with `options`, within the bounds of every YAML file synconf reads: a YamlTooLargeError
 * (one line, exit 2) for an alias bomb or a nesting js-yaml's recursion cannot take, before anything walks the value.
 */
export function loadBounded(text: string, options: LoadOptions): unknown {
  let data: unknown;
  try {
    data = load(text, options);
  } catch (e) {
    if (e instanceof RangeError) throw new YamlTooLargeError(`nested deeper than ${MAX_DEPTH} levels`);
    throw e;
  }
  const problem = yamlTooLarge(data);
  if (problem) throw new YamlTooLargeError(problem);
  return data;
}

function parseLocated(text: string, filename: string): LocatedYaml {
  const root: SourceNode = { open: 0, close: 0, kind: null, result: undefined, children: [] };
  const opened = [root];
  let input = text; // js-yaml's copy: without a byte order mark, with a final line break
  const data = loadBounded(text, {
    schema: CORE_SCHEMA,
    filename,
    listener: (event, state) => {
      input = state.input;
      if (event === 'open') {
        const node = { open: state.position, close: state.position, kind: null, result: undefined, children: [] };
        opened[opened.length - 1].children.push(node);
        opened.push(node);
      } else Object.assign(opened.pop()!, { close: state.position, kind: state.kind, result: state.result });
    },
  });
  return { data, lineAt: (pointer) => lineAt(input, root.children[0], pointer) };
}

function lineAt(input: string, doc: SourceNode | undefined, pointer: string): number | undefined {
  if (!doc) return undefined;
  const keys = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node = doc;
  for (const key of keys) {
    const parent = unwrap(node);
    const child =
      parent.kind === 'sequence'
        ? parent.children[Number(key)]
        : parent.kind === 'mapping'
          ? valueNode(input, parent, key)
          : undefined;
    if (!child || unwrap(child).result !== (parent.result as Record<string, unknown>)[key]) break;
    node = child;
  }
  return lineOf(input, node);
}

/** the node that holds the value: js-yaml's try of a block node as a mapping key nests one node in another */
function unwrap(node: SourceNode): SourceNode {
  let inner = node;
  while (inner.children.length === 1 && inner.children[0].result === inner.result) inner = inner.children[0];
  return inner;
}

/** the value of `key` in a mapping node: a node that follows a `:` is the value of the key node before it */
function valueNode(input: string, mapping: SourceNode, key: string): SourceNode | undefined {
  const nodes = mapping.children;
  const at = nodes.findIndex(
    (n, i) => !followsColon(input, n) && String(unwrap(n).result) === key && followsColon(input, nodes[i + 1]),
  );
  return at < 0 ? undefined : nodes[at + 1];
}

function followsColon(input: string, node: SourceNode | undefined): boolean {
  if (!node) return false;
  let at = node.open - 1;
  while (input[at] === ' ' || input[at] === '\t') at--;
  return input[at] === ':';
}

/** the line where a node's content starts: a value opens before the space, comments, anchor and tag in front of
 * it; an empty value is on the line where it opened, its key's */
function lineOf(input: string, node: SourceNode): number {
  let at = node.open;
  for (;;) {
    while (/[ \t\r\n]/.test(input[at] ?? '')) at++;
    if (input[at] === '#') while (at < input.length && input[at] !== '\n') at++;
    else if (input[at] === '&' || input[at] === '!') while (at < input.length && !/[ \t\r\n]/.test(input[at])) at++;
    else break;
  }
  if (at >= node.close) at = node.open;
  let line = 1;
  for (let i = input.indexOf('\n'); i >= 0 && i < at; i = input.indexOf('\n', i + 1)) line++;
  return line;
}
