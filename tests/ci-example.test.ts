// docs/examples/github-actions.yml, the workflow docs/ci.md documents, stays true: docs/ci.md shows the same file,
// its synconf commands name real commands and options (each command's --help of the built command), the job matrix
// and --shard agree on the shard count, the shard reports are uploaded and the merge job runs whatever the shards
// did; its merge step, run here as bash on shard reports of the bundled recordings, appends matrix.md to the job
// summary and exits as the merge does. Each checker is shown catching the fault it exists for.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { ROOT } from '../src/paths.js';
import { DEFAULT_VERSIONS } from '../src/agents/index.js';
import { BIN, cli, cliAsync, cliEnv } from './support/cli.js';
import { tempFolder } from './support/temp.js';

const EXAMPLE = join(ROOT, 'docs', 'examples', 'github-actions.yml');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  strategy?: { 'fail-fast'?: boolean; matrix?: Record<string, unknown[]> };
  steps: Step[];
}
interface Workflow {
  jobs: Record<string, Job>;
}

/** the synconf command lines of a workflow's run steps */
function synconfLines(workflow: Workflow): string[] {
  return Object.values(workflow.jobs)
    .flatMap((job) => job.steps.flatMap((s) => (s.run ?? '').split(/\n|&&|\|\|/)))
    .map((line) => line.trim())
    .filter((line) => line.startsWith('synconf '));
}

const helpCache = new Map<string, string>();
/** the --help of a synconf command ("report merge"), from the built command */
function helpOf(command: string): string {
  if (!helpCache.has(command)) helpCache.set(command, cli([...command.split(' '), '--help']).stdout);
  return helpCache.get(command)!;
}

/** what is wrong with one command line: a command that does not exist, an option its --help does not list */
function lineProblems(line: string): string[] {
  const words = line
    .replace(/\s#.*$/, '')
    .split(/\s+/)
    .slice(1);
  const command = ['report merge', 'agents install'].find((c) => words.join(' ').startsWith(c)) ?? words[0];
  const help = helpOf(command);
  if (!help.startsWith(`synconf ${command}`)) return [`${line}: no command "synconf ${command}"`];
  return words
    .filter((w) => /^--[a-z]/.test(w))
    .map((w) => w.replace(/=.*$/, ''))
    .filter((option) => !new RegExp(`^\\s+(-\\w, )?${option}(?![\\w-])`, 'm').test(help))
    .map((option) => `${line}: synconf ${command} has no option ${option}`);
}

/** what is wrong with the workflow's shape: the shard matrix, the uploads, the merge job */
function shapeProblems(workflow: Workflow): string[] {
  const problems: string[] = [];
  const jobs = Object.entries(workflow.jobs);
  const [shardJob, shards] = jobs.find(([, j]) => j.strategy?.matrix?.shard) ?? [];
  const [, merge] = jobs.find(([, j]) => j.steps.some((s) => s.run?.includes('synconf report merge'))) ?? [];
  if (!shards || !merge) return ['no job matrix over shards, or no job that runs synconf report merge'];
  const matrix = shards.strategy!.matrix!;
  const count = matrix.shard.length;
  if (String(matrix.shard) !== String(Array.from({ length: count }, (_, i) => i + 1)))
    problems.push(`the shard list is not 1..${count}: ${String(matrix.shard)}`);
  if (String(matrix.version) !== String(DEFAULT_VERSIONS))
    problems.push(`the versions are not the default set synconf installs: ${String(matrix.version)}`);
  if (shards.strategy!['fail-fast'] !== false)
    problems.push('fail-fast is not off: one failing shard cancels the others');
  const runStep = shards.steps.find((s) => s.run?.includes('synconf run'));
  if (!runStep?.run?.includes(`--shard \${{ matrix.shard }}/${count}`))
    problems.push(`the run step does not run --shard \${{ matrix.shard }}/${count}`);
  if (!shards.steps.some((s) => s.run?.includes('synconf agents install ${{ matrix.version }}')))
    problems.push('no step installs the agent of the job (synconf agents install ${{ matrix.version }})');
  const upload = shards.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'));
  if (upload?.if !== 'always()') problems.push("the shard's report is not uploaded when the shard fails");
  const reportDir = /--report-dir (\S+)/.exec(runStep?.run ?? '')?.[1];
  if (!reportDir || !String(upload?.with?.path).startsWith(reportDir))
    problems.push(`the upload does not take the report folder (${reportDir})`);
  if (![merge.needs].flat().includes(shardJob)) problems.push(`the merge job does not wait for ${shardJob}`);
  if (merge.if !== 'always()') problems.push('the merge job does not run when a shard failed');
  if (!merge.steps.some((s) => s.uses?.startsWith('actions/download-artifact')))
    problems.push('the merge job downloads no reports');
  const script = merge.steps.find((s) => s.run?.includes('synconf report merge'))!.run!;
  if (!/matrix\.md >> "\$GITHUB_STEP_SUMMARY"/.test(script)) problems.push('matrix.md is not added to the job summary');
  if (!/exit \$status\s*$/.test(script)) problems.push('the merge step does not end with the exit code of the merge');
  return problems;
}

const workflowText = readFileSync(EXAMPLE, 'utf8');
const workflow = load(workflowText) as Workflow;

describe('docs/examples/github-actions.yml', () => {
  test('docs/ci.md shows this very file', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');
    const block = /```yaml\n([\s\S]*?)```/.exec(doc)?.[1];
    assert.equal(block, workflowText);
  });

  test('every synconf command in it names a real command and real options', () => {
    const lines = synconfLines(workflow);
    assert.deepEqual(
      lines.map((l) => l.split(' ').slice(0, 2).join(' ')),
      ['synconf agents', 'synconf run', 'synconf report'],
    );
    assert.deepEqual(lines.flatMap(lineProblems), []);
  });

  test('its shape: versions × shards, --shard i/n agreeing, uploads always, one merge job that always runs', () => {
    assert.deepEqual(shapeProblems(workflow), []);
  });

  const faults: [string, (text: string) => string, RegExp][] = [
    [
      'an option the command lacks',
      (t) => t.replace('--shard ${{', '--shards ${{'),
      /synconf run has no option --shards/,
    ],
    [
      'a command that does not exist',
      (t) => t.replace('report merge', 'reports merge'),
      /no command "synconf reports"/,
    ],
    ['a shard count that disagrees', (t) => t.replace('shard: [1, 2, 3]', 'shard: [1, 2, 3, 4]'), /--shard .*\/4/],
    ['fail-fast left on', (t) => t.replace('fail-fast: false', 'fail-fast: true'), /fail-fast is not off/],
    [
      'an upload only on success',
      (t) => t.replace(/if: always\(\) # a failing/, 'if: success() # a failing'),
      /not uploaded when the shard fails/,
    ],
    [
      'a merge job that needs green shards',
      (t) => t.replace(/if: always\(\) # also/, '# also'),
      /merge job does not run when a shard failed/,
    ],
    ['the merge exit code lost', (t) => t.replace('exit $status', 'exit 0'), /does not end with the exit code/],
    ['no job summary', (t) => t.replace('>> "$GITHUB_STEP_SUMMARY"', '> /dev/null'), /not added to the job summary/],
  ];
  for (const [name, change, caught] of faults)
    test(`the checks catch ${name}`, () => {
      const changed = change(workflowText);
      assert.notEqual(changed, workflowText, 'the fault was planted');
      const w = load(changed) as Workflow;
      const problems = [...synconfLines(w).flatMap(lineProblems), ...shapeProblems(w)];
      assert.ok(
        problems.some((p) => caught.test(p)),
        problems.join('\n') || 'no problem found',
      );
    });
});

describe("the merge job's script, run as bash on shard reports of the bundled 1.19.2 recordings", () => {
  const work = tempFolder('ci-example');
  const script = workflow.jobs.merge.steps.find((s) => s.run?.includes('synconf report merge'))!.run!;
  /** the script in `dir` with `synconf` the built command, as `npm link` would make it; its exit code and summary */
  const runScript = (dir: string) => {
    const bin = join(work(), 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'synconf'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    const r = spawnSync('bash', ['-e', '-c', script], {
      cwd: dir,
      encoding: 'utf8',
      env: cliEnv({ PATH: `${bin}:${process.env.PATH}`, GITHUB_STEP_SUMMARY: summary }),
    });
    return { code: r.status, stderr: r.stderr, summary: readFileSync(summary, 'utf8') };
  };
  before(async () => {
    const runs = await Promise.all(
      [1, 2, 3].map((i) =>
        cliAsync(['replay', '--shard', `${i}/3`, '--report-dir', join(work(), 'all', 'shards', `synconf-1.19.2-${i}`)]),
      ),
    );
    for (const r of runs) assert.equal(r.code, 0, r.out);
  });

  test('every shard there: the matrix in the job summary, exit 0', () => {
    const r = runScript(join(work(), 'all'));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.summary, /^#/, 'matrix.md appended');
    assert.ok(existsSync(join(work(), 'all', 'reports', 'matrix', 'matrix.json')));
  });

  test('a shard missing: exit 2 naming it, nothing in the summary', () => {
    const dir = join(work(), 'missing');
    mkdirSync(join(dir, 'shards'), { recursive: true });
    for (const i of [1, 3]) {
      const from = join(work(), 'all', 'shards', `synconf-1.19.2-${i}`, 'report.json');
      mkdirSync(join(dir, 'shards', `synconf-1.19.2-${i}`));
      writeFileSync(join(dir, 'shards', `synconf-1.19.2-${i}`, 'report.json'), readFileSync(from));
    }
    const r = runScript(dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^synconf: shard 2\/3 of plan [0-9a-f]{12} for 1\.19\.2 is missing$/m);
    assert.equal(r.summary, '');
    rmSync(dir, { recursive: true, force: true });
  });
});
