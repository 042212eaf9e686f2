// The main job's speed (`npm run bench:main-job`): what `npm run conformance` (a live `synconf matrix` of every
// installed version of the default set) takes, against the slowest single version's live suite run alone, and each
// version's suite against the ~50 s one version took when the default set doubled (issue 28). Also lists every
// scenario over 5 s per version: a scenario that long waits for something, and should wait on the agent's own
// events or state rather than a fixed sleep unless the agent itself needs the time.
// Each figure is one run of a whole process as a user starts it, in one series, so compare them as ratios.
//   node bench/main-job.mjs            (the default set's installed versions)
//   node bench/main-job.mjs 1.29.5 2.1.2
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'dist', 'bin', 'synconf.js');
/** one version's live suite when the default set doubled (issue 28), and the main job's target */
const ONE_SUITE_THEN_S = 50;
const MAIN_JOB_TARGET_S = 90;
const LONG_SCENARIO_MS = 5000;

delete process.env.NODE_EXTRA_CA_CERTS; // ~50 ms on every Node start here, nothing to the work

function installedDefaultSet() {
  const agents = JSON.parse(execFileSync('node', [BIN, 'agents', 'list', '--json'], { encoding: 'utf8' }));
  return agents.filter((a) => a.inSetup && a.installed).map((a) => a.version);
}

/** run the built command; exit 0 and 1 are results (conforms, does not), anything else stops the bench */
function timed(args) {
  const t0 = performance.now();
  const r = spawnSync('node', [BIN, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0 && r.status !== 1) {
    console.error(`bench: synconf ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
    process.exit(2);
  }
  return { seconds, code: r.status };
}

/** the scenarios of a report over the long mark, slowest first, as "id 6.5 s" */
function longScenarios(reportFile) {
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  return report.scenarios
    .filter((s) => s.durationMs > LONG_SCENARIO_MS)
    .sort((a, b) => b.durationMs - a.durationMs)
    .map((s) => `${s.id} ${(s.durationMs / 1000).toFixed(1)} s`);
}

const versions = process.argv.length > 2 ? process.argv.slice(2) : installedDefaultSet();
if (versions.length === 0) {
  console.error('bench: no installed version of the default set: npm run setup (or synconf agents install)');
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'synconf-bench-main-'));
try {
  const suites = versions.map((v) => {
    const dir = join(work, `run-${v}`);
    const { seconds, code } = timed(['run', '--syncthing', v, '--report-dir', dir]);
    return { version: v, seconds, code, long: longScenarios(join(dir, 'report.json')) };
  });
  const matrixArgs = ['matrix', '--syncthing', versions.join(','), '--report-dir', join(work, 'matrix')];
  const main = timed(matrixArgs);
  const slowest = suites.reduce((a, b) => (b.seconds > a.seconds ? b : a));
  console.log(
    `main job over ${versions.length} versions (synconf matrix, live): ${main.seconds.toFixed(1)} s, exit ${main.code}`,
  );
  console.log(
    `  against the slowest single suite (${slowest.version}, ${slowest.seconds.toFixed(1)} s): ${(main.seconds / slowest.seconds).toFixed(2)}×`,
  );
  console.log(`  target: within ${MAIN_JOB_TARGET_S} s: ${main.seconds <= MAIN_JOB_TARGET_S ? 'met' : 'NOT met'}`);
  console.log(`each version's live suite alone, against ${ONE_SUITE_THEN_S} s:`);
  for (const s of suites) {
    const ratio = (s.seconds / ONE_SUITE_THEN_S).toFixed(2);
    console.log(`  ${s.version.padEnd(7)} ${s.seconds.toFixed(1).padStart(6)} s  ${ratio}×  exit ${s.code}`);
    console.log(`          over ${LONG_SCENARIO_MS / 1000} s: ${s.long.length ? s.long.join(', ') : 'none'}`);
  }
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
