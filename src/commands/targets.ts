// How a live run (run, drift) reaches its agent: --agent/--api-key, or a lab synconf starts.
import { UsageError } from '../errors.js';
import { DEFAULT_RECORDINGS } from '../paths.js';
import type { MakeTarget } from '../runner/run.js';
import { labTarget, agentTarget } from '../runner/targets.js';
import { replayTarget } from '../runner/replay-target.js';

/** how to reach a live agent: --agent/--api-key, or the lab */
export interface TargetOptions {
  agent?: string;
  apiKey?: string;
  lab?: boolean;
  allowDestructive?: boolean;
  syncthing?: string;
}

/** the MakeTarget of a live run, from the target options */
export function liveTargetMaker(opts: TargetOptions): MakeTarget {
  return async (needsPeer, wrap) => {
    const allowDestructive = opts.allowDestructive ?? false;
    const syncthing = opts.syncthing;
    if (opts.agent) {
      if (!opts.apiKey) throw new UsageError('--agent needs --api-key (or SYNCONF_API_KEY)');
      return agentTarget(opts.agent, opts.apiKey, { needsPeer, allowDestructive, wrap, binary: syncthing });
    }
    if (!opts.lab && !wrap && !syncthing) {
      // No agent named and none to start: show the bundled recordings rather than nothing, and say so.
      const { resolveBinary, LabError } = await import('../lab/lab.js');
      const missing = await resolveBinary().then(
        () => undefined,
        (e: Error) => (e instanceof LabError ? e.message : undefined),
      );
      if (missing) {
        console.error(
          `synconf: no agent to run against (${missing})\nsynconf: REPLAYING the bundled recordings ${DEFAULT_RECORDINGS.replace(/.*\/recordings\//, 'recordings/')} instead; the report says mode "replay". Give --lab to insist on a live agent.`,
        );
        return replayTarget(DEFAULT_RECORDINGS);
      }
    }
    return labTarget({ needsPeer, allowDestructive, wrap, binary: syncthing });
  };
}
