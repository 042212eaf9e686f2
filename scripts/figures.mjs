// docs/figures.md: every figure the docs quote that changes with the bundled recordings (checks per version, expected
// failures, undocumented members, --strict, matrix classes, drift sizes, the mutation score, the recordings' sizes),
// computed by the built command (dist/bin/synconf.js) replaying recordings/ from a scratch folder, so that no such
// figure is typed by hand. Timings are not here: they depend on the machine (bench/README.md keeps them as records).
//   node scripts/figures.mjs          (npm run figures) writes docs/figures.md
//   node scripts/figures.mjs --check  (tests/docs.test.ts) exits 1 when docs/figures.md is not what it would write
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare } from 'semver';
import { writeOrCheck } from './generated-file.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'dist', 'bin', 'synconf.js');
const OUT = join(ROOT, 'docs', 'figures.md');
const RECORDINGS = join(ROOT, 'recordings');
/** the version `replay` and `mutate` use by default, and so the one the docs quote for --strict */
const STRICT_VERSION = '1.19.2';

/** the bundled recordings folders, oldest version first */
function recordedVersions() {
  return readdirSync(RECORDINGS)
    .filter((name) => /^syncthing-\d+\.\d+\.\d+$/.test(name))
    .map((name) => name.slice('syncthing-'.length))
    .sort(compare);
}

/** run the built command in the scratch folder; exit 0 and 1 are results, anything else stops this script */
function synconf(work, args) {
  // no GITHUB_STEP_SUMMARY: a build in CI must not append these runs to the job summary
  const env = { ...process.env, NO_COLOR: '1' };
  delete env.GITHUB_STEP_SUMMARY;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, ...args], { cwd: work, env, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      const code = error ? error.code : 0;
      if (code === 0 || code === 1) resolve({ code, stdout });
      else reject(new Error(`synconf ${args.join(' ')} exited ${code}: ${stderr.trim() || error?.message}`));
    });
  });
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const row = (cells) => `| ${cells.join(' | ')} |`;
const table = (head, rows) => [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');

/** every run the figures come from, at once (the mutation run takes longest: the others run beside it) */
async function measure(work, versions) {
  const recording = (v) => join(RECORDINGS, `syncthing-${v}`);
  const newest = versions.at(-1);
  const pairs = versions.slice(1).map((to, i) => [versions[i], to]);
  const [matrix, strict, mutate, ...drifts] = await Promise.all([
    synconf(work, ['matrix', '--replay', '--report-dir', 'matrix']),
    synconf(work, ['replay', recording(STRICT_VERSION), '--strict', '--report-dir', 'strict']),
    synconf(work, ['mutate', '--report-dir', 'mutation']),
    ...pairs.map(([a, b]) => synconf(work, ['drift', recording(a), recording(b), '--fail-on', 'breaking'])),
  ]);
  return {
    versions,
    newest,
    reports: versions.map((v) => readJson(join(work, 'matrix', v, 'report.json'))),
    matrix: { ...readJson(join(work, 'matrix', 'matrix.json')), code: matrix.code },
    strict: { ...readJson(join(work, 'strict', 'report.json')), code: strict.code },
    mutation: readJson(join(work, 'mutation', 'mutation.json')),
    mutateCode: mutate.code,
    drifts: pairs.map(([from, to], i) => ({ from, to, code: drifts[i].code, stdout: drifts[i].stdout })),
  };
}

const checksOf = (report) => report.scenarios.flatMap((s) => s.checks);
const count = (items, predicate) => items.filter(predicate).length;

function versionsSection({ versions, reports }) {
  const rows = reports.map((r, i) => {
    const t = r.totals;
    const absent = r.scenarios.filter((s) => s.mode === 'absent').length;
    const gates = count(checksOf(r), (c) => c.kind === 'version-gate');
    const listed = r.run.expectations ? `\`${r.run.expectations}\`` : 'none';
    const cells = [t.checks, t.pass, t['expected-fail'], t.fail, t['unexpected-pass'], t.skip];
    return [versions[i], `\`${r.agent.version}\``, t.scenarios, absent, ...cells, gates, r.undocumented.length, listed];
  });
  const skips = reports.flatMap((r, i) =>
    checksOf(r)
      .filter((c) => c.verdict === 'skip')
      .map((c) => `- ${versions[i]}: \`${c.id}\`: ${c.message}`),
  );
  return [
    '## Each version: a replay of its recordings',
    '',
    '`synconf matrix --replay` (every `recordings/syncthing-*/`), which gives each version the verdicts of the live run',
    'that recorded it (`recorded-run.json`).',
    '',
    table(
      [
        'recordings',
        'agent reports',
        'scenarios',
        'of them absent',
        'checks',
        'pass',
        'expected-fail',
        'fail',
        'unexpected pass',
        'skip',
        'version-gate checks',
        'undocumented members',
        'expectations',
      ],
      rows,
    ),
    '',
    'Verdict lines:',
    '',
    '```',
    ...reports.map((r, i) => `${versions[i]}  ${r.verdict}`),
    '```',
    '',
    ...(skips.length ? ['Skipped checks:', '', ...skips, ''] : []),
  ];
}

function expectedFailuresSection({ versions, reports }) {
  const scenarios = [...new Set(reports.flatMap((r) => r.scenarios.map((s) => s.id)))].sort();
  const byScenario = (r, id) =>
    count(r.scenarios.find((s) => s.id === id)?.checks ?? [], (c) => c.verdict === 'expected-fail');
  const rows = scenarios
    .map((id) => [id, ...reports.map((r) => byScenario(r, id))])
    .filter((cells) => cells.slice(1).some((n) => n > 0));
  const totals = ['in all', ...reports.map((r) => r.totals['expected-fail'])];
  return [
    '## Expected failures (listed known deviations) by scenario',
    '',
    table(['scenario', ...versions], [...rows, totals]),
    '',
  ];
}

function undocumentedSection({ versions, reports, matrix }) {
  const endpoints = [...new Set(reports.flatMap((r) => r.undocumented.map((u) => u.endpoint)))].sort();
  const rows = endpoints.map((e) => [e, ...reports.map((r) => count(r.undocumented, (u) => u.endpoint === e))]);
  const bySet = new Map();
  for (const u of matrix.undocumented) {
    const key = u.columns.map((c) => versions[c]).join(', ');
    bySet.set(key, (bySet.get(key) ?? 0) + 1);
  }
  const sets = [...bySet].sort((a, b) => b[1] - a[1]).map(([key, n]) => [key, n]);
  return [
    '## Undocumented members per endpoint',
    '',
    'Members the agent sends that the spec does not name (notes, not failures; `--strict` fails them).',
    '',
    table(['endpoint', ...versions], [...rows, ['in all', ...reports.map((r) => r.undocumented.length)]]),
    '',
    `Across versions (the matrix's list): ${matrix.undocumented.length} members, sent by`,
    '',
    table(['versions', 'members'], sets),
    '',
  ];
}

function strictSection({ strict }) {
  const t = strict.totals;
  return [
    '## --strict',
    '',
    `\`synconf replay recordings/syncthing-${STRICT_VERSION} --strict\`: ${t.checks} checks, ${t.fail} failing, exit ${strict.code}.`,
    '',
    '```',
    strict.verdict,
    '```',
    '',
  ];
}

function matrixSection({ versions, matrix }) {
  const classes = Object.entries(matrix.classes).map(([name, n]) => [name, n]);
  const pairs = versions.slice(1).map((to, i) => {
    const changes = matrix.rows.flatMap((r) => r.changes ?? []).filter((c) => c.from === i && c.to === i + 1);
    const byClass = Object.keys(matrix.classes).map((name) => count(changes, (c) => c.class === name));
    return [`${versions[i]} → ${to}`, changes.length, ...byClass];
  });
  return [
    '## Version matrix',
    '',
    `\`synconf matrix --replay\`: ${matrix.changed} of ${matrix.rows.length} checks change across ${versions.length}`,
    `versions (exit ${matrix.code}).`,
    '',
    table(['class', 'checks'], classes),
    '',
    'Changes from one version to the next (a check can change twice):',
    '',
    table(['versions', 'changes', ...Object.keys(matrix.classes)], pairs),
    '',
  ];
}

/** the line of drift's output that matches `pattern` */
const lineOf = (stdout, pattern) => stdout.split('\n').find((l) => pattern.test(l)) ?? '(missing)';

function driftSection({ drifts }) {
  const rows = drifts.map((d) => [
    `${d.from} → ${d.to}`,
    lineOf(d.stdout, /^\d+ differences? in \d+ scenarios?$/),
    lineOf(d.stdout, /^\d+ causes?: /),
    d.code,
  ]);
  return [
    '## Drift between consecutive versions',
    '',
    '`synconf drift recordings/syncthing-A recordings/syncthing-B --fail-on breaking` (the causes: docs/matrix.md):',
    '',
    table(['versions', 'differences', 'causes', 'exit'], rows),
    '',
  ];
}

function mutationSection({ mutation, mutateCode }) {
  const t = mutation.totals;
  const rows = mutation.byOperator.map((o) => [o.operator, o.mutants, o.killed, o.survived, o.equivalent]);
  const s = mutation.statements?.totals;
  const statements = s
    ? [
        `Spec-derived mutants (docs/mutate.md): of ${s.statements} statements, ${s.caught} caught, ${s.survived} survived,`,
        `${s.masked} masked by a known deviation, ${s.noOperator} without an operator on these recordings, ${s.notCheckable}`,
        `not checkable, ${s.restating} restating: statement score ${(s.score * 100).toFixed(1)}%.`,
        '',
      ]
    : [];
  return [
    '## Mutation score',
    '',
    `\`synconf mutate\` (the bundled ${mutation.agentVersion} recordings): ${t.mutants} mutants, ${t.killed} killed,`,
    `${t.survived} survived, ${t.equivalent} equivalent: score ${(t.score * 100).toFixed(1)}% (exit ${mutateCode}).`,
    '',
    ...statements,
    table(
      ['operator', 'mutants', 'killed', 'survived', 'equivalent'],
      [...rows, ['in all', t.mutants, t.killed, t.survived, t.equivalent]],
    ),
    '',
  ];
}

function recordingsSection({ versions }) {
  const rows = versions.map((v) => {
    const dir = join(RECORDINGS, `syncthing-${v}`);
    const files = readdirSync(dir);
    const bytes = files.reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
    return [
      `recordings/syncthing-${v}/`,
      files.length,
      count(files, (f) => f.endsWith('.har')),
      `${Math.round(bytes / 1024)} kB`,
    ];
  });
  return ['## The recordings', '', table(['folder', 'files', 'cassettes (.har)', 'size'], rows), ''];
}

async function render() {
  const work = mkdtempSync(join(tmpdir(), 'synconf-figures-'));
  try {
    const m = await measure(work, recordedVersions());
    return [
      '# Figures of the bundled recordings',
      '',
      '<!-- generated by scripts/figures.mjs: do not edit; `npm run figures` writes it again -->',
      '',
      'Every figure here is computed by `scripts/figures.mjs` from the bundled recordings (`recordings/`), replayed by',
      'the built command; `npm run figures` writes this file (after `npm run build`), and `tests/docs.test.ts` fails',
      'while it is stale. Timings are not here: they depend on the machine and are kept as measured records',
      '(`bench/README.md`).',
      '',
      ...versionsSection(m),
      ...expectedFailuresSection(m),
      ...undocumentedSection(m),
      ...strictSection(m),
      ...matrixSection(m),
      ...driftSection(m),
      ...mutationSection(m),
      ...recordingsSection(m),
    ].join('\n');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

writeOrCheck(OUT, await render(), { root: ROOT, command: 'npm run figures' });
