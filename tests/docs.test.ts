// docs/ and the README stay true (issue 19): the generated files (docs/figures.md, every figure the bundled
// recordings give; docs/cli.md, every command's --help) are what their scripts write today, every synconf command
// line written in the docs names real commands and options, and every docs/ file they name exists. Needs the built
// command (npm run build), as `npm test` does first.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../src/paths.js';
import { makeTemp, removeTemp } from './support/temp.js';

const DOCS = join(ROOT, 'docs');

function script(name: string, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.GITHUB_STEP_SUMMARY;
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', name), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env,
    timeout: 300_000,
  });
  return { code: r.status, out: r.stdout + r.stderr };
}

/** the README and every hand-written file of docs/ (cli.md: its overview, above the generated help), by name */
function writtenDocs(): [string, string][] {
  const docs = readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f): [string, string] => [`docs/${f}`, readFileSync(join(DOCS, f), 'utf8')])
    .map(([name, text]): [string, string] => [name, name === 'docs/cli.md' ? text.split('\n## synconf')[0] : text]);
  return [['README.md', readFileSync(join(ROOT, 'README.md'), 'utf8')], ...docs];
}

/** each command's options, read from the generated docs/cli.md: "lab up" → ["help", "instances", "n", ...] */
function commandsOf(cliDoc: string): Map<string, string[]> {
  const commands = new Map<string, string[]>();
  for (const [, words, help] of cliDoc.matchAll(/^## synconf ?(.*)\n\n```text\n([\s\S]*?)\n```/gm)) {
    const options = [...help.matchAll(/^ {2}(?:-(\w), )?(?: {4})?--([\w-]+)/gm)].flatMap((m) => [m[1], m[2]]);
    commands.set(
      words.trim(),
      options.filter((o): o is string => o !== undefined),
    );
    // a command listed under "Commands:" exists even without a help of its own (completion prints a script)
    const listing = help.split(/^Commands:$/m)[1]?.split(/^\S/m)[0] ?? '';
    for (const [, listed] of listing.matchAll(/^ {2}synconf ([a-z][a-z-]*(?: [a-z][a-z-]*)*)/gm))
      if (!commands.has(listed)) commands.set(listed, []);
  }
  return commands;
}

/** the fenced code blocks of a Markdown text, with their language */
function codeBlocks(text: string): { lang: string; lines: string[] }[] {
  const blocks: { lang: string; lines: string[] }[] = [];
  let open: { lang: string; lines: string[] } | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) {
      if (open) blocks.push(open);
      open = open ? undefined : { lang: line.slice(3).trim(), lines: [] };
    } else open?.lines.push(line);
  }
  return blocks;
}

/** the synconf command lines of a text: lines of shell code blocks and inline code that start with `synconf ` */
function commandLines(text: string): string[] {
  const shell = codeBlocks(text).filter((b) => ['', 'sh', 'bash'].includes(b.lang));
  const inline = [...text.matchAll(/`(synconf [^`]+)`/g)].map((m) => m[1]);
  return [...shell.flatMap((b) => b.lines), ...inline]
    .map((line) => line.replace(/^.*\|\s*(?=synconf )/, '').trim())
    .filter((line) => line.startsWith('synconf '));
}

/** what is wrong with one command line: an unknown command or subcommand, an option the command does not have */
function commandLineProblems(line: string, commands: Map<string, string[]>): string[] {
  const words = line
    .replace(/\s#.*$/, '')
    .split(/\s+/)
    .slice(1);
  let command = '';
  while (words.length && commands.has(`${command} ${words[0]}`.trim())) command = `${command} ${words.shift()}`.trim();
  const hasSubcommands = [...commands.keys()].some((c) => c.startsWith(`${command} `) || (!command && c));
  const next = words[0];
  if (hasSubcommands && next && !next.startsWith('-') && !/[<[.]/.test(next) && next !== '>>')
    return [`${line}: no command "synconf ${`${command} ${next}`.trim()}"`];
  const known = commands.get(command) ?? [];
  return words
    .map((w) => w.replace(/^\[/, ''))
    .filter((w) => /^--?[a-zA-Z]/.test(w))
    .map((w) => w.replace(/^--?(no-)?/, '').replace(/=.*$/, ''))
    .filter((option) => !known.includes(option))
    .map((option) => `${line}: synconf ${command} has no option --${option}`);
}

/** the files a Markdown text links to (relative to its folder) or names as docs/<file>.md that do not exist */
function missingFiles(name: string, text: string): string[] {
  const base = name.startsWith('docs/') ? DOCS : ROOT;
  const links = [...text.matchAll(/\]\(([^)#\s]+)/g)].map((m) => m[1]).filter((p) => !/^[a-z]+:/.test(p));
  const named = [...text.matchAll(/\bdocs\/[\w-]+\.md\b/g)].map((m) => join(ROOT, m[0]));
  return [...links.map((p) => join(base, p)), ...named]
    .filter((path) => !existsSync(path))
    .map((path) => `${name}: ${relative(ROOT, path)}`);
}

describe('docs/ and the README stay true', () => {
  test('docs/figures.md is what the bundled recordings give today (npm run figures)', () => {
    const r = script('figures.mjs', '--check');
    assert.equal(r.code, 0, r.out);
  });

  test('docs/cli.md is what every command prints for --help today (npm run cli-doc)', () => {
    const r = script('cli-doc.mjs', '--check');
    assert.equal(r.code, 0, r.out);
  });

  describe('the freshness check', () => {
    const work = makeTemp('docs');
    after(() => removeTemp(work));

    test('catches a stale generated file and names the command that writes it again', () => {
      const stale = join(work, 'cli.md');
      writeFileSync(stale, readFileSync(join(DOCS, 'cli.md'), 'utf8').replace('--record-mode', '--record-modes'));
      const r = script('cli-doc.mjs', '--check', '--file', stale);
      assert.equal(r.code, 1, r.out);
      assert.match(
        r.out,
        /^docs\/cli\.md is stale: run npm run build && npm run cli-doc \(first difference at line \d+\)$/m,
      );
    });
  });

  test('every synconf command line in the README and docs/ names real commands and options', () => {
    const commands = commandsOf(readFileSync(join(DOCS, 'cli.md'), 'utf8'));
    assert.ok(commands.size >= 15 && commands.get('run')?.includes('baseline'), 'docs/cli.md lists no commands');
    const problems = writtenDocs().flatMap(([name, text]) =>
      commandLines(text).flatMap((line) => commandLineProblems(line, commands).map((p) => `${name}: ${p}`)),
    );
    assert.deepEqual(problems, []);
  });

  test('the command-line check catches an unknown command, subcommand and option', () => {
    const commands = commandsOf(readFileSync(join(DOCS, 'cli.md'), 'utf8'));
    const cases: [string, string[]][] = [
      ['synconf replay --strict --no-expectations', []],
      ['synconf lab up -n 2 --dir /tmp/lab  # two', []],
      ['synconf replay --strikt', ['synconf replay --strikt: synconf replay has no option --strikt']],
      ['synconf lint scenario x.yaml', ['synconf lint scenario x.yaml: no command "synconf lint"']],
      ['synconf lab start', ['synconf lab start: no command "synconf lab start"']],
      ['synconf serve --jobs 2', ['synconf serve --jobs 2: synconf serve has no option --jobs']],
    ];
    for (const [line, want] of cases) assert.deepEqual(commandLineProblems(line, commands), want, line);
    assert.deepEqual(commandLines('x `synconf run --repeat 3` y\n```sh\n$ cat a | synconf validate config -\n```\n'), [
      'synconf validate config -',
      'synconf run --repeat 3',
    ]);
  });

  test('every file the README and docs/ link to, and every docs/<file>.md they name, exists', () => {
    assert.deepEqual(
      writtenDocs().flatMap(([name, text]) => missingFiles(name, text)),
      [],
    );
    // and the check catches a broken link and a docs/ file that is not there
    assert.deepEqual(missingFiles('docs/x.md', 'see [the format](scenario-formats.md) and docs/nope.md'), [
      'docs/x.md: docs/scenario-formats.md',
      'docs/x.md: docs/nope.md',
    ]);
  });
});
