// Replay's matching: which requests count as the same, the n-th asking gets the n-th recorded answer, and what
// replay keeps from one replay of a cassette to the next (keys, answers, parsed bodies) stays right.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HarEntry } from '../src/schema/generated/types.js';
import type { OutgoingRequest } from '../src/transport/types.js';
import { fromEntry, matchKey, requestKey, toEntry } from '../src/transport/cassette.js';
import { Matcher } from '../src/transport/matcher.js';
import { Redactor } from '../src/transport/redact.js';
import { bodyOf } from '../src/runner/exchange-checks.js';

const request = (over: Partial<OutgoingRequest> = {}): OutgoingRequest => ({
  target: 'agent',
  method: 'GET',
  url: '/rest/db/status?folder=a&x=1',
  headers: { 'X-API-Key': '<API_KEY>' },
  timeoutMs: 1000,
  ...over,
});

const entry = (req: OutgoingRequest, step: string, body = '{}'): HarEntry =>
  toEntry(
    {
      request: req,
      response: { status: 200, headers: { 'content-type': 'application/json' }, body },
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 1,
    },
    step,
    new Redactor(),
  );

const key = (over: Partial<OutgoingRequest>) => requestKey(request(over), new Redactor());

test('which requests are the same one: [request, same key as the plain GET?]', () => {
  const rows: [Partial<OutgoingRequest>, boolean][] = [
    [{ url: '/rest/db/status?x=1&folder=a' }, true], // query order does not count
    [{ url: '/rest/db/status?folder=b&x=1' }, false],
    [{ url: '/rest/db/status' }, false],
    [{ target: 'peer' }, false],
    [{ method: 'POST' }, false],
    [{ headers: {} }, false], // no API key
    [{ body: '{"a": 1}' }, false],
  ];
  for (const [over, same] of rows) assert.equal(key(over) === key({}), same, JSON.stringify(over));
  assert.equal(key({ body: '{"a": 1,  "b": [1, 2]}' }), key({ body: '{"a":1,"b":[1,2]}' })); // JSON spacing
  assert.notEqual(key({ body: 'a  b' }), key({ body: 'a b' })); // text is kept as it is
});

test('a key is the same however many other requests were keyed in between (the memo forgets when full)', () => {
  const first = matchKey('agent', 'GET', '/rest/x?b=2&a=1', '<API_KEY>', undefined);
  for (let i = 0; i < 10_050; i++) matchKey('agent', 'GET', `/rest/other/${i}`, undefined, undefined);
  assert.equal(matchKey('agent', 'GET', '/rest/x?a=1&b=2', '<API_KEY>', undefined), first);
  assert.notEqual(matchKey('agent', 'GET', '/rest/x?a=1&b=2', undefined, undefined), first);
});

test('each matcher gives the n-th asking the n-th recorded answer, from its own count', () => {
  const entries = [entry(request(), 'one'), entry(request({ method: 'POST' }), 'post'), entry(request(), 'two')];
  const ask = requestKey(request(), new Redactor());
  for (let replay = 0; replay < 2; replay++) {
    const m = new Matcher(entries); // a replay of the same cassette starts again from the first answer
    assert.equal(m.peek(ask)?._step, 'one');
    assert.equal(m.takeIndex(ask), 0);
    assert.equal(m.played(ask), true);
    assert.equal(m.take(ask)?._step, 'two');
    assert.equal(m.takeIndex(ask), undefined);
    assert.deepEqual(
      m.untaken().map((e) => e._step),
      ['post'],
    );
  }
});

test('an entry list that has grown since it was keyed is keyed again', () => {
  const entries = [entry(request(), 'one')];
  assert.equal(new Matcher(entries).peek(key({ method: 'DELETE' })), undefined);
  entries.push(entry(request({ method: 'DELETE' }), 'delete'));
  assert.equal(new Matcher(entries).peek(key({ method: 'DELETE' }))?._step, 'delete');
});

test("a recorded answer is one response object, parsed once; another entry (a mutant's copy) is its own", () => {
  const recorded = entry(request(), 'one', '{"a":1}');
  const [x, again] = [fromEntry(recorded, request()), fromEntry(recorded, request())];
  assert.equal(again.response, x.response);
  assert.equal(bodyOf(again.response!).json, bodyOf(x.response!).json);
  assert.deepEqual(bodyOf(x.response!), { json: { a: 1 } });
  const copy = structuredClone(recorded);
  copy.response.content.text = '{"a":2}';
  assert.deepEqual(bodyOf(fromEntry(copy, request()).response!), { json: { a: 2 } });
  assert.deepEqual(bodyOf({ status: 200, headers: {}, body: ' ' }), { jsonError: 'the body is empty' });
});
