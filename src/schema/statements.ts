// spec/statements.yaml, the statement index: every checkable sentence and table row of the spec, with a stable id,
// its kind and, where no check on the tested agents can decide it, why (schemas/statement-index.schema.json).
// Checks will cite these ids and `synconf spec` lists them. Read once per file, validated against the schema, then
// checked for what a schema cannot say: ids unique, `sameAs` naming statements that exist.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { load as loadYaml, CORE_SCHEMA, YAMLException } from 'js-yaml';
import { parsedAtBuild } from './built-yaml.js';
import type { Statement, StatementIndex, StatementKind } from './generated/types.js';
import { validate, formatError, loadDocumentValidators } from './registry.js';
import { ROOT, SCHEMAS_DIR } from '../paths.js';
import { InputError } from '../errors.js';
import { editDistance } from '../did-you-mean.js';

export type { Statement, StatementKind };

export const STATEMENTS_FILE = join(ROOT, 'spec', 'statements.yaml');
/** the spec the index describes, kept inside the project so that a clone anywhere stands alone */
export const SPEC_FILE = join(ROOT, 'spec', 'rest-api-subset.md');
/** where the spec is published beside the project, when it is (tests/statements.test.ts holds the copy to it) */
export const PUBLISHED_SPEC_FILE = join(ROOT, '..', 'shared', 'spec', 'rest-api-subset.md');

/** the statement kinds, in the schema's order (read from it, so that no list is kept by hand) */
export function statementKinds(): StatementKind[] {
  const schema = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'statement-index.schema.json'), 'utf8'));
  return schema.$defs.kind.enum as StatementKind[];
}

const cache = new Map<string, Statement[]>();

/** the statements of an index file, in file order; a malformed index is an InputError naming file, line and cause */
export async function loadStatements(file = STATEMENTS_FILE): Promise<Statement[]> {
  const cached = cache.get(file);
  if (cached) return cached;
  const name = relative(ROOT, file).startsWith('..') ? file : relative(ROOT, file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`${name}: cannot read: ${(e as Error).message}`);
  }
  // the shipped index, unedited, is the text the build parsed and the tests validate: a run need not load the
  // validators of synconf's own documents to check it again (they cost every run start-up time)
  const built = parsedAtBuild(text);
  let doc: unknown;
  try {
    doc = built ?? loadYaml(text, { schema: CORE_SCHEMA, filename: name });
  } catch (e) {
    if (!(e instanceof YAMLException)) throw e;
    throw new InputError(`${name}${e.mark ? `:${e.mark.line + 1}` : ''}: not valid YAML: ${e.reason}`);
  }
  // the file and the 1-based line of an entry of `statements:` (each starts with "- " at the list's indentation), for
  // an error: read only then (splitting the whole index at every start was ~1 ms of a replay)
  const at = (entry: number) => {
    const line = text.split('\n').flatMap((l, n) => (/^ {2}- /.test(l) ? [n + 1] : []))[entry];
    return `${name}${line ? `:${line}` : ''}`;
  };
  const errors = built === undefined ? (await loadDocumentValidators(), validate('statement-index', doc)) : [];
  if (errors.length) {
    const entry = /^\/statements\/(\d+)/.exec(errors[0].pointer);
    throw new InputError(`${entry ? at(Number(entry[1])) : name}: ${formatError(errors[0])}`);
  }
  const statements = (doc as StatementIndex).statements;
  const problem = inconsistency(statements);
  if (problem)
    throw new InputError(`${at(problem.entry)}: statement "${statements[problem.entry].id}": ${problem.cause}`);
  cache.set(file, statements);
  return statements;
}

/**
 * per endpoint, the version statements its presence shows (`boundary.endpoint`): the version-gate checks of that
 * endpoint prove them, absent before the version and answering from it on
 */
export function gateStatements(statements: Statement[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const s of statements) if (s.boundary?.endpoint) (out[s.boundary.endpoint] ??= []).push(s.id);
  return out;
}

/** the first rule the schema cannot say that the index breaks: a repeated id, a `sameAs` naming no statement */
function inconsistency(statements: Statement[]): { entry: number; cause: string } | undefined {
  const first = new Map<string, number>();
  for (const [entry, s] of statements.entries()) {
    const earlier = first.get(s.id);
    if (earlier !== undefined) return { entry, cause: `duplicate id (entry ${earlier + 1} has it too)` };
    first.set(s.id, entry);
  }
  for (const [entry, s] of statements.entries())
    for (const other of s.sameAs ?? []) {
      if (other === s.id) return { entry, cause: 'sameAs names the statement itself' };
      if (!first.has(other)) return { entry, cause: `sameAs "${other}" names no statement of the index` };
    }
  return undefined;
}

/** the id of the index closest to `id` (fewest edits; the first in file order on a tie) */
export function closestStatement(id: string, statements: Statement[]): string | undefined {
  let best: { id: string; d: number } | undefined;
  for (const s of statements) {
    const d = editDistance(id, s.id);
    if (!best || d < best.d) best = { id: s.id, d };
  }
  return best?.id;
}

/** why `id` is not a statement of the index (naming the closest one), or undefined when it is one */
export function unknownStatement(id: string, statements: Statement[]): string | undefined {
  if (statements.some((s) => s.id === id)) return undefined;
  const closest = closestStatement(id, statements);
  return `"${id}" is not a statement of spec/statements.yaml${closest ? ` (closest: "${closest}")` : ''}`;
}
