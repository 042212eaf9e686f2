// Undocumented members of responses: a note per endpoint and member for the report, and under
// --strict a failing check of the exchange that carried them.
import type { UndocumentedMember } from '../schema/generated/types.js';
import { undocumentedMembers } from '../schema/undocumented.js';
import type { Check } from './exchange-checks.js';

/** what a run collects: notes by endpoint and member, and whether they fail */
export interface UndocumentedNotes {
  strict: boolean;
  found: Map<string, UndocumentedMember>;
}

export const undocumentedNotes = (strict: boolean): UndocumentedNotes => ({ strict, found: new Map() });

/**
 * Notes the members of `doc` that `resource` does not document, seen at `endpoint` in `scenario`;
 * under --strict also the check that judges them (none otherwise).
 */
export function noteUndocumented(
  notes: UndocumentedNotes,
  endpoint: string,
  resource: string,
  doc: unknown,
  scenario: string,
  name = 'undocumented',
): Check | undefined {
  const members = undocumentedMembers(resource, doc);
  for (const member of members) {
    const key = `${endpoint} ${member}`;
    const note = notes.found.get(key) ?? notes.found.set(key, { endpoint, resource, member, scenarios: [] }).get(key)!;
    if (!note.scenarios.includes(scenario)) note.scenarios.push(scenario);
  }
  if (!notes.strict) return undefined;
  return members.length
    ? {
        name,
        kind: 'schema',
        verdict: 'fail',
        message: `${members.length} member${members.length > 1 ? 's' : ''} the ${resource} schema does not document (--strict): ${members.map((m) => `"${m}"`).join(', ')}`,
        expected: 'documented members only',
        actual: members,
      }
    : { name, kind: 'schema', verdict: 'pass', message: `every member is documented by the ${resource} schema` };
}

// Code-unit order, not localeCompare: a process's first localeCompare builds an ICU collator, ~5 ms
// of every run that has two notes (bench/README.md).
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** the notes of a run, in a stable order (endpoint, then member) */
export function sortedNotes(notes: UndocumentedNotes): UndocumentedMember[] {
  return [...notes.found.values()].sort((a, b) => byCodeUnit(a.endpoint, b.endpoint) || byCodeUnit(a.member, b.member));
}
