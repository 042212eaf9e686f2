// `synconf agents install|list`: the real Syncthing versions synconf fetches from Debian's archive, or builds from the
// Go module proxy, into its cache.
import type { CommandModule } from 'yargs';
import { UsageError } from '../errors.js';
import { wholeNumber } from './options.js';

const AGENTS_EXIT_CODES =
  'Exit codes: 0 done, 2 usage or input error (an unknown version, no apt-get or dpkg-deb, no Go, a download or build that fails: the other versions still install), 3 a fault of synconf itself.';

/** the options of a release candidate built from a source tree */
const CANDIDATE_OPTIONS = {
  source: {
    type: 'string',
    requiresArg: true,
    describe:
      "a Syncthing source tree (its go.mod is github.com/syncthing/syncthing's) to build as a release candidate, named by --as; the tree is only read",
  },
  as: {
    type: 'string',
    requiresArg: true,
    describe:
      "the candidate's version (2.1.3-rc.1): stamped into the binary, then a VERSION like any other (run, matrix, drift)",
  },
  after: {
    type: 'string',
    requiresArg: true,
    describe:
      "with --source: the release the tree descends from (its build recipe; the name must sort between it and the next release). Default: the tree's git tags, the module version of a Go module cache folder, else the newest release before the name",
  },
} as const;

/** --source, --as and --after come together (--after optional), and without VERSION or --all */
function candidateOptions(argv: Record<string, unknown>, versions: string[]): void {
  const given = (o: string) => argv[o] !== undefined;
  if (given('source') && !given('as'))
    throw new UsageError('--source builds a release candidate: name it with --as (e.g. --as 2.1.3-rc.1)');
  if (!given('source') && (given('as') || given('after')))
    throw new UsageError(
      `--${given('as') ? 'as' : 'after'} names a release candidate: give its tree with --source DIR`,
    );
  if (given('source') && (versions.length > 0 || argv.all))
    throw new UsageError(
      `--source installs one candidate: give no ${argv.all ? '--all' : `VERSION (got ${versions.join(' ')})`} with it`,
    );
  for (const o of ['source', 'as', 'after'])
    if (Array.isArray(argv[o])) throw new UsageError(`--${o} is given more than once`);
}

const install: CommandModule = {
  command: 'install [versions..]',
  describe:
    'Download and unpack the syncthing package of each VERSION from Debian, or build it from the Go module proxy (default: the versions `npm run setup` installs) into the agents cache; prints version → path',
  builder: (y) =>
    y
      .positional('versions', {
        type: 'string',
        describe:
          'releases to install, e.g. 1.12.1 1.29.5 2.1.2, or lines (1.17: the newest release of the line the Go module proxy serves)',
      })
      .option('all', {
        type: 'boolean',
        describe:
          'every release of the release table that can be had (since 1.12.0: about 55 builds, 20-35 min and 1.3 GB of binaries plus Go caches of several GB; those not served are skipped, one line each)',
      })
      .option('jobs', {
        type: 'string',
        default: '2',
        coerce: wholeNumber('jobs', 1, 16),
        describe: 'how many builds run at once (each compile uses every core)',
      })
      .option('force', {
        type: 'boolean',
        describe:
          'fetch or build again the versions already installed (by default one that runs is kept); with --source, replace a candidate of that name built from another tree',
      })
      .options(CANDIDATE_OPTIONS)
      .check((argv) => {
        const versions = ([] as string[]).concat(argv.versions ?? []);
        if (argv.all && versions.length > 0)
          throw new UsageError(
            `--all installs every release that can be had: give no VERSION with it (got ${versions.join(' ')})`,
          );
        candidateOptions(argv, versions);
        return true;
      })
      .example('synconf agents install', 'the default set (synconf agents list shows which)')
      .example('synconf agents install 1.29.5', 'one of them')
      .example('synconf agents install 2.1.2', 'built from the Go module proxy (needs Go; minutes)')
      .example('synconf agents install 1.17 1.18', 'the newest release of each line that the proxy serves')
      .example('synconf agents install --all', 'every release that can be had (long: see --all)')
      .example('synconf agents install --source ../syncthing --as 2.1.3-rc.1', 'a release candidate from a source tree')
      .example('synconf run --syncthing 1.12.1', 'then run against it')
      .epilogue(`The cache is $SYNCONF_AGENTS_DIR, else ($XDG_CACHE_HOME or ~/.cache)/synconf/agents. The packages come from the
Debian archive this machine's apt sources name (/etc/apt/sources.list, /etc/apt/sources.list.d/), fetched with a
private apt configuration: the machine's package state is not touched. Needs apt-get and dpkg-deb.
$SYNCONF_DEBIAN_SOURCES (files separated by ':') replaces the machine's sources.
The releases Debian lacks (synconf agents list names them) are built from their commit through the Go module proxy:
needs Go 1.25 or later ($SYNCONF_GO, else go on PATH, else /usr/local/go/bin/go) and a C compiler (cgo), a few minutes each; Go's
module and build caches stay in Go's own places. Each build is checked: the module is the release's commit, and the
binary's --version and X-Syncthing-Version (started briefly on loopback) are the release.
${AGENTS_EXIT_CODES}`),
  handler: async (argv) => {
    const { agentsInstall } = await import('../commands/agents.js');
    await agentsInstall((argv.versions as string[] | undefined) ?? [], {
      force: argv.force === true,
      all: argv.all === true,
      jobs: argv.jobs as number,
      candidate:
        typeof argv.source === 'string'
          ? { source: argv.source, name: argv.as as string, after: argv.after as string | undefined }
          : undefined,
    });
  },
};

const list: CommandModule = {
  command: 'list',
  describe: 'Show the versions synconf knows and the ones installed in the agents cache (version, --version, path)',
  builder: (y) =>
    y
      .option('json', { type: 'boolean', describe: 'print the list as JSON' })
      .option('all', {
        type: 'boolean',
        describe:
          'every release since 1.12.0 (the release table) with its state: installed, obtainable, unknown, not served by the Go module proxy (as measured, with the date), not buildable',
      })
      .example('synconf agents list', 'known and installed versions')
      .example('synconf agents list --all', 'every release and whether synconf can get it')
      .epilogue(AGENTS_EXIT_CODES),
  handler: async (argv) => {
    const { agentsList } = await import('../commands/agents.js');
    await agentsList(argv.json === true, argv.all === true);
  },
};

export const agentsCommand: CommandModule = {
  command: 'agents',
  describe:
    "Fetch real Syncthing versions from Debian's archive, or build them from the Go module proxy, into synconf's cache, and list them (agents install | agents list)",
  builder: (y) =>
    y
      .command(install)
      .command(list)
      .demandCommand(1, 'agents needs a command: install or list')
      .example('synconf agents install 1.29.5', 'fetch one version')
      .example('synconf agents list', 'what is installed')
      .epilogue(AGENTS_EXIT_CODES),
  handler: () => {},
};
