// Deriving the mutants of one scenario from what its steps checked in the unmutated replay (the
// observed, rendered expectations) and from the schemas. Each mutant says which rule, if any, makes
// it equivalent: a change the spec allows cannot be caught, and does not count in the score.
import { isDeepStrictEqual } from 'node:util';
import type { Cassette, HarEntry } from '../schema/generated/types.js';
import type { ObservedStep } from '../runner/context.js';
import type { IncomingResponse, OutgoingRequest } from '../transport/types.js';
import type { LiveFault } from './fault-transport.js';
import { validate } from '../schema/registry.js';
import { entryKey } from '../transport/cassette.js';
import { schemaMutations, schemaFileOf, type ValueMutation } from './schema-mutations.js';
import { assertionMutations, headerMutations } from './assertion-mutations.js';
import { answered, answerOf, changesNothing, endpointOf, headersOf, isJsonBody, type Mutant } from './mutants.js';
import { endpointKey } from '../schema/endpoints.js';
import { plural } from '../plural.js';

/** a step as the unmutated replay checked it, with the place in the cassette of the answer it checked */
export type Observation = ObservedStep & { entryIndex?: number };

export interface ScenarioInput {
  id: string;
  file: string;
  cassette: Cassette;
  observations: Observation[];
  /** the line of a step in the scenario file */
  lineOf(step: string): number | undefined;
  agentVersion: string | null;
  /** the endpoints the scenario says it covers (its spec:): media types and side effects are its business only there */
  covers: string[];
}

const serialize = (doc: unknown) => JSON.stringify(doc, null, 2);
const liveRewrite = (
  steps: string[] | '*',
  rewrite: (r: IncomingResponse, q: OutgoingRequest) => IncomingResponse,
): LiveFault => ({ kind: 'rewrite', steps, rewrite });
const errorKeys = (resource: string, doc: unknown, version: string | null) =>
  new Set(validate(resource, doc, version ?? undefined).map((e) => `${e.pointer} ${e.rule}`));

/**
 * Equivalent when the schema rejects nothing new: either it admits the changed value (a change the spec
 * allows), or the recorded answer already breaks the same rule there (a known deviation of the agent).
 */
function schemaAdmits(resource: string, before: unknown, after: unknown, version: string | null): string | undefined {
  if (isDeepStrictEqual(before, after)) return 'the mutation changes nothing in the recorded answer';
  const was = errorKeys(resource, before, version);
  const now = errorKeys(resource, after, version);
  if (![...now].every((k) => was.has(k))) return undefined;
  const schema = `${resource}${version ? ` for agent ${version}` : ''}`;
  return now.size
    ? `the recorded answer already breaks the same rule of the schema (${schema}): a deviation of the agent`
    : `the schema admits it (${schema})`;
}

const isEvents = (e: HarEntry) => new URL(e.request.url).pathname === '/rest/events';
const ok = (e: HarEntry) => !e._error && e.response.status >= 200 && e.response.status < 300;

type RequestObservation = Extract<Observation, { kind: 'request' }>;

/** what deriving the mutants of one scenario needs at hand: its cassette's entries, and how to add a mutant */
interface Deriving {
  scenario: string;
  entries: HarEntry[];
  agentVersion: string | null;
  add: (m: Add) => void;
}

/** the id of the check a mutant aims at */
const aim = (d: Deriving, step: string, check: string) => [`${d.scenario}/${step}/${check}`];

/** one mutant per value mutation of a recorded JSON answer; `admits` says when the schema lets the change pass */
function bodyMutants(
  d: Deriving,
  step: string,
  index: number,
  mutations: ValueMutation[],
  doc: unknown,
  target: string,
  admits?: (after: unknown) => string | undefined,
): void {
  const e = d.entries[index];
  for (const m of mutations) {
    const after = m.apply(doc);
    const unchanged = isDeepStrictEqual(after, doc) ? 'the mutation changes nothing in the recorded answer' : undefined;
    const live = liveRewrite([step], (r) => {
      const body = isJsonBody(r.body);
      return body === undefined ? r : { ...r, body: serialize(m.apply(body)) };
    });
    d.add({
      step,
      endpoint: endpointOf(e),
      operator: m.operator,
      target,
      pointer: m.pointer,
      description: m.description,
      replace: new Map([[index, answered(e, { body: serialize(after) })]]),
      equivalentBecause: unchanged ?? admits?.(after),
      live,
      ...(m.aims ? { aims: aim(d, step, m.aims) } : {}),
    });
  }
}

/** a header the step asserts on, removed from the answer */
function headerMutants(d: Deriving, o: RequestObservation, index: number, target: string): void {
  const e = d.entries[index];
  for (const h of headerMutations(o.expect?.assert ?? [])) {
    const { [h.header]: _gone, ...rest } = headersOf(e);
    const live = liveRewrite([o.step], (r) => {
      const { [h.header]: _drop, ...others } = r.headers;
      return { ...r, headers: others };
    });
    d.add({
      step: o.step,
      endpoint: endpointOf(e),
      operator: 'assertion',
      target,
      pointer: `header:${h.header}`,
      description: h.description,
      replace: new Map([[index, answered(e, { headers: rest })]]),
      live,
    });
  }
}

/** a body the step's text and emptyBody expectations reject */
function textMutants(d: Deriving, o: RequestObservation, index: number, target: string): void {
  const e = d.entries[index];
  const text = e.response.content.text;
  const expect = o.expect ?? {};
  const t = expect.text;
  const textMutant = (description: string, body: string, check: string, liveBody: (b: string) => string = () => body) =>
    d.add({
      step: o.step,
      endpoint: endpointOf(e),
      operator: 'text',
      target,
      aims: aim(d, o.step, check),
      description,
      replace: new Map([[index, answered(e, { body })]]),
      live: liveRewrite([o.step], (r) => ({ ...r, body: liveBody(r.body) })),
    });
  const contains = t?.contains;
  if (contains)
    textMutant(`body without ${JSON.stringify(contains)} (text contains)`, text.split(contains).join(''), 'text', (b) =>
      b.split(contains).join(''),
    );
  if (t?.equals !== undefined)
    textMutant('body with a trailing space (text equals)', `${text} `, 'text', (b) => `${b} `);
  if (t?.matches !== undefined) {
    // A body the pattern rejects, when one of a few plain ones is (a negative pattern may admit them all).
    const re = new RegExp(t.matches);
    const body = ['', 'mutant', '{}', '[]', text.replace(/\S/g, ' ')].find((b) => !re.test(b));
    if (body !== undefined)
      textMutant(`body ${JSON.stringify(body.slice(0, 20))} (text matches /${t.matches}/)`, body, 'text');
  }
  if (expect.emptyBody === true) textMutant('body {} (emptyBody)', '{}', 'body');
  if (expect.emptyBody === false) textMutant('empty body (a body expected)', '', 'body');
}

/** the mutants of the answer one request step checked: status, body (schema, assertions), headers, text */
function requestMutants(d: Deriving, o: RequestObservation, index: number): void {
  const e = d.entries[index];
  const step = o.step;
  const target = `response to ${e.request.method} ${new URL(e.request.url).pathname} (step ${step})`;
  const status = ok(e) ? 500 : 200;
  d.add({
    step,
    endpoint: endpointOf(e),
    operator: 'status',
    target,
    aims: aim(d, step, 'status'),
    description: `status ${e.response.status} → ${status}`,
    replace: new Map([[index, answered(e, { status })]]),
    live: liveRewrite([step], (r) => ({ ...r, status })),
  });
  const doc = isJsonBody(e.response.content.text);
  const expect = o.expect ?? {};
  if (doc !== undefined && expect.schema) {
    const resource = expect.schema;
    bodyMutants(d, step, index, schemaMutations(schemaFileOf(resource), doc), doc, target, (after) =>
      schemaAdmits(resource, doc, after, d.agentVersion),
    );
  }
  if (doc !== undefined && expect.assert?.length)
    bodyMutants(d, step, index, assertionMutations(expect.assert, doc, 'assertion'), doc, target);
  headerMutants(d, o, index, target);
  textMutants(d, o, index, target);
}

export function deriveMutants(input: ScenarioInput): Mutant[] {
  const { id: scenario, file, cassette, observations, lineOf, agentVersion, covers } = input;
  const entries = cassette.log.entries;
  const out: Mutant[] = [];
  const add = (m: Add) => {
    const equivalentBecause =
      m.equivalentBecause ??
      (changesNothing(entries, m.replace) ? 'the mutation changes no recorded answer' : undefined);
    out.push({
      id: `${scenario}#${out.length + 1}`,
      scenario,
      file,
      ...((m.line ?? lineOf(m.step)) ? { line: m.line ?? lineOf(m.step) } : {}),
      ...m,
      ...(equivalentBecause ? { equivalentBecause } : {}),
    });
  };
  const deriving: Deriving = { scenario, entries, agentVersion, add };
  for (const o of observations) {
    if (o.kind !== 'request' || o.entryIndex === undefined) continue;
    // no answer to mutate; what a missing answer means is a side-effect mutant's business
    if (entries[o.entryIndex]._error) continue;
    requestMutants(deriving, o, o.entryIndex);
  }
  mediaTypeMutants(scenario, entries, observations, covers, add);
  eventMutants(scenario, entries, observations, agentVersion, add);
  sideEffectMutants(entries, covers, add);
  return out;
}

type Add = Omit<Mutant, 'id' | 'scenario' | 'file' | 'line'> & { line?: number };

/** one mutant per endpoint: every 2xx answer of it in the scenario with another media type (an agent changes it for all) */
function mediaTypeMutants(
  scenario: string,
  entries: HarEntry[],
  observations: Observation[],
  covers: string[],
  add: (m: Add) => void,
): void {
  const byEndpoint = new Map<string, { step: string; indexes: number[]; type: string }>();
  const stepOf = new Map(observations.filter((o) => o.entryIndex !== undefined).map((o) => [o.entryIndex!, o.step]));
  entries.forEach((e, i) => {
    const type = headersOf(e)['content-type'];
    const endpoint = endpointOf(e);
    if (!ok(e) || !type || isEvents(e) || !covers.includes(endpoint)) return;
    const slot = byEndpoint.get(endpoint) ?? { step: stepOf.get(i) ?? e._step, indexes: [], type };
    slot.indexes.push(i);
    byEndpoint.set(endpoint, slot);
  });
  for (const [endpoint, { step, indexes, type }] of byEndpoint) {
    const other = type.startsWith('application/json') ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
    const replace = new Map(
      indexes.map((i) => [i, answered(entries[i], { headers: { ...headersOf(entries[i]), 'content-type': other } })]),
    );
    const steps = [...new Set(indexes.map((i) => entries[i]._step))];
    const live = liveRewrite(steps, (r, q) =>
      r.status >= 200 && r.status < 300 && endpointKey(q.method, q.url).startsWith(endpoint.replace(/\/\{id\}.*$/, ''))
        ? { ...r, headers: { ...r.headers, 'content-type': other } }
        : r,
    );
    add({
      step,
      endpoint,
      live,
      operator: 'media-type',
      aims: [...new Set(indexes.map((i) => `${entries[i]._step}`))].map((st) => `${scenario}/${st}/media-type`),
      target: `every 2xx answer of ${endpoint} (${indexes.length})`,
      description: `Content-Type ${type} → ${other}`,
      replace,
    });
  }
}

type EventChange = (ev: Record<string, unknown>) => Record<string, unknown> | undefined;
type EventObservation = Extract<Observation, { kind: 'event' }>;

/**
 * How to change the events of the type a step waits for: in the recorded polls of the instance it watches
 * (`replace`), in every live answer of GET /rest/events there (`live`); and the first such event recorded.
 */
function eventRewriters(entries: HarEntry[], o: EventObservation) {
  const type = o.expectEvent.type;
  const polls = entries.map((e, i) => [e, i] as const).filter(([e]) => isEvents(e) && e._target === o.target && ok(e));
  const ofType = (e: HarEntry) => (isJsonBody(e.response.content.text) as Record<string, unknown>[] | undefined) ?? [];
  const changeAll = (text: string, change: EventChange) => {
    const events = isJsonBody(text);
    return Array.isArray(events)
      ? serialize(
          events.flatMap((ev) =>
            ev?.type === type ? [change(ev)].filter((x): x is Record<string, unknown> => x !== undefined) : [ev],
          ),
        )
      : text;
  };
  return {
    replace: (change: EventChange) =>
      new Map(polls.map(([e, i]) => [i, answered(e, { body: changeAll(e.response.content.text, change) })])),
    live: (change: EventChange): LiveFault =>
      liveRewrite('*', (r, q) =>
        q.target === o.target && q.url.startsWith('/rest/events?') && r.status === 200
          ? { ...r, body: changeAll(r.body, change) }
          : r,
      ),
    first: polls.flatMap(([e]) => ofType(e)).find((ev) => ev?.type === type),
  };
}

/** the events of a type a step waits for never come; the events' members it asserts on or validates are broken */
function eventMutants(
  scenario: string,
  entries: HarEntry[],
  observations: Observation[],
  agentVersion: string | null,
  add: (m: Add) => void,
): void {
  for (const o of observations) {
    if (o.kind !== 'event') continue;
    const spec = o.expectEvent;
    const { replace: rewrite, live, first } = eventRewriters(entries, o);
    const endpoint = 'GET /rest/events';
    const target = `${spec.type} events (step ${o.step})`;
    const aims = [`${scenario}/${o.step}/event:${spec.type}`];
    add({
      step: o.step,
      endpoint,
      operator: 'drop-events',
      target,
      aims,
      description: `no ${spec.type} event comes`,
      replace: rewrite(() => undefined),
      live: live(() => undefined),
    });
    if (!first) continue;
    for (const m of assertionMutations(spec.assert ?? [], first, 'event-assertion')) {
      add({
        step: o.step,
        endpoint,
        operator: m.operator,
        target,
        aims,
        pointer: m.pointer,
        description: `in every ${spec.type} event: ${m.description}`,
        replace: rewrite((ev) => m.apply(ev) as Record<string, unknown>),
        live: live((ev) => m.apply(ev) as Record<string, unknown>),
      });
    }
    if (!spec.schema) continue;
    const resource = spec.schema;
    for (const m of schemaMutations(schemaFileOf(resource), first.data)) {
      const after = m.apply(first.data);
      add({
        step: o.step,
        endpoint,
        operator: m.operator,
        target,
        aims: [`${scenario}/${o.step}/event-schema`],
        pointer: `/data${m.pointer}`,
        description: `in every ${spec.type} event: ${m.description}`,
        replace: rewrite((ev) => ({ ...ev, data: m.apply(ev.data) })),
        live: live((ev) => ({ ...ev, data: m.apply(ev.data) })),
        equivalentBecause: schemaAdmits(resource, first.data, after, agentVersion),
      });
    }
  }
}

const sameStatusAndBody = (a: HarEntry, b: HarEntry) =>
  a.response.status === b.response.status &&
  a.response.content.text === b.response.content.text &&
  !a._error &&
  !b._error;

/**
 * A request that changes the agent (any method but GET that succeeded: restart, shutdown, error clear, pending
 * DELETE, config changes, prio, restore) is answered as recorded, but every later request that was also asked
 * before it gets the answer it had before it: the agent behaves as if the request had had no effect.
 */
function sideEffectMutants(entries: HarEntry[], covers: string[], add: (m: Add) => void): void {
  const keys = entries.map((e) => entryKey(e));
  entries.forEach((e, i) => {
    if (e.request.method === 'GET' || !ok(e) || !covers.includes(endpointOf(e))) return;
    const replace = new Map<number, HarEntry>();
    for (let j = i + 1; j < entries.length; j++) {
      if (entries[j]._target !== e._target || isEvents(entries[j])) continue;
      const k = keys.lastIndexOf(keys[j], i - 1);
      // an earlier answer with the same status and body (a second clear answers as the first did) shows no effect
      // either way: replaying it would only swap headers such as Date, which no check can tell apart
      if (k >= 0 && !sameStatusAndBody(entries[k], entries[j]))
        replace.set(j, answered(entries[j], answerOf(entries[k])));
    }
    if (replace.size === 0) return;
    const changed = [...replace.keys()];
    const steps = [...new Set(changed.map((j) => entries[j]._step))];
    add({
      step: steps[0],
      endpoint: endpointOf(e),
      operator: 'side-effect',
      target: `answers after ${e.request.method} ${new URL(e.request.url).pathname} (step ${e._step})`,
      description: `${endpointOf(e)} answered as recorded but without effect: ${plural(changed.length, 'later answer')} (steps ${steps.join(', ')}) replayed from before it`,
      replace,
      // live: the request never reaches the agent, and gets its recorded answer
      live: {
        kind: 'suppress',
        step: e._step,
        occurrence: entries.slice(0, i + 1).filter((x) => x._step === e._step).length,
        answer: { status: e.response.status, headers: headersOf(e), body: e.response.content.text },
      },
    });
  });
}
