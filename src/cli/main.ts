// The `synconf` command, parsed by yargs (the built command enters through src/cli/bin.ts, which prints the
// top-level help laid out at build time without loading this module).
//
// HOW TO ADD A COMMAND
//   1. Write src/cli/<command>.ts exporting a yargs CommandModule (`export const fooCommand: CommandModule`):
//      `command`, `describe`, a `builder` that declares the options (shared ones: ./options.ts), at least one
//      `.example(...)` and an `.epilogue(...)` with the command's exit codes.
//   2. Keep it thin: the `handler` only hands its arguments to the command's entry point in src/commands/,
//      imported lazily through src/engine.ts (`await import('../engine.js')`: export it there), so that start-up,
//      --help and --version do not load it and a run loads the engine as one chunk (start-up time is measured in
//      bench/). No logic here (docs/architecture.md): src/commands/ prints and sets `process.exitCode` (EXIT from
//      src/errors.ts); the work lives below it. The layer rule (.dependency-cruiser.cjs) holds this in the build.
//   3. A command throws UsageError / InputError (or a subclass) for anything the user can act on — printed here as
//      one line, exit 2; anything else is a fault of synconf (exit 3, stack to a log file, or to stderr with
//      --verbose): src/commands/terminal/fault.ts.
//   4. Lists are `type: 'string', coerce: list` (repeat or comma-separate), never `array: true` options.
//   5. Register it in COMMANDS (./commands.ts), and add it to the CLI tests (tests/cli.test.ts). Its options that
//      take a value need nothing more: ./values.ts refuses them valueless or "" for every command.
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { COMMANDS } from './commands.js';
import { requireValues } from './values.js';
import { usageMessage } from './usage.js';
import { EXIT, UsageError } from '../errors.js';
import { SYNCONF_VERSION } from '../paths.js';
import { helpWidth } from './help-width.js';

const EXIT_CODES = `Exit codes:
  0    every check conforms (or is a listed known deviation)
  1    a check does not conform
  2    usage or input error: a bad option, a missing or malformed file
       (scenario, cassette, expectations, report), an agent that cannot be
       started or reached
  3    a fault of synconf itself (a bug): the stack trace goes to a log file
       (or stderr with --verbose)
  130  interrupted by Ctrl-C (SIGINT); 143 by SIGTERM, 129 by SIGHUP (128 + the
       signal's number); a run still writes the report of what ran
\`synconf <command> --help\` explains each command.`;

const argv = hideBin(process.argv);
const parser: Argv = yargs(argv)
  .scriptName('synconf')
  .usage(
    'synconf: conformance test harness for the Syncthing REST management API\n\nUsage: synconf <command> [options]',
  )
  // before every coerce and check: an option given without a value, or "", is a usage error naming it (./values.ts)
  .middleware(requireValues(argv), true)
  .command(COMMANDS)
  // yargs' own completion command prints its script even for `completion --help`: it keeps only the hook the script
  // calls (--get-yargs-completions), hidden; `completion` is a command with a help of its own
  .completion('get-completion-script', false)
  .command({
    command: 'completion',
    describe: 'Print a bash/zsh completion script (synconf completion >> ~/.bashrc)',
    builder: (y: Argv) =>
      y
        .example('synconf completion >> ~/.bashrc', 'complete synconf commands and options in bash')
        .epilogue('Exit codes: 0 the script is printed.'),
    handler: () => {
      parser.showCompletionScript();
    },
  })
  .demandCommand(1, 'no command given (synconf --help lists them)')
  .option('verbose', { type: 'boolean', global: true, describe: 'print the stack trace of an internal error' })
  .strict()
  .version(SYNCONF_VERSION)
  .alias('help', 'h')
  .alias('version', 'V')
  .wrap(helpWidth())
  .example('synconf run', 'start a lab agent and run every scenario')
  .example('synconf replay', 'the bundled Syncthing 1.19.2 recordings, offline')
  .example('synconf matrix --replay', 'the version matrix of the bundled recordings')
  .example('synconf validate config config.json', 'check a response body against its schema')
  .epilogue(EXIT_CODES)
  // Usage errors become a UsageError of one line (with a did-you-mean), not the whole help.
  // A coerce function's UsageError reaches here as yargs' YError, with its message.
  .fail((msg, err) => {
    if (err && err.name !== 'YError') throw err;
    throw new UsageError(err ? err.message : usageMessage(msg, argv, parser));
  })
  .exitProcess(false);

// yargs lays out a command's whole help before running it, in case the handler shows it: text measured with
// string-width, ~20 ms of every run (bench/). No handler shows help, so skip that; --help lays it out as ever.
const usage = (parser as unknown as { getInternalMethods(): { getUsageInstance(): { cacheHelpMessage?: () => void } } })
  .getInternalMethods()
  .getUsageInstance();
if (typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};

/** runs the command the arguments name; what it ends with is in process.exitCode */
async function main(): Promise<void> {
  try {
    await parser.parseAsync();
  } catch (err) {
    const { reportError } = await import('../commands/terminal/fault.js');
    process.exitCode = reportError(err, argv.includes('--verbose'));
  }
  // exitCode only: a command's handles (a lab being stopped) may still be closing.
  if (process.exitCode === undefined) process.exitCode = EXIT.ok;
}

// Not a top-level await: the built command has this module as CommonJS (dist/bin/cli.cjs, loaded through its code
// cache by src/cli/load-engine.ts), which has none. Nothing waits for it; the pending command keeps the process alive.
void main();
