// How the agent reads a JSON body into a part of its configuration (Go's encoding/json, lib/api/confighandler.go):
// the body is decoded over a starting value (the part as it is for PATCH, its defaults for PUT/POST): objects merge
// member by member, anything else replaces; members the part does not have are ignored. A body that is no JSON or
// holds a value of the wrong type for a member is refused 400 with Go's message. The schema of the agent's version
// says which type a member has; the Go type name in the message is derived from it (not shown in the recordings).
import { resolvePointer, jsonType, MISSING } from '../json.js';
import { validate } from '../schema/registry.js';

/** the Go struct each resource decodes into (lib/config) */
const GO_STRUCT: Record<string, string> = {
  config: 'Configuration',
  folder: 'FolderConfiguration',
  device: 'DeviceConfiguration',
  options: 'OptionsConfiguration',
  gui: 'GUIConfiguration',
  ldap: 'LDAPConfiguration',
};

/** Go's name of a JSON value's kind in an unmarshal error */
const GO_KIND: Record<string, string> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'bool',
  array: 'array',
  object: 'object',
  null: 'null',
};

/** the Go type a schema type decodes into */
const GO_TYPE: Record<string, string> = {
  integer: 'int',
  number: 'float64',
  boolean: 'bool',
  string: 'string',
  array: '[]interface {}',
  object: 'struct',
};

export type Decoded = { ok: true; value: unknown } | { ok: false; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `body` decoded over `start` as Go decodes into a struct: objects merge, anything else replaces */
export function goMerge(start: unknown, body: unknown): unknown {
  if (!isObject(start) || !isObject(body)) return body === null && start !== undefined ? start : body;
  const merged: Record<string, unknown> = { ...start };
  for (const [k, v] of Object.entries(body)) merged[k] = k in start ? goMerge(start[k], v) : v;
  return merged;
}

/** Go's message for a body that is not JSON */
function syntaxMessage(text: string): string {
  if (text.trim() === '') return 'unexpected end of JSON input';
  try {
    JSON.parse(text);
    return '';
  } catch (e) {
    const token = /Unexpected token '(.)'/.exec((e as Error).message)?.[1];
    if (token) return `invalid character '${token}' looking for beginning of value`;
    const at = Number(/position (\d+)/.exec((e as Error).message)?.[1] ?? 0);
    const rest = text.slice(at).trim();
    return rest ? `invalid character '${rest[0]}' looking for beginning of value` : 'unexpected end of JSON input';
  }
}

/**
 * The body decoded over `start` into `resource` of `agentVersion`: the value, or Go's refusal for a body that is no
 * JSON or a member of the wrong type (only members the body holds are judged: the starting value is the agent's).
 */
export function decodeInto(resource: string | undefined, start: unknown, text: string, agentVersion?: string): Decoded {
  const bad = syntaxMessage(text);
  if (bad) return { ok: false, message: bad };
  const body: unknown = JSON.parse(text);
  const value = goMerge(start, body);
  if (!resource) return { ok: true, value };
  const wrong = validate(resource, value, agentVersion).find(
    (e) => e.rule === 'type' && resolvePointer(body, e.pointer) !== MISSING && resolvePointer(body, e.pointer) !== null,
  );
  if (!wrong) return { ok: true, value };
  const kind = GO_KIND[jsonType(resolvePointer(body, wrong.pointer))];
  const field = wrong.pointer
    .split('/')
    .slice(1)
    .filter((s) => !/^\d+$/.test(s))
    .join('.');
  const expected = String(wrong.expected).split(',')[0];
  const where = field ? `Go struct field ${GO_STRUCT[resource]}.${field}` : `Go value`;
  return {
    ok: false,
    message: `json: cannot unmarshal ${kind} into ${where} of type ${field ? (GO_TYPE[expected] ?? expected) : `config.${GO_STRUCT[resource]}`}`,
  };
}
