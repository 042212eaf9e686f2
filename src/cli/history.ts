// `synconf history`: the suite across releases, "what changed, in which release", results kept per release.
import type { CommandModule } from 'yargs';
import { scenarioOptions, list, wholeNumber, STRICT, TIMEOUT } from './options.js';
import type { HistoryOptions } from '../commands/history.js';

export const historyCommand: CommandModule = {
  command: 'history',
  describe:
    'Run the suite across releases (the installed ones, --all obtainable ones, or their recordings) and write one page, history.html/.md/.json: a column per release, the releases between that did not run shown as holes, every change between neighbours with its causes and where exactly it is (the release, or a bisect hint); results kept per release, so a second history runs only what changed',
  builder: (y) =>
    scenarioOptions(
      y
        .option('all', {
          type: 'boolean',
          describe:
            'every obtainable release of the release table that is installed; the others are holes unless --install',
        })
        .option('install', {
          type: 'boolean',
          describe:
            'install the releases first: those --syncthing names, or with --all every obtainable one (builds take minutes each)',
        })
        .option('syncthing', {
          type: 'string',
          coerce: list,
          describe:
            'the releases (installed) or syncthing binaries to run; repeat or comma-separate (default: every installed agent)',
        })
        .option('replay', {
          type: 'boolean',
          describe: 'offline: the bundled recordings (recordings/syncthing-*/) are the releases',
        })
        .option('recordings', {
          type: 'string',
          coerce: list,
          describe: 'offline: these recordings folders are the releases (implies --replay); repeat or comma-separate',
        })
        .option('jobs', {
          type: 'string',
          coerce: (v: unknown) => (v === undefined ? undefined : wholeNumber('jobs', 1)(v)),
          describe: 'how many releases run at once (default: as synconf matrix)',
        }),
      'run',
    )
      .option('report-dir', {
        type: 'string',
        default: 'reports/history',
        describe: "where history.json, history.html, history.md, matrix.* and each release's report (<version>/) go",
      })
      .option('cache-dir', {
        type: 'string',
        describe: "where each release's results are kept (default: $XDG_CACHE_HOME or ~/.cache, /synconf/history)",
      })
      .option('expectations', {
        type: 'string',
        describe: 'one known-deviations file for every release (default: each its own); --no-expectations applies none',
      })
      .option('timeout', TIMEOUT)
      .option('strict', { type: 'boolean', describe: STRICT })
      .example('synconf history', 'every installed release live; a second run takes seconds')
      .example('synconf history --replay', 'offline, the bundled recordings')
      .example(
        'synconf history --all --install',
        'every release the Go module proxy serves, installed first (tens of minutes)',
      )
      .epilogue(
        "A release's results are kept under a key of the release, the scenario files that ran and synconf's build: a release does not change, so a history runs only the releases whose key is new. Only whole runs are kept (exit 0 or 1, no harness error).\n" +
          'Exit codes: 0 the history is written (whatever the releases conform to), 2 usage or input error (fewer than two releases, a bad option or file), 3 a fault of synconf itself, 128+N a signal (the reports of the releases done are written).',
      ),
  handler: async (argv) => {
    const { history } = await import('../engine.js');
    await history(argv as unknown as HistoryOptions);
  },
};
