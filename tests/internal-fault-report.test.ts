// A fault of synconf itself (a bug, not a user's input) ends a run with exit 3: the report it still
// leaves behind must say 3 as well, and be a valid report (schemas/report.schema.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { executeRun } from '../src/session/run-session.js';
import { runListener } from '../src/commands/terminal/run-progress.js';
import { processSignals } from '../src/commands/terminal/interrupt.js';
import { readReport } from '../src/report/load.js';
import { exitCodeOf, EXIT } from '../src/errors.js';
import { withoutSecrets } from '../src/commands/terminal/fault.js';
import { makeTemp, removeTemp } from './support/temp.js';

test('a run ended by an internal fault writes a valid report saying exit 3, what the process exits with', async () => {
  const dir = makeTemp('fault');
  try {
    const bug = new TypeError('x is not a function');
    const thrown = await executeRun(
      { reportDir: dir, only: ['system-ping'], failOn: ['fail', 'unexpected-pass'], timeout: 1 },
      async () => {
        throw bug;
      },
      { listener: runListener(), signals: processSignals },
    ).then(
      () => assert.fail('the fault must propagate'),
      (e: unknown) => e,
    );
    assert.equal(thrown, bug);
    assert.equal(exitCodeOf(thrown), EXIT.internal);
    const report = await readReport(join(dir, 'report.json')); // throws if the schema rejects it
    assert.equal(report.exitCode, EXIT.internal);
    assert.match(report.verdict, /^synconf: INTERNAL ERROR: .*\(exit 3\)$/);
    assert.match(report.harnessErrors[0].message, /internal error \(a bug in synconf\): x is not a function/);
    assert.match(readFileSync(join(dir, 'summary.md'), 'utf8'), /internal error/);
  } finally {
    removeTemp(dir);
  }
});

test('the command line a bug report shows holds no API key, in either form of the option', () => {
  const cases: [string[], string[]][] = [
    [
      ['run', '--agent', 'http://x', '--api-key', 's3cret'],
      ['run', '--agent', 'http://x', '--api-key', '<API_KEY>'],
    ],
    [
      ['run', '--api-key=s3cret'],
      ['run', '--api-key=<API_KEY>'],
    ],
    [
      ['replay', '--only', 'api-key'],
      ['replay', '--only', 'api-key'],
    ],
  ];
  for (const [given, shown] of cases) assert.deepEqual(withoutSecrets(given), shown);
});
