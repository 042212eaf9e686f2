// `synconf replay [DIR]`: run the scenarios against recorded cassettes, offline.
import type { Command } from 'commander';
import { join } from 'node:path';
import { commonRunOptions, type CommonRunOptions } from './run.js';
import { RECORDINGS_DIR } from '../paths.js';

export const DEFAULT_RECORDINGS = join(RECORDINGS_DIR, 'syncthing-1.19.2');

export function registerReplay(program: Command): void {
  const replay = program
    .command('replay')
    .description('Run the scenarios against recorded cassettes (no agent needed); same checks and verdicts as the live run that recorded them')
    .argument('[dir]', 'folder of cassettes (default: the bundled recordings/syncthing-1.19.2)');
  commonRunOptions(replay)
    .addHelpText('after', '\nExamples:\n  synconf replay                                       the bundled Syncthing 1.19.2 recordings\n  synconf replay recordings/my-agent --only "pending-*"  some scenarios of another recording')
    .action(async (dir: string | undefined, opts: CommonRunOptions) => {
      const { executeRun } = await import('./execute-run.js');
      const { replayTarget } = await import('../runner/replay-target.js');
      process.exitCode = await executeRun(opts, async () => replayTarget(dir ?? DEFAULT_RECORDINGS), undefined, 'replay');
    });
}
