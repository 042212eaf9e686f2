// Members of a response that its schema does not document. The schemas accept them (forward
// compatibility); the closed validators generated from the same schemas (src/schema/documented.ts)
// reject them, and their errors name each one.
import * as closed from './generated/undocumented.js';
import { exportName } from './names.js';
import { escapePointer } from '../json.js';

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}
type Validator = ((doc: unknown) => boolean) & { errors?: AjvError[] | null };

const validators = closed as unknown as Record<string, Validator | undefined>;
const collections = closed.COLLECTIONS as Record<string, string[] | undefined>;

// The undocumented members of `doc` as a `resource`, once each, as paths from the document's root
// with `*` for an array index or a map key: "extra", "connectionServiceStatus/*/extra".
// Empty for a resource that is not the agent's (synconf's own files are closed already).
export function undocumentedMembers(resource: string, doc: unknown): string[] {
  const validator = validators[exportName(resource)];
  if (!validator || validator(doc)) return [];
  const generic = new Set(collections[resource] ?? []);
  const found = new Set<string>();
  for (const e of validator.errors ?? []) {
    if (e.keyword !== 'unevaluatedProperties') continue;
    let at = '';
    for (const segment of e.instancePath.split('/').slice(1)) at += generic.has(at) ? '/*' : `/${segment}`;
    found.add(`${at}/${escapePointer(String(e.params.unevaluatedProperty))}`.slice(1));
  }
  return [...found];
}
