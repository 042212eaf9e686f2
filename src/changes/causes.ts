// The differences of a drift comparison grouped by cause, each cause classified by a change rule (found by the rule
// table, finders.ts; levels and texts in rules/change-rules.yaml) from the point of view of a client of the older
// version (A → B). A cause is an endpoint (or the schema a member is
// defined in, for a member several endpoints return) + a JSON pointer with array items and map keys as `*` + a kind
// of change; an endpoint absent on one side; a status change. Every difference is folded into exactly one cause,
// and the cause keeps them as its evidence. The causes of one rule about members of one object are one cause that
// names them (foldMembers): the 17 members the usage report lost in 2.1.0 are one line, as 99,000 would be; the
// cause keeps the members, and is folded after the reviewed causes are accepted (an entry accepts a member's cause,
// and what it accepts is folded apart from what it does not: the gate is the same, folded or not).
import type { ChangeCause, ChangeEvidence } from '../schema/generated/types.js';
import { describeDifference, type Difference } from './compare.js';
import type { ScenarioDrift } from './compare-dirs.js';
import { isError, type Finding } from './finding.js';
import { exchangeFinding, scenarioFinding, type Seen } from './finders.js';
import { ruleOf, ruleRank } from './rules.js';
import { changeLevels } from '../verdict/change-levels.js';

export type { ChangeCause };

/**
 * Endpoints whose every answer on one side shows them absent (verdict/absent.ts: the router's 404, or a 405 whose
 * Allow names only the path's other methods, as 1.13.0-1.17.x answer DELETE /rest/cluster/pending/*) and with a
 * success on the other: the side they are absent on
 */
type Answered = { absent: boolean; status: number | string };

function absentEndpoints(seen: { d: Difference }[]): Map<string, 0 | 1> {
  const answers = new Map<string, [Answered[], Answered[]]>();
  for (const { d } of seen) {
    const s = answers.get(d.endpoint) ?? answers.set(d.endpoint, [[], []]).get(d.endpoint)!;
    d.status.forEach((st, side) => st !== null && s[side].push({ absent: d.absent[side] === true, status: st }));
  }
  const absent = new Map<string, 0 | 1>();
  for (const [endpoint, sides] of answers)
    for (const side of [0, 1] as const) {
      const [here, there] = [sides[side], sides[1 - side]];
      if (here.length && here.every((a) => a.absent) && there.some((a) => !isError(a.status)))
        absent.set(endpoint, side);
    }
  return absent;
}

/**
 * The findings of one scenario's differences. An exchange whose status changed is one status finding, whatever
 * else differs in it; a scenario that ran its absent-mode probes on one side (an endpoint of it absent there) has
 * its one-sided exchanges explained by that endpoint.
 */
function scenarioFindings(differences: Difference[], absent: Map<string, 0 | 1>): Finding[] {
  const probeOf = (d: Difference) =>
    d.kind.startsWith('only-') && absent.has(d.endpoint) && / absent: /.test(d.exchange) ? d.endpoint : undefined;
  const absentMode = differences
    .map(probeOf)
    .filter((e): e is string => !!e)
    .sort()[0];
  const statusOf = new Map(differences.filter((d) => d.kind === 'status').map((d) => [d.exchange, d]));
  // An event poll that no longer sees an event type answers fewer entries: the event explains them.
  const eventOf = new Map(
    differences.filter((d) => d.kind === 'event-gone' || d.kind === 'event-new').map((d) => [d.exchange, d]),
  );
  return differences.map((d): Finding => {
    const oneSided = d.kind === 'only-before' || d.kind === 'only-after';
    const status = oneSided ? undefined : statusOf.get(d.exchange);
    // a one-sided exchange is explained by its endpoint's absence, or by the absent-mode probes of its scenario; a
    // changed status by its endpoint's absence
    const explainedBy = oneSided ? (absent.has(d.endpoint) ? d.endpoint : absentMode) : status && d.endpoint;
    const side = explainedBy === undefined ? undefined : absent.get(explainedBy);
    const seen: Seen = {
      d,
      ...(side !== undefined ? { absent: { endpoint: explainedBy!, side } } : {}),
      ...(status ? { status } : {}),
      body: d.kind === 'event-gone' || d.kind === 'event-new' ? d : (eventOf.get(d.exchange) ?? d),
    };
    return exchangeFinding(seen);
  });
}

interface Folded {
  finding: Finding;
  endpoints: Set<string>;
  at: Set<string>;
  members: Set<string>;
  evidence: ChangeEvidence[];
}

const keyOf = (f: Finding) =>
  [
    f.rule,
    f.schema ? `schema ${f.schema}` : f.acrossEndpoints ? 'every endpoint' : f.endpoint,
    f.pointer,
    f.change,
  ].join('\n');

function toCause(g: Folded): ChangeCause {
  const { rule, schema, pointer, change } = g.finding;
  const r = ruleOf(rule);
  const at = [...g.at].sort();
  return {
    rule,
    level: r.level,
    summary: r.summary,
    endpoints: [...g.endpoints].sort() as ChangeCause['endpoints'],
    ...(schema ? { schema } : {}),
    pointer,
    ...(at.length && (at.length > 1 || at[0] !== pointer) ? { at } : {}),
    ...(g.members.size ? { members: [...g.members].sort() } : {}),
    change,
    occurrences: g.evidence.length,
    scenarios: [...new Set(g.evidence.map((e) => e.scenario))].sort(),
    evidence: g.evidence,
  };
}

/** the order causes are listed in: breaking first, then by rule, endpoint and pointer */
export function byUrgency(x: ChangeCause, y: ChangeCause): number {
  return (
    changeLevels().indexOf(x.level) - changeLevels().indexOf(y.level) ||
    ruleRank(x.rule) - ruleRank(y.rule) ||
    x.endpoints[0].localeCompare(y.endpoints[0], 'en') ||
    x.pointer.localeCompare(y.pointer, 'en') ||
    x.change.localeCompare(y.change, 'en')
  );
}

/** More causes than this of one rule about the members of one object fold into one: two members are one change */
export const FOLD_MEMBERS_OVER = 1;

/** the pointer of the object a member's pointer is in ("/a/b": "/a"; "/a": "", the whole answer) */
const parentOf = (pointer: string) => pointer.slice(0, Math.max(0, pointer.lastIndexOf('/')));

const sortedUnion = (lists: string[][]) => [...new Set(lists.flat())].sort();

/** causes of one rule about members of one object as one cause about that object, naming the members */
function folded(group: ChangeCause[]): ChangeCause {
  const [{ rule, level, summary, schema }] = group;
  const pointer = parentOf(group[0].pointer);
  const at = sortedUnion(group.map((c) => (c.at ?? [c.pointer]).map(parentOf)));
  const members = sortedUnion(group.map((c) => [c.pointer.slice(pointer.length + 1)]));
  const changes = sortedUnion(group.map((c) => [c.change]));
  const evidence = group.flatMap((c) => c.evidence);
  return {
    rule,
    level,
    summary,
    endpoints: sortedUnion(group.map((c) => c.endpoints)) as ChangeCause['endpoints'],
    ...(schema ? { schema } : {}),
    pointer,
    ...(at.length > 1 || at[0] !== pointer ? { at } : {}),
    members,
    change: `${changes.slice(0, 3).join('; ')}${changes.length > 3 ? '; …' : ''} (${members.length.toLocaleString('en-US')} members)`,
    occurrences: evidence.length,
    scenarios: sortedUnion(group.map((c) => c.scenarios)),
    evidence,
    ...(group[0].accepted ? { accepted: group[0].accepted } : {}),
  };
}

/**
 * The causes, those of one rule about more than FOLD_MEMBERS_OVER members of one object folded (each folded cause
 * of members accepted by one entry, or by none), most urgent first. A cause folded already stays as it is.
 */
export function foldMembers(causes: ChangeCause[]): ChangeCause[] {
  const groupOf = new Map<ChangeCause, ChangeCause[]>();
  const groups = new Map<string, ChangeCause[]>();
  for (const c of causes) {
    if (!c.pointer || c.members) continue; // a cause of a whole answer or endpoint is about no member
    const by = c.accepted?.by ?? '';
    const key = [c.rule, c.schema ? `schema ${c.schema}` : c.endpoints.join(', '), parentOf(c.pointer), by].join('\n');
    const group = groups.get(key) ?? groups.set(key, []).get(key)!;
    group.push(c);
    groupOf.set(c, group);
  }
  return causes
    .flatMap((c) => {
      const group = groupOf.get(c);
      if (!group || group.length <= FOLD_MEMBERS_OVER) return [c];
      return group[0] === c ? [folded(group)] : [];
    })
    .sort(byUrgency);
}

/**
 * The causes of a drift from folder A (older) to folder B (newer), most urgent first; those of one rule about
 * members of one object folded, unless `folding` is false (reviewed causes are accepted first, then folded)
 */
export function causesOf(scenarios: ScenarioDrift[], folding = true): ChangeCause[] {
  const seen = scenarios.flatMap((s) => s.differences.map((d) => ({ scenario: s.scenario, d })));
  const absent = absentEndpoints(seen);
  const groups = new Map<string, Folded>();
  const fold = (finding: Finding, evidence: ChangeEvidence) => {
    const key = keyOf(finding);
    const g =
      groups.get(key) ??
      groups.set(key, { finding, endpoints: new Set(), at: new Set(), members: new Set(), evidence: [] }).get(key)!;
    g.endpoints.add(finding.endpoint);
    if (finding.at !== undefined) g.at.add(finding.at);
    if (finding.member) g.members.add(finding.member);
    g.evidence.push(evidence);
  };
  for (const s of scenarios) {
    if (s.onlyIn) {
      fold(scenarioFinding({ onlyIn: s.onlyIn }), { scenario: s.scenario, difference: s.lines[0] });
      continue;
    }
    const findings = scenarioFindings(s.differences, absent);
    // the lines already written for the differences, where they are theirs: not written twice
    const line = (d: Difference, i: number) =>
      s.lines.length === s.differences.length ? s.lines[i] : describeDifference(d);
    s.differences.forEach((d, i) => fold(findings[i], { scenario: s.scenario, difference: line(d, i) }));
  }
  const causes = [...groups.values()].map(toCause).sort(byUrgency);
  return folding ? foldMembers(causes) : causes;
}
