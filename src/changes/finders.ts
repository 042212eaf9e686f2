// The change rules' code: one row per rule id of rules/change-rules.yaml (which holds its level, summary and doc),
// saying what the rule is found from (`when`, printed under the rule in docs/change-rules.md) and finding it (`find`).
// A difference is claimed by the first row of its kind, in the order of this table, whose `find` gives a finding:
// the order is the precedence (an endpoint absent on one side explains every difference of its exchanges; a status
// change explains the body that came with it). The rules file and this table name the same ids (checked at load).
import type { ChangeClass, ChangeRuleId } from '../schema/generated/types.js';
import type { Difference } from './compare.js';
import { endpointFinding, isError, memberFinding, segmentsOf, type Finding } from './finding.js';

/** one difference of an exchange, with what the rest of its scenario says about it */
export interface Seen {
  d: Difference;
  /** the endpoint absent (404, or 405 naming other methods) on one side that explains this difference, and that side (0: older, 1: newer) */
  absent?: { endpoint: string; side: 0 | 1 };
  /** the status difference of d's exchange, when its status changed */
  status?: Difference;
  /** what the body rows judge: the exchange's event difference (an event no longer seen answers fewer entries), else d */
  body: Difference;
}

/** a scenario recorded in one folder only */
export interface OneSided {
  onlyIn: 'a' | 'b';
}

/** a check whose verdict changed between two versions (matrix, report merge) that no difference of its step explains */
export interface UnexplainedCheck {
  id: string;
  note: string;
}

type Find<S> = (s: S) => Finding | undefined;
/** `fits`: the class of change a cause of the rule explains best where a step shows several (matrix/causes.ts): a
 * check that now conforms by what brought the answer to the spec, a version change by an endpoint or exchange on one
 * side only. `seenByNoCheck`: no check of the suite sees the change (a media type is checked without its parameters),
 * so it explains no changed check */
type Row = { rule: ChangeRuleId; when: string; fits?: ChangeClass; seenByNoCheck?: true } & (
  | { on: 'exchange'; find: Find<Seen> }
  | { on: 'scenario'; find: Find<OneSided> }
  | { on: 'check'; find: Find<UnexplainedCheck> }
);

const sides = ['older', 'newer'] as const;

/** a member or an entry added or removed: an entry (array item, map value) when the path ends in one */
const isEntry = (d: Difference) => segmentsOf(d.path).at(-1) === '*';
const isNarrowed = (d: Difference) => d.after!.split('|').every((t) => d.before!.split('|').includes(t));
const statusChange = (s: Difference) => `status ${s.before} → ${s.after}`;
const bothErrors = (d: Difference) => isError(d.status[0]) && isError(d.status[1]);

/** the row of an endpoint absent on one side (verdict/absent.ts: the router's 404, or 405 naming other methods), the other answering it with a success */
const absentRow = (rule: ChangeRuleId, side: 0 | 1): Row => ({
  rule,
  fits: 'version-change',
  when: `an endpoint the ${sides[side]} version answers only as absent (the router's 404, or a 405 whose Allow names only other methods) and the ${sides[1 - side]} with a success: any difference of its exchanges, and the exchanges of its probes on one side only`,
  on: 'exchange',
  find: ({ absent }) =>
    absent?.side === side
      ? endpointFinding(
          rule,
          absent.endpoint,
          `absent (404, or 405 naming other methods) on the ${sides[side]} version`,
        )
      : undefined,
});

/** the row of an exchange in one recording only, no absent endpoint explaining it */
const oneSidedRow = (rule: ChangeRuleId, side: 0 | 1): Row => ({
  rule,
  fits: 'version-change',
  when: `an exchange in the ${sides[side]} recording only, no absent endpoint explaining it`,
  on: 'exchange',
  find: ({ d }) =>
    d.kind === (side === 0 ? 'only-before' : 'only-after')
      ? endpointFinding(rule, d.endpoint, `requested in the ${sides[side]} recording only`)
      : undefined,
});

export const FINDERS: Row[] = [
  absentRow('endpoint-added', 0),
  absentRow('endpoint-removed', 1),
  oneSidedRow('exchange-missing', 0),
  oneSidedRow('exchange-new', 1),
  {
    rule: 'error-status-changed',
    when: 'an exchange answered with an error on both sides, with different statuses (every difference of it)',
    on: 'exchange',
    find: ({ d, status }) =>
      status && bothErrors(status)
        ? endpointFinding('error-status-changed', d.endpoint, statusChange(status))
        : undefined,
  },
  {
    rule: 'status-changed',
    when: 'an exchange whose status changed, a success on at least one side (every difference of it)',
    on: 'exchange',
    find: ({ d, status }) => (status ? endpointFinding('status-changed', d.endpoint, statusChange(status)) : undefined),
  },
  {
    rule: 'error-body-changed',
    when: 'the body of an error answer (same status on both sides) differs in any way',
    on: 'exchange',
    find: ({ body }) =>
      bothErrors(body)
        ? endpointFinding('error-body-changed', body.endpoint, `error answers (status ${body.status[1]}) changed shape`)
        : undefined,
  },
  {
    rule: 'media-type-changed',
    when: "the answer's media type differs",
    on: 'exchange',
    find: ({ body: b }) =>
      b.kind === 'media-type'
        ? endpointFinding('media-type-changed', b.endpoint, `media type ${b.before} → ${b.after}`)
        : undefined,
  },
  {
    rule: 'media-type-parameters-changed',
    seenByNoCheck: true,
    when: "the answer's media type is the same, its parameters (charset=…) differ (one cause over every endpoint)",
    on: 'exchange',
    find: ({ body: b }) =>
      b.kind === 'media-type-parameters'
        ? {
            ...endpointFinding(
              'media-type-parameters-changed',
              b.endpoint,
              `media type parameters ${b.before} → ${b.after}`,
            ),
            acrossEndpoints: true,
          }
        : undefined,
  },
  {
    rule: 'response-body-no-longer-json',
    when: 'the older body parses as JSON, the newer does not',
    on: 'exchange',
    find: ({ body: b }) =>
      b.kind === 'body-json' && b.before === 'JSON'
        ? endpointFinding('response-body-no-longer-json', b.endpoint, `body ${b.before} → ${b.after}`)
        : undefined,
  },
  {
    rule: 'response-body-now-json',
    fits: 'fixed',
    when: 'the newer body parses as JSON, the older does not',
    on: 'exchange',
    find: ({ body: b }) =>
      b.kind === 'body-json'
        ? endpointFinding('response-body-now-json', b.endpoint, `body ${b.before} → ${b.after}`)
        : undefined,
  },
  {
    rule: 'response-member-type-narrowed',
    fits: 'fixed',
    when: 'a member with fewer JSON types in the newer answers, every one of them seen there in the older',
    on: 'exchange',
    find: ({ body: b }) =>
      b.kind === 'type' && isNarrowed(b)
        ? memberFinding(b, 'response-member-type-narrowed', segmentsOf(b.path), `type ${b.before} → ${b.after}`)
        : undefined,
  },
  {
    rule: 'response-member-type-changed',
    when: 'a member with a JSON type in the newer answers that the older never had there',
    on: 'exchange',
    find: ({ body: b }) =>
      b.kind === 'type'
        ? memberFinding(b, 'response-member-type-changed', segmentsOf(b.path), `type ${b.before} → ${b.after}`)
        : undefined,
  },
  {
    rule: 'effect-changed',
    when: 'a collection (array items, map values) with entries in one version only',
    on: 'exchange',
    find: ({ body: b }) =>
      (b.kind === 'removed' || b.kind === 'added') && isEntry(b)
        ? memberFinding(
            b,
            'effect-changed',
            segmentsOf(b.path).slice(0, -1),
            `entries only in the ${sides[b.kind === 'removed' ? 0 : 1]} version`,
          )
        : undefined,
  },
  {
    rule: 'response-member-removed',
    when: 'a member of the older answers missing from the newer',
    on: 'exchange',
    find: ({ body: b }) =>
      b.kind === 'removed'
        ? memberFinding(
            b,
            'response-member-removed',
            segmentsOf(b.path),
            `removed${b.inside ? ` (with ${b.inside} inside)` : ''}`,
          )
        : undefined,
  },
  {
    rule: 'response-member-added',
    fits: 'fixed',
    when: 'a member of the newer answers the older did not send (grouped by the object that holds it)',
    on: 'exchange',
    find: ({ body: b }) =>
      b.kind === 'added'
        ? {
            ...memberFinding(b, 'response-member-added', segmentsOf(b.path).slice(0, -1), 'members added', true),
            member: segmentsOf(b.path).at(-1),
          }
        : undefined,
  },
  {
    rule: 'response-value-format-changed',
    when: "values that met a rule of the spec's schema (pattern, format, enum, bounds) in the older answers break it in the newer",
    on: 'exchange',
    find: ({ body: b }) =>
      b.kind === 'value-broken'
        ? memberFinding(
            b,
            'response-value-format-changed',
            segmentsOf(b.path),
            `no longer matches the spec's ${b.after}`,
          )
        : undefined,
  },
  {
    rule: 'response-value-format-now-conforms',
    fits: 'fixed',
    when: "values that broke a rule of the spec's schema in the older answers meet it in the newer",
    on: 'exchange',
    find: ({ body: b }) =>
      b.kind === 'value-conforms'
        ? memberFinding(
            b,
            'response-value-format-now-conforms',
            segmentsOf(b.path),
            `matches the spec's ${b.before} now`,
          )
        : undefined,
  },
  {
    rule: 'default-changed',
    when: 'a boolean or number of the configuration the lab did not set (a default) differs',
    on: 'exchange',
    find: ({ body: b }) =>
      b.kind === 'value'
        ? memberFinding(b, 'default-changed', segmentsOf(b.path), `${b.before} → ${b.after}`)
        : undefined,
  },
  {
    rule: 'event-not-fired',
    when: 'an event type an event poll saw in the older recording and not in the newer (with the entries it explains)',
    on: 'exchange',
    find: ({ body: b }) =>
      b.kind === 'event-gone'
        ? endpointFinding('event-not-fired', b.endpoint, `event ${b.before} no longer seen`)
        : undefined,
  },
  {
    rule: 'event-added',
    when: 'an event type an event poll saw in the newer recording only (with the entries it explains)',
    on: 'exchange',
    find: ({ body: b }) =>
      b.kind === 'event-new' ? endpointFinding('event-added', b.endpoint, `event ${b.after} newly seen`) : undefined,
  },
  {
    rule: 'scenario-missing',
    when: 'a scenario recorded in the older folder only',
    on: 'scenario',
    find: ({ onlyIn }) =>
      onlyIn === 'a' ? endpointFinding('scenario-missing', '*', 'recorded in the older folder only') : undefined,
  },
  {
    rule: 'scenario-new',
    when: 'a scenario recorded in the newer folder only',
    on: 'scenario',
    find: ({ onlyIn }) =>
      onlyIn === 'b' ? endpointFinding('scenario-new', '*', 'recorded in the newer folder only') : undefined,
  },
  {
    rule: 'check-changed-unexplained',
    when: 'a check whose verdict changed between two versions of a matrix that no difference of its step explains',
    on: 'check',
    find: ({ id, note }) => endpointFinding('check-changed-unexplained', '*', `check ${id}: ${note}`),
  },
];

/** the first row of kind `on` that finds something in `subject`; a subject no row claims is a fault of synconf */
function firstFinding<S>(on: Row['on'], subject: S, what: string): Finding {
  for (const row of FINDERS) {
    if (row.on !== on) continue;
    const found = (row.find as Find<S>)(subject);
    if (found) return found;
  }
  throw new Error(`no change rule finds ${what}`);
}

export const exchangeFinding = (s: Seen): Finding => firstFinding('exchange', s, `a ${s.d.kind} difference`);
export const scenarioFinding = (s: OneSided): Finding => firstFinding('scenario', s, 'a one-sided scenario');
export const checkFinding = (c: UnexplainedCheck): Finding => firstFinding('check', c, 'a changed check');

/** how the rule table and the ids of the rules file disagree: an id without a row, a row without an id, two rows */
export function finderProblems(ruleIds: string[]): string[] {
  const rows = FINDERS.map((r) => r.rule as string);
  return [
    ...ruleIds.filter((id) => !rows.includes(id)).map((id) => `rule ${id} has no row in src/changes/finders.ts`),
    ...rows.filter((id) => !ruleIds.includes(id)).map((id) => `finders.ts has a row for ${id}, not in the rules file`),
    ...rows.filter((id, i) => rows.indexOf(id) !== i).map((id) => `finders.ts has two rows for ${id}`),
  ];
}

/** what a rule is found from, in the words docs/change-rules.md prints */
export const whenOf = (id: string): string | undefined => FINDERS.find((r) => r.rule === id)?.when;

/** the class of change a cause of rule `id` explains best, if any */
export const fitsOf = (id: string): ChangeClass | undefined => FINDERS.find((r) => r.rule === id)?.fits;

/** whether a cause of the rule can explain a changed check (a change no check sees cannot) */
export const explainsChecks = (id: string): boolean => !FINDERS.find((r) => r.rule === id)?.seenByNoCheck;
