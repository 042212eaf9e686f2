// `synconf drift [DIR]`: record the scenarios afresh and compare with existing cassettes by shape.
import type { CommandModule } from 'yargs';
import { selectionOptions, targetOptions } from './options.js';
import { UsageError } from '../errors.js';
import type { DriftOptions } from '../runner/drift-run.js';

export const driftCommand: CommandModule = {
  command: 'drift [dir]',
  describe: 'Record the scenarios afresh from a live agent and compare with existing cassettes by shape (status, media type, fields and their types, event types); exit 1 when anything differs',
  builder: (y) =>
    targetOptions(selectionOptions(y))
      .positional('dir', { type: 'string', describe: 'the cassettes to compare with (default: the bundled recordings)' })
      .option('keep', { type: 'boolean', describe: 'keep the fresh recording (its folder is printed)' })
      // Options of run/replay that drift cannot honour: said so, rather than accepted and ignored.
      .option('report-dir', { type: 'string', hidden: true })
      .option('fail-on', { type: 'string', hidden: true })
      .option('expectations', { type: 'string', hidden: true })
      .check((argv) => {
        for (const o of ['report-dir', 'fail-on', 'expectations']) if (argv[o] !== undefined) throw new UsageError(`drift does not take --${o}: it writes no report and judges no verdicts, it compares the shapes of the answers`);
        return true;
      })
      .example('synconf drift --lab', 'a fresh lab agent against the bundled 1.19.2 recordings')
      .example('synconf drift --agent URL --api-key KEY DIR', 'what changed in the agent running here')
      .epilogue('drift writes no report and judges no verdicts: it compares shapes (so it has no --report-dir, --fail-on or --expectations).\nExit codes: 0 no difference, 1 a difference, 2 usage or input error (an unreadable cassette, an agent that cannot be reached), 3 a fault of synconf itself.'),
  handler: async (argv) => {
    const opts = argv as unknown as DriftOptions & { dir?: string };
    const { driftRun } = await import('../runner/drift-run.js');
    const { DEFAULT_RECORDINGS } = await import('../paths.js');
    process.exitCode = await driftRun(opts.dir ?? DEFAULT_RECORDINGS, opts);
  },
};
