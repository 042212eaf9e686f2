// `synconf mutate` as users run it: the built command (dist/bin/synconf.js), its reports, the
// --min-score gate and its exit codes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { ROOT } from '../src/paths.js';
import { validate, loadDocumentValidators } from '../src/schema/registry.js';
import { cli, spawnCli } from './support/cli.js';
import { runningProcesses } from '../src/lab/procs.js';
import { tempFolder } from './support/temp.js';

await loadDocumentValidators(); // the report, matrix and mutation-report validators these tests use

const synconfIn = (cwd: string, ...args: string[]) => cli(args, { cwd });
const synconf = (...args: string[]) => synconfIn(ROOT, ...args);

describe('synconf mutate (the built command)', () => {
  const work = tempFolder('mutate-cli');

  test('writes mutation.json (valid), mutation.html and mutation.md, and says the score', () => {
    const dir = join(work(), 'ping');
    const r = synconf(
      'mutate',
      '--from',
      'checks',
      '--only',
      'system-ping,system-error-clear',
      '--report-dir',
      dir,
      '--min-score',
      '100%',
    );
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
    const r = synconfIn(
      work(),
      'mutate',
      '--from',
      'checks',
      '--only',
      'system-ping',
      '--report-dir',
      join(work(), 'elsewhere'),
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /synconf mutate: score 100\.0% \(\d+ mutants: /);
  });

  test('a weakened scenario fails the gate (exit 1) and the survivor is printed with its file and line', () => {
    const text = readFileSync(join(ROOT, 'suites', 'db', 'db-need-prio.yaml'), 'utf8');
    const removed =
      '        - { path: /queued/-1/name, name: prioritised file still not last, notEquals: "{{last}}", statements: [prio.effect.top-of-queue] }\n';
    assert.ok(text.includes(removed), 'the scenario changed: update this test');
    const weak = join(work(), 'db-need-prio.yaml');
    writeFileSync(weak, text.replace(removed, ''));
    const dir = join(work(), 'weak');
    const r = synconf('mutate', '--from', 'checks', '--suite', weak, '--report-dir', dir, '--min-score', '1');
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
    assert.match(none.stderr, /^synconf: recordings folder \S*no-such-recordings does not exist$/m);
    assert.equal(none.stderr.trim().split('\n').length, 1, none.stderr);
    const live = synconf('mutate', '--live', '--from', 'spec', '--report-dir', join(work(), 'z'));
    assert.equal(live.code, 2, live.stdout + live.stderr);
    assert.match(live.stderr, /--from spec with --live: the fault injector runs check-derived operators only/);
    assert.equal(live.stderr.trim().split('\n').length, 1, live.stderr);
  });
});

describe('synconf mutate --live, Ctrl-C while the lab runs (the built command)', () => {
  const work = tempFolder('mutate-live-interrupt');

  /** mutate --live from a scratch folder whose TMPDIR holds the lab, up to its "live:" line (the lab is up) */
  async function startLive(name: string) {
    const scratch = join(work(), name);
    const tmp = join(scratch, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const child = spawnCli(['mutate', '--live', '--only', 'pending-devices', '--report-dir', 'm'], {
      cwd: scratch,
      env: { TMPDIR: tmp },
    });
    let stderr = '';
    child.stdout!.resume();
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const live = new Promise<void>((resolve) =>
      child.stderr!.on('data', (d: Buffer) => {
        stderr += d;
        if (/^synconf mutate: live: /m.test(stderr)) resolve();
      }),
    );
    await Promise.race([live, closed]);
    /** the lab's Syncthing processes: their --home lies under this run's TMPDIR */
    const labProcesses = () => runningProcesses().filter((p) => p.args.some((a) => a.includes(tmp)));
    return { scratch, child, closed, labProcesses, stderr: () => stderr };
  }

  /** the exit code, or null when it did not end within `ms` of now (then it is killed) */
  async function endsWithin(run: Awaited<ReturnType<typeof startLive>>, ms: number) {
    const timer = setTimeout(() => run.child.kill('SIGKILL'), ms);
    const code = await run.closed;
    clearTimeout(timer);
    // the lab's instances are killed as the process exits; give the kernel a moment to reap them
    for (let i = 0; i < 30 && run.labProcesses().length; i++) await sleep(100);
    return code;
  }

  test('a second Ctrl-C ends it at once: exit 130, one "interrupted" line, no Syncthing left', async () => {
    const run = await startLive('twice');
    assert.match(run.stderr(), /^synconf mutate: live: \d+ mutants of 1 scenarios/m, run.stderr());
    assert.ok(run.labProcesses().length > 0, 'the lab is up');
    run.child.kill('SIGINT');
    await sleep(300); // the first is being handled: the mutant under way runs on
    run.child.kill('SIGINT');
    assert.equal(await endsWithin(run, 5_000), 130, `ended at once after the second Ctrl-C\n${run.stderr()}`);
    assert.equal(run.stderr().match(/interrupted/g)?.length, 1, run.stderr());
    assert.deepEqual(run.labProcesses(), [], 'no Syncthing left running');
  });

  test('one Ctrl-C stops after the mutant under way: exit 130, the report of the scenarios done', async () => {
    const run = await startLive('once');
    run.child.kill('SIGINT');
    // one live scenario run (seconds) and the lab's stop; not the rest of the mutants
    assert.equal(await endsWithin(run, 60_000), 130, run.stderr());
    assert.match(run.stderr(), /^synconf mutate: interrupted \(SIGINT\)/m);
    const report = JSON.parse(readFileSync(join(run.scratch, 'm', 'mutation.json'), 'utf8'));
    assert.deepEqual(validate('mutation-report', report), []);
    assert.match(report.verdict, /^synconf mutate: INTERRUPTED after 0 of 1 scenarios/);
    assert.deepEqual(run.labProcesses(), [], 'no Syncthing left running');
  });
});
