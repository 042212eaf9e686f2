// `synconf drift [DIR]` / `synconf drift DIR-A DIR-B`: compare recordings by shape — a fresh recording of a
// live agent with a folder, or two folders offline.
import type { CommandModule } from 'yargs';
import { selectionOptions, targetOptions } from './options.js';
import { UsageError } from '../errors.js';
import type { DriftOptions } from '../commands/drift.js';

export const driftCommand: CommandModule = {
  command: 'drift [dirs..]',
  describe:
    "Compare two recordings by shape (status, media type, fields and their types, values against the spec's patterns and formats, event types): two folders offline, or one folder against a fresh recording of a live agent; exit 0 no difference, 1 differences, 2 input error",
  builder: (y) =>
    targetOptions(selectionOptions(y))
      .positional('dirs', {
        type: 'string',
        describe:
          'DIR-A DIR-B: two recordings folders, compared offline (A the older); or one folder to compare a fresh live recording with (default: the bundled recordings)',
      })
      .option('keep', { type: 'boolean', describe: 'keep the fresh recording (its folder is printed)' })
      // Options of run/replay that drift cannot honour: said so, rather than accepted and ignored.
      .option('report-dir', { type: 'string', hidden: true })
      .option('fail-on', { type: 'string', hidden: true })
      .option('expectations', { type: 'string', hidden: true })
      .check((argv) => {
        for (const o of ['report-dir', 'fail-on', 'expectations'])
          if (argv[o] !== undefined)
            throw new UsageError(
              `drift does not take --${o}: it writes no report and judges no verdicts, it compares the shapes of the answers`,
            );
        const dirs = (argv.dirs as string[] | undefined) ?? [];
        if (dirs.length > 2)
          throw new UsageError(`drift compares two recordings folders; got ${dirs.length}: ${dirs.join(' ')}`);
        if (dirs.length === 2) {
          const live = ['lab', 'agent', 'syncthing', 'keep', 'allow-destructive', 'agent-version'].find(
            (o) => argv[o] !== undefined,
          );
          if (live) throw new UsageError(`drift DIR-A DIR-B compares two recordings offline: --${live} does not apply`);
        }
        return true;
      })
      .example(
        'synconf drift recordings/syncthing-1.19.2 recordings/syncthing-1.29.5',
        'offline: what changed between two versions',
      )
      .example('synconf drift --lab', 'a fresh lab agent against the bundled 1.19.2 recordings')
      .example('synconf drift --agent URL --api-key KEY DIR', 'what changed in the agent running here')
      .epilogue(
        'drift writes no report and judges no verdicts: it compares shapes (so it has no --report-dir, --fail-on or --expectations).\nExit codes: 0 no difference, 1 a difference, 2 usage or input error (an unreadable cassette, an agent that cannot be reached), 3 a fault of synconf itself.',
      ),
  handler: async (argv) => {
    const { drift } = await import('../engine.js');
    await drift(argv as unknown as DriftOptions & { dirs?: string[] });
  },
};
