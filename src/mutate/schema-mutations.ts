// Mutations derived from a schema: walk a JSON value beside the schema that describes it and, at
// every member the value has, break each constraint the schema states there (a required member
// dropped, another JSON type, a broken format/pattern/enum/range/const). Schemas are read raw from
// schemas/ (the source of truth); whether the schema really rejects a mutation is decided later by
// validating the mutated value, so this walk may be generous.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMAS_DIR } from '../paths.js';
import { escapePointer, jsonType, unescapePointer } from '../json.js';
import type { Operator } from './operators.js';
import { DROP } from '../scenario/negations.js';

export { DROP };

type Schema = Record<string, unknown>;
export type { Operator };

/** one change at a JSON pointer: `apply` returns the changed copy of a document */
export interface ValueMutation {
  operator: Operator;
  pointer: string;
  description: string;
  apply(doc: unknown): unknown;
  /** the name of the check (within its step) that exists to catch it */
  aims?: string;
}

const files = new Map<string, Schema>();
function schemaFile(name: string): Schema {
  let s = files.get(name);
  if (!s) {
    s = JSON.parse(readFileSync(join(SCHEMAS_DIR, name), 'utf8')) as Schema;
    files.set(name, s);
  }
  return s;
}

interface Located {
  schema: Schema;
  file: string;
}

/** follow $ref (to another file of schemas/ or within one) until a schema without one */
function deref(node: Located): Located {
  let { schema, file } = node;
  for (let i = 0; typeof schema.$ref === 'string' && i < 20; i++) {
    const [target, fragment = ''] = (schema.$ref as string).split('#');
    if (target) file = target;
    let s: unknown = schemaFile(file);
    for (const seg of fragment.split('/').slice(1)) s = (s as Schema)[unescapePointer(seg)];
    const { $ref: _ref, ...siblings } = schema;
    schema = { ...(s as Schema), ...siblings };
  }
  return { schema, file };
}

/** a copy of `doc` with `change` applied to the value at `pointer` (absent: `change` gets undefined) */
export function changeAt(
  doc: unknown,
  pointer: string,
  change: (value: unknown, present: boolean) => unknown | typeof DROP,
): unknown {
  const copy = structuredClone(doc);
  const segs = pointer.split('/').slice(1).map(unescapePointer);
  if (segs.length === 0) {
    const r = change(copy, true);
    return r === DROP ? undefined : r;
  }
  // "-1" is the last item of an array, as in scenario pointers (src/json.ts)
  const at = (node: unknown, seg: string) => (Array.isArray(node) && seg === '-1' ? String(node.length - 1) : seg);
  let node = copy as Record<string, unknown>;
  for (const seg of segs.slice(0, -1)) {
    node = (node as Record<string, unknown>)?.[at(node, seg)] as Record<string, unknown>;
    if (node === null || typeof node !== 'object') return copy;
  }
  const last = at(node, segs[segs.length - 1]);
  const present = Object.hasOwn(node, last);
  const next = change(present ? node[last] : undefined, present);
  if (Array.isArray(node)) {
    if (next === DROP) node.splice(Number(last), 1);
    else node[Number(last)] = next;
  } else if (next === DROP) delete node[last];
  else node[last] = next;
  return copy;
}

const typesOf = (s: Schema): string[] =>
  Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
const admits = (types: string[], t: string) => types.includes(t) || (t === 'integer' && types.includes('number'));

/** a value of another JSON type than the schema admits, close to the original (1 for "1", "true" for true) */
function otherType(value: unknown, types: string[]): unknown {
  const candidates: unknown[] = [
    typeof value === 'number' ? String(value) : 1,
    typeof value === 'string' && value !== '' ? value : 'mutant',
    true,
    null,
    {},
    [],
  ];
  return candidates.find((c) => !admits(types, jsonType(c)));
}

function notMatching(pattern: string): string | undefined {
  const re = new RegExp(pattern, 'u');
  return ['', ' ', 'mutant value', '0', '-', 'ZZZZ-not-it'].find((c) => !re.test(c));
}

const BAD_FORMAT: Record<string, string> = {
  'date-time': '2021-13-45 not a time',
  uri: 'not a uri',
  email: 'not an email',
  ipv4: '999.1',
  uuid: 'not-a-uuid',
};

function atMember(schema: Schema, pointer: string, value: unknown, out: ValueMutation[]): void {
  const set = (operator: Operator, description: string, v: unknown) =>
    out.push({ operator, pointer, description, aims: 'schema', apply: (doc) => changeAt(doc, pointer, () => v) });
  const types = typesOf(schema);
  if (types.length) {
    const v = otherType(value, types);
    if (v !== undefined)
      set(
        'type',
        `${jsonType(value)} → ${jsonType(v)} ${JSON.stringify(v)} (the schema says ${types.join(' or ')})`,
        v,
      );
  }
  if (typeof value === 'string') {
    if (typeof schema.format === 'string')
      set(
        'format',
        `not a valid ${schema.format}: ${JSON.stringify(BAD_FORMAT[schema.format] ?? `not a ${schema.format}`)}`,
        BAD_FORMAT[schema.format] ?? `not a ${schema.format}`,
      );
    if (typeof schema.pattern === 'string') {
      const v = notMatching(schema.pattern);
      if (v !== undefined) set('pattern', `${JSON.stringify(v)}, which does not match ${schema.pattern}`, v);
    }
  }
  if (Array.isArray(schema.enum)) {
    const v = schema.enum.every((e) => typeof e === 'number') ? 987654 : 'mutant-not-in-enum';
    set('enum', `${JSON.stringify(v)}, not one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`, v);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number')
      set('minimum', `${schema.minimum - 1}, below the minimum ${schema.minimum}`, schema.minimum - 1);
    if (typeof schema.exclusiveMinimum === 'number')
      set('minimum', `${schema.exclusiveMinimum}, not above ${schema.exclusiveMinimum}`, schema.exclusiveMinimum);
    if (typeof schema.maximum === 'number')
      set('maximum', `${schema.maximum + 1}, above the maximum ${schema.maximum}`, schema.maximum + 1);
  }
  if ('const' in schema) {
    const c = schema.const;
    const v =
      typeof c === 'string' ? `${c}-mutant` : typeof c === 'number' ? c + 1 : typeof c === 'boolean' ? !c : 'mutant';
    set('const', `${JSON.stringify(v)}, not the constant ${JSON.stringify(c)}`, v);
  }
}

/** every schema mutation of `value` (a response body or an event's data) against schema file `file` */
export function schemaMutations(file: string, value: unknown): ValueMutation[] {
  const out: ValueMutation[] = [];
  const walk = (node: Located, v: unknown, pointer: string, depth: number) => {
    if (depth > 12) return;
    const { schema, file: at } = deref(node);
    for (const sub of (schema.allOf as Schema[] | undefined) ?? [])
      walk({ schema: sub, file: at }, v, pointer, depth + 1);
    if (pointer !== '') atMember(schema, pointer, v, out);
    if (Array.isArray(v)) {
      // The first element stands for all: mutating each would only repeat the same checks.
      if (v.length && schema.items && typeof schema.items === 'object')
        walk({ schema: schema.items as Schema, file: at }, v[0], `${pointer}/0`, depth + 1);
    } else if (v !== null && typeof v === 'object') {
      const obj = v as Record<string, unknown>;
      for (const r of (schema.required as string[] | undefined) ?? []) {
        if (!Object.hasOwn(obj, r)) continue;
        const p = `${pointer}/${escapePointer(r)}`;
        out.push({
          operator: 'drop-required',
          pointer: p,
          description: `required member "${r}" dropped`,
          aims: 'schema',
          apply: (doc) => changeAt(doc, p, () => DROP),
        });
      }
      const props = (schema.properties as Record<string, Schema> | undefined) ?? {};
      const extra =
        schema.additionalProperties && typeof schema.additionalProperties === 'object'
          ? (schema.additionalProperties as Schema)
          : undefined;
      let extraSeen = false;
      for (const [k, child] of Object.entries(obj)) {
        const sub = props[k] ?? (extra && !extraSeen ? ((extraSeen = true), extra) : undefined);
        if (sub) walk({ schema: sub, file: at }, child, `${pointer}/${escapePointer(k)}`, depth + 1);
      }
    }
  };
  walk({ schema: schemaFile(file), file }, value, '', 0);
  return out;
}

export const schemaFileOf = (resource: string) => `${resource}.schema.json`;
