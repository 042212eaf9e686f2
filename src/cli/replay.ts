// `synconf replay [DIR]`: run the scenarios against recorded cassettes, offline.
import type { CommandModule } from 'yargs';
import { selectionOptions, reportOptions, runExitCodes, SHARD } from './options.js';
import type { CommonRunOptions } from '../commands/run.js';

export const replayCommand: CommandModule = {
  command: 'replay [dir]',
  describe:
    'Run the scenarios against recorded cassettes (no agent needed); same checks and verdicts as the live run that recorded them',
  builder: (y) =>
    reportOptions(selectionOptions(y))
      .positional('dir', {
        type: 'string',
        describe: 'folder of cassettes (default: the bundled recordings/syncthing-1.19.2)',
      })
      .option('shard', SHARD)
      .example('synconf replay', 'the bundled Syncthing 1.19.2 recordings')
      .example('synconf replay recordings/my-agent --only "pending-*"', 'some scenarios of another recording')
      .example('synconf replay --strict', 'members the spec does not name fail their checks')
      .example('synconf replay --shard 2/3 --report-dir reports/shard-2', 'the second of three shards')
      .epilogue(
        runExitCodes(
          'a bad option, a malformed scenario, expectations file or cassette, a recordings folder that is missing',
        ),
      ),
  handler: async (argv) => {
    const { replay } = await import('../engine.js');
    await replay(argv as unknown as CommonRunOptions & { dir?: string });
  },
};
