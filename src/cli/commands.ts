// Every command of `synconf`, in the order --help lists them: main.ts registers them, and tests walk their
// definitions (tests/option-values.test.ts tries every option of every command without a value).
import type { CommandModule } from 'yargs';
import { runCommand } from './run.js';
import { replayCommand } from './replay.js';
import { driftCommand } from './drift.js';
import { validateCommand } from './validate.js';
import { labCommand } from './lab.js';
import { reportCommand } from './report.js';
import { mutateCommand } from './mutate.js';
import { matrixCommand } from './matrix.js';
import { agentsCommand } from './agents.js';
import { serveCommand } from './serve.js';
import { proxyCommand } from './proxy.js';
import { contractCommand } from './contract.js';
import { specCommand } from './spec.js';
import { bisectCommand } from './bisect.js';
import { historyCommand } from './history.js';

export const COMMANDS: CommandModule[] = [
  runCommand,
  replayCommand,
  matrixCommand,
  driftCommand,
  bisectCommand,
  historyCommand,
  validateCommand,
  labCommand,
  agentsCommand,
  reportCommand,
  mutateCommand,
  serveCommand,
  proxyCommand,
  contractCommand,
  specCommand,
];
