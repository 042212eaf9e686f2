// `synconf agents install|list`: what they print.
import { installAgents } from '../agents/install.js';
import { listAgents } from '../agents/list.js';
import { agentsDir } from '../agents/cache.js';

export async function agentsInstall(versions: string[], force: boolean): Promise<void> {
  const results = await installAgents(versions, {
    force,
    log: (line) => console.error(`synconf agents install: ${line}`),
  });
  for (const r of results) console.log(`${r.version} → ${r.path}`);
}

export async function agentsList(json: boolean): Promise<void> {
  const list = await listAgents();
  if (json) {
    console.log(JSON.stringify(list, null, 2));
    return;
  }
  console.log(`Agents cache: ${agentsDir()}`);
  for (const a of list) {
    const from = a.debian ? `Debian ${a.debian.suite} ${a.debian.version}` : 'not a known version';
    console.log(
      a.installed
        ? `${a.version}  ${a.printed}  ${a.path}`
        : `${a.version}  missing (${from}): synconf agents install ${a.version}`,
    );
  }
}
