// `synconf mutate --proxy-session SESSION`: the proxy's checks scored like the suite's. The statements of the spec
// are broken one at a time in a client's session (a report folder of `synconf proxy`, or its HAR), each mutated
// session judged again by the proxy's own checks (proxy/judge-session.ts, handed to mutate/ as the judge).
import { readClientSession } from '../proxy/client-session.js';
import { judgeSession, noteOf } from '../proxy/judge-session.js';
import { deviationsFor } from '../proxy/deviations.js';
import { mutateSession } from '../mutate/mutate.js';
import type { MutationReport } from '../schema/generated/types.js';
import { printableLine } from '../printable.js';

export interface SessionOptions {
  session: string;
  /** an expectations file, false for none, undefined for those of the session's agent version */
  expectations: string | false | undefined;
  minScore?: number;
  signal: AbortSignal;
  /** the line that says what is mutated (the command prints it) */
  say: (line: string) => void;
}

export async function mutateProxySession(opts: SessionOptions): Promise<MutationReport> {
  const session = await readClientSession(opts.session);
  const { byResource: deviations } = await deviationsFor(session.agentVersion, opts.expectations);
  const of = { agentVersion: session.agentVersion, deviations, harFile: session.har };
  opts.say(
    printableLine(
      `synconf mutate: the proxy's checks on ${session.entries.length} exchange(s) of ${session.har} (Syncthing ${session.agentVersion ?? 'version unknown'}): each statement of the spec broken in turn (Ctrl-C stops)`,
    ),
  );
  return mutateSession({
    entries: session.entries,
    file: session.har,
    agentVersion: session.agentVersion,
    judge: (entries) => judgeSession(entries, of),
    unjudged: (e) => noteOf(e) !== undefined,
    minScore: opts.minScore,
    signal: opts.signal,
  });
}
