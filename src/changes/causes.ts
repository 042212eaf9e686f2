// The differences of a drift comparison grouped by cause, each cause classified by a change rule (rules.ts) from
// the point of view of a client of the older version (A → B). A cause is an endpoint (or the schema a member is
// defined in, for a member several endpoints return) + a JSON pointer with array items and map keys as `*` + a kind
// of change; an endpoint absent on one side; a status change. Every difference is folded into exactly one cause,
// and the cause keeps them as its evidence.
import type { ChangeCause, ChangeEvidence, ChangeRuleId } from '../schema/generated/types.js';
import { describeDifference, type Difference } from './compare.js';
import type { ScenarioDrift } from './compare-dirs.js';
import { loadEndpoints } from '../schema/endpoints.js';
import { homeOf } from './schema-home.js';
import { ruleOf, ruleRank } from './rules.js';
import { changeLevels } from '../verdict/change-levels.js';

export type { ChangeCause };

/** what one difference is evidence of; findings with the same key are one cause */
interface Finding {
  rule: ChangeRuleId;
  endpoint: string;
  /** the schema that defines the member: the cause is then keyed by it, not by the endpoint */
  schema?: string;
  /** within `schema` when there is one, else within the answer */
  pointer: string;
  /** the pointer in the answer */
  at?: string;
  /** an added member, grouped under `pointer` */
  member?: string;
  change: string;
}

interface Seen {
  scenario: string;
  d: Difference;
}

let responses: Map<string, string> | undefined;

/**
 * The parts of the configuration its sub-paths answer with (GET /rest/config/options, /folders, /folders/ID, ...):
 * a member there is the member of the configuration object, as GET /rest/config answers it.
 */
const CONFIG_PART =
  /^GET \/rest\/config\/(options|gui|ldap|folders|devices|defaults\/folder|defaults\/device)(\/<\w+>)?$/;

/** the response resource of an endpoint ("METHOD /path") by the catalog, and where in it the answer sits */
function responseOf(endpoint: string): { resource: string; prefix: string[] } | undefined {
  responses ??= new Map(loadEndpoints().flatMap((e) => (e.response ? [[e.id, e.response] as const] : [])));
  const resource = responses.get(endpoint);
  if (resource) return { resource, prefix: [] };
  const part = CONFIG_PART.exec(endpoint);
  if (part) return { resource: 'config', prefix: [...part[1].split('/'), ...(part[2] ? ['*'] : [])] };
  return undefined;
}

/** a drift path or a pointer as segments, array items, indexes and keys in disguise (<deviceId>) as `*` */
export const segmentsOf = (path: string | undefined): string[] =>
  (path ?? '')
    .split('/')
    .slice(1)
    .filter((s, i, all) => s !== '' || i < all.length - 1)
    .map((s) => (s === '[]' || s.startsWith('<') || /^\d+$/.test(s) ? '*' : s));

const pointerOf = (segments: string[]) => segments.map((s) => `/${s}`).join('');

const isError = (s: number | string | null) => typeof s !== 'number' || s >= 400;

/**
 * A finding about the member at `segments` of an answer, placed in the schema that defines it where known: the
 * schema of the object holding the member, or with `itself` the schema of the object at `segments` (whose
 * members were added).
 */
function memberFinding(d: Difference, rule: ChangeRuleId, segments: string[], change: string, itself = false): Finding {
  const at = pointerOf(segments);
  const response = responseOf(d.endpoint);
  if (!response) return { rule, endpoint: d.endpoint, pointer: at, at, change };
  const inResource = [...response.prefix, ...segments];
  if (itself) return { rule, endpoint: d.endpoint, ...homeOf(response.resource, inResource), at, change };
  const home = homeOf(response.resource, inResource.slice(0, -1));
  const pointer = `${home.pointer}${inResource.length ? `/${inResource.at(-1)}` : ''}`;
  return { rule, endpoint: d.endpoint, schema: home.schema, pointer, at, change };
}

/** a field added or removed: a member, or the entries of a collection (array items, map values) */
function fieldFinding(d: Difference): Finding {
  const segments = segmentsOf(d.path);
  const older = d.kind === 'removed';
  if (segments.at(-1) === '*')
    return memberFinding(
      d,
      'effect-changed',
      segments.slice(0, -1),
      `entries only in the ${older ? 'older' : 'newer'} version`,
    );
  if (older)
    return memberFinding(
      d,
      'response-member-removed',
      segments,
      `removed${d.inside ? ` (with ${d.inside} inside)` : ''}`,
    );
  return {
    ...memberFinding(d, 'response-member-added', segments.slice(0, -1), 'members added', true),
    member: segments.at(-1),
  };
}

/** a type change: narrowed when every newer type was already seen there */
function typeFinding(d: Difference): Finding {
  const [before, after] = [d.before!.split('|'), d.after!.split('|')];
  const narrowed = after.every((t) => before.includes(t));
  return memberFinding(
    d,
    narrowed ? 'response-member-type-narrowed' : 'response-member-type-changed',
    segmentsOf(d.path),
    `type ${d.before} → ${d.after}`,
  );
}

/** the finding of one difference of an exchange answered on both sides with the same status */
function bodyFinding(d: Difference): Finding {
  const endpointOnly = (rule: ChangeRuleId, change: string): Finding => ({
    rule,
    endpoint: d.endpoint,
    pointer: '',
    change,
  });
  if (isError(d.status[0]) && isError(d.status[1]))
    return endpointOnly('error-body-changed', `error answers (status ${d.status[1]}) changed shape`);
  switch (d.kind) {
    case 'media-type':
      return endpointOnly('media-type-changed', `media type ${d.before} → ${d.after}`);
    case 'body-json':
      return endpointOnly(
        d.before === 'JSON' ? 'response-body-no-longer-json' : 'response-body-now-json',
        `body ${d.before} → ${d.after}`,
      );
    case 'type':
      return typeFinding(d);
    case 'removed':
    case 'added':
      return fieldFinding(d);
    case 'value-broken':
      return memberFinding(
        d,
        'response-value-format-changed',
        segmentsOf(d.path),
        `no longer matches the spec's ${d.after}`,
      );
    case 'value-conforms':
      return memberFinding(
        d,
        'response-value-format-now-conforms',
        segmentsOf(d.path),
        `matches the spec's ${d.before} now`,
      );
    case 'value':
      return memberFinding(d, 'default-changed', segmentsOf(d.path), `${d.before} → ${d.after}`);
    case 'event-gone':
      return endpointOnly('event-not-fired', `event ${d.before} no longer seen`);
    case 'event-new':
      return endpointOnly('event-added', `event ${d.after} newly seen`);
    default:
      throw new Error(`a ${d.kind} difference is not a difference of a body`);
  }
}

/** endpoints answered only with 404 on one side and with a success on the other: the side they are absent on */
function absentEndpoints(seen: Seen[]): Map<string, 0 | 1> {
  const statuses = new Map<string, [(number | string)[], (number | string)[]]>();
  for (const { d } of seen) {
    const s = statuses.get(d.endpoint) ?? statuses.set(d.endpoint, [[], []]).get(d.endpoint)!;
    d.status.forEach((st, side) => st !== null && s[side].push(st));
  }
  const absent = new Map<string, 0 | 1>();
  for (const [endpoint, sides] of statuses)
    for (const side of [0, 1] as const) {
      const [here, there] = [sides[side], sides[1 - side]];
      if (here.length && here.every((s) => s === 404) && there.some((s) => !isError(s))) absent.set(endpoint, side);
    }
  return absent;
}

const endpointFinding = (endpoint: string, side: 0 | 1): Finding => ({
  rule: side === 0 ? 'endpoint-added' : 'endpoint-removed',
  endpoint,
  pointer: '',
  change: `not found (404) on the ${side === 0 ? 'older' : 'newer'} version`,
});

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
    const onlySide = d.kind === 'only-before' ? 1 : d.kind === 'only-after' ? 0 : undefined;
    if (onlySide !== undefined) {
      const explained = absent.has(d.endpoint) ? d.endpoint : absentMode;
      if (explained) return endpointFinding(explained, absent.get(explained)!);
      const rule = onlySide === 1 ? 'exchange-missing' : 'exchange-new';
      return {
        rule,
        endpoint: d.endpoint,
        pointer: '',
        change: `requested in the ${onlySide === 1 ? 'older' : 'newer'} recording only`,
      };
    }
    const status = statusOf.get(d.exchange);
    if (!status)
      return bodyFinding(d.kind === 'event-gone' || d.kind === 'event-new' ? d : (eventOf.get(d.exchange) ?? d));
    if (absent.has(d.endpoint)) return endpointFinding(d.endpoint, absent.get(d.endpoint)!);
    const bothErrors = isError(status.status[0]) && isError(status.status[1]);
    return {
      rule: bothErrors ? 'error-status-changed' : 'status-changed',
      endpoint: d.endpoint,
      pointer: '',
      change: `status ${status.before} → ${status.after}`,
    };
  });
}

interface Folded {
  finding: Finding;
  endpoints: Set<string>;
  at: Set<string>;
  members: Set<string>;
  evidence: ChangeEvidence[];
}

const keyOf = (f: Finding) => [f.rule, f.schema ? `schema ${f.schema}` : f.endpoint, f.pointer, f.change].join('\n');

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

/** the causes of a drift from folder A (older) to folder B (newer), most urgent first */
export function causesOf(scenarios: ScenarioDrift[]): ChangeCause[] {
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
      const rule = s.onlyIn === 'a' ? 'scenario-missing' : 'scenario-new';
      const change = `recorded in the ${s.onlyIn === 'a' ? 'older' : 'newer'} folder only`;
      fold({ rule, endpoint: '*', pointer: '', change }, { scenario: s.scenario, difference: s.lines[0] });
      continue;
    }
    const findings = scenarioFindings(s.differences, absent);
    s.differences.forEach((d, i) => fold(findings[i], { scenario: s.scenario, difference: describeDifference(d) }));
  }
  return [...groups.values()].map(toCause).sort(byUrgency);
}
