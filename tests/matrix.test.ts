// The version matrix across agent versions: how each change between versions is classified (one test per class,
// each with a control that must not be so classified), `synconf matrix --replay` from the bundled recordings and
// from a second version's recordings, and the per-version reports it writes (live: matrix-live.live.test.ts).
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Report, CheckResult, ScenarioResult, Matrix } from '../src/schema/generated/types.js';
import { mergeReports } from '../src/matrix/merge.js';
import { gateIndex } from '../src/matrix/gates.js';
import { selectScenarios } from '../src/scenario/select.js';
import { runMatrix } from '../src/session/matrix-run.js';
import { processSignals } from '../src/commands/terminal/interrupt.js';
import { validate, formatError, loadDocumentValidators } from '../src/schema/registry.js';
import { RECORDINGS_DIR } from '../src/paths.js';
import { recordedRunOf } from '../src/scenario/shard.js';
import { driftBetween } from '../src/changes/compare-dirs.js';
import { causesOf } from '../src/changes/causes.js';
import { cliAsync } from './support/cli.js';
import { cassetteOf, type Step } from './fixtures/drift-rules/pairs.js';
import { simulatedNewerRecording } from './support/recordings.js';
import { writeMatrix } from '../src/session/write-reports.js';
import { pairAnswerLines } from '../src/report/matrix-answer.js';
import { matrixToHtml } from '../src/report/matrix-html.js';
import { matrixToMarkdown } from '../src/report/matrix-markdown.js';
import { makeTemp, removeTemp, tempFolder } from './support/temp.js';

await loadDocumentValidators(); // the report, matrix and mutation-report validators these tests use

type CheckSpec = Partial<CheckResult> & { id: string; verdict: CheckResult['verdict'] };

/** a small valid report of one agent version; scenarios are made from the check ids */
function report(version: string, checks: CheckSpec[], mode: ScenarioResult['mode'] = 'normal'): Report {
  const scenarios = new Map<string, ScenarioResult>();
  for (const c of checks) {
    const [sid, step] = c.id.split('/');
    const s = scenarios.get(sid) ?? {
      id: sid,
      title: sid,
      file: `${sid}.yaml`,
      spec: [],
      mode,
      verdict: 'pass',
      durationMs: 0,
      checks: [],
    };
    s.checks.push({ step, kind: 'status', message: 'm', ...c });
    scenarios.set(sid, s);
  }
  const r: Report = {
    format: 'synconf-report/1',
    synconf: { version: '0' },
    run: { mode: 'replay', startedAt: '2026-01-01T00:00:00Z', durationMs: 0, target: 't', expectations: null },
    agent: { version: `v${version}`, os: 'linux', arch: 'amd64' },
    totals: { scenarios: 0, checks: 0, pass: 0, fail: 0, 'expected-fail': 0, 'unexpected-pass': 0, skip: 0 },
    exitCode: 0,
    verdict: '',
    expensiveCalls: {},
    harnessErrors: [],
    scenarios: [...scenarios.values()],
  };
  return r;
}

const listed = { deviation: { observed: 'o', reason: 'r' } };
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';
const rowOf = (m: ReturnType<typeof mergeReports>, id: string) => m.rows.find((r) => r.id === id)!;

describe('classification of changes between versions', () => {
  let gates: ReturnType<typeof gateIndex>;
  before(async () => {
    const selection = await selectScenarios(undefined, undefined);
    gates = gateIndex(selection.scenarios);
  });

  test('regression: conforms on the older, deviates on the newer; a listed deviation is a listed regression, counted apart', () => {
    const m = mergeReports(
      [
        report('1.29.5', [
          { id: 'a/s/x', verdict: 'fail' },
          { id: 'a/s/y', verdict: 'expected-fail', ...listed },
          { id: 'a/s/z', verdict: 'pass' },
        ]),
        report('1.19.2', [
          { id: 'a/s/x', verdict: 'pass' },
          { id: 'a/s/y', verdict: 'pass' },
          { id: 'a/s/z', verdict: 'pass' },
        ]),
      ],
      { gates },
    );
    assert.deepEqual(m.order, [1, 0], 'oldest version first, whatever the order given');
    assert.equal(rowOf(m, 'a/s/x').class, 'regression');
    assert.equal(rowOf(m, 'a/s/y').class, 'listed-regression');
    assert.match(rowOf(m, 'a/s/y').changes[0].note, /as a known deviation of 1\.29\.5 lists/);
    assert.equal(rowOf(m, 'a/s/z').class, null, 'unchanged');
    assert.deepEqual(
      m.rows.slice(0, 2).map((r) => r.class),
      ['regression', 'listed-regression'],
    );
    assert.deepEqual(m.classes, {
      regression: 1,
      'listed-regression': 1,
      fixed: 0,
      'version-change': 0,
      known: 0,
      other: 0,
    });
    assert.deepEqual(
      m.columns.map((c) => c.label),
      ['1.29.5', '1.19.2'],
      'columns are agent versions',
    );
    assert.deepEqual(validate('matrix', JSON.parse(JSON.stringify(m))).map(formatError), []);
  });

  test('fixed: deviates on the older, conforms on the newer (an entry still listed is named)', () => {
    const m = mergeReports(
      [
        report('1.19.2', [
          { id: 'a/s/x', verdict: 'expected-fail', ...listed },
          { id: 'a/s/y', verdict: 'fail' },
        ]),
        report('1.29.5', [
          { id: 'a/s/x', verdict: 'unexpected-pass', ...listed },
          { id: 'a/s/y', verdict: 'pass' },
        ]),
      ],
      { gates },
    );
    assert.equal(rowOf(m, 'a/s/x').class, 'fixed');
    assert.match(rowOf(m, 'a/s/x').changes[0].note, /still listed for 1\.29\.5/);
    assert.equal(rowOf(m, 'a/s/y').class, 'fixed');
  });

  test('known: a listed deviation on both whose deviation changed; the same change unlisted on one side is not', () => {
    const errs = (...p: string[]) =>
      p.map((pointer) => ({ resource: 'system-status', pointer, rule: 'required', message: 'm' }));
    const m = mergeReports(
      [
        report('1.19.2', [
          { id: 'a/s/x', verdict: 'expected-fail', ...listed, schemaErrors: errs('/themes', '/discoveryEnabled') },
          { id: 'a/s/y', verdict: 'expected-fail', ...listed },
          { id: 'a/s/z', verdict: 'expected-fail', ...listed },
          { id: 'a/s/same', verdict: 'expected-fail', ...listed, schemaErrors: errs('/themes') },
          { id: 'a/s/where', verdict: 'expected-fail', ...listed, schemaErrors: errs('/progress/6/flags') },
        ]),
        report('1.29.5', [
          { id: 'a/s/x', verdict: 'expected-fail', ...listed, schemaErrors: errs('/discoveryEnabled') },
          { id: 'a/s/y', verdict: 'fail', ...listed },
          { id: 'a/s/z', verdict: 'fail' },
          { id: 'a/s/same', verdict: 'expected-fail', ...listed, schemaErrors: errs('/themes') },
          { id: 'a/s/where', verdict: 'expected-fail', ...listed, schemaErrors: errs('/queued/13/flags') },
        ]),
      ],
      { gates },
    );
    assert.equal(rowOf(m, 'a/s/x').class, 'known');
    assert.match(rowOf(m, 'a/s/x').changes[0].note, /no longer themes required/);
    assert.equal(rowOf(m, 'a/s/y').class, 'known');
    assert.equal(rowOf(m, 'a/s/z').class, 'other', 'listed on one side only');
    assert.match(rowOf(m, 'a/s/z').changes[0].note, /listed only for 1\.19\.2/);
    assert.equal(rowOf(m, 'a/s/same').changed, false, 'the same listed errors: no change');
    assert.equal(
      rowOf(m, 'a/s/where').changed,
      false,
      'the same deviation in another entry of a list (it varies from run to run): no change',
    );
  });

  test('version change: an endpoint gated between the versions (pending DELETE since 1.18.0), not one gated before both', () => {
    const absent = 'pending-devices/absent/DELETE /rest/cluster/pending/devices';
    const m = mergeReports(
      [
        report('1.12.1', [{ id: absent, verdict: 'pass', kind: 'version-gate' }], 'absent'),
        report('1.19.2', [{ id: 'pending-devices/delete/status', verdict: 'pass' }]),
        report('1.29.5', [{ id: 'pending-devices/delete/status', verdict: 'fail' }]),
      ],
      { gates },
    );
    assert.equal(rowOf(m, absent).class, 'version-change');
    assert.match(rowOf(m, absent).changes[0].note, /since 1\.18\.0/);
    const del = rowOf(m, 'pending-devices/delete/status');
    assert.deepEqual(
      del.changes.map((c) => [m.columns[c.from].label, m.columns[c.to].label, c.class]),
      [
        ['1.12.1', '1.19.2', 'version-change'],
        ['1.19.2', '1.29.5', 'regression'],
      ],
    );
    assert.equal(del.class, 'regression', 'the row shows its most urgent change');
    // without the gates, a check missing on one side is no change at all
    const plain = mergeReports([
      report('1.12.1', [{ id: absent, verdict: 'pass', kind: 'version-gate' }], 'absent'),
      report('1.19.2', [{ id: 'pending-devices/delete/status', verdict: 'pass' }]),
    ]);
    assert.equal(plain.changed, 0);
  });

  test('version change: a field gated by x-since between the versions; the same change on an ungated field is fixed', () => {
    const schemaFail = (pointer: string) => ({
      verdict: 'fail' as const,
      kind: 'schema' as const,
      schemaErrors: [{ resource: 'system-status', pointer, rule: 'type', message: 'm' }],
    });
    const m = mergeReports(
      [
        report('1.1.0', [
          { id: 'system-status/get-status/schema', ...schemaFail('/lastDialStatus') },
          { id: 'system-status/get-status-again/schema', ...schemaFail('/uptime') },
        ]),
        report('1.19.2', [
          { id: 'system-status/get-status/schema', verdict: 'pass', kind: 'schema' },
          { id: 'system-status/get-status-again/schema', verdict: 'pass', kind: 'schema' },
        ]),
      ],
      { gates },
    );
    assert.equal(rowOf(m, 'system-status/get-status/schema').class, 'version-change');
    assert.match(
      rowOf(m, 'system-status/get-status/schema').changes[0].note,
      /system-status field lastDialStatus: since 1\.2\.0/,
    );
    assert.equal(rowOf(m, 'system-status/get-status-again/schema').class, 'fixed');
  });

  test('version change: a check the agent ran as a version gate; other: skipped on one side for a missing capability', () => {
    const m = mergeReports(
      [
        report('1.19.2', [
          { id: 'a/s/gate', verdict: 'skip', kind: 'version-gate', skipReason: 'agent 1.19.2 predates 1.20.0' },
          { id: 'a/s/cap', verdict: 'skip', skipReason: 'no peer' },
        ]),
        report('1.29.5', [
          { id: 'a/s/gate', verdict: 'pass', kind: 'version-gate' },
          { id: 'a/s/cap', verdict: 'pass' },
        ]),
      ],
      { gates },
    );
    assert.equal(rowOf(m, 'a/s/gate').class, 'version-change');
    assert.equal(rowOf(m, 'a/s/cap').class, 'other');
    assert.match(rowOf(m, 'a/s/cap').changes[0].note, /skipped on 1\.19\.2: no peer/);
  });
});

describe('the answer of a pair of versions', () => {
  const work = tempFolder('matrix-answer');
  const changed = () => [
    report('1.19.2', [{ id: 'ping/post/status', verdict: 'pass' }]),
    report('1.29.5', [{ id: 'ping/post/status', verdict: 'fail' }]),
  ];
  /** a recordings folder of one scenario whose only exchange answers `body` */
  async function exchanges(name: string, body: unknown): Promise<string> {
    const dir = join(work(), name);
    await mkdir(dir, { recursive: true });
    const steps: Step[] = [{ step: 'post', method: 'POST', path: '/rest/system/ping', body }];
    await writeFile(join(dir, 'ping.har'), JSON.stringify(cassetteOf('ping', 'v1.0.0', steps)));
    return dir;
  }

  test('a version without exchanges: cannot tell, with the reason, and no cause made up from the changed checks', () => {
    const m = mergeReports(changed(), { exchanges: [{ missing: 'its report keeps no exchanges' }, { dir: '/x' }] });
    const [pair] = m.pairs!;
    assert.equal(pair.answer, 'cannot-tell');
    assert.match(pair.reason!, /^no exchanges to compare for 1\.19\.2 \(its report keeps no exchanges\)$/);
    assert.deepEqual(pair.causes, []);
    assert.equal(pair.checks.regression, 1, 'the changed check is still counted');
  });

  test('a changed check the exchanges do not explain: check-changed-unexplained (risky), its verdicts the evidence', async () => {
    const same = await exchanges('same-a', { ping: 'pong' });
    const m = mergeReports(changed(), {
      exchanges: [{ dir: same }, { dir: await exchanges('same-b', { ping: 'pong' }) }],
    });
    const [pair] = m.pairs!;
    assert.equal(pair.answer, 'may-affect');
    assert.deepEqual(
      pair.causes.map((c) => [c.cause.rule, c.cause.level, c.checks.map((x) => x.id)]),
      [['check-changed-unexplained', 'risky', ['ping/post/status']]],
    );
  });

  test('a change the exchanges show explains the check: one breaking cause, the pair breaks', async () => {
    const a = await exchanges('shown-a', { ping: 'pong' });
    const b = await exchanges('shown-b', {});
    const m = mergeReports(changed(), { exchanges: [{ dir: a }, { dir: b }] });
    const [pair] = m.pairs!;
    assert.equal(pair.answer, 'breaks');
    assert.deepEqual(
      pair.causes.map((c) => [c.cause.rule, c.checks.map((x) => x.id)]),
      [['response-member-removed', ['ping/post/status']]],
    );
  });

  // An answer that lost 99,000 members (the drift of two recordings): one folded cause of 99,000 differences. Each
  // cause of matrix.json kept all its evidence and members: 18 MB here, over the 10 MB bound, which left out every row
  // and still did not fit.
  describe('an answer that lost 99,000 members: the files keep 20 of the cause and count the rest', () => {
    const lost = Object.fromEntries(Array.from({ length: 99_000 }, (_, i) => [`m${i}`, i]));
    let m: Matrix;
    const files = new Map<string, string>();
    before(async () => {
      const a = await exchanges('lost-a', { ping: 'pong', lost });
      const b = await exchanges('lost-b', { ping: 'pong', lost: {} });
      m = mergeReports(changed(), { exchanges: [{ dir: a }, { dir: b }] });
      const out = join(work(), 'lost-matrix');
      await writeMatrix(m, out);
      for (const f of ['matrix.json', 'matrix.html', 'matrix.md']) files.set(f, await readFile(join(out, f), 'utf8'));
    });

    // bounded by a constant, whatever the count of differences: a few kB beside the page's own
    for (const [file, most] of [
      ['matrix.json', 16 * 1024],
      ['matrix.html', 128 * 1024],
      ['matrix.md', 16 * 1024],
    ] as const)
      test(`${file}: under ${most / 1024} KiB`, () => {
        const bytes = Buffer.byteLength(files.get(file)!);
        assert.ok(bytes <= most, `${bytes} bytes`);
      });

    test('matrix.json: valid, every row kept, the cause with 20 differences and 20 members, the rest counted', () => {
      const doc = JSON.parse(files.get('matrix.json')!) as Matrix;
      assert.deepEqual(validate('matrix', doc).map(formatError), []);
      assert.equal(doc.rowsLeftOut, undefined);
      assert.equal(doc.rows.length, m.rows.length);
      const [pair] = doc.pairs!;
      assert.deepEqual([pair.answer, pair.counts], ['breaks', m.pairs![0].counts]);
      const [{ cause, checks }] = pair.causes;
      assert.deepEqual(
        [cause.rule, cause.pointer, cause.change, cause.occurrences],
        ['response-member-removed', '/lost', 'removed (99,000 members)', 99_000],
      );
      assert.deepEqual(
        [cause.evidence.length, cause.moreEvidence, cause.members?.length, cause.moreMembers],
        [20, 98_980, 20, 98_980],
      );
      assert.deepEqual(cause.evidence, m.pairs![0].causes[0].cause.evidence.slice(0, 20), 'the first 20');
      assert.deepEqual(
        checks.map((x) => x.id),
        ['ping/post/status'],
      );
    });

    test('read back, matrix.json renders the counts in matrix.html and matrix.md', () => {
      const doc = JSON.parse(files.get('matrix.json')!) as Matrix;
      const html = matrixToHtml(doc);
      assert.match(html, /— 99000 differences in 1 scenario;/);
      assert.match(html, /…and 98980 more \(<code>synconf drift --differences<\/code>\)<\/li>/);
      assert.match(matrixToMarkdown(doc), /removed \(99,000 members\): m0, m1, m10, m100, …/);
    });

    test('the terminal names the first 20 members and counts the rest', () => {
      const line = pairAnswerLines(m).find((l) => l.includes('response-member-removed'))!;
      assert.ok(line.length < 1000, `${line.length} characters`);
      assert.match(line, /: removed \(99,000 members\): m0, m1, .* and 98,980 more; explains 1 changed check/);
    });
  });
});

describe('synconf matrix --replay', () => {
  const work = tempFolder('matrix');
  let bundledMatrix: Matrix;
  let bundledStdout = '';

  test('every bundled recording is a column, each replaying to its recorded verdicts; the matrix is valid', async () => {
    const bundled = readdirSync(RECORDINGS_DIR).filter(
      (f) => f.startsWith('syncthing-') && existsSync(join(RECORDINGS_DIR, f, '_run.har')),
    );
    assert.ok(bundled.length >= 1);
    const out = join(work(), 'bundled');
    const r = await cliAsync(['matrix', '--replay', '--report-dir', out]);
    const reports = await Promise.all(
      (await readdir(out, { withFileTypes: true }))
        .filter((d) => d.isDirectory())
        .map(async (d) => JSON.parse(await readFile(join(out, d.name, 'report.json'), 'utf8')) as Report),
    );
    assert.equal(reports.length, bundled.length, r.stdout + r.stderr);
    for (const folder of bundled) {
      const recorded = recordedRunOf(join(RECORDINGS_DIR, folder))!;
      const replayed = reports.find((x) => x.agent.version === recorded.agentVersion)!;
      const verdicts = (x: Report) =>
        Object.fromEntries(x.scenarios.flatMap((s) => s.checks.map((c) => [c.id, c.verdict])));
      const recordedVerdicts = Object.fromEntries(recorded.scenarios.flatMap((s) => Object.entries(s.checks)));
      assert.deepEqual(verdicts(replayed), recordedVerdicts, `${folder}: replay gives the recorded verdicts`);
      for (const f of ['report.json', 'junit.xml', 'report.html', 'summary.md'])
        assert.ok(existsSync(join(out, folder.replace('syncthing-', ''), f)), `${folder}: ${f}`);
    }
    assert.equal(r.code, Math.max(...reports.map((x) => x.exitCode)), 'exit code: the worst of the versions');
    const m = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8'));
    assert.deepEqual(validate('matrix', m).map(formatError), []);
    assert.deepEqual(
      m.columns.map((c: { label: string }) => c.label),
      bundled.map((f) => f.replace('syncthing-', '')).sort(),
    );
    bundledMatrix = m as Matrix;
    bundledStdout = r.stdout;
  });

  test('changes grouped by cause per pair: the browse change of 1.29.5 is one breaking cause explaining 11 listed regressions', () => {
    const m = bundledMatrix;
    const pair = (from: string, to: string) =>
      m.pairs!.find((p) => m.columns[p.from].label === from && m.columns[p.to].label === to)!;
    const newer = pair('1.19.2', '1.29.5');
    assert.equal(newer.answer, 'breaks', 'causes from the recordings: a breaking one');
    const browse = newer.causes.find((c) => c.cause.rule === 'response-value-format-changed')!;
    assert.equal(browse.cause.level, 'breaking');
    assert.deepEqual(browse.cause.endpoints, ['GET /rest/system/browse']);
    assert.equal(browse.checks.length, 11);
    assert.ok(
      browse.checks.every((c) => c.class === 'listed-regression'),
      'labelled as listed, not plain regressions',
    );
    assert.equal(newer.checks.regression, 0);
    assert.equal(newer.checks['listed-regression'], 11);
    // 1.12.1 → 1.19.2: the fixes are mostly one fact (no `defaults` in 1.12.1's configuration), the version changes
    // the endpoints absent on 1.12.1: the pending ones and the templates' (added in 1.14.0)
    const older = pair('1.12.1', '1.19.2');
    const defaults = older.causes.find((c) => c.cause.members?.includes('defaults'))!;
    assert.equal(defaults.cause.rule, 'response-member-added');
    assert.ok(
      defaults.checks.length >= 50 && defaults.checks.every((c) => c.class === 'fixed'),
      `${defaults.checks.length}`,
    );
    const added = older.causes.filter((c) => c.cause.rule === 'endpoint-added');
    assert.deepEqual(added.map((c) => c.cause.endpoints[0]).sort(), [
      'DELETE /rest/cluster/pending/devices',
      'DELETE /rest/cluster/pending/folders',
      'GET /rest/cluster/pending/devices',
      'GET /rest/cluster/pending/folders',
      'PATCH /rest/config/defaults/device',
      'PATCH /rest/config/defaults/folder',
    ]);
    // (the templates' checks on 1.12.1 are known deviations: the spec names no version for them, so they are fixed)
    assert.equal(
      added.reduce((n, c) => n + c.checks.filter((x) => x.class === 'version-change').length, 0),
      older.checks['version-change'],
      'every version change is explained by an endpoint added',
    );
    // every changed check is folded into exactly one cause
    for (const p of m.pairs!) {
      const folded = p.causes.flatMap((c) => c.checks.map((x) => x.id));
      assert.equal(new Set(folded).size, folded.length);
      assert.equal(
        folded.length,
        Object.values(p.checks).reduce((a, b) => a + b, 0),
      );
    }
    // the pair's line counts the causes drift finds between the two recordings
    const causes = causesOf(
      driftBetween(join(RECORDINGS_DIR, 'syncthing-1.19.2'), join(RECORDINGS_DIR, 'syncthing-1.29.5')).scenarios,
    );
    const count = (level: string) => causes.filter((c) => c.level === level).length;
    assert.equal(count('breaking'), 4);
    assert.equal(causes.length, 18);
    assert.match(
      bundledStdout,
      new RegExp(
        `^1\\.19\\.2 → 1\\.29\\.5: BREAKS clients of 1\\.19\\.2 \\(4 breaking, ${count('risky')} risky, ${count('compatible')} compatible, 0 accepted causes\\)`,
        'm',
      ),
    );
    assert.match(
      bundledStdout,
      /^ {2}breaking response-value-format-changed@GET \/rest\/system\/browse \/\*: .*; explains 11 changed checks \(11 listed regression\); listed known deviation of 1\.29\.5$/m,
    );
    // every pair, 2.x's included: the causes drift finds between its two recordings
    for (const p of m.pairs!) {
      const [from, to] = [m.columns[p.from].label, m.columns[p.to].label];
      const found = causesOf(
        driftBetween(join(RECORDINGS_DIR, `syncthing-${from}`), join(RECORDINGS_DIR, `syncthing-${to}`)).scenarios,
      );
      assert.deepEqual(
        p.causes.map((c) => `${c.cause.level} ${c.cause.rule} ${c.cause.endpoints.join(',')}`).sort(),
        found.map((c) => `${c.level} ${c.rule} ${c.endpoints.join(',')}`).sort(),
        `${from} → ${to}: the matrix's causes are drift's`,
      );
    }
    assert.equal(m.pairs!.length, 5, 'the bundled recordings: six versions, five pairs');
  });

  test('--fail-on breaking: exit 1 naming the causes when 1.29.5 breaks clients of 1.19.2; --ignore accepts one; a bad rule is exit 2', async () => {
    const args = [
      'matrix',
      '--recordings',
      `${join(RECORDINGS_DIR, 'syncthing-1.19.2')},${join(RECORDINGS_DIR, 'syncthing-1.29.5')}`,
      '--only',
      'system-browse,system-ping',
      '--fail-on',
      'breaking',
    ];
    const gated = await cliAsync([...args, '--report-dir', join(work(), 'gate')]);
    assert.equal(gated.code, 1, gated.stdout + gated.stderr);
    assert.match(
      gated.stdout,
      /^1\.19\.2 → 1\.29\.5: --fail-on breaking: 1 cause at or above breaking, not accepted: response-value-format-changed@GET \/rest\/system\/browse \/\*$/m,
    );
    assert.match(
      lastLine(gated.stdout),
      /^synconf matrix: exit 1: every version conforms \(worst exit 0\); gate: --fail-on breaking tripped by 1 cause \(1\.19\.2 → 1\.29\.5: 1\)$/,
      'the last line says the exit code and why',
    );
    const browse = '--ignore=response-value-format-changed@GET /rest/system/browse';
    const accepted = await cliAsync([...args, browse, '--report-dir', join(work(), 'gate-ok')]);
    assert.equal(accepted.code, 0, accepted.stdout + accepted.stderr);
    assert.match(
      lastLine(accepted.stdout),
      /^synconf matrix: exit 0: every version conforms \(worst exit 0\); gate: --fail-on breaking: no cause at or above breaking in any pair$/,
    );
    const m = JSON.parse(await readFile(join(work(), 'gate-ok', 'matrix.json'), 'utf8')) as Matrix;
    assert.equal(m.pairs![0].counts.accepted, 1);
    // without a change level, the verdicts alone decide (both versions conform as listed)
    const plain = await cliAsync([...args.slice(0, -2), '--report-dir', join(work(), 'gate-none')]);
    assert.equal(plain.code, 0, plain.stdout + plain.stderr);
    const bad = await cliAsync([...args, '--ignore=nope@GET /x', '--report-dir', join(work(), 'gate-bad')]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--ignore "nope@GET \/x": unknown rule "nope"/);
  });

  test('a newer version whose browse lists directories without the trailing separator: classified regressions, exit 1', async () => {
    const newer = await simulatedNewerRecording(work());
    const out = join(work(), 'two');
    const r = await cliAsync([
      'matrix',
      '--recordings',
      newer,
      '--recordings',
      join(RECORDINGS_DIR, 'syncthing-1.19.2'),
      '--only',
      'system-browse,system-ping',
      '--no-expectations',
      '--report-dir',
      out,
    ]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const m = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8'));
    assert.deepEqual(
      m.order.map((i: number) => m.columns[i].label),
      ['1.19.2', '1.29.5'],
    );
    const regressions = m.rows
      .filter((x: { class: string }) => x.class === 'regression')
      .map((x: { id: string }) => x.id);
    assert.ok(regressions.includes('system-browse/subdirectories/schema'), regressions.join('\n'));
    assert.ok(regressions.includes('system-browse/subdirectories/assert:alpha listed'));
    assert.ok(!regressions.some((id: string) => id.startsWith('system-ping/')), 'ping did not change');
    assert.equal(m.rows[0].class, 'regression', 'regressions first');
    const md = await readFile(join(out, 'matrix.md'), 'utf8');
    assert.match(md, /### Regressions \(\d+\)/);
    assert.match(
      md,
      /^\| system-browse\/subdirectories\/schema \| pass → fail \| 1\.19\.2 → 1\.29\.5: conforms on 1\.19\.2, deviates on 1\.29\.5/m,
    );
    assert.match(r.stdout, /^1\.19\.2 → 1\.29\.5: BREAKS clients of 1\.19\.2 /m);
    assert.ok(existsSync(join(out, '1.29.5', 'report.html')) && existsSync(join(out, '1.19.2', 'report.html')));
  });

  test('no agent installed and none named: a usage error that says how to get one, never a replay (exit 2)', async () => {
    const out = join(work(), 'fallback');
    const empty = await mkdtemp(join(work(), 'no-agents-'));
    // a PATH with node and no syncthing
    const bin = await mkdtemp(join(work(), 'bin-'));
    await symlink(process.execPath, join(bin, 'node'));
    const r = await cliAsync(['matrix', '--only', 'system-ping', '--report-dir', out], {
      env: { PATH: bin, SYNCONF_SYNCTHING: '', SYNCONF_AGENTS_DIR: empty },
    });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /^synconf: no agent to run the matrix against \(.*\): install them with `synconf agents install`.*--replay$/m,
    );
    assert.doesNotMatch(r.stdout + r.stderr, /REPLAYING/);
    assert.ok(!existsSync(join(out, 'matrix.json')), 'nothing was replayed');
  });

  test('bad input: a folder that is not a recording, a version with no recordings (exit 2)', async () => {
    const missing = await cliAsync(['matrix', '--recordings', join(work(), 'nope'), '--report-dir', join(work(), 'x')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /recordings folder .*nope does not exist/);
    const none = await cliAsync(['matrix', '--replay', '--syncthing', '0.9.1', '--report-dir', join(work(), 'y')]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no recordings of 0\.9\.1 \(found: /);
  });
});

describe('a fault of synconf during a matrix', () => {
  test("ends that version's report with exit 3 (not 2) and the stack, and the matrix with exit 3", async () => {
    const dir = makeTemp('matrix-fault');
    try {
      const result = await runMatrix(
        {
          agents: [{ name: '1.19.2', version: '1.19.2', recordings: join(RECORDINGS_DIR, 'syncthing-1.19.2') }],
          jobs: 1,
          only: ['system-ping'],
          reportDir: dir,
          failOn: ['fail', 'unexpected-pass'],
          requestTimeoutMs: 1000,
        },
        {
          listener: {
            say: () => {},
            scenario: () => {
              throw new TypeError('x is not a function'); // a bug of synconf's, met while the version runs
            },
          },
          signals: processSignals,
        },
      );
      assert.equal(result.exitCode, 3);
      const [report] = result.reports;
      assert.equal(report.exitCode, 3);
      assert.match(
        report.harnessErrors[0].message,
        /^internal error \(a bug in synconf\): TypeError: x is not a function\n\s+at /,
      );
      assert.match(report.verdict, /INTERNAL ERROR/);
    } finally {
      removeTemp(dir);
    }
  });
});
