// `synconf mutate` as users run it: the built command (dist/bin/synconf.js), its reports, the
// --min-score gate and its exit codes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/paths.js';
import { validate, loadDocumentValidators } from '../src/schema/registry.js';
import { cli } from './support/cli.js';
import { tempFolder } from './support/temp.js';

await loadDocumentValidators(); // the report, matrix and mutation-report validators these tests use

const synconfIn = (cwd: string, ...args: string[]) => cli(args, { cwd });
const synconf = (...args: string[]) => synconfIn(ROOT, ...args);

describe('synconf mutate (the built command)', () => {
  const work = tempFolder('mutate-cli');

  test('writes mutation.json (valid), mutation.html and mutation.md, and says the score', () => {
    const dir = join(work(), 'ping');
    const r = synconf('mutate', '--only', 'system-ping,system-error-clear', '--report-dir', dir, '--min-score', '100%');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /synconf mutate: score 100\.0% \(\d+ mutants: \d+ killed, 0 survived, \d+ equivalent\); at least --min-score 100\.0% \(exit 0\)/,
    );
    const report = JSON.parse(readFileSync(join(dir, 'mutation.json'), 'utf8'));
    assert.deepEqual(validate('mutation-report', report), []);
    assert.deepEqual(report.byScenario.map((s: { scenario: string }) => s.scenario).sort(), [
      'system-error-clear',
      'system-ping',
    ]);
    const html = readFileSync(join(dir, 'mutation.html'), 'utf8');
    assert.match(html, /<h1>synconf mutate: 100\.0%<\/h1>/);
    assert.match(html, /Content-Security-Policy/);
    assert.match(readFileSync(join(dir, 'mutation.md'), 'utf8'), /### Survivors \(0\)/);
  });

  test('runs from any folder: the bundled scenario files are read from the package, not the working folder', () => {
    const r = synconfIn(work(), 'mutate', '--only', 'system-ping', '--report-dir', join(work(), 'elsewhere'));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /synconf mutate: score 100\.0% \(\d+ mutants: /);
  });

  test('a weakened scenario fails the gate (exit 1) and the survivor is printed with its file and line', () => {
    const text = readFileSync(join(ROOT, 'suites', 'db', 'db-need-prio.yaml'), 'utf8');
    const removed =
      '        - { path: /queued/-1/name, name: prioritised file still not last, notEquals: "{{last}}" }\n';
    assert.ok(text.includes(removed), 'the scenario changed: update this test');
    const weak = join(work(), 'db-need-prio.yaml');
    writeFileSync(weak, text.replace(removed, ''));
    const dir = join(work(), 'weak');
    const r = synconf('mutate', '--suite', weak, '--report-dir', dir, '--min-score', '1');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const line =
      readFileSync(weak, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('- name: need-after-prio')) + 1;
    assert.match(
      r.stdout,
      new RegExp(
        `survived db-need-prio#\\d+ \\S*db-need-prio\\.yaml:${line} step need-after-prio: side-effect of answers after POST /rest/db/prio`,
      ),
    );
    assert.match(r.stdout, /below --min-score 100\.0% \(exit 1\)/);
    assert.ok(existsSync(join(dir, 'mutation.json')), 'the report is written also when the gate fails');
  });

  test('bad input: a score out of range and a folder without recordings are one-line errors, exit 2', () => {
    const bad = synconf('mutate', '--min-score', '150%', '--report-dir', join(work(), 'x'));
    assert.equal(bad.code, 2, bad.stdout + bad.stderr);
    assert.match(bad.stderr, /--min-score "150%" is not a score/);
    const none = synconf('mutate', join(work(), 'no-such-recordings'), '--report-dir', join(work(), 'y'));
    assert.equal(none.code, 2, none.stdout + none.stderr);
    assert.match(none.stderr, /no-such-recordings.*_run\.har: missing/);
    assert.equal(none.stderr.trim().split('\n').length, 1, none.stderr);
  });
});
