// The fault drill (issue 39): does the test suite still fail on a broken build? Each fault below is planted in a
// scratch copy of the committed tree (git archive HEAD, node_modules linked), the copy is bundled, and the test files
// that should catch the fault run in the copy (their sources and dist/bin/synconf.js are the broken ones; a fresh
// folder of shared live runs, so no run of the sound build is read). It prints which files fail, and exits 1 when a
// fault fails none of them: the suite lost the failure mode.
//
//   node tests/fault-drill.mjs             the offline files of each fault (a few minutes)
//   node tests/fault-drill.mjs --live      the live files too (real agents; ten minutes or more)
//   node tests/fault-drill.mjs --control   also runs the files on the copy without a fault: each must pass there,
//                                          so that a failure under a fault is the fault's
//
// Not part of `npm test` (every fault is another build and another run of its files).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;

/** each fault: where it goes (a text found exactly once in a source file, and what replaces it), and the files that
 * should fail on it, offline and live */
const FAULTS = [
  {
    name: 'a scenario verdict flipped in the runner (every check of system-ping that held reported failing)',
    file: 'src/runner/step-io.ts',
    find: 'this.checks.push(result);',
    put: "if (this.s.id === 'system-ping' && result.verdict === 'pass') result.verdict = 'fail';\n    this.checks.push(result);",
    offline: ['tests/matrix.test.ts', 'tests/gate.test.ts'],
    live: ['tests/live/suites.test.ts'],
  },
  {
    name: 'a shard that drops a scenario (the last of each shard of several, from the run and its shard record)',
    file: 'src/scenario/shard.ts',
    find: 'const scenarios = selection.scenarios.filter((s) => mine.has(s.scenario.id));',
    put: 'const scenarios = selection.scenarios.filter((s) => mine.has(s.scenario.id)).slice(0, spec.count > 1 ? -1 : undefined);',
    offline: ['tests/shard.test.ts'],
    live: ['tests/live/ci-plan-live.test.ts', 'tests/live/shard-live.test.ts'],
  },
];

const live = process.argv.includes('--live');
const control = process.argv.includes('--control');

/** the environment of the copy's processes: none names another build of the command */
const { SYNCONF_TEST_BIN: _otherBuild, ...ENV } = process.env;

function run(command, args, cwd, env = {}) {
  const r = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...ENV, ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** a bundled copy of HEAD with `fault` planted (none: the sound copy) */
function brokenCopy(fault) {
  const dir = mkdtempSync(join(tmpdir(), 'synconf-fault-drill-'));
  const copy = join(dir, 'synconf');
  mkdirSync(copy);
  const archive = spawnSync('git', ['-C', ROOT, 'archive', 'HEAD'], { maxBuffer: 1024 * 1024 * 1024 });
  if (archive.status !== 0) throw new Error(`git archive HEAD: ${archive.stderr}`);
  const untar = spawnSync('tar', ['-x', '-C', copy], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr}`);
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  if (fault) {
    const file = join(copy, fault.file);
    const text = readFileSync(file, 'utf8');
    const at = text.split(fault.find).length - 1;
    if (at !== 1) throw new Error(`${fault.file}: "${fault.find}" found ${at} times, not once: the drill is stale`);
    writeFileSync(file, text.replace(fault.find, fault.put));
  }
  const bundled = run(process.execPath, ['scripts/bundle.mjs'], copy);
  if (bundled.code !== 0) throw new Error(`bundle of ${fault?.name ?? 'the sound copy'}:\n${bundled.out}`);
  return { dir, copy };
}

/** each file's tests run in the copy: how many failed (0: the file passed) */
function failures(copy, files, dir) {
  const liveRuns = join(dir, 'live-runs');
  mkdirSync(liveRuns);
  return files.map((file) => {
    const r = run(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', file], copy, {
      SYNCONF_LIVE_RUNS: liveRuns,
    });
    const failed = Number(/^# fail (\d+)/m.exec(r.out)?.[1] ?? NaN);
    return { file, failed: r.code === 0 ? 0 : Number.isNaN(failed) ? 1 : Math.max(failed, 1) };
  });
}

const filesOf = (fault) => [...fault.offline, ...(live ? fault.live : [])];
let lost = 0;
if (control) {
  const { dir, copy } = brokenCopy(undefined);
  try {
    for (const { file, failed } of failures(copy, [...new Set(FAULTS.flatMap(filesOf))], dir)) {
      console.log(`sound build: ${file}: ${failed ? `FAILS (${failed}): the drill cannot tell` : 'passes'}`);
      if (failed) lost++;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
for (const fault of FAULTS) {
  const { dir, copy } = brokenCopy(fault);
  try {
    const results = failures(copy, filesOf(fault), dir);
    console.log(`fault: ${fault.name}`);
    for (const { file, failed } of results) console.log(`  ${file}: ${failed ? `fails (${failed} tests)` : 'passes'}`);
    const caught = results.some((r) => r.failed);
    console.log(`  ${caught ? 'caught' : 'NOT CAUGHT: the suite lost this failure mode'}`);
    if (!caught) lost++;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
process.exitCode = lost ? 1 : 0;
