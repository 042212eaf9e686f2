// Reviewed changes accepted for the drift gate: `--ignore RULE@ENDPOINT [POINTER]` on the command line, or the
// entries of an --ignore-file (schemas/drift-ignore.schema.json), each with its reason. An accepted cause is still
// listed, marked accepted with the entry and its reason; it does not trip --fail-on.
import type { ChangeCause, ChangeRuleId, DriftIgnores } from '../schema/generated/types.js';
import { validate } from '../schema/registry.js';
import { loadLocated, type LocatedYaml } from '../scenario/located-yaml.js';
import { kindProblem } from '../schema/file-kind.js';
import { InputError, UsageError } from '../errors.js';
import { didYouMean } from '../did-you-mean.js';
import { readTextFile } from '../text-file.js';
import { loadRules } from './rules.js';

export interface Acceptance {
  rule: ChangeRuleId;
  /** "METHOD /path", or * for a cause of no one endpoint */
  endpoint: string;
  pointer?: string;
  reason: string;
  /** where the entry comes from: the option as given, or FILE:LINE */
  by: string;
}

const ENDPOINT = /^([A-Z]+ \/\S*|\*)$/;

/** one --ignore value: RULE@METHOD /path, RULE@METHOD /path /pointer, or RULE@* */
export const parseIgnore = (value: string): Acceptance => parseCause(value, '--ignore');

/** a cause named as --ignore takes it (`bisect --cause` too), the option that gave it named in errors */
export function parseCause(value: string, option: string): Acceptance {
  const at = value.indexOf('@');
  const rule = value.slice(0, at);
  const [method, path, pointer, ...rest] = value
    .slice(at + 1)
    .trim()
    .split(/\s+/);
  const endpoint = method === '*' ? '*' : `${method} ${path ?? ''}`;
  const form =
    'the form is RULE@METHOD /path [/pointer] (e.g. "response-value-format-changed@GET /rest/system/browse")';
  if (at < 0 || !ENDPOINT.test(endpoint) || rest.length || (method === '*' && path !== undefined))
    throw new UsageError(`${option} "${value}": ${form}`);
  if (pointer !== undefined && !pointer.startsWith('/'))
    throw new UsageError(`${option} "${value}": the pointer "${pointer}" does not start with /; ${form}`);
  const ids = loadRules().map((r) => r.id as string);
  if (!ids.includes(rule))
    throw new UsageError(
      `${option} "${value}": unknown rule "${rule}"${didYouMean(rule, ids) || `; rules: ${ids.join(', ')}`}`,
    );
  return {
    rule: rule as ChangeRuleId,
    endpoint,
    ...(pointer ? { pointer } : {}),
    reason: 'accepted on the command line',
    by: `${option} ${value}`,
  };
}

/** the entries of an ignore file; a file that cannot be read or breaks its schema is an input error naming the line */
export function loadIgnoreFile(file: string): Acceptance[] {
  // read as every file a user gives is: strict UTF-8, a folder or an empty file named as such
  const text = readTextFile(file, `--ignore-file ${file}`);
  let doc: LocatedYaml;
  try {
    doc = loadLocated(text, file);
  } catch (e) {
    throw new InputError(`--ignore-file ${file}: ${(e as Error).message.split('\n')[0]}`);
  }
  const line = (pointer: string) => doc.lineAt(pointer);
  const wrongKind = kindProblem(doc.data, 'drift-ignore');
  if (wrongKind) throw new InputError(`--ignore-file ${file}: ${wrongKind}`);
  const errors = validate('drift-ignore', doc.data);
  if (errors.length) {
    const e = errors[0];
    throw new InputError(
      `--ignore-file ${file}${line(e.pointer) ? `:${line(e.pointer)}` : ''}: ${e.pointer || '/'}: ${e.message}`,
    );
  }
  return (doc.data as DriftIgnores).accepted.map((entry, i) => ({
    ...entry,
    by: `${file}:${line(`/accepted/${i}`) ?? '?'}`,
  }));
}

/** the object a member's pointer is in ("/a/b": "/a"): an entry naming it accepts its members, folded under it */
const objectOf = (pointer: string) => pointer.slice(0, Math.max(0, pointer.lastIndexOf('/')));

/** the cause is the one the entry names (its rule and endpoint, and its member or object when it names one) */
export const matches = (a: Acceptance, c: ChangeCause) =>
  a.rule === c.rule &&
  (c.endpoints as string[]).includes(a.endpoint) &&
  (a.pointer === undefined ||
    a.pointer === c.pointer ||
    (c.at ?? []).includes(a.pointer) ||
    (c.pointer !== '' && a.pointer === objectOf(c.pointer)));

/** the causes, those an entry accepts marked with it (the first that matches); and the entries that match none */
export function accept(causes: ChangeCause[], entries: Acceptance[]): { causes: ChangeCause[]; unused: Acceptance[] } {
  const used = new Set<Acceptance>();
  const marked = causes.map((c) => {
    const entry = entries.find((a) => matches(a, c));
    if (!entry) return c;
    used.add(entry);
    return { ...c, accepted: { by: entry.by, reason: entry.reason } };
  });
  for (const c of causes) for (const a of entries) if (matches(a, c)) used.add(a);
  return { causes: marked, unused: entries.filter((a) => !used.has(a)) };
}
