// `synconf agents install|list`: the real Syncthing versions synconf fetches from Debian's archive into its cache.
// The implementation is imported inside the actions so other commands do not load it.
import type { Command } from 'commander';

export function registerAgents(program: Command): void {
  const agents = program
    .command('agents')
    .description('Fetch real Syncthing versions from Debian\'s archive into synconf\'s cache, and list them (agents install | agents list)');

  agents
    .command('install')
    .description('Download and unpack the syncthing package of each VERSION (default: every version synconf knows) into the agents cache; prints version → path')
    .argument('[versions...]', 'versions to install, e.g. 1.12.1 1.29.5')
    .option('--force', 'fetch again the versions already installed (by default one that runs is kept)')
    .addHelpText('after', `
The cache is $SYNCONF_AGENTS_DIR, else ($XDG_CACHE_HOME or ~/.cache)/synconf/agents. The packages come from the
Debian archive this machine's apt sources name (/etc/apt/sources.list, /etc/apt/sources.list.d/), fetched with a
private apt configuration: the machine's package state is not touched. Needs apt-get and dpkg-deb.
$SYNCONF_DEBIAN_SOURCES (files separated by ':') replaces the machine's sources.

Examples:
  synconf agents install                 every known version
  synconf agents install 1.29.5          one of them
  synconf run --syncthing 1.12.1         then run against it`)
    .action(async (versions: string[], opts: { force?: boolean }) => {
      const { installAgents } = await import('../agents/install.js');
      const results = await installAgents(versions, { force: opts.force, log: (line) => console.error(`synconf agents install: ${line}`) });
      for (const r of results) console.log(`${r.version} → ${r.path}`);
    });

  agents
    .command('list')
    .description('Show the versions synconf knows and the ones installed in the agents cache (version, --version, path)')
    .option('--json', 'print the list as JSON')
    .action(async (opts: { json?: boolean }) => {
      const { listAgents } = await import('../agents/list.js');
      const { agentsDir } = await import('../agents/cache.js');
      const list = await listAgents();
      if (opts.json) {
        console.log(JSON.stringify(list, null, 2));
        return;
      }
      console.log(`Agents cache: ${agentsDir()}`);
      for (const a of list) {
        const from = a.debian ? `Debian ${a.debian.suite} ${a.debian.version}` : 'not a known version';
        console.log(a.installed ? `${a.version}  ${a.printed}  ${a.path}` : `${a.version}  missing (${from}): synconf agents install ${a.version}`);
      }
    });
}
