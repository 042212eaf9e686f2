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
  const seen = new Set<string>();
  const visit = (node: unknown, where: string, pointer: string, doc: string) => {
    if (!isNode(node)) return;
    const key = `${where}#${pointer}@${doc}`;
    if (seen.has(key) || doc.split('/').length > 12) return;
    seen.add(key);
    for (const id of idsOf(node['x-statement'])) out.set(id, (out.get(id) ?? new Set()).add(doc));
    for (const [k, v] of Object.entries(node)) {
      if (k === '$defs') continue; // a definition counts where a `$ref` reaches it
      const here = `${pointer}/${escape(k)}`;
      if (k === '$ref' && typeof v === 'string') {
        const [target, fragment = ''] = v.split('#');
        const other = target || where;
        visit(at(schemaFile(other, dir), fragment), other, fragment, doc);
      } else if (['properties', 'patternProperties'].includes(k) && isNode(v))
        for (const [name, sub] of Object.entries(v))
          visit(sub, where, `${here}/${escape(name)}`, `${doc}${step(k, name)}`);
      else if (Array.isArray(v))
        v.forEach((sub, i) => visit(sub, where, `${here}/${i}`, `${doc}${step(k, undefined)}`));
      else if (isNode(v)) visit(v, where, here, `${doc}${step(k, undefined)}`);
    }
  };
  visit(schemaFile(file, dir), file, '', '');
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

/** does the document pointer `pointer` lie at or under the path `at` (`*` matches any one segment)? */
function under(pointer: string, at: string): boolean {
  const want = at.split('/');
  const have = pointer.split('/');
  return want.length <= have.length && want.every((seg, i) => seg === '*' || seg === have[i]);
}

/** of the statements of `resource`'s schema, those a document's schema errors (at these pointers) break */
export function brokenStatements(resource: string, pointers: string[], dir = SCHEMAS_DIR): string[] {
  return reachedStatements(resource, dir)
    .filter((r) => r.at.some((at) => pointers.some((p) => under(p, at))))
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
