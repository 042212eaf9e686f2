// `npm test` after the build: the offline test files (tests/*.test.ts: fake agents, recordings, the browser) two at a
// time, then the live ones (tests/live/*.test.ts: real Syncthing labs, which time their waits against a loaded
// machine) one at a time. One report for both: the spec reporter's lines, then the ten slowest files and the line CI
// reads, "N passed, N failed"; the exit code is 1 when a test failed.
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
  { files: filesIn(TESTS), concurrency: 2 },
  { files: filesIn(join(TESTS, 'live')), concurrency: 1 },
];

const liveRuns = mkdtempSync(join(tmpdir(), 'synconf-live-runs-'));
process.env.SYNCONF_LIVE_RUNS = liveRuns;

/** every event of every phase, the phases one after the other; kept for the summary */
const events = [];
async function* allEvents() {
  for (const phase of PHASES) {
    for await (const event of run(phase)) {
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
