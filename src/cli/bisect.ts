// `synconf bisect`: the release that changed a check's verdict, between two releases.
import type { CommandModule } from 'yargs';
import type { BisectOptions } from '../commands/bisect.js';
import { TIMEOUT } from './options.js';

export const bisectCommand: CommandModule = {
  command: 'bisect',
  describe:
    "Find the release that changed a check's verdict between two releases: both ends checked, the releases between probed middle first (installed on demand), those that cannot be had skipped as holes",
  builder: (y) =>
    y
      .option('check', {
        type: 'string',
        requiresArg: true,
        describe: 'the check whose verdict changed, <scenario>/<step>/<check> as a report or the matrix names it',
      })
      .option('scenario', { type: 'string', requiresArg: true, describe: 'or: the scenario whose verdict changed' })
      .option('cause', {
        type: 'string',
        requiresArg: true,
        describe:
          'or: a cause of drift as `drift` prints it, "RULE METHOD /path [/pointer]": present in the drift from the old end',
      })
      .option('from', {
        type: 'string',
        requiresArg: true,
        describe:
          'the older release, showing the old verdict (without --from and --to: the two neighbouring installed releases of the default set, as the matrix runs them, where it changed)',
      })
      .option('to', {
        type: 'string',
        requiresArg: true,
        describe: 'the newer release, showing the new verdict',
      })
      .option('installed-only', {
        type: 'boolean',
        describe: 'probe only the releases installed: the others are holes (no download or build)',
      })
      .option('report-dir', {
        type: 'string',
        default: 'reports/bisect',
        describe: "where each probed release's report goes (<report-dir>/<version>/)",
      })
      .option('timeout', TIMEOUT)
      .option('json', { type: 'boolean', describe: 'print the answer and every probe as JSON' })
      .example(
        "synconf bisect --check 'system-config-defaults/tpl-folder-entry/assert:rescanIntervalS from the folder template' --from 1.29.5 --to 1.30.0",
        'the release that made a folder ignore the folder template',
      )
      .example(
        "synconf bisect --cause 'endpoint-removed GET /rest/system/debug'",
        'ends from the installed releases: the two neighbours between which the endpoint went',
      )
      .epilogue(
        'Known deviations are not applied: a verdict is what the agent does. A release that cannot be had (not served by the Go module proxy, not buildable, an install or run that fails, a check skipped) is a hole, as `git bisect run` skips exit 125.\n' +
          'Exit codes: 0 found (first in X, last before: Y), 2 cannot tell (a range across holes, ends that do not differ or cannot be told, a usage error), 3 a fault of synconf itself.',
      ),
  handler: async (argv) => {
    const { bisect } = await import('../engine.js');
    await bisect(argv as unknown as BisectOptions);
  },
};
