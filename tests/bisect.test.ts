// The search of `synconf bisect` (src/bisect/search.ts) over a release list with stand-in probes: the answers issue 36
// asks for (the folder-template regression first in 1.29.6, its fix between 2.1.0 and 2.1.2 across the unserved
// 2.1.1, the pending DELETE endpoints in 1.18.0 across the unserved 1.16.x), the ends checked first, holes skipped,
// only the releases the search needs probed. The live command is tests/live/bisect.test.ts.
import { describe, test } from 'node:test';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import semver from 'semver';
import { bisect, endsAmong, type Probe } from '../src/bisect/search.js';
import { answerLines } from '../src/commands/bisect.js';
import { validate } from '../src/schema/registry.js';
import { causeIn, subjectOf, verdictIn } from '../src/bisect/subject.js';
import { selectScenarios } from '../src/scenario/select.js';
import { RECORDINGS_DIR } from '../src/paths.js';
import type { Report } from '../src/schema/generated/types.js';

const RELEASES = ['1.15.1', '1.16.0', '1.16.1', '1.17.0', '1.18.0', '1.29.5', '1.29.6', '1.29.7', '1.30.0'];
const MORE = ['2.0.9', '2.0.10', '2.0.14', '2.0.15', '2.1.0', '2.1.1', '2.1.2'];
const NOT_SERVED = new Set(['1.16.0', '1.16.1', '2.0.10', '2.1.1']);

/** a search whose releases behave as `verdict` says; every probe is counted */
function search(from: string, to: string, verdict: (v: string) => string | undefined, failing = new Set<string>()) {
  const asked: string[] = [];
  const probe = async (v: string): Promise<Probe> => {
    asked.push(v);
    if (failing.has(v)) return { hole: 'not installed: go build failed' };
    const b = verdict(v);
    return b === undefined ? { hole: 'the check was skipped' } : { behaviour: b };
  };
  const knownHole = (v: string) => (NOT_SERVED.has(v) ? 'not served by the Go module proxy' : undefined);
  return { run: () => bisect({ from, to, releases: [...RELEASES, ...MORE], knownHole, probe }), asked };
}

test('the folder-template regression: first in 1.29.6 (last before: 1.29.5), 1.29.7 never probed', async () => {
  const s = search('1.29.5', '2.1.0', (v) => (semver.gte(v, '1.29.6') ? 'fail' : 'pass'));
  const outcome = await s.run();
  assert.deepEqual(outcome.answer, { kind: 'found', first: '1.29.6', lastBefore: '1.29.5' });
  // the ends, then the middle of what is left each time; 1.29.7 and the 2.0.x never asked
  assert.deepEqual(s.asked, ['1.29.5', '2.1.0', '1.30.0', '1.29.6']);
  assert.deepEqual(answerLines(outcome, 'c'), [
    'c: first in 1.29.6 (last before: 1.29.5)',
    'upstream: git bisect start v1.29.6 v1.29.5',
  ]);
  assert.deepEqual(validate('bisect', { check: 'c', ...outcome }), []);
});

test('its fix: between 2.1.0 and 2.1.2, 2.1.1 not served, a range and not a release (cannot tell which)', async () => {
  const s = search('2.1.0', '2.1.2', (v) => (v === '2.1.2' ? 'pass' : 'fail'));
  const outcome = await s.run();
  assert.deepEqual(outcome.answer, {
    kind: 'range',
    after: '2.1.0',
    before: '2.1.2',
    holes: [{ version: '2.1.1', why: 'not served by the Go module proxy' }],
  });
  assert.deepEqual(s.asked, ['2.1.0', '2.1.2'], 'the hole is known without asking');
  assert.deepEqual(answerLines(outcome, 'c'), [
    'c: cannot tell which release: between 2.1.0 and 2.1.2; 2.1.1 not served by the Go module proxy',
    'upstream: git bisect start v2.1.2 v2.1.0',
  ]);
});

test('the pending DELETE endpoints: 1.18.0 across the unserved 1.16.x, a build that fails skipped as a hole', async () => {
  const present = (v: string) => (semver.gte(v, '1.18.0') ? 'pass' : 'fail');
  const outcome = await search('1.15.1', '1.29.5', present).run();
  assert.deepEqual(outcome.answer, { kind: 'found', first: '1.18.0', lastBefore: '1.17.0' });
  // 1.17.0 cannot be built: the answer is the range its hole leaves, both holes named
  const holed = await search('1.15.1', '1.29.5', present, new Set(['1.17.0'])).run();
  assert.deepEqual(holed.answer, {
    kind: 'range',
    after: '1.15.1',
    before: '1.18.0',
    holes: [
      { version: '1.16.0', why: 'not served by the Go module proxy' },
      { version: '1.16.1', why: 'not served by the Go module proxy' },
      { version: '1.17.0', why: 'not installed: go build failed' },
    ],
  });
});

test('the ends are checked first: the same verdict, an end that cannot be told, a third verdict: cannot bisect', async () => {
  const rows: [string, string, (v: string) => string | undefined, string][] = [
    ['1.29.5', '1.30.0', () => 'pass', '1.29.5 and 1.30.0 both show pass: no change between them'],
    [
      '1.29.5',
      '1.30.0',
      (v) => (v === '1.29.5' ? undefined : 'fail'),
      'an end cannot be told: 1.29.5 cannot tell (the check was skipped), 1.30.0 fail',
    ],
    ['1.30.0', '1.29.5', () => 'pass', '1.30.0 is not older than 1.29.5'],
    [
      '1.29.5',
      '1.30.0',
      (v) => ({ '1.29.5': 'pass', '1.30.0': 'fail' })[v] ?? 'expected-fail',
      '1.29.6 shows expected-fail, neither pass (as 1.29.5) nor fail (as 1.30.0)',
    ],
  ];
  for (const [from, to, verdict, why] of rows) {
    const outcome = await search(from, to, verdict).run();
    assert.deepEqual(outcome.answer, { kind: 'cannot-bisect', why }, why);
  }
});

test('no ends given: the neighbouring releases that differ, those that cannot be told skipped; none or several: why', async () => {
  const versions = ['1.12.1', '1.19.2', '1.29.5', '1.30.0', '2.1.0', '2.1.2'];
  /** the ends endsAmong takes when the releases show `shown` (undefined: cannot be told) */
  const ends = (shown: Record<string, string | undefined>) =>
    endsAmong(
      versions,
      async (v) => shown[v] !== undefined,
      async (a, b) => shown[a] !== shown[b],
    );
  const fixed = { '1.12.1': 'pass', '1.19.2': 'pass', '1.29.5': 'pass', '2.1.0': 'fail', '2.1.2': 'pass' };
  assert.deepEqual(await ends({ ...fixed, '2.1.2': 'fail' }), ['1.29.5', '2.1.0'], '1.30.0 cannot be told: skipped');
  assert.deepEqual(await ends({ ...fixed, '1.30.0': 'pass', '2.1.2': 'fail' }), ['1.30.0', '2.1.0']);
  assert.equal(
    await ends(fixed),
    'it changed more than once among 1.12.1, 1.19.2, 1.29.5, 2.1.0, 2.1.2 (1.29.5 → 2.1.0, 2.1.0 → 2.1.2): name --from and --to',
  );
  assert.equal(
    await ends({ '1.29.5': 'pass', '2.1.2': 'pass' }),
    'no change among 1.29.5, 2.1.2 (of 1.12.1, 1.19.2, 1.29.5, 1.30.0, 2.1.0, 2.1.2): name --from and --to',
  );
});

describe('what changed: a cause as drift prints it, or a scenario (src/bisect/subject.ts)', async () => {
  const { scenarios: suite } = await selectScenarios(undefined, undefined);
  const rec = (v: string) => join(RECORDINGS_DIR, `syncthing-${v}`);
  const ran = (ids: string[]) =>
    ({ harnessErrors: [], scenarios: ids.map((id) => ({ id, verdict: 'pass', checks: [] })) }) as unknown as Report;

  test('the removal of /rest/system/debug, over the bundled recordings: between 1.30.0 and 2.1.0, the 2.0.x named', async () => {
    const subject = subjectOf({ cause: 'endpoint-removed GET /rest/system/debug' }, suite);
    assert.equal(subject.kind, 'cause');
    assert.ok(subject.scenarios.includes('system-debug'), subject.scenarios.join(', '));
    const recorded = new Set(['1.29.5', '1.30.0', '2.1.0']);
    const outcome = await bisect({
      from: '1.29.5',
      to: '2.1.0',
      releases: [...RELEASES, ...MORE],
      knownHole: (v) => (recorded.has(v) ? undefined : 'not recorded here'),
      probe: async (v) =>
        causeIn(subject as Extract<typeof subject, { kind: 'cause' }>, ran(subject.scenarios), rec('1.29.5'), rec(v)),
    });
    assert.equal(outcome.answer.kind, 'range', JSON.stringify(outcome));
    assert.deepEqual(
      outcome.probes.map((p) => `${p.version} ${'behaviour' in p ? p.behaviour : p.hole}`),
      ['1.29.5 absent', '2.1.0 present', '1.30.0 absent'],
    );
    assert.deepEqual(outcome.answer.kind === 'range' && [outcome.answer.after, outcome.answer.before], [
      '1.30.0',
      '2.1.0',
    ]);
    // a scenario that did not run on the probed release tells nothing
    const probe = causeIn(subject as Extract<typeof subject, { kind: 'cause' }>, ran([]), rec('1.29.5'), rec('2.1.0'));
    assert.ok('hole' in probe && /did not run/.test(probe.hole), JSON.stringify(probe));
  });

  test('a member as drift prints it (RULE METHOD /path /pointer), or in --ignore form (RULE@...)', () => {
    for (const cause of [
      'response-member-removed GET /rest/system/status /uptime',
      'response-member-removed@GET /rest/system/status /uptime',
    ]) {
      const s = subjectOf({ cause }, suite);
      assert.ok(s.kind === 'cause' && s.cause.pointer === '/uptime' && s.cause.endpoint === 'GET /rest/system/status');
    }
  });

  test('a scenario: its verdict; a skipped one is a hole', () => {
    const s = subjectOf({ scenario: 'system-debug' }, suite);
    assert.deepEqual(verdictIn(s, ran(['system-debug'])), { behaviour: 'pass' });
    const skipped = {
      scenarios: [{ id: 'system-debug', verdict: 'skip', skipReason: 'x', checks: [] }],
    } as unknown as Report;
    assert.deepEqual(verdictIn(s, skipped), { hole: 'the scenario was skipped (x)' });
  });

  test('bad subjects: one line each', () => {
    const rows: [Parameters<typeof subjectOf>[0], RegExp][] = [
      [{}, /name what changed once: --check ID, --scenario ID or --cause/],
      [{ check: 'a/b/c', scenario: 'system-debug' }, /\(given: --check, --scenario\)$/],
      [
        { scenario: 'system-debugg' },
        /--scenario system-debugg: no such scenario in the suite \(did you mean "system-debug"\?\)/,
      ],
      [
        { cause: 'endpoint-gone GET /rest/system/debug' },
        /--cause "endpoint-gone@GET \/rest\/system\/debug": unknown rule/,
      ],
      [
        { cause: 'endpoint-removed GET /rest/nothing' },
        /--cause "endpoint-removed GET \/rest\/nothing": no scenario of the suite reaches/,
      ],
    ];
    for (const [given, want] of rows) assert.throws(() => subjectOf(given, suite), want);
  });
});
