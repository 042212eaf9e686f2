// The shape statements a schema proves: schemas/ annotate the nodes that say what a spec statement says with
// `x-statement` (an id of spec/statements.yaml, or a list of them), so the schemas stay the one source of shapes and
// a schema check cites the statements of every node it reaches, across `$ref`s. `npm run gen` strips the keyword
// from the generated validators (src/schema/prune.ts); this module reads the schema files themselves, once each.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMAS_DIR } from '../paths.js';
import { unescapePointer } from '../json.js';

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** one `x-statement` annotation: where it stands and the ids it gives */
export interface StatementAnnotation {
  file: string;
  pointer: string;
  ids: string[];
}

const files = new Map<string, Node>();
function schemaFile(file: string, dir: string): Node {
  const key = join(dir, file);
  let schema = files.get(key);
  if (!schema) {
    schema = JSON.parse(readFileSync(key, 'utf8')) as Node;
    files.set(key, schema);
  }
  return schema;
}

const idsOf = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [];

function at(root: Node, pointer: string): unknown {
  let node: unknown = root;
  for (const part of pointer.split('/').slice(1)) node = isNode(node) ? node[unescapePointer(part)] : undefined;
  return node;
}

/** where in a document a schema keyword leads: a member (`properties`), any item or member (`*`), or nowhere new */
function step(keyword: string, name: string | undefined): string | undefined {
  if (keyword === 'properties') return name === undefined ? undefined : `/${escape(name)}`;
  if (keyword === 'patternProperties') return '/*';
  if (['items', 'additionalProperties', 'prefixItems', 'contains', 'unevaluatedProperties'].includes(keyword))
    return '/*';
  return '';
}

/** a statement reached by a schema, and the document pointers (`*`: any segment) its node judges */
export interface ReachedStatement {
  id: string;
  at: string[];
}

/** every annotation reachable from `file` (following `$ref`s into other files), with the document paths it judges */
function reachable(file: string, dir: string): ReachedStatement[] {
  const out = new Map<string, Set<string>>();
  // the document paths each schema node was visited at: a node is reached once per path ($refs may cycle). Nodes
  // are told apart by identity: each file is parsed once (schemaFile), so a node is one object wherever it is reached.
  const seen = new Map<Node, Set<string>>();
  /** `depth`: the segments of `doc` (at most 12 are followed) */
  const visit = (node: unknown, where: string, doc: string, depth: number) => {
    if (!isNode(node)) return;
    const docs = seen.get(node) ?? new Set<string>();
    if (docs.has(doc) || depth > 12) return;
    seen.set(node, docs.add(doc));
    for (const id of idsOf(node['x-statement'])) out.set(id, (out.get(id) ?? new Set()).add(doc));
    /** visits `sub`, reached through `keyword` (and the member `name`), at the document path that leads to */
    const into = (sub: unknown, keyword: string, name?: string) => {
      const more = step(keyword, name);
      visit(sub, where, `${doc}${more}`, more ? depth + 1 : depth);
    };
    for (const [k, v] of Object.entries(node)) {
      if (k === '$defs') continue; // a definition counts where a `$ref` reaches it
      if (k === '$ref' && typeof v === 'string') {
        const [target, fragment = ''] = v.split('#');
        const other = target || where;
        visit(at(schemaFile(other, dir), fragment), other, doc, depth);
      } else if (['properties', 'patternProperties'].includes(k) && isNode(v))
        for (const [name, sub] of Object.entries(v)) into(sub, k, name);
      else if (Array.isArray(v)) v.forEach((sub) => into(sub, k));
      else if (isNode(v)) into(v, k);
    }
  };
  visit(schemaFile(file, dir), file, '', 1);
  return [...out].map(([id, docs]) => ({ id, at: [...docs] }));
}

const escape = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

const byResource = new Map<string, ReachedStatement[]>();

/** the statements the schema of `resource` proves, in the order met, with the document paths each judges */
export function reachedStatements(resource: string, dir = SCHEMAS_DIR): ReachedStatement[] {
  const key = `${dir}\0${resource}`;
  let reached = byResource.get(key);
  if (!reached) {
    reached = reachable(`${resource}.schema.json`, dir);
    byResource.set(key, reached);
  }
  return reached;
}

/** the statement ids the schema of `resource` proves */
export const schemaStatements = (resource: string, dir = SCHEMAS_DIR): string[] =>
  reachedStatements(resource, dir).map((r) => r.id);

/** does a document pointer (its segments `have`) lie at or under a path (its segments `want`; `*` is any one)? */
function under(have: string[], want: string[]): boolean {
  return want.length <= have.length && want.every((seg, i) => seg === '*' || seg === have[i]);
}

/** of the statements of `resource`'s schema, those a document's schema errors (at these pointers) break */
export function brokenStatements(resource: string, pointers: string[], dir = SCHEMAS_DIR): string[] {
  const errors = pointers.map((p) => p.split('/'));
  return reachedStatements(resource, dir)
    .filter((r) =>
      r.at.some((at) => {
        const want = at.split('/');
        return errors.some((have) => under(have, want));
      }),
    )
    .map((r) => r.id);
}

/** every annotation of one schema file, reached or not (the tests hold each id to the index) */
export function fileAnnotations(file: string, dir = SCHEMAS_DIR): StatementAnnotation[] {
  const out: StatementAnnotation[] = [];
  const walk = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${pointer}/${i}`));
    if (!isNode(node)) return;
    if (node['x-statement'] !== undefined) out.push({ file, pointer, ids: idsOf(node['x-statement']) });
    for (const [k, v] of Object.entries(node)) walk(v, `${pointer}/${escape(k)}`);
  };
  walk(schemaFile(file, dir), '');
  return out;
}
