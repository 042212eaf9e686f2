// `synconf agents install|list`: the real Syncthing versions synconf fetches from Debian's archive, or builds from the
// Go module proxy, into its cache.
import type { CommandModule } from 'yargs';

const AGENTS_EXIT_CODES =
  'Exit codes: 0 done, 2 usage or input error (an unknown version, no apt-get or dpkg-deb, no Go, a download or build that fails: the other versions still install), 3 a fault of synconf itself.';

const install: CommandModule = {
  command: 'install [versions..]',
  describe:
    'Download and unpack the syncthing package of each VERSION from Debian, or build it from the Go module proxy (default: the versions `npm run setup` installs) into the agents cache; prints version → path',
  builder: (y) =>
    y
      .positional('versions', { type: 'string', describe: 'versions to install, e.g. 1.12.1 1.29.5 2.1.2' })
      .option('force', {
        type: 'boolean',
        describe: 'fetch or build again the versions already installed (by default one that runs is kept)',
      })
      .example('synconf agents install', 'the default set (synconf agents list shows which)')
      .example('synconf agents install 1.29.5', 'one of them')
      .example('synconf agents install 2.1.2', 'built from the Go module proxy (needs Go; minutes)')
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
    await agentsInstall((argv.versions as string[] | undefined) ?? [], argv.force === true);
  },
};

const list: CommandModule = {
  command: 'list',
  describe: 'Show the versions synconf knows and the ones installed in the agents cache (version, --version, path)',
  builder: (y) =>
    y
      .option('json', { type: 'boolean', describe: 'print the list as JSON' })
      .example('synconf agents list', 'known and installed versions')
      .epilogue(AGENTS_EXIT_CODES),
  handler: async (argv) => {
    const { agentsList } = await import('../commands/agents.js');
    await agentsList(argv.json === true);
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
