// The agent versions a user names, checked before any work: --agent-version as a full release, --syncthing as an
// installed version or a binary. An unknown one is one line with the closest known version (installed or
// installable), exit 2, before a report folder is made; not a harness error in a report of nothing.
import { UsageError } from '../errors.js';

/** --agent-version is X.Y.Z (v1.19.2-ds1, as an agent prints it, too): 1.29 would be read as 1.29.0 */
export async function checkAgentVersion(value: string | undefined): Promise<void> {
  if (value === undefined || /^v?\d+\.\d+\.\d+/.test(value)) return;
  // the agents cache only on this path: a replay does not load it
  const { versionHint } = await import('../agents/index.js');
  throw new UsageError(`--agent-version "${value}" is not a full version X.Y.Z${versionHint(value)}`);
}

/**
 * The binary --syncthing names exists (a VERSION installed, a PATH executable): its LabError says how to get it.
 * $SYNCONF_SYNCTHING is --syncthing by another name, checked the same way when the command would start a lab
 * (`lab`: no --agent): one line, exit 2, before any work, never a run that reaches no agent.
 */
export async function checkSyncthing(syncthing: string | undefined, lab = true): Promise<void> {
  if (syncthing === undefined && !(lab && process.env.SYNCONF_SYNCTHING)) return;
  const { resolveBinary } = await import('../lab/lab.js');
  await resolveBinary(syncthing);
}
