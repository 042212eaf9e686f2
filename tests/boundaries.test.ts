// Version boundaries against the spec (issue 20): for each version statement of spec/statements.yaml, what each
// tested version showed, the first where it holds and whether that agrees with the version the spec names.
// * the verdict, on hand-made per-version observations: agrees, disagrees (too early, too late), cannot tell (why);
// * the observations, from hand-made reports: checks citing the statement, the endpoint's version-gate probe and
//   status checks (an auth refusal, 403, does not show an endpoint there), restating statements;
// * the index: every version statement that names a version carries it as its boundary, as the spec says it;
// * matrix --fail-on boundary: tripped by a disagreement, naming it; not by agreement or "cannot tell";
// * `matrix --replay` of the bundled recordings: the pending DELETE endpoints absent on 1.12.1, present on 1.19.2
//   and 1.29.5, agreeing with "added in 1.18.0", in matrix.json, matrix.md, matrix.html and the terminal summary.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { boundariesOf, boundaryVerdict, type Tested } from '../src/matrix/boundaries.js';
import { boundaryGate } from '../src/report/matrix-boundaries.js';
import { loadStatements } from '../src/schema/statements.js';
import { loadEndpoints } from '../src/schema/endpoints.js';
import type { CheckResult, Matrix, MatrixBoundary, Report, Statement } from '../src/schema/generated/types.js';
import { cliAsync } from './support/cli.js';
import { tempFolder } from './support/temp.js';

type Seen = Tested['observed'];
const H: Seen = 'holds';
const N: Seen = 'does not hold';
const U: Seen = 'not observed';
const tested = (pairs: [string | null, Seen][]): Tested[] =>
  pairs.map(([version, observed], i) => ({ label: version ?? `run ${i + 1}`, version, observed }));

describe('the verdict on a boundary, from per-version observations', () => {
  const from = (version: string) => ({ version, holds: 'from' as const });
  const before = (version: string) => ({ version, holds: 'before' as const });
  const cases: {
    name: string;
    boundary?: { version: string; holds: 'from' | 'before' };
    seen: [string | null, Seen][];
    verdict: string;
    why: RegExp;
  }[] = [
    {
      name: 'absent before, present from it',
      boundary: from('1.18.0'),
      seen: [
        ['1.12.1', N],
        ['1.19.2', H],
        ['1.29.5', H],
      ],
      verdict: 'agrees',
      why: /does not hold on 1\.12\.1; holds on 1\.19\.2, 1\.29\.5: from 1\.18\.0/,
    },
    {
      name: 'the boundary version itself tested',
      boundary: from('1.18.0'),
      seen: [
        ['1.17.9', N],
        ['1.18.0', H],
      ],
      verdict: 'agrees',
      why: /holds on 1\.18\.0/,
    },
    {
      name: 'holds too early',
      boundary: from('1.18.0'),
      seen: [
        ['1.12.1', H],
        ['1.19.2', H],
      ],
      verdict: 'disagrees',
      why: /^holds on 1\.12\.1, before 1\.18\.0 \(too early\)$/,
    },
    {
      name: 'holds too late',
      boundary: from('1.18.0'),
      seen: [
        ['1.12.1', N],
        ['1.19.2', N],
        ['1.29.5', H],
      ],
      verdict: 'disagrees',
      why: /^does not hold on 1\.19\.2, from 1\.18\.0 on \(too late\)$/,
    },
    {
      name: 'gone again on a newer version',
      boundary: from('1.18.0'),
      seen: [
        ['1.12.1', N],
        ['1.19.2', H],
        ['1.29.5', N],
      ],
      verdict: 'disagrees',
      why: /does not hold on 1\.29\.5, from 1\.18\.0 on, after it held on 1\.19\.2 \(removed since\)/,
    },
    {
      name: 'no tested version before the boundary',
      boundary: from('1.2.0'),
      seen: [
        ['1.12.1', H],
        ['1.19.2', H],
      ],
      verdict: 'cannot tell',
      why: /^no tested version before 1\.2\.0; holds on 1\.12\.1, 1\.19\.2$/,
    },
    {
      name: 'no tested version from the boundary on',
      boundary: from('2.0.0'),
      seen: [
        ['1.12.1', N],
        ['1.19.2', N],
      ],
      verdict: 'cannot tell',
      why: /^no tested version from 2\.0\.0 on/,
    },
    {
      name: 'the version before it not observed',
      boundary: from('1.18.0'),
      seen: [
        ['1.12.1', U],
        ['1.19.2', H],
      ],
      verdict: 'cannot tell',
      why: /^1\.12\.1 \(before 1\.18\.0\) not observed; holds on 1\.19\.2$/,
    },
    {
      name: 'not observed on any version',
      boundary: from('1.2.0'),
      seen: [
        ['1.12.1', U],
        ['1.19.2', U],
      ],
      verdict: 'cannot tell',
      why: /^not observed on any tested version$/,
    },
    {
      name: 'the spec names no version',
      seen: [['1.12.1', H]],
      verdict: 'cannot tell',
      why: /^the spec names no version$/,
    },
    {
      name: '"earlier it was": holds before, not from it',
      boundary: before('1.2.0'),
      seen: [
        ['1.0.0', H],
        ['1.12.1', N],
      ],
      verdict: 'agrees',
      why: /only before 1\.2\.0/,
    },
    {
      name: '"earlier it was" still so after it',
      boundary: before('1.2.0'),
      seen: [
        ['1.0.0', H],
        ['1.12.1', H],
      ],
      verdict: 'disagrees',
      why: /^holds on 1\.12\.1, from 1\.2\.0 on \(too late\)$/,
    },
    {
      name: 'a column of unknown version says nothing',
      boundary: from('1.18.0'),
      seen: [
        ['1.12.1', N],
        ['1.19.2', H],
        [null, N],
      ],
      verdict: 'agrees',
      why: /1\.19\.2/,
    },
  ];
  for (const c of cases)
    test(c.name, () => {
      const got = boundaryVerdict(c.boundary, tested(c.seen));
      assert.equal(got.verdict, c.verdict, got.why);
      assert.match(got.why, c.why);
    });
});

/** hand-made reports: one per version, each with the given checks in one scenario */
function report(version: string, checks: Partial<CheckResult>[]): Report {
  return {
    agent: { version: `v${version}` },
    scenarios: [{ id: 's', checks: checks.map((c) => ({ step: 'x', kind: 'assert', message: '', ...c })) }],
  } as unknown as Report;
}

describe('the observations, from what the checks of each version gave', () => {
  const statements = [
    {
      id: 'e.since',
      kind: 'version',
      quote: 'Added in 1.18.0.',
      boundary: { version: '1.18.0', holds: 'from', endpoint: 'DELETE /x' },
    },
    { id: 'f.since', kind: 'version', quote: 'Since 1.2.0: f exists', boundary: { version: '1.2.0', holds: 'from' } },
    { id: 'notes', kind: 'version', quote: 'e added in 1.18.0, f in 1.2.0', sameAs: ['e.since', 'f.since'] },
    { id: 'e.notes', kind: 'version', quote: 'e added in 1.18.0', sameAs: ['e.since'] },
    {
      id: 'old',
      kind: 'version',
      quote: 'earlier it was',
      notCheckable: 'every tested agent is newer than it',
      boundary: { version: '1.2.0', holds: 'before' },
    },
    { id: 'f.type', kind: 'shape', quote: '| f | object |' },
  ] as Statement[];
  // the checks of steps calling DELETE /x are s/call/…, its probes s/absent/DELETE /x
  const gates = (id: string) => (/^s\/(call|auth|absent)\//.test(id) ? [{ what: 'DELETE /x', since: '1.18.0' }] : []);
  const probe = (verdict: 'pass' | 'fail') =>
    ({
      id: 's/absent/DELETE /x',
      kind: 'version-gate',
      verdict,
      expected: 404,
      actual: verdict === 'pass' ? 404 : 200,
    }) as const;
  const status = (actual: number, at = 'call') =>
    ({ id: `s/${at}/status`, kind: 'status', verdict: 'pass', actual }) as const;
  const cite = (verdict: CheckResult['verdict'], id = 'f') => ({
    id: `s/get/${id}-${verdict}`,
    verdict,
    statements: ['f.since'],
  });
  const rows = (reports: Report[]) => {
    const versions = reports.map((r) => r.agent.version!.slice(1));
    const order = versions.map((_, i) => i);
    return new Map(
      boundariesOf({ statements, reports, order, labels: versions, versions, gates }).map((b) => [b.statement, b]),
    );
  };

  test('the endpoint absent by its probe, then answering; an auth refusal (403) shows nothing', () => {
    const b = rows([
      report('1.12.1', [probe('pass'), status(403, 'auth'), cite('pass')]),
      report('1.19.2', [status(200), cite('pass')]),
      report('1.29.5', [status(500), cite('pass')]),
    ]);
    const e = b.get('e.since')!;
    assert.deepEqual(
      e.cells.map((c) => c.observed),
      [N, H, H],
    );
    assert.match(e.cells[0].by, /DELETE \/x absent \(404, or 405/);
    assert.equal(e.firstHolds, 1);
    assert.equal(e.verdict, 'agrees');
    assert.deepEqual(
      b.get('e.notes')!.cells.map((c) => c.observed),
      [N, H, H],
      'a restating statement takes its cells',
    );
    assert.equal(b.get('e.notes')!.version, '1.18.0', 'and their boundary');
    assert.equal(b.get('f.since')!.verdict, 'cannot tell');
    assert.equal(b.get('notes')!.version, null, 'restating two boundaries: it names no single one');
  });

  test('a call answered 405 (the path has only another method, as DELETE /rest/cluster/pending/* on 1.17.0) shows it absent', () => {
    const e = rows([report('1.17.0', [status(405)]), report('1.18.0', [status(200)])]).get('e.since')!;
    assert.deepEqual(
      e.cells.map((c) => c.observed),
      [N, H],
    );
    assert.match(e.cells[0].by, /DELETE \/x absent \(404, or 405 where its path has another method\)/);
    assert.equal(e.verdict, 'agrees');
    assert.match(e.why, /does not hold on 1\.17\.0; holds on 1\.18\.0/);
  });

  test("a failed call is read by the gate's rule: the router's 404 and a 405 naming other methods absent, others not", () => {
    // what a failed status check keeps of its answer: the request's method, the response's status, headers and body
    const failed = (status: number, headers: Record<string, string>, body: string) =>
      ({
        id: 's/call/status',
        kind: 'status',
        verdict: 'fail',
        actual: status,
        evidence: { request: { method: 'DELETE', url: '/x' }, response: { status, headers, body } },
      }) as const;
    const cases: [string, ReturnType<typeof failed>, Seen][] = [
      ["the router's 404", failed(404, {}, '404 page not found\n'), N],
      ["its handler's 404 (no such record)", failed(404, {}, 'no such device\n'), U],
      ["405, Allow naming the path's GET", failed(405, { allow: 'GET, OPTIONS' }, 'Method Not Allowed\n'), N],
      ['405 without Allow', failed(405, {}, 'Method Not Allowed\n'), U],
      ['405, Allow naming DELETE itself', failed(405, { allow: 'GET, DELETE' }, 'nope\n'), U],
    ];
    for (const [name, check, seen] of cases) {
      const e = rows([report('1.17.0', [check]), report('1.18.0', [status(200)])]).get('e.since')!;
      assert.equal(e.cells[0].observed, seen, name);
    }
  });

  test('an endpoint that answers before its boundary (the probe fails) holds too early', () => {
    const e = rows([report('1.12.1', [probe('fail')]), report('1.19.2', [status(200)])]).get('e.since')!;
    assert.deepEqual(
      e.cells.map((c) => c.observed),
      [H, H],
    );
    assert.equal(e.verdict, 'disagrees');
    assert.match(e.why, /too early/);
  });

  test('checks citing it: one passing shows it there; all failing or deviating, not', () => {
    const f = rows([
      report('1.12.1', [cite('pass'), cite('fail', 'g')]),
      report('1.19.2', [cite('expected-fail')]),
      report('1.29.5', [cite('skip')]),
    ]).get('f.since')!;
    assert.deepEqual(
      f.cells.map((c) => c.observed),
      [H, N, U],
    );
    assert.match(f.cells[1].by, /1 check citing it failed/);
    assert.equal(f.verdict, 'disagrees');
    assert.match(f.why, /does not hold on 1\.19\.2, from 1\.2\.0 on, after it held on 1\.12\.1 \(removed since\)/);
  });

  test('only version statements are rows; a not checkable one says why', () => {
    const b = rows([report('1.12.1', [])]);
    assert.deepEqual([...b.keys()], ['e.since', 'f.since', 'notes', 'e.notes', 'old']);
    assert.equal(b.get('old')!.verdict, 'cannot tell');
    assert.match(b.get('old')!.why, /^not checkable: every tested agent/);
    assert.equal(b.get('f.since')!.why, 'not observed on any tested version (no check cites it)');
  });
});

describe('matrix --fail-on boundary', () => {
  const row = (statement: string, verdict: MatrixBoundary['verdict'], why: string): MatrixBoundary => ({
    statement,
    quote: '',
    version: '1.18.0',
    holds: 'from',
    cells: [],
    firstHolds: null,
    verdict,
    why,
  });
  const matrix = (...boundaries: MatrixBoundary[]) => ({ boundaries }) as Matrix;

  test("a disagreement trips it, named with the spec's side and why", () => {
    const gate = boundaryGate(
      matrix(row('a.since', 'agrees', 'ok'), row('b.since', 'disagrees', 'holds on 1.12.1, before 1.18.0 (too early)')),
    );
    assert.equal(gate.tripped, true);
    assert.deepEqual(gate.lines, [
      '--fail-on boundary: 1 version statement disagrees with the tested versions:',
      '  b.since (spec: from 1.18.0): holds on 1.12.1, before 1.18.0 (too early)',
    ]);
  });

  test('agreement and "cannot tell" do not', () => {
    const gate = boundaryGate(
      matrix(row('a.since', 'agrees', 'ok'), row('c.since', 'cannot tell', 'no tested version before 1.2.0')),
    );
    assert.equal(gate.tripped, false);
    assert.match(gate.lines[0], /no version statement disagrees/);
  });
});

describe('the boundaries of the statement index', () => {
  let statements: Statement[];
  before(async () => {
    statements = await loadStatements();
  });

  test("each boundary is a version statement's, names a version its quote or note says, and a catalog endpoint", () => {
    const endpoints = new Set(loadEndpoints().map((e) => e.id));
    for (const s of statements.filter((x) => x.boundary)) {
      assert.equal(s.kind, 'version', `${s.id}: a boundary on a ${s.kind} statement`);
      assert.ok(
        `${s.quote} ${s.note ?? ''}`.includes(s.boundary!.version),
        `${s.id}: ${s.boundary!.version} is not in its words`,
      );
      if (s.boundary!.endpoint)
        assert.ok(endpoints.has(s.boundary!.endpoint), `${s.id}: ${s.boundary!.endpoint} is no endpoint`);
    }
  });

  test('every version statement that names a version has it as its boundary, or restates ones that do', () => {
    const named = statements.filter(
      (s) => s.kind === 'version' && /\b\d+\.\d+\.\d+\b/.test(s.quote) && s.id !== 'versioning.release',
    );
    for (const s of named) {
      const restated = (s.sameAs ?? []).map((id) => statements.find((x) => x.id === id)!);
      assert.ok(s.boundary || (restated.length && restated.every((r) => r.boundary)), `${s.id}: no boundary`);
    }
    assert.ok(named.length >= 10, `${named.length} version statements name a version`);
  });
});

describe('matrix --replay of the bundled recordings: version boundaries', () => {
  const work = tempFolder('boundaries');
  let m: Matrix;
  let md = '';
  let html = '';
  let stdout = '';
  before(async () => {
    const r = await cliAsync(['matrix', '--replay', '--report-dir', join(work(), 'm')]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    stdout = r.stdout;
    m = JSON.parse(await readFile(join(work(), 'm', 'matrix.json'), 'utf8')) as Matrix;
    md = await readFile(join(work(), 'm', 'matrix.md'), 'utf8');
    html = await readFile(join(work(), 'm', 'matrix.html'), 'utf8');
  });

  test('the pending DELETE endpoints: absent on 1.12.1, present on every later version, agreeing with "added in 1.18.0"', () => {
    const label = (i: number) => m.columns[i].label;
    for (const id of [
      'pending-folders.delete.since',
      'pending-devices.delete.since',
      'versioning.notes.pending-delete',
    ]) {
      const b = m.boundaries!.find((x) => x.statement === id)!;
      assert.ok(b, `no row for ${id}`);
      const seen = Object.fromEntries(m.order.map((i) => [label(i), b.cells[i].observed]));
      const later: Record<string, Seen> = Object.fromEntries(
        m.order.slice(1).map((i): [string, Seen] => [label(i), H]),
      );
      assert.deepEqual(seen, { '1.12.1': N, ...later }, id);
      assert.equal(b.version, '1.18.0');
      assert.equal(label(b.firstHolds!), '1.19.2');
      assert.equal(b.verdict, 'agrees', `${id}: ${b.why}`);
    }
    const folders = m.boundaries!.find((x) => x.statement === 'pending-folders.delete.since')!;
    const at = (v: string) => folders.cells[m.columns.findIndex((c) => c.label === v)].by;
    assert.match(at('1.12.1'), /absent \(404, or 405 where its path has another method\)/);
    assert.match(at('1.29.5'), /answered/);
  });

  test('a row per version statement of the index; only GET /rest/system/debug, gone in 2.x, disagrees; the terminal, matrix.md and matrix.html say so', async () => {
    const versionStatements = (await loadStatements()).filter((s) => s.kind === 'version');
    assert.deepEqual(
      m.boundaries!.map((b) => b.statement),
      versionStatements.map((s) => s.id),
    );
    // the spec (as of 2.1.0) documents GET /rest/system/debug, "added in 0.12.0"; 2.x answers it 404 (renamed
    // /rest/system/loglevels): a statement the spec's own version does not keep, never excused
    const removed = (id: string) =>
      `${id}: does not hold on 2.1.0, from 0.12.0 on, after it held on 1.30.0 (removed since); ` +
      `does not hold on 2.1.2, from 0.12.0 on, after it held on 1.30.0 (removed since)`;
    assert.deepEqual(
      m.boundaries!.filter((b) => b.verdict === 'disagrees').map((b) => `${b.statement}: ${b.why}`),
      ['debug.since', 'versioning.notes.debug'].map(removed),
    );
    assert.match(
      stdout,
      /^version boundaries against the spec \(\d+ version statements\): 3 agree, 2 disagree, \d+ cannot tell$/m,
    );
    assert.match(
      md,
      /\| `pending-folders\.delete\.since` \| from 1\.18\.0 \| does not hold (\| holds ){5}\| 1\.19\.2 \| agrees: /,
    );
    assert.ok(html.indexOf('id="boundaries"') > html.indexOf('id="ship"'), 'below the ship answer');
    assert.match(html, /<code>pending-devices\.delete\.since<\/code>/);
  });

  test('--fail-on boundary over the Debian versions: nothing disagrees, exit 0, and it says so', async () => {
    const r = await cliAsync([
      'matrix',
      '--replay',
      '--syncthing',
      '1.12.1,1.19.2,1.29.5',
      '--fail-on',
      'fail,boundary',
      '--report-dir',
      join(work(), 'gate'),
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout.trimEnd().split('\n').at(-1)!,
      /^synconf matrix: exit 0: .*; gate: --fail-on boundary: no version statement disagrees with the tested versions$/,
    );
  });

  test('--fail-on boundary with 2.x: exit 1, naming the debug endpoint the spec keeps and 2.x removed', async () => {
    const r = await cliAsync([
      'matrix',
      '--replay',
      '--fail-on',
      'fail,boundary',
      '--report-dir',
      join(work(), 'gate6'),
    ]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /--fail-on boundary: 2 version statements disagree with the tested versions:/);
    assert.match(r.stdout, /debug\.since.*removed since/);
  });
});
