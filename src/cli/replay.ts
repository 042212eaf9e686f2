// `synconf replay [DIR]`: run the scenarios against recorded cassettes, offline.
import type { CommandModule } from 'yargs';
import { join } from 'node:path';
import { commonRunOptions, type CommonRunArgs } from './run.js';
import { RECORDINGS_DIR } from '../paths.js';

interface ReplayArgs extends CommonRunArgs { dir?: string; }

export const DEFAULT_RECORDINGS = join(RECORDINGS_DIR, 'syncthing-1.19.2');

export const replayCommand: CommandModule<object, ReplayArgs> = {
  command: 'replay [dir]',
  describe: 'Run the scenarios against recorded cassettes (no agent needed); same checks and verdicts as the live run that recorded them',
  builder: (y) =>
    commonRunOptions(y)
      .positional('dir', { type: 'string', describe: `folder of cassettes (default: the bundled ${DEFAULT_RECORDINGS.replace(/.*\/recordings\//, 'recordings/')})` })
      .example('$0 replay', 'replay the bundled Syncthing 1.19.2 recordings')
      .example('$0 replay recordings/my-agent --only "pending-*"', 'replay some scenarios of another recording'),
  handler: async (args) => {
    const { executeRun } = await import('./execute-run.js');
    const { replayTarget } = await import('../runner/replay-target.js');
    process.exitCode = await executeRun(args, async () => replayTarget(args.dir ?? DEFAULT_RECORDINGS), undefined, 'replay');
  },
};
