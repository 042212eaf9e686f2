#!/usr/bin/env node
// Entry point of the `synconf` command. Each command module is thin: it parses arguments and
// imports its implementation lazily in the handler, so a command loads only what it needs.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { validateCommand } from './validate.js';
import { labCommand } from './lab.js';
import { runCommand } from './run.js';
import { replayCommand } from './replay.js';
import { driftCommand } from './drift.js';
import { reportCommand } from './report.js';
import { EXIT } from './exit.js';

await yargs(hideBin(process.argv))
  .scriptName('synconf')
  .usage('synconf: conformance test harness for the Syncthing REST management API\n\nUsage: $0 <command> [options]')
  .command(runCommand)
  .command(replayCommand)
  .command(driftCommand)
  .command(validateCommand)
  .command(reportCommand)
  .command(labCommand)
  .demandCommand(1, 'Name a command; see the list above.')
  .strict()
  .recommendCommands()
  .help()
  .alias('h', 'help')
  .version()
  .epilogue('Exit codes: 0 every check conforms, 1 a check does not conform, 2 usage, input or harness error.')
  .fail((msg, err, y) => {
    if (err) throw err;
    y.showHelp();
    console.error(`\n${msg}`);
    process.exit(EXIT.usage);
  })
  .parseAsync()
  .catch((err: Error) => {
    // Errors a user can act on (bad option, missing binary, broken cassette) are one line;
    // anything else is a defect of synconf and keeps its stack.
    const known = ['UsageError', 'LabError', 'CassetteError', 'ScenarioError'].includes(err.name);
    console.error(`synconf: ${known ? err.message : err.stack ?? err}`);
    process.exit(EXIT.usage);
  });
