// Build time (`npm run gen`): copies of schemas with only the keywords a generated validator needs.
// Smaller schemas give smaller generated code, and that code is loaded on every run (bench/).

export type Node = Record<string, unknown>;
export const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

// Keywords whose value is a schema, an array of schemas, or maps names to schemas. The value of any
// other keyword is data (enum, const, required, ...), copied as it is.
const SUBSCHEMA = ['items', 'contains', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'not'];
const SUBSCHEMAS = [...SUBSCHEMA, 'propertyNames', 'if', 'then', 'else'];
const IN_ARRAY = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

/**
 * `schema` keeping, at every level, the keywords for which `keep(keyword, schema)` holds; the value of a
 * keyword listed in `whole` is kept as it is (not pruned).
 */
export function prune(schema: unknown, keep: (keyword: string, node: Node) => boolean, whole: string[] = []): unknown {
  const walk = (node: unknown): unknown => {
    if (!isNode(node)) return node; // a boolean schema
    const out: Node = {};
    for (const [key, value] of Object.entries(node)) {
      if (!keep(key, node)) continue;
      if (whole.includes(key)) out[key] = value;
      else if (SCHEMA_MAPS.includes(key) && isNode(value))
        out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, walk(sub)]));
      else if (IN_ARRAY.includes(key) && Array.isArray(value)) out[key] = value.map(walk);
      else if (SUBSCHEMAS.includes(key)) out[key] = walk(value);
      else out[key] = value;
    }
    return out;
  };
  return walk(schema);
}

/** words for people and for other tools (synconf's `x-since` is applied before validators are generated) */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  '$comment',
  'tsType',
  'x-since',
  'x-deprecated',
  'x-statement',
]);

/** `schema` without annotations: the same validation, in less generated code */
export const withoutAnnotations = (schema: unknown): unknown => prune(schema, (key) => !ANNOTATIONS.has(key));
