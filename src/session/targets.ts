// How a live run (run, drift) reaches its agent: --agent/--api-key, or a lab synconf starts; never recordings.
import { InputError, SynconfError, UsageError } from '../errors.js';
import { usableTempDir } from '../output-dir.js';
import { reapOrphanedLabs } from '../lab/reaper.js';
import type { MakeTarget } from '../runner/run.js';
import { labTarget, agentTarget } from '../runner/targets.js';
import { agentUrl } from '../transport/agent-url.js';
import { parseCertificates, trustAgentCertificates } from '../agent-https.js';
import { readTextFile } from '../text-file.js';

/** how to reach a live agent: --agent/--api-key, or the lab */
export interface TargetOptions {
  agent?: string;
  apiKey?: string;
  /** --agent-ca: the certificate(s) trusted for an https:// --agent */
  agentCa?: string;
  lab?: boolean;
  allowDestructive?: boolean;
  syncthing?: string;
}

/** what to do when there is no agent to run against */
export const noAgent = (why: string) =>
  `no agent to run against (${why}): install one with \`synconf agents install\`, name a running one with --agent URL --api-key KEY, or a binary with --syncthing VERSION|PATH; to check recordings offline use \`synconf replay\``;

/**
 * What a live run needs from its command line and environment, checked before any work (exit 2, one line): an --agent
 * that is an agent's http:// URL (transport/agent-url.ts) and a temporary folder for lab homes and scenario folders;
 * the labs that killed processes left are reaped (`say` tells the user).
 */
export function checkLiveTarget(opts: TargetOptions, say: (line: string) => void): void {
  trustAgentCa(opts.agentCa, opts.agent);
  usableTempDir();
  reapLeftovers(say);
}

/**
 * --agent-ca FILE: the certificates (PEM) trusted for the agent's TLS from now on, instead of Node's roots: the agent's
 * own https-cert.pem (pinned), or the CA that signed its certificate. Given without an https:// agent it is refused,
 * as is a file holding no certificate; the agent's URL (`url`, of `option`) is checked here too.
 */
export function trustAgentCa(file: string | undefined, url: string | undefined, option = '--agent'): void {
  const https = url !== undefined && agentUrl(url, option).protocol === 'https:';
  if (file === undefined) return;
  if (!https)
    throw new UsageError(
      `--agent-ca ${file}: trusts the certificate of an https:// agent, and ${url === undefined ? `no ${option} URL is given` : `${option} ${url} is not one`}`,
    );
  try {
    trustAgentCertificates(parseCertificates(readTextFile(file, `--agent-ca ${file}`)));
  } catch (e) {
    if (e instanceof SynconfError) throw e;
    throw new InputError(`--agent-ca ${file}: ${(e as Error).message}`);
  }
}

/**
 * Before a command starts agents: the labs of synconf processes that were killed (SIGKILL leaves no handler a chance)
 * are stopped and their folders, which hold keys, removed; said in one line (`say`: the command prints it).
 */
export function reapLeftovers(say: (line: string) => void): void {
  const { dirs, processes } = reapOrphanedLabs();
  if (dirs.length)
    say(
      `synconf: stopped ${processes} agent process(es) and removed ${dirs.length} lab folder(s) left by a synconf process that was killed: ${dirs.join(', ')}`,
    );
}

/** the MakeTarget of a live run, from the target options and --timeout (seconds a request may take, the set-up's too) */
export function liveTargetMaker(opts: TargetOptions & { timeout?: number }): MakeTarget {
  return async (needsPeer, wrap) => {
    const allowDestructive = opts.allowDestructive ?? false;
    const syncthing = opts.syncthing;
    if (opts.agent) {
      if (!opts.apiKey) throw new UsageError('--agent needs --api-key (or SYNCONF_API_KEY)');
      const timeoutMs = opts.timeout === undefined ? undefined : opts.timeout * 1000;
      return agentTarget(opts.agent, opts.apiKey, { needsPeer, allowDestructive, wrap, binary: syncthing, timeoutMs });
    }
    if (!opts.lab && !syncthing) {
      // No agent named and none to start: a usage error that says how to get one, never a replay of old evidence.
      const { resolveBinary, LabError } = await import('../lab/lab.js');
      const missing = await resolveBinary().then(
        () => undefined,
        (e: Error) => (e instanceof LabError ? e.message : undefined),
      );
      if (missing) throw new UsageError(noAgent(missing));
    }
    return labTarget({ needsPeer, allowDestructive, wrap, binary: syncthing });
  };
}
