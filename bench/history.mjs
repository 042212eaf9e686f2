// The release history's speed (`npm run bench:history`, issue 36): `synconf history` over every installed release
// live from an empty cache (target: 15 min), then the same history again with nothing changed (target: 10 s), which
// must run nothing (its last line: "0 run, N from the cache"). Each a whole process as a user starts it, one run
// each. With --replay, the bundled recordings instead of live agents (the last step of `npm run bench`).
//   node bench/history.mjs             every installed release, live
//   node bench/history.mjs --replay    the bundled recordings
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'dist', 'bin', 'synconf.js');
const FIRST_TARGET_S = 15 * 60;
const CACHED_TARGET_S = 10;

delete process.env.NODE_EXTRA_CA_CERTS; // ~50 ms on every Node start here, nothing to the work

const work = mkdtempSync(join(tmpdir(), 'synconf-bench-history-'));
const args = ['history', ...process.argv.slice(2), '--cache-dir', join(work, 'cache'), '--report-dir', join(work, 'h')];

/** one history, timed; anything but exit 0 stops the bench */
function timed() {
  const t0 = performance.now();
  const r = spawnSync('node', [BIN, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) {
    console.error(`bench: synconf ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
    process.exit(2);
  }
  return { seconds, last: r.stdout.trim().split('\n').at(-1) };
}

try {
  const first = timed();
  const cached = timed();
  const mode = process.argv.includes('--replay') ? 'replayed' : 'live';
  console.log(
    `history, ${mode}, empty cache: ${first.seconds.toFixed(1)} s (target ${FIRST_TARGET_S} s): ${first.last}`,
  );
  console.log(`history, nothing changed: ${cached.seconds.toFixed(1)} s (target ${CACHED_TARGET_S} s): ${cached.last}`);
  console.log(`load average ${loadavg()[0].toFixed(1)} (1 min)`);
  if (!/\(0 run, \d+ from the cache\)/.test(cached.last)) {
    console.error('bench: the second history ran something: it should take every release from the cache');
    process.exit(1);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
