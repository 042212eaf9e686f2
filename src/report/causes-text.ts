// The causes of a drift as text (one line each) and as the --json document, and the --fail-on gate over them.
// Pure: causes in, text or data out; src/commands/drift.ts prints and sets the exit code.
import type { ChangeCause, DriftCauses } from '../schema/generated/types.js';
import { tripsGate, type ChangeFailOn } from '../verdict/change-levels.js';
import { Budget, REPORT_FILE_BOUND, boundedJson } from './bound.js';
import { plural } from '../plural.js';

/** where in the answers: the pointers seen, or the schema's pointer; nothing for a cause of a whole endpoint */
function whereOf(c: ChangeCause): string[] {
  if (c.at?.length) return c.at.map((p) => p || '/');
  return c.pointer ? [c.pointer] : c.members || c.schema ? ['/'] : [];
}

/** a cause as the gate names it: RULE@ENDPOINT, the other endpoints counted, and where */
export function causeId(c: ChangeCause): string {
  const more = c.endpoints.length > 1 ? ` (+${plural(c.endpoints.length - 1, 'endpoint')})` : '';
  const where = whereOf(c)[0];
  return `${c.rule}@${c.endpoints[0]}${where ? ` ${where}` : ''}${more}`;
}

/** how many member names a cause's line shows: an answer with 20,000 new members is one line, not 200 kB of names */
const MEMBERS_SHOWN = 20;

/** the members, the first MEMBERS_SHOWN named and the rest (those a file left out, `moreMembers`, too) counted */
export function namedMembers(members: string[], left = 0): string {
  const more = Math.max(0, members.length - MEMBERS_SHOWN) + left;
  const named = members.slice(0, MEMBERS_SHOWN).join(', ');
  return more ? `${named} and ${more.toLocaleString('en-US')} more` : named;
}

/** a line names every endpoint of a cause up to this many; beyond, the first few and a count (one cause over every
 * endpoint the agent's HTTP layer answers, media-type-parameters-changed, named 24: --json keeps them all) */
const ENDPOINTS_SHOWN = 4;

/** the endpoints, all of them up to ENDPOINTS_SHOWN, else the first three and how many more */
export function namedEndpoints(endpoints: string[]): string {
  if (endpoints.length <= ENDPOINTS_SHOWN) return endpoints.join(', ');
  const shown = ENDPOINTS_SHOWN - 1;
  return `${endpoints.slice(0, shown).join(', ')} and ${(endpoints.length - shown).toLocaleString('en-US')} more endpoints`;
}

/**
 * How many evidence entries (and member names) a cause keeps in matrix.json, which holds the causes of every pair of
 * versions: a pair whose answer lost 99,000 members is 20 of them and a count, not 99,000 differences. The bundled
 * recordings' causes have up to 162; 20 show what a cause is, and `synconf drift --differences` lists them all.
 */
export const EVIDENCE_KEPT = MEMBERS_SHOWN;

/**
 * The cause with only the first `evidence` evidence entries and `members` member names, those left out counted in
 * `moreEvidence` and `moreMembers` (added to what an earlier cut left out): nothing is dropped without its count.
 */
export function keptOf(c: ChangeCause, evidence = EVIDENCE_KEPT, members = EVIDENCE_KEPT): ChangeCause {
  const cutEvidence = c.evidence.length > evidence;
  const cutMembers = (c.members?.length ?? 0) > members;
  if (!cutEvidence && !cutMembers) return c;
  return {
    ...c,
    ...(cutEvidence
      ? { evidence: c.evidence.slice(0, evidence), moreEvidence: (c.moreEvidence ?? 0) + c.evidence.length - evidence }
      : {}),
    ...(cutMembers
      ? { members: c.members!.slice(0, members), moreMembers: (c.moreMembers ?? 0) + c.members!.length - members }
      : {}),
  };
}

/** one line: level, rule id, endpoints, pointer, what changed, the rule's summary, the folded count */
export function causeLine(c: ChangeCause): string {
  const where = whereOf(c).join(', ');
  const change = c.members ? `${c.change}: ${namedMembers(c.members, c.moreMembers)}` : c.change;
  const level = c.accepted ? 'accepted' : c.level;
  const folded = `(${plural(c.occurrences, 'occurrence')} in ${plural(c.scenarios.length, 'scenario')})`;
  const accepted = c.accepted ? ` [${c.level}, accepted by ${c.accepted.by}: ${c.accepted.reason}]` : '';
  return `${level.padEnd(10)} ${c.rule}  ${namedEndpoints(c.endpoints)}${where ? ` ${where}` : ''}: ${change} — ${c.summary} ${folded}${accepted}`;
}

/** causes per level, accepted ones counted apart */
export function countsOf(causes: ChangeCause[]): DriftCauses['counts'] {
  const open = causes.filter((c) => !c.accepted);
  return {
    breaking: open.filter((c) => c.level === 'breaking').length,
    risky: open.filter((c) => c.level === 'risky').length,
    compatible: open.filter((c) => c.level === 'compatible').length,
    accepted: causes.length - open.length,
  };
}

export function countLine(counts: DriftCauses['counts']): string {
  const total = counts.breaking + counts.risky + counts.compatible + counts.accepted;
  return `${plural(total, 'cause')}: ${counts.breaking} breaking, ${counts.risky} risky, ${counts.compatible} compatible, ${counts.accepted} accepted`;
}

/** the causes, not accepted, at or above the --fail-on level (any: every one) */
export function failing(causes: ChangeCause[], failOn: ChangeFailOn): ChangeCause[] {
  return causes.filter((c) => !c.accepted && tripsGate(c.level, failOn));
}

/** the gate's verdict in one line, naming the causes that trip it */
export function gateLine(failOn: ChangeFailOn, tripped: ChangeCause[]): string {
  const what = failOn === 'any' ? 'not accepted' : `at or above ${failOn}, not accepted`;
  if (!tripped.length) return `--fail-on ${failOn}: no cause ${what}`;
  return `--fail-on ${failOn}: ${plural(tripped.length, 'cause')} ${what}: ${tripped.map(causeId).join('; ')}`;
}

/** how many of the first of `items` fit in `bytes` as JSON */
function prefixWithin(items: unknown[], bytes: number): number {
  const budget = new Budget(bytes);
  let n = 0;
  for (const item of items) {
    // an item of an indented list takes its indentation too: about 10 bytes a line
    const text = JSON.stringify(item, null, 2);
    if (!budget.take(Buffer.byteLength(text) + 10 * text.split('\n').length)) break;
    n++;
  }
  return n;
}

/**
 * The --json document's text within the bound of a report file (10 MB): as it is when it fits; otherwise each cause
 * keeps the first of its evidence and member names that fit in its share of the bound, and counts the rest
 * (`moreEvidence`, `moreMembers`). `occurrences`, the change and the counts still count every one.
 */
export function causesJson(doc: DriftCauses, limit = REPORT_FILE_BOUND): string {
  // the causes that cannot tell (drift --against) share the bound with the others
  const all = doc.causes.length + (doc.uncertain?.causes.length ?? 0);
  return boundedJson(doc, limit, (share) => {
    const each = (share * limit) / Math.max(1, all) / 2;
    const cut = (causes: ChangeCause[]) =>
      causes.map((c) => keptOf(c, prefixWithin(c.evidence, each), c.members ? prefixWithin(c.members, each) : 0));
    const uncertain = doc.uncertain && { ...doc.uncertain, causes: cut(doc.uncertain.causes) };
    return { ...doc, causes: cut(doc.causes), ...(uncertain ? { uncertain } : {}) };
  });
}
