// The causes `synconf history` keeps per pair of releases (src/history/pairs.ts): a pair of kept runs is
// compared once and read back after, under both releases' keys (another key of either side compares again); a pair
// with a run that was not kept is compared every time and not kept; a kept file that is not a drift causes document
// is compared again and replaced. The command's own use is in tests/history.test.ts (a second run keeps the matrix).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeCause } from '../src/schema/generated/types.js';
import { pairCauses, type KeptRun } from '../src/history/pairs.js';
import { loadDocumentValidators } from '../src/schema/registry.js';
import { makeTemp, removeTemp } from './support/temp.js';

const CAUSE: ChangeCause = {
  rule: 'endpoint-removed',
  level: 'breaking',
  summary: 'the older version answered the endpoint, the newer answers 404 (not found)',
  endpoints: ['GET /rest/system/debug'],
  pointer: '',
  change: 'not found (404) on the newer version',
  occurrences: 1,
  scenarios: ['auth-with-key'],
  evidence: [{ scenario: 'auth-with-key', difference: 'x system-debug: 200 → 404' }],
};

let dir: string;
before(async () => {
  dir = makeTemp('history-pairs');
  await loadDocumentValidators();
});
after(() => removeTemp(dir));

/** pairCauses over `kept` with a compare that counts its calls */
function counted(cache: string, kept: KeptRun[]) {
  let compared = 0;
  const causesOf = pairCauses(cache, kept);
  const ask = (from: number, to: number) => causesOf(from, to, () => (compared++, [CAUSE]));
  return { ask, compared: () => compared };
}

test('a pair of kept runs is compared once, then read back the same; another key compares again', () => {
  const cache = join(dir, 'a');
  const kept = [
    { name: '1.30.0', key: 'k1' },
    { name: '2.1.0', key: 'k2' },
  ];
  const first = counted(cache, kept);
  assert.deepEqual(first.ask(0, 1), [CAUSE]);
  const again = counted(cache, kept);
  assert.deepEqual(again.ask(0, 1), [CAUSE]);
  assert.equal(again.compared(), 0, 'read back, not compared');
  const rekeyed = counted(cache, [kept[0], { name: '2.1.0', key: 'k3' }]);
  rekeyed.ask(0, 1);
  assert.equal(rekeyed.compared(), 1, 'another key of one side: compared again');
  assert.equal(readdirSync(join(cache, 'pairs')).length, 2);
});

test('a pair with a run that was not kept is compared every time and not kept', () => {
  const cache = join(dir, 'b');
  const pair = counted(cache, [{ name: '1.30.0', key: 'k1' }, undefined]);
  pair.ask(0, 1);
  pair.ask(0, 1);
  assert.equal(pair.compared(), 2);
  assert.equal(existsSync(cache), false, 'nothing kept');
});

test('a kept file that is not a drift causes document is compared again and replaced', () => {
  const cache = join(dir, 'c');
  const kept = [
    { name: '1.30.0', key: 'k1' },
    { name: '2.1.0', key: 'k2' },
  ];
  counted(cache, kept).ask(0, 1);
  const [file] = readdirSync(join(cache, 'pairs'));
  writeFileSync(join(cache, 'pairs', file), '{"causes": "cut');
  const broken = counted(cache, kept);
  assert.deepEqual(broken.ask(0, 1), [CAUSE]);
  assert.equal(broken.compared(), 1);
  const mended = counted(cache, kept);
  mended.ask(0, 1);
  assert.equal(mended.compared(), 0, 'replaced whole');
});
