// Validators by resource name and agent version. The validators are precompiled from schemas/ by
// `npm run gen` (ajv standalone code), so a run loads no schema compiler at all.
import { BUCKETS, DOCUMENTS, RESOURCES, loadDocuments } from './generated/index.js';
import { releaseOf } from './version.js';
import { exportName } from './names.js';
import { escapePointer, resolvePointer, jsonType, MISSING } from '../json.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import gte from 'semver/functions/gte.js';
import type { ValidationError } from './generated/types.js';
import { UsageError } from '../errors.js';
import { SCHEMAS_DIR } from '../paths.js';
import { didYouMean } from '../did-you-mean.js';

export type { ValidationError };

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  schemaPath: string;
  propertyName?: string;
}
type CompiledValidator = ((doc: unknown) => boolean) & { errors?: AjvError[] | null };

export class UnknownResourceError extends UsageError {
  override name = 'UnknownResourceError';
  constructor(readonly resource: string) {
    super(
      `unknown resource "${resource}"${didYouMean(resource, listResources()) || `; known resources: ${listResources().join(', ')}`}`,
    );
  }
}

/** resource names users can name (schema file names without .schema.json) */
export function listResources(): string[] {
  return RESOURCES.filter((r) => r !== 'common');
}

let documents: Record<string, unknown> | undefined;

/**
 * Loads the validators of synconf's output documents (report, matrix, mutation report), which `validate`
 * needs for them. They are a module of their own: a run writes such documents but reads none, and does
 * not evaluate them (bench/).
 */
export async function loadDocumentValidators(): Promise<void> {
  documents ??= (await loadDocuments()) as unknown as Record<string, unknown>;
}

// A run validates hundreds of answers against a few resources for one agent version: each validator is looked up
// (the version's bucket found by semver) once per resource and version (the validator depends on these two alone).
const found = new Map<string, CompiledValidator>();

function validatorFor(resource: string, agentVersion?: string): CompiledValidator {
  const key = `${resource} ${agentVersion ?? ''}`;
  let validator = found.get(key);
  if (!validator) {
    validator = lookUp(resource, agentVersion);
    found.set(key, validator);
  }
  return validator;
}

function lookUp(resource: string, agentVersion?: string): CompiledValidator {
  if (!RESOURCES.includes(resource)) throw new UnknownResourceError(resource);
  if (DOCUMENTS.includes(resource)) {
    if (!documents)
      throw new Error(`the validators of "${resource}" are not loaded: await loadDocumentValidators() first`);
    return documents[exportName(resource)] as CompiledValidator;
  }
  // Without a version the spec itself applies (the last bucket).
  let bucket = BUCKETS[BUCKETS.length - 1];
  if (agentVersion !== undefined) {
    const release = releaseOf(agentVersion);
    bucket = [...BUCKETS].reverse().find((b) => gte(release, b.from)) ?? BUCKETS[0];
  }
  const name = exportName(resource);
  return (bucket.validators[name] ?? BUCKETS[BUCKETS.length - 1].validators[name]) as CompiledValidator;
}

const valueAt = (doc: unknown, pointer: string) => {
  const v = resolvePointer(doc, pointer);
  return v === MISSING ? undefined : v;
};

export function short(value: unknown, max = 60): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** files people write by hand: an unknown member in them is likely a typo, worth a "did you mean" */
const AUTHORED = new Set(['scenario', 'expectations', 'drift-ignore', 'change-rules', 'contract']);

/** the member lists of a schema's closed objects (`properties` beside `additionalProperties: false`) */
function closedMemberLists(node: unknown, out: string[][] = []): string[][] {
  if (node === null || typeof node !== 'object') return out;
  const o = node as { properties?: object; additionalProperties?: unknown };
  if (o.properties && o.additionalProperties === false) out.push(Object.keys(o.properties));
  for (const child of Object.values(node)) closedMemberLists(child, out);
  return out;
}

/** the member names a definition of a resource's schema declares (`$defs/<def>/properties`), as the schema orders them */
export function definedMembers(resource: string, def: string): string[] {
  const schema = JSON.parse(readFileSync(join(SCHEMAS_DIR, `${resource}.schema.json`), 'utf8')) as {
    $defs?: Record<string, { properties?: Record<string, unknown> }>;
  };
  return Object.keys(schema.$defs?.[def]?.properties ?? {});
}

/** the member names `name` may have been meant as: those of every closed object of the schema that allows the
 * object's other members (the compiled validators do not say which object of the schema raised the error) */
function allowedMembers(resource: string, object: unknown, name: string): string[] {
  const schema: unknown = JSON.parse(readFileSync(join(SCHEMAS_DIR, `${resource}.schema.json`), 'utf8'));
  const lists = closedMemberLists(schema);
  const others = Object.keys(object ?? {}).filter((k) => k !== name);
  const fitting = lists.filter((list) => others.every((k) => list.includes(k)));
  return [...new Set((fitting.length ? fitting : lists).flat())];
}

/** a value with its type, as an error says what it got: null and a missing value are their own name ("got null") */
const typed = (v: unknown) => (v === null || v === undefined ? String(v) : `${jsonType(v)} ${short(v, 40)}`);

/** a member that needs another beside it (`where` needs `isCountOf`), said at the member */
function dependentError(base: Omit<ValidationError, 'expected' | 'message'>, e: AjvError): ValidationError {
  const [member, needs] = [String(e.params.property), String(e.params.missingProperty)];
  const pointer = `${e.instancePath}/${escapePointer(member)}`;
  return { ...base, pointer, expected: needs, message: `"${member}" needs "${needs}" beside it` };
}

function toError(resource: string, doc: unknown, e: AjvError): ValidationError {
  // A bad object key (propertyNames) is reported at the key itself, with the key as the value.
  const key = e.propertyName ?? (e.keyword === 'propertyNames' ? String(e.params.propertyName) : undefined);
  const pointer = key === undefined ? e.instancePath : `${e.instancePath}/${escapePointer(key)}`;
  const actual = key === undefined ? valueAt(doc, e.instancePath) : key;
  const base = { resource, pointer, rule: e.keyword, actual };
  if (e.keyword === 'dependentRequired') return dependentError(base, e);
  switch (e.keyword) {
    case 'required': {
      const name = String(e.params.missingProperty);
      return {
        ...base,
        pointer: `${e.instancePath}/${escapePointer(name)}`,
        expected: 'present',
        actual: undefined,
        message: `required property "${name}" is missing`,
      };
    }
    case 'type':
      return {
        ...base,
        expected: e.params.type,
        message: `must be ${e.params.type}, got ${typed(actual)}`,
      };
    case 'format':
      return {
        ...base,
        expected: e.params.format,
        message: `must be a valid ${e.params.format}, got ${short(actual)}`,
      };
    case 'pattern':
      return { ...base, expected: e.params.pattern, message: `must match ${e.params.pattern}, got ${short(actual)}` };
    case 'enum':
      return {
        ...base,
        expected: e.params.allowedValues,
        message: `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, got ${short(actual)}`,
      };
    case 'additionalProperties': {
      // An unknown member (a typo in a scenario file, say) is reported at the member itself.
      const name = String(e.params.additionalProperty);
      return {
        ...base,
        pointer: `${e.instancePath}/${escapePointer(name)}`,
        expected: 'no such property',
        actual: valueAt(doc, `${e.instancePath}/${escapePointer(name)}`),
        message: `unknown property "${name}"${AUTHORED.has(resource) ? didYouMean(name, allowedMembers(resource, valueAt(doc, e.instancePath), name)) : ''}`,
      };
    }
    case 'const':
      return {
        ...base,
        expected: e.params.allowedValue,
        message: `must be ${JSON.stringify(e.params.allowedValue)}, got ${short(actual)}`,
      };
    default:
      return { ...base, expected: e.params, message: `${e.message ?? e.keyword} (got ${short(actual)})` };
  }
}

/** [] when `doc` is a valid `resource` for the agent version (or for the spec when no version is given) */
export function validate(resource: string, doc: unknown, agentVersion?: string): ValidationError[] {
  const validator = validatorFor(resource, agentVersion);
  if (validator(doc)) return [];
  // anyOf/oneOf alternatives repeat their branch errors; keep each (pointer, rule) once. An `if`
  // or `propertyNames` summary adds nothing when the errors of its branch are reported as well.
  const seen = new Set<string>();
  const all = validator.errors ?? [];
  return all
    .filter((e) => {
      if (e.keyword === 'propertyNames')
        return !all.some(
          (o) => o !== e && o.propertyName === e.params.propertyName && o.instancePath === e.instancePath,
        );
      if (e.keyword === 'if')
        return !all.some(
          (o) =>
            o.keyword !== 'if' &&
            (o.instancePath === e.instancePath || o.instancePath.startsWith(`${e.instancePath}/`)),
        );
      return true;
    })
    .map((e) => toError(resource, doc, e))
    .filter((e) => {
      const key = `${e.pointer} ${e.rule} ${e.message}`;
      return seen.has(key) ? false : (seen.add(key), true);
    })
    .sort((a, b) => Number(isTypo(b)) - Number(isTypo(a)));
}

/** a misspelt member also leaves the member it was meant as missing: the typo, with its guess, is said first */
const isTypo = (e: ValidationError) => e.rule === 'additionalProperties' && e.message.includes('(did you mean');

/** one line: `pointer: message` (the root is written `/`) */
export function formatError(e: ValidationError): string {
  return `${e.pointer || '/'}: ${e.message}`;
}
