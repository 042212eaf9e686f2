// `synconf agents install|list`: what they print.
import { installAgents } from '../agents/install.js';
import { installCandidate, type CandidateRequest } from '../agents/candidate.js';
import { listAgents, type AgentListing } from '../agents/list.js';
import { agentsDir } from '../agents/cache.js';
import { EXIT } from '../errors.js';
import { servedVersion } from '../session/served-version.js';
import { printableLine } from '../printable.js';

export interface AgentsInstallOptions {
  force: boolean;
  all: boolean;
  jobs: number;
  /** --source, --as, --after */
  candidate?: Omit<CandidateRequest, 'force'>;
}

const progress = (line: string) => console.error(`synconf agents install: ${printableLine(line)}`);

/** a release candidate built from a source tree; a refusal or a failed build is thrown (one line, exit 2) */
async function candidateInstall(req: CandidateRequest): Promise<void> {
  const result = await installCandidate(req, { log: progress, servedVersion });
  console.log(`${result.version} → ${result.path}`);
}

export async function agentsInstall(versions: string[], o: AgentsInstallOptions): Promise<void> {
  if (o.candidate) return candidateInstall({ ...o.candidate, force: o.force });
  const { installed, failed } = await installAgents(versions, {
    force: o.force,
    all: o.all,
    jobs: o.jobs,
    log: progress,
    servedVersion,
  });
  for (const r of installed) console.log(`${r.version} → ${r.path}`);
  // each failure is its own line (a build's names its version); the others are installed all the same
  for (const f of failed) {
    console.error(`synconf: ${printableLine(f.error.message)}`);
    if (f.error.hint) console.error(`synconf: ${printableLine(f.error.hint)}`);
  }
  if (failed.length > 0) process.exitCode = EXIT.usage;
}

/** a line of `agents list --all`: every release with its state */
function releaseLine(a: AgentListing): string {
  if (a.state === 'installed') return `${a.version}  installed  ${a.printed}  ${a.path}`;
  if (a.state === 'obtainable') return `${a.version}  obtainable: synconf agents install ${a.version}`;
  if (a.state === 'unknown')
    return `${a.version}  unknown (not measured one by one): synconf agents install ${a.version} tries it`;
  if (a.state) return `${a.version}  ${a.why}`;
  return `${a.version}  ${a.installed ? `installed  ${a.printed}  ${a.path}` : 'not in the release table'}`;
}

export async function agentsList(json: boolean, all: boolean): Promise<void> {
  const list = await listAgents(agentsDir(), all);
  if (json) {
    console.log(JSON.stringify(list, null, 2));
    return;
  }
  console.log(`Agents cache: ${agentsDir()}`);
  if (all) {
    const count = (state: string) => list.filter((a) => a.state === state).length;
    console.log(
      `Releases: ${list.filter((a) => a.state).length} (installed ${count('installed')}, obtainable ${count('obtainable')}, unknown ${count('unknown')}, ` +
        `not served ${count('not-served')}, not buildable ${count('not-buildable')})`,
    );
    for (const a of list) console.log(printableLine(releaseLine(a)));
    return;
  }
  for (const a of list) {
    const from = a.debian
      ? `Debian ${a.debian.suite} ${a.debian.version}`
      : a.go
        ? `built from ${a.go.module} ${a.go.tag}, commit ${a.go.commit.slice(0, 12)}`
        : 'not a known version';
    const other = a.otherRelease
      ? `  (the binary reports ${a.printed}, not ${a.version}: synconf agents install --force ${a.version})`
      : '';
    // what a cached binary printed is foreign text: a binary put there by hand may print anything
    console.log(
      printableLine(
        a.installed
          ? `${a.version}  ${a.printed}  ${a.path}${other}`
          : `${a.version}  missing (${from}): synconf agents install ${a.version}`,
      ),
    );
  }
}
