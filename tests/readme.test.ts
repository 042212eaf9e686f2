// The README is the front door (issue 19): at most 150 lines, starting with the two commands that set up and run
// everything; its layout names exactly what src/ holds; its dependency tables name exactly package.json's
// dependencies; its tour shows what the command prints today. Each checker is also shown catching its fault.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/paths.js';
import { cli } from './support/cli.js';
import { makeTemp, removeTemp } from './support/temp.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const MAX_LINES = 150;
const COMMANDS = ['npm run setup && npm run conformance', 'npm run setup && npm test'];

/** the lines of the first fenced block after a `## heading` (or of the first block of the file, without one) */
function block(text: string, heading?: string): string[] {
  const from = heading === undefined ? 0 : text.indexOf(`\n## ${heading}\n`);
  assert.ok(from >= 0, `the README has no section "## ${heading}"`);
  const fenced = text.slice(from).match(/\n```[a-z]*\n([\s\S]*?)\n```/);
  assert.ok(fenced, `no code block under "## ${heading ?? '(top)'}"`);
  return fenced[1].split('\n');
}

/** the commands of the README's first code block, comments left out */
const firstCommands = (text: string) => block(text).map((line) => line.replace(/\s+#.*$/, '').trim());

/** the entries of src/ the layout names: `src/cli/` → "cli/", `src/engine.ts` → "engine.ts" */
const layoutEntries = (text: string) =>
  block(text, 'Layout').flatMap((line) => line.match(/^src\/([^\s/]+\/?)/)?.[1] ?? []);

/** what src/ holds, folders with a trailing slash */
const srcEntries = (dir = join(ROOT, 'src')) =>
  readdirSync(dir).map((name) => (statSync(join(dir, name)).isDirectory() ? `${name}/` : name));

function layoutProblems(listed: string[], actual: string[]): string[] {
  return [
    ...listed.filter((e) => !actual.includes(e)).map((e) => `in the README's layout but not in src/: ${e}`),
    ...actual.filter((e) => !listed.includes(e)).map((e) => `in src/ but not in the README's layout: ${e}`),
  ];
}

/** the packages named in the first column of the table under a `## heading` whose header starts with `first` */
function tableNames(text: string, first: string): string[] {
  const start = text.indexOf(`\n| ${first} |`);
  assert.ok(start >= 0, `the README has no table "| ${first} |"`);
  const rows = text.slice(start + 1).split('\n');
  const end = rows.findIndex((line) => !line.startsWith('|'));
  return rows.slice(2, end).flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}

function dependencyProblems(text: string, pkg: { dependencies: object; devDependencies: object }): string[] {
  const compare = (first: string, want: string[]) => {
    const listed = tableNames(text, first);
    return [
      ...listed.filter((n) => !want.includes(n)).map((n) => `${first}: in the README but not in package.json: ${n}`),
      ...want.filter((n) => !listed.includes(n)).map((n) => `${first}: in package.json but not in the README: ${n}`),
    ];
  };
  return [
    ...compare('dependency', Object.keys(pkg.dependencies)),
    ...compare('devDependency', Object.keys(pkg.devDependencies)),
  ];
}

describe('README.md, the front door', () => {
  test(`is at most ${MAX_LINES} lines`, () => {
    const lines = README.trimEnd().split('\n').length;
    assert.ok(lines <= MAX_LINES, `README.md has ${lines} lines: move reference material to docs/`);
  });

  test('starts with the two commands that set up and run everything, and CI runs its test command', () => {
    assert.equal(README.split('\n')[0], '# synconf');
    assert.match(README, /^# synconf\n\n```sh\n/, 'the commands come right after the title');
    assert.deepEqual(firstCommands(README), COMMANDS);
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8').split('\n');
    assert.ok(ci.includes(COMMANDS[1]), `.ci/run does not run the README's test command "${COMMANDS[1]}"`);
  });

  test('the first-commands check catches a README that starts otherwise', () => {
    const cases: [string, string[]][] = [
      ['# synconf\n\n```sh\nnpm ci && npm test\n```\n', ['npm ci && npm test']],
      [
        '# synconf\n\n```sh\nnpm run setup && npm test  # tests\nnpm run setup && npm run conformance\n```\n',
        [...COMMANDS].reverse(),
      ],
    ];
    for (const [text, want] of cases) {
      assert.deepEqual(firstCommands(text), want);
      assert.notDeepEqual(firstCommands(text), COMMANDS);
    }
  });

  test('its layout lists exactly the folders and files of src/, both ways', () => {
    assert.deepEqual(layoutProblems(layoutEntries(README), srcEntries()), []);
  });

  test('the layout check catches a folder missing, a folder too many and a file listed as a folder', () => {
    const listed = layoutEntries(README);
    const actual = srcEntries();
    const folder = actual.find((e) => e.endsWith('/'))!;
    const file = actual.find((e) => !e.endsWith('/'))!;
    const cases: [string[], string[]][] = [
      [listed.filter((e) => e !== folder), [`in src/ but not in the README's layout: ${folder}`]],
      [[...listed, 'lint/'], ["in the README's layout but not in src/: lint/"]],
      [
        listed.map((e) => (e === file ? `${file}/` : e)),
        [`in the README's layout but not in src/: ${file}/`, `in src/ but not in the README's layout: ${file}`],
      ],
    ];
    for (const [planted, want] of cases) assert.deepEqual(layoutProblems(planted, actual), want);
  });

  test('its dependency tables name exactly the dependencies and devDependencies of package.json', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    assert.deepEqual(dependencyProblems(README, pkg), []);
    // and the check catches a dependency added without a word, and one moved to the wrong table
    const added = { ...pkg, dependencies: { ...pkg.dependencies, 'left-pad': '1' } };
    assert.deepEqual(dependencyProblems(README, added), [
      'dependency: in package.json but not in the README: left-pad',
    ]);
    const { semver, ...rest } = pkg.dependencies;
    const moved = { dependencies: rest, devDependencies: { ...pkg.devDependencies, semver } };
    assert.deepEqual(dependencyProblems(README, moved), [
      'dependency: in the README but not in package.json: semver',
      'devDependency: in package.json but not in the README: semver',
    ]);
  });

  describe('the five-minute tour', () => {
    const scratch = makeTemp('readme-tour');
    after(() => removeTemp(scratch));

    test('shows what `synconf replay` prints from a scratch folder today', () => {
      const r = cli(['replay'], { cwd: scratch, env: { GITHUB_STEP_SUMMARY: '' } });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const seconds = (line: string) => line.replace(/\(\d+\.\d+s\)/g, '(0.0s)');
      const printed = r.stdout
        .split('\n')
        .map((line) => seconds(line.replaceAll(ROOT.replace(/\/$/, ''), '<synconf>')));
      const shown = tourOutput(README.slice(README.indexOf('\n## A five-minute tour\n')));
      assert.ok(shown.length >= 3, 'the tour shows no output');
      for (const line of shown)
        assert.ok(printed.includes(seconds(line)), `the tour shows a line synconf replay no longer prints:\n${line}`);
    });
  });
});

/** the lines of the tour's first ```text block, without the "…" that stands for lines left out */
function tourOutput(tour: string): string[] {
  const text = tour.match(/\n```text\n([\s\S]*?)\n```/);
  assert.ok(text, 'the tour has no ```text block');
  return text[1].split('\n').filter((line) => line !== '…');
}
