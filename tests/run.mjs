// `npm test` after the build: two test files at a time on the machine's two cores, one of them offline
// (tests/*.test.ts: fake agents, recordings, the browser) and one live (tests/live/*.test.ts: real Syncthing labs,
// which time their waits against a loaded machine), each kind one file after the other. A live file mostly waits on
// its agents (ci-plan-live, 12 whole live runs, took 86 s of CPU in 133 s), so an offline file runs beside it rather
// than before it; two offline files at once beside it would ask for more than two cores. One report for both: the
// offline files' spec lines, then the live files' (their events wait in their stream until the offline ones are out,
// so each kind reads in one piece), then the ten slowest files and the line CI reads, "N passed, N failed"; the exit
// code is 1 when a test failed.
//
// The whole live runs the live files share (tests/support/live-runs.ts) go to a scratch folder made fresh for this
// run and removed after it: every `npm test` runs the agents again, whatever an earlier run left behind.
// Run it as `node --import tsx tests/run.mjs` (the test files' processes inherit the --import).
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { Readable } from 'node:stream';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import summaryReporter from './support/summary-reporter.mjs';

const TESTS = new URL('.', import.meta.url).pathname;
const filesIn = (dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => join(dir, f));

const PHASES = [
  { files: filesIn(TESTS), concurrency: 1 },
  { files: filesIn(join(TESTS, 'live')), concurrency: 1 },
];

const liveRuns = mkdtempSync(join(tmpdir(), 'synconf-live-runs-'));
process.env.SYNCONF_LIVE_RUNS = liveRuns;

/** every event of every phase, the phases reported one after the other; kept for the summary */
const events = [];
async function* allEvents() {
  const streams = PHASES.map((phase) => run(phase)); // both start now; a stream keeps its events until it is read
  for (const stream of streams) {
    for await (const event of stream) {
      events.push(event);
      yield event;
    }
  }
}

try {
  for await (const chunk of Readable.from(allEvents()).compose(spec)) process.stdout.write(chunk);
  for await (const chunk of summaryReporter(events)) process.stdout.write(chunk);
} finally {
  rmSync(liveRuns, { recursive: true, force: true });
}
if (events.some((e) => e.type === 'test:fail')) process.exitCode = 1;
