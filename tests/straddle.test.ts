// The releases that straddle a version the spec names (issue 36, spec --boundaries): the newest release before it and
// the first at or after it that synconf can have, from the release table (data/releases.json, or a smaller copy).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { straddle } from '../src/agents/straddle.js';
import { loadReleaseTable, type ReleaseTable } from '../src/agents/releases.js';

const table = loadReleaseTable();
const without = (versions: string[]): ReleaseTable => ({
  ...table,
  releases: table.releases.filter((r) => !versions.includes(r.version)) as ReleaseTable['releases'],
});

test('the exact neighbours when both can be had: 1.17.0 and 1.18.0, 1.11.1 and 1.12.0', () => {
  assert.deepEqual(straddle('1.18.0', table), { before: '1.17.0', at: '1.18.0', passed: [], bracketed: false });
  assert.deepEqual(straddle('1.12.0', table), { before: '1.11.1', at: '1.12.0', passed: [], bracketed: false });
});

test('bracketed across releases that cannot be had, each named with why, nearest first', () => {
  // without 1.17.0, the 1.18.0 statement reaches back over 1.16.x, which the proxy does not serve
  const st = straddle('1.18.0', without(['1.17.0']));
  assert.equal(st.before, '1.15.1');
  assert.equal(st.at, '1.18.0');
  assert.equal(st.bracketed, true);
  assert.deepEqual(
    st.passed.map((p) => p.version),
    ['1.16.1', '1.16.0'],
  );
  assert.match(st.passed[0].why, /^not served by the Go module proxy \(403 at \.info; measured \d{4}-\d\d-\d\d\)$/);
  // a version the table does not hold: the first after it that can be had (1.18.1 is not served; the checksum
  // database answers 404 for 1.18.2, so go refuses it; 1.18.3 unknown, which an install tries)
  const missing = straddle('1.18.0', without(['1.18.0']));
  assert.deepEqual([missing.before, missing.at, missing.bracketed], ['1.17.0', '1.18.3', true]);
  assert.deepEqual(
    missing.passed.map((p) => p.version),
    ['1.18.1', '1.18.2'],
  );
  assert.match(missing.passed[1].why, /^not verifiable: the Go checksum database answers 404 for \S+@v1\.18\.2 /);
});

test('a side with no release says why: none in the table, or none synconf can build; installed ones count', () => {
  const debug = straddle('0.12.0', table);
  assert.equal(debug.before, undefined);
  assert.equal(debug.none, 'no release before 0.12.0 in the release table (its oldest is 1.1.4)');
  const status = straddle('1.2.0', table);
  assert.equal(status.before, undefined);
  assert.match(
    status.none!,
    /^no release before 1\.2\.0 synconf can have: 1\.1\.4 served by the Go module proxy, but synconf cannot build it: /,
  );
  assert.equal(status.at, '1.11.1', '1.2.2 cannot be built either: passed over');
  assert.deepEqual(
    status.passed.map((p) => p.version),
    ['1.1.4', '1.2.2'],
  );
  // a release installed (put in the cache by hand) can be had whatever the table says
  assert.deepEqual(straddle('1.2.0', table, ['1.1.4', '1.2.2']), {
    before: '1.1.4',
    at: '1.2.2',
    passed: [],
    bracketed: true,
  });
  assert.match(straddle('9.0.0', table).none!, /^no release from 9\.0\.0 on in the release table \(its newest is /);
});
