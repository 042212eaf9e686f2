// One rule for option values (src/cli/values.ts), held for every option of every command as the definitions
// declare them (walked, not listed by hand, so an option added later is tried too): each option that takes a value,
// given without one or with "", is exit 2 with one line naming it, before anything is written or requested.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { readdir } from 'node:fs/promises';
import yargs, { type CommandModule } from 'yargs';
import { COMMANDS } from '../src/cli/commands.js';
import { checkValues, REPEATABLE, type Declared } from '../src/cli/values.js';
import { cliAsync } from './support/cli.js';
import { tempFolder } from './support/temp.js';

interface Handler {
  original: string;
  builder: CommandModule['builder'];
}
interface Walked {
  /** e.g. ['report', 'merge'] */
  path: string[];
  /** a stand-in for each required positional */
  positionals: string[];
  /** the options that take a value, positionals left out */
  options: string[];
  /** the options declared as yargs arrays (variadic), positionals left out */
  arrays: string[];
  /** the boolean options (--help and --version left out) */
  flags: string[];
  /** the command's yargs, as its builder left it */
  yargs: ReturnType<typeof yargs>;
}

/** -n of --instances: tried under its long name */
const isShortAlias = (k: string, alias: Record<string, string[]>) =>
  Object.entries(alias).some(
    ([long, short]) => [long, ...short].includes(k) && [long, ...short].some((a) => a.length > k.length),
  );

/** every command and subcommand with the options its builder declares */
function walk(modules: { command: string; builder?: CommandModule['builder'] }[], path: string[] = []): Walked[] {
  return modules.flatMap((m) => {
    const [name, ...args] = m.command.split(' ');
    const y = yargs([]);
    if (typeof m.builder === 'function') m.builder(y);
    const introspect = y as unknown as {
      getOptions(): Declared;
      getInternalMethods(): { getCommandInstance(): { getCommandHandlers(): Record<string, Handler> } };
    };
    const o = introspect.getOptions();
    const positionalNames = args.map((a) => a.replace(/[<>[\].]/g, ''));
    const options = [...new Set([...o.string, ...o.array, ...Object.keys(o.choices)])].filter(
      (k) => !o.boolean.includes(k) && !positionalNames.includes(k) && !isShortAlias(k, o.alias),
    );
    const subcommands = Object.values(introspect.getInternalMethods().getCommandInstance().getCommandHandlers());
    const here: Walked = {
      path: [...path, name],
      positionals: args.filter((a) => a.startsWith('<')).map(() => 'not-there.json'),
      options,
      arrays: o.array.filter((k) => !positionalNames.includes(k)),
      flags: o.boolean.filter((k) => !['help', 'version'].includes(k) && !isShortAlias(k, o.alias)),
      yargs: y,
    };
    return [
      here,
      ...walk(
        subcommands.map((h) => ({ command: h.original, builder: h.builder })),
        here.path,
      ),
    ];
  });
}

const WALKED = walk(COMMANDS.map((c) => ({ command: String(c.command), builder: c.builder })));

test('the walk finds the commands and their options (so the table below cannot be empty)', () => {
  const names = WALKED.map((w) => w.path.join(' '));
  for (const c of ['run', 'replay', 'matrix', 'drift', 'report merge', 'mutate', 'serve', 'lab up', 'spec'])
    assert.ok(names.includes(c), c);
  const replay = WALKED.find((w) => w.path.join(' ') === 'replay')!;
  for (const o of ['report-dir', 'only', 'suite', 'expectations', 'timeout', 'baseline'])
    assert.ok(replay.options.includes(o), o);
  assert.ok(WALKED.reduce((n, w) => n + w.options.length, 0) >= 50);
});

test('the rule catches each fault it exists for, and lets a value through (checked without the command)', () => {
  const y = yargs([])
    .option('out', { type: 'string', default: 'x' })
    .option('n', { alias: 'count', type: 'string' })
    .option('ignore', { type: 'string', array: true })
    .option('strict', { type: 'boolean' });
  const check = (words: string[]) => checkValues(words, {}, y);
  const refused: [string[], RegExp][] = [
    [['--out'], /^--out: needs a value \(got none\)$/],
    [['--out', ''], /^--out: needs a value \(got ""\)$/],
    [['--out', '  '], /^--out: needs a value \(got " {2}"\)$/],
    [['--out='], /^--out: needs a value \(got ""\)$/],
    [['--out', '--strict'], /^--out: needs a value \(got none: --strict follows it\)$/],
    // a word that is no option of the command is most likely a value starting with "-": say how to give it
    [['--out', '-Dd-key'], /^--out: needs a value \(got none: -Dd-key follows it; .* is written --out=-Dd-key\)$/],
    [['-n'], /^--count: needs a value/],
    [['--count', ''], /^--count: needs a value/],
    [['--ignore', 'a', ''], /^--ignore: needs a value \(got ""\)$/],
    [['--strict', ''], /^an argument: needs a value \(got ""\)$/],
  ];
  for (const [words, message] of refused) assert.throws(() => check(words), { message }, words.join(' '));
  for (const words of [
    ['--out', 'r'],
    ['--out=r'],
    ['--out=-Dd-key'],
    ['-n', '-1'],
    ['--ignore', 'a', 'b'],
    ['--strict'],
    ['--', 'x'],
  ])
    assert.doesNotThrow(() => check(words), words.join(' '));
});

test('no option is a yargs array: a list is repeated or comma-separated (a variadic option swallows the positional argument after it)', () => {
  const arrays = WALKED.flatMap((w) => w.arrays.map((o) => `${w.path.join(' ')} --${o}`));
  assert.deepEqual(arrays, []);
});

test('every option of every command given twice: a list (its --help says "repeat or comma-separate") takes both, any other is a usage error naming it', () => {
  let lists = 0;
  let refused = 0;
  for (const command of WALKED) {
    const y = command.yargs as unknown as {
      getInternalMethods(): { getUsageInstance(): { getDescriptions(): Record<string, string | undefined> } };
    };
    const descriptions = y.getInternalMethods().getUsageInstance().getDescriptions();
    const tries: [string, string[]][] = [
      ...command.options.map((o): [string, string[]] => [o, [`--${o}`, 'x', `--${o}`, 'y']]),
      ...command.flags.map((o): [string, string[]] => [o, [`--${o}`, `--${o}`]]),
    ];
    for (const [option, words] of tries) {
      const name = `${command.path.join(' ')} ${words.join(' ')}`;
      const argv = { [option]: words.length === 4 ? ['x', 'y'] : true };
      if (REPEATABLE.test(descriptions[option] ?? '')) {
        lists++;
        assert.doesNotThrow(() => checkValues(words, argv, command.yargs), name);
      } else {
        refused++;
        assert.throws(
          () => checkValues(words, argv, command.yargs),
          { message: new RegExp(`^--${option} given twice`) },
          name,
        );
      }
    }
  }
  assert.ok(lists >= 15 && refused >= 60, `${lists} lists, ${refused} options refused twice`);
  console.log(`# given twice: ${lists} lists take both, ${refused} options refuse it`);
});

describe('every option of every command, valueless and "", against the built command', () => {
  const scratch = tempFolder('values');
  let server: Server;
  let requests = 0;
  let agent: string;
  before(async () => {
    server = createServer((_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    agent = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(async () => {
    server.close();
  });

  for (const command of WALKED)
    for (const option of command.options)
      for (const [form, words] of [
        ['valueless', [`--${option}`]],
        ['""', [`--${option}`, '']],
      ] as const)
        test(`${command.path.join(' ')} --${option} ${form}`, async () => {
          // a live agent to reach, where the command takes one: the rule must stop it before any request
          const target = command.options.includes('agent') && option !== 'agent' && option !== 'api-key';
          const args = [...command.path, ...command.positionals, ...(target ? ['--agent', agent] : []), ...words];
          // killed 5 s after it starts: a hang
          const r = await cliAsync(args, { cwd: scratch(), env: { SYNCONF_API_KEY: 'k' }, timeout: 5_000 });
          const out = `${r.stdout}${r.stderr}`;
          assert.equal(r.code, 2, out);
          assert.match(r.stderr, new RegExp(`^synconf: --${option}: needs a value \\(got (none|"")\\)\\n$`));
          assert.equal(r.stdout, '');
          assert.deepEqual(await readdir(scratch()), [], 'nothing written');
          assert.equal(requests, 0, 'no request made');
        });
});
