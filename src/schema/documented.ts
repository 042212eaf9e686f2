// Build time (`npm run gen`): what the schemas document, for finding members they do not name.
// The resource schemas are open (extra members validate, for forward compatibility); a second,
// "closed" copy adds `unevaluatedProperties: false` to every object schema that lists `properties`
// and has no map of its own (additionalProperties, patternProperties), so the errors of its
// validator name exactly the undocumented members. Only schemas that start a new instance location
// (a root, a property value, array items, map values) are closed: a schema applied in place
// (allOf, if/then, a $ref from there) describes part of an object whose other members its siblings
// document, and `unevaluatedProperties` at the outer level already sees theirs.
import type { LoadedSchema } from './schema-files.js';
import { escapePointer } from '../json.js';
import { prune, isNode, type Node } from './prune.js';

const IN_PLACE = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'];
const NEW_LOCATION = ['items', 'additionalProperties', 'contains', 'unevaluatedItems'];
const MAPS = ['additionalProperties', 'patternProperties', 'unevaluatedProperties'];

/** the absolute form of a $ref made in the schema whose $id is `base` */
const absolute = (ref: string, base: string) => new URL(ref, base).href;

/** every node of `schema`, with whether it is applied in place, and the $refs each makes */
function visit(schema: Node, onNode: (node: Node, inPlace: boolean, path: string) => void): void {
  const walk = (node: unknown, inPlace: boolean, path: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, inPlace, `${path}/${i}`));
    if (!isNode(node)) return;
    onNode(node, inPlace, path);
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'dependentSchemas') {
        if (isNode(value))
          for (const [name, sub] of Object.entries(value))
            walk(sub, key === 'dependentSchemas', `${path}/${key}/${name}`);
      } else if (IN_PLACE.includes(key)) walk(value, true, `${path}/${key}`);
      else if (NEW_LOCATION.includes(key) || key === 'prefixItems') walk(value, false, `${path}/${key}`);
    }
  };
  walk(schema, false, '');
}

// What decides which members a schema evaluates: its applicators, and `type` beside them (ajv's strict
// mode wants to see which type they apply to). Everything else (a leaf's type, formats, patterns, enums,
// bounds, `required`) only decides validity, which the open validators judge already, and is left out
// of the closed copy: it is then a fraction of the size and of the time to load and run. A subschema
// whose validity decides what is evaluated (`if`, a branch of anyOf/oneOf, `not`) is kept whole.
const EVALUATION = new Set([
  ...['$schema', '$id', '$ref', '$defs', '$anchor', '$dynamicRef', '$dynamicAnchor', 'type'],
  ...['properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties', 'dependentSchemas'],
  ...['items', 'prefixItems', 'contains', 'unevaluatedItems', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'],
]);
const isLeaf = (node: Node) => Object.keys(node).every((k) => !EVALUATION.has(k) || k === 'type' || k === '$schema');
const evaluationOnly = (schema: Node) =>
  prune(schema, (key, node) => EVALUATION.has(key) && !(key === 'type' && isLeaf(node)), [
    'if',
    'anyOf',
    'oneOf',
    'not',
  ]) as Node;

/** copies of the schemas in which every documented object is closed to undocumented members */
export function closedSchemas(schemas: LoadedSchema[]): LoadedSchema[] {
  // Targets of a $ref applied in place ("#/$defs/deviceFields" under allOf) stay open.
  const inPlaceTargets = new Set<string>();
  for (const s of schemas) {
    visit(s.schema, (node, inPlace) => {
      if (inPlace && typeof node.$ref === 'string') inPlaceTargets.add(absolute(node.$ref, s.id));
    });
  }
  return schemas.map((s) => {
    const copy = evaluationOnly(s.schema);
    visit(copy, (node, inPlace, path) => {
      const target = path === '' ? s.id : `${s.id}#${path}`;
      if (inPlace || inPlaceTargets.has(target)) return;
      if (isNode(node.properties) && !MAPS.some((k) => k in node)) node.unevaluatedProperties = false;
    });
    return { ...s, schema: copy };
  });
}

/**
 * Where a resource has maps or arrays: JSON pointers with `*` for each array index or map key on the
 * way (e.g. "/connectionServiceStatus" for a map, "/folders" for an array). A member found below one
 * is reported with `*` for that segment, so a note does not depend on device IDs or addresses.
 */
export function collectionPointers(schemas: LoadedSchema[], resource: string): string[] {
  const byId = new Map(schemas.map((s) => [s.id, s]));
  const root = schemas.find((s) => s.name === resource)!;
  const found = new Set<string>();
  const seen = new Map<Node, Set<string>>(); // a node already walked at a location (cycles end at depth 40)
  const resolve = (ref: string, base: string): { node: unknown; base: string } => {
    const [file, fragment = ''] = absolute(ref, base).split('#');
    let node: unknown = byId.get(file)?.schema;
    for (const seg of fragment.split('/').slice(1)) node = isNode(node) ? node[seg] : undefined;
    return { node, base: file };
  };
  const walk = (node: unknown, base: string, at: string, depth: number): void => {
    if (!isNode(node) || depth > 40) return;
    const locations = seen.get(node) ?? seen.set(node, new Set()).get(node)!;
    if (locations.has(at)) return;
    locations.add(at);
    if (typeof node.$ref === 'string') {
      const next = resolve(node.$ref, base);
      walk(next.node, next.base, at, depth + 1);
    }
    for (const k of IN_PLACE) {
      const v = node[k];
      (Array.isArray(v) ? v : [v]).forEach((sub) => walk(sub, base, at, depth + 1));
    }
    if (isNode(node.properties))
      for (const [name, sub] of Object.entries(node.properties))
        walk(sub, base, `${at}/${escapePointer(name)}`, depth + 1);
    const members = [
      node.additionalProperties,
      ...(isNode(node.patternProperties) ? Object.values(node.patternProperties) : []),
    ].filter(isNode);
    if (members.length) found.add(at);
    members.forEach((sub) => walk(sub, base, `${at}/*`, depth + 1));
    if (node.items !== undefined) {
      found.add(at);
      walk(node.items, base, `${at}/*`, depth + 1);
    }
  };
  walk(root.schema, root.id, '', 0);
  return [...found].sort();
}
