// Undocumented members of responses: a note per endpoint and member for the report, and under
// --strict a failing check of the exchange that carried them.
import type { UndocumentedMember } from '../schema/generated/types.js';
import { undocumentedMembers } from '../schema/undocumented.js';
import type { Check } from './exchange-checks.js';
import { plural } from '../plural.js';

/** how many undocumented members of one endpoint a run lists; the rest are counted (`more` of the last listed) */
export const NOTES_PER_ENDPOINT = 100;

/** what a run collects: notes by endpoint and member, and whether they fail */
export interface UndocumentedNotes {
  strict: boolean;
  found: Map<string, UndocumentedMember>;
  /** by endpoint: how many notes are listed, and the members past NOTES_PER_ENDPOINT, counted once each */
  listed?: Map<string, number>;
  unlisted?: Map<string, Set<string>>;
}

export const undocumentedNotes = (strict: boolean): UndocumentedNotes => ({ strict, found: new Map() });

/** notes `member` of `endpoint`, or counts it once the endpoint has NOTES_PER_ENDPOINT listed */
function note(notes: UndocumentedNotes, endpoint: string, resource: string, member: string, scenario: string) {
  const key = `${endpoint} ${member}`;
  let found = notes.found.get(key);
  if (!found) {
    const listed = (notes.listed ??= new Map()).get(endpoint) ?? 0;
    if (listed >= NOTES_PER_ENDPOINT) {
      const unlisted =
        (notes.unlisted ??= new Map()).get(endpoint) ?? notes.unlisted.set(endpoint, new Set()).get(endpoint)!;
      unlisted.add(member);
      return;
    }
    notes.listed.set(endpoint, listed + 1);
    notes.found.set(key, (found = { endpoint, resource, member, scenarios: [] }));
  }
  if (!found.scenarios.includes(scenario)) found.scenarios.push(scenario);
}

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
  for (const member of members) note(notes, endpoint, resource, member, scenario);
  if (!notes.strict) return undefined;
  return members.length
    ? {
        name,
        kind: 'schema',
        verdict: 'fail',
        message: `${plural(members.length, 'member')} the ${resource} schema does not document (--strict): ${members
          .slice(0, 20)
          .map((m) => `"${m}"`)
          .join(', ')}${members.length > 20 ? ` and ${members.length - 20} more` : ''}`,
        expected: 'documented members only',
        actual: members,
      }
    : { name, kind: 'schema', verdict: 'pass', message: `every member is documented by the ${resource} schema` };
}

// Code-unit order, not localeCompare: a process's first localeCompare builds an ICU collator, ~5 ms
// of every run that has two notes (bench/README.md).
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** the notes of a run, in a stable order (endpoint, then member); the last of an endpoint counts those not listed */
export function sortedNotes(notes: UndocumentedNotes): UndocumentedMember[] {
  const sorted = [...notes.found.values()].sort(
    (a, b) => byCodeUnit(a.endpoint, b.endpoint) || byCodeUnit(a.member, b.member),
  );
  for (const [endpoint, members] of notes.unlisted ?? []) {
    const last = sorted.filter((n) => n.endpoint === endpoint).at(-1);
    if (last) last.more = (last.more ?? 0) + members.size;
  }
  return sorted;
}
