// Where the spec's schemas define a member of an answer: the schema file that describes the object holding it,
// and the member's pointer within that file. One member of a shared schema (a file entry's numBlocks in the need
// list, the local changes and the prio answer) is then one cause, however many endpoints return it.
import { loadSchemas, type LoadedSchema } from '../schema/schema-files.js';
import { isNode, type Node } from '../schema/prune.js';

/** keywords whose subschemas apply to the same object: a member may be defined by any of them */
const IN_PLACE = ['allOf', 'anyOf', 'oneOf', 'if', 'then', 'else'];

interface Located {
  node: unknown;
  /** the $id of the file the node is in (relative $refs resolve against it) */
  base: string;
}

let byId: Map<string, LoadedSchema> | undefined;
const schemas = () => (byId ??= new Map(loadSchemas().map((s) => [s.id, s])));

/** follows the $refs of a node; `onFile` hears of each whole file entered */
function follow(at: Located, onFile: (name: string) => void = () => {}): Located {
  let { node, base } = at;
  for (let hops = 0; isNode(node) && typeof node.$ref === 'string' && hops < 20; hops++) {
    const [file, fragment = ''] = new URL(node.$ref, base).href.split('#');
    const target = schemas().get(file);
    if (!target) return { node: undefined, base };
    node = fragment
      .split('/')
      .slice(1)
      .reduce<unknown>(
        (n, seg) => (isNode(n) ? n[seg.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
        target.schema,
      );
    base = file;
    if (!fragment) onFile(target.name);
  }
  return { node, base };
}

/** the node and the subschemas applied in place with it, their $refs followed */
function alternatives(at: Located): Located[] {
  const here = follow(at);
  if (!isNode(here.node)) return [];
  const node = here.node;
  return [
    here,
    ...IN_PLACE.flatMap((k) => (Array.isArray(node[k]) ? node[k] : [node[k]]) as unknown[]).flatMap((sub) =>
      isNode(sub) ? alternatives({ node: sub, base: here.base }) : [],
    ),
  ];
}

/** the schema of a member (`*`: an array item or a map value) of the object or array at `at` */
function childOf(at: Located, segment: string): Located | undefined {
  for (const alt of alternatives(at)) {
    const n = alt.node as Node;
    const props = isNode(n.properties) ? n.properties : {};
    const patterns = isNode(n.patternProperties) ? Object.values(n.patternProperties) : [];
    const child =
      segment === '*'
        ? [n.items, n.additionalProperties, ...patterns].find(isNode)
        : (props[segment] ?? (isNode(n.additionalProperties) ? n.additionalProperties : undefined));
    if (child !== undefined) return { node: child, base: alt.base };
  }
  return undefined;
}

/**
 * The home of the object at `segments` (array items and map keys as `*`) in an answer of `resource`: the last
 * schema file entered on the way (through a whole-file $ref) and the object's pointer within it. Where the
 * schemas stop (a member they do not document), the rest of the pointer stays relative to the last file.
 */
export function homeOf(resource: string, segments: string[]): { schema: string; pointer: string } {
  const root = [...schemas().values()].find((s) => s.name === resource);
  if (!root) return { schema: resource, pointer: segments.map((s) => `/${s}`).join('') };
  let home = { schema: resource, from: 0 };
  let at: Located = { node: root.schema, base: root.id };
  for (let i = 0; ; i++) {
    at = follow(at, (name) => (home = { schema: name, from: i }));
    if (i === segments.length) break;
    const child = childOf(at, segments[i]);
    if (!child) break;
    at = child;
  }
  return {
    schema: home.schema,
    pointer: segments
      .slice(home.from)
      .map((s) => `/${s}`)
      .join(''),
  };
}
