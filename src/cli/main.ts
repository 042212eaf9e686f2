#!/usr/bin/env node
// Entry point of the `synconf` command. Each command module only declares its options and
// imports its implementation lazily in its action, so a command loads only what it needs.
// commander is the parser: it loads in a few milliseconds (start-up time is measured in bench/).
import { Command, CommanderError } from 'commander';
import { registerValidate } from './validate.js';
import { registerLab } from './lab.js';
import { registerRun } from './run.js';
import { registerReplay } from './replay.js';
import { registerDrift } from './drift.js';
import { registerReport } from './report.js';
import { registerMatrix } from './matrix.js';
import { registerAgents } from './agents.js';
import { registerServe } from './serve.js';
import { EXIT } from './exit.js';
import { SynconfError, exitCodeOf } from '../errors.js';
import { SYNCONF_VERSION } from '../paths.js';

const program = new Command('synconf')
  .description('synconf: conformance test harness for the Syncthing REST management API')
  .version(SYNCONF_VERSION)
  .showHelpAfterError()
  .showSuggestionAfterError()
  // Usage errors exit 2 (commander's default is 1, which means "does not conform" here).
  .exitOverride()
  .addHelpText('after', '\nExit codes: 0 every check conforms, 1 a check does not conform, 2 usage, input or harness error.\n`synconf <command> --help` explains each command.');

registerRun(program);
registerReplay(program);
registerDrift(program);
registerValidate(program);
registerLab(program);
registerReport(program);
registerMatrix(program);
registerAgents(program);
registerServe(program);

try {
  await program.parseAsync();
} catch (err) {
  // --help and --version end here too, with exit code 0; commander has printed the message.
  if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage);
  // Errors a user can act on (bad option, missing binary, broken cassette) are one line;
  // anything else is a defect of synconf and keeps its stack.
  const known = err instanceof SynconfError;
  const e = err as Error;
  console.error(`synconf: ${known ? e.message : e.stack ?? e}`);
  process.exit(exitCodeOf(err));
}
