// The HAR entry of an exchange (transport/cassette.ts toEntry): a request body's postData.mimeType is its Content-Type
// whatever the case of the header's name. The proxy keeps header names lower-case, as Node gives them: the mimeType
// was always empty in its HARs, the lookup being of 'Content-Type' alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toEntry } from '../src/transport/cassette.js';
import { Redactor } from '../src/transport/redact.js';
import type { Exchange } from '../src/transport/types.js';

const exchange = (headers: Record<string, string>): Exchange =>
  ({
    request: { target: 'agent', method: 'POST', url: '/rest/config/folders', headers, body: '{"id":"a"}' },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: '' },
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
  }) as unknown as Exchange;

const ROWS: [Record<string, string>, string][] = [
  [{ 'content-type': 'application/json' }, 'application/json'],
  [{ 'Content-Type': 'text/plain; charset=utf-8' }, 'text/plain; charset=utf-8'],
  [{ 'CONTENT-TYPE': 'application/json' }, 'application/json'],
  [{ accept: 'application/json' }, ''],
];
for (const [headers, want] of ROWS)
  test(`postData.mimeType of a request with ${JSON.stringify(headers)}: "${want}"`, () => {
    assert.equal(toEntry(exchange(headers), '#1', new Redactor([])).request.postData?.mimeType, want);
  });
