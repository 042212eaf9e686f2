// A signal during `synconf history` (issue 36, with issue 41's rules): the process ends 128 + n with one interrupted
// line naming `synconf history`, and the page (history.json, .md, .html) is the new one whole or the previous one
// untouched, never a mix or a half-written file. Each shot is sent at an observable state of the process (a line it
// printed), not after a time: while the releases run (runMatrix listens, named as the history), and once every
// release came from the cache (the pairs' causes and the page: the history's own listener).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate, loadDocumentValidators } from '../src/schema/registry.js';
import { cliAsync, spawnCli } from './support/cli.js';
import { makeTemp, removeTemp } from './support/temp.js';

const PAGE = ['history.json', 'history.md', 'history.html'];
let dir: string;
let previous: string[];
const page = () => PAGE.map((f) => readFileSync(join(dir, 'h', f), 'utf8'));

/** synconf history --replay, sent `signal` once its output matches `when`; the exit code and what it printed */
function shootWhen(cacheDir: string, when: RegExp, signal: NodeJS.Signals) {
  const child = spawnCli(['history', '--replay', '--cache-dir', cacheDir, '--report-dir', 'h'], { cwd: dir });
  let [stdout, stderr, sent] = ['', '', false];
  child.stdout?.on('data', (d) => {
    stdout += d;
    if (!sent && when.test(stdout)) sent = child.kill(signal);
  });
  child.stderr?.on('data', (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string; sent: boolean }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr, sent })),
  );
}

before(async () => {
  dir = makeTemp('history-signal');
  await loadDocumentValidators();
  const first = await cliAsync(['history', '--replay', '--cache-dir', 'c', '--report-dir', 'h'], {
    cwd: dir,
    timeout: 180_000,
  });
  assert.equal(first.code, 0, first.out);
  previous = page();
});
after(() => removeTemp(dir));

/** the page after a shot: the previous one untouched, or a new one whole (it parses and holds to its schema) */
function pageWholeOrUntouched() {
  const now = page();
  if (now.every((text, i) => text === previous[i])) return;
  assert.deepEqual(validate('history', JSON.parse(now[0])), [], 'a new page must be whole');
  assert.match(now[2], /<\/html>\s*$/);
  assert.deepEqual(
    readdirSync(join(dir, 'h')).filter((f) => f.endsWith('.partial')),
    [],
    'no staged file left behind',
  );
}

test('SIGINT while the releases run: 130, one line naming synconf history, the previous page untouched', async () => {
  // an empty cache: every release runs; the shot once the first scenario of one has run (the matrix listens then)
  const shot = await shootWhen('empty', /^\[[^\]]+\] \[1\/\d+\]/m, 'SIGINT');
  assert.ok(shot.sent, `the process ended before the shot:\n${shot.stdout}`);
  assert.equal(shot.code, 130, shot.stdout + shot.stderr);
  const lines = shot.stderr.split('\n').filter((l) => /interrupted/.test(l));
  assert.deepEqual(lines, [
    'synconf history: interrupted (SIGINT): the reports of the releases done so far are written; the history page is not written (a previous one is left as it was)',
  ]);
  assert.deepEqual(page(), previous, 'the previous page is untouched');
});

test('SIGTERM and SIGHUP once every release came from the cache: 128 + n, one line, the page whole or untouched', async () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    const shot = await shootWhen('c', /cached: nothing to run/, signal);
    assert.ok(shot.sent, `the process ended before the shot:\n${shot.stdout}`);
    assert.equal(shot.code, code, shot.stdout + shot.stderr);
    const lines = shot.stderr.split('\n').filter((l) => /interrupted/.test(l));
    assert.deepEqual(lines, [
      `synconf history: interrupted (${signal}): the history page is not written (a previous one is left as it was)`,
    ]);
    pageWholeOrUntouched();
  }
});
