// The speed of `synconf spec --boundaries` (issue 36; last step of `npm run bench`, or `npm run bench:boundaries`):
// each version statement told by the two installed releases that straddle it, only its scenarios run on them (a lab
// each). One whole process as a user starts it, over the releases installed (SYNCONF_AGENTS_DIR is honoured: a cache
// with 1.11.1, 1.12.0, 1.17.0 and 1.18.0 beside the default six straddles the 1.12.0 and 1.18.0 statements). Nothing
// is installed (no --install): a build is minutes and is `agents install`'s figure, not this one's. A record with no
// target of its own; it prints the time, how many pairs of releases ran and the verdicts, and the load average.
//   node bench/boundaries.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'dist', 'bin', 'synconf.js');

delete process.env.NODE_EXTRA_CA_CERTS; // ~50 ms on every Node start here, nothing to the work

const work = mkdtempSync(join(tmpdir(), 'synconf-bench-boundaries-'));
const reports = join(work, 'r');
try {
  const load = loadavg()[0];
  const t0 = performance.now();
  const args = ['spec', '--boundaries', '--json', '--report-dir', reports];
  const r = spawnSync('node', [BIN, ...args], { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const seconds = (performance.now() - t0) / 1000;
  // 0: none disagrees; 1: one disagrees (a verdict, still a timing); anything else is no result
  if (r.status !== 0 && r.status !== 1) {
    console.error(`bench: synconf ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
    process.exit(2);
  }
  const rows = JSON.parse(r.stdout);
  const count = (state) => rows.filter((row) => row.state === state).length;
  const pairs = readdirSync(reports).filter((d) => /^\d+\.\d+\.\d+-\d+\.\d+\.\d+$/.test(d));
  const states = ['agrees', 'disagrees', 'cannot tell', 'not installed', 'not checkable'];
  console.log(
    `spec --boundaries: ${seconds.toFixed(1)} s, ${pairs.length} pairs of releases run (${pairs.join(', ') || 'none'}); ` +
      `${rows.length} version statements: ${states.map((s) => `${count(s)} ${s}`).join(', ')}`,
  );
  console.log(`load average ${load.toFixed(1)} (1 min) at the start`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
