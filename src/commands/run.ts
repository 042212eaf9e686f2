// `synconf run` and `synconf replay`: a live agent (or a lab) and recordings, each one target of a run session
// (session/run-session.ts), printed by the run's listener (terminal/run-progress.ts).
import { replayTarget } from '../runner/replay-target.js';
import { checkLiveTarget, liveTargetMaker, type TargetOptions } from '../session/targets.js';
import { DEFAULT_RECORDINGS } from '../paths.js';
import { executeRun, type CommonRunOptions } from '../session/run-session.js';
import { runListener } from './terminal/run-progress.js';
import { processSignals } from './terminal/interrupt.js';
import { checkAgentVersion, checkSyncthing } from '../session/versions.js';
import { isVersion } from '../schema/version.js';

/** the options of a run session, as cli/replay.ts names them */
export type { CommonRunOptions };

/** `synconf run`: the options of a live run */
export interface RunCommandOptions extends CommonRunOptions, TargetOptions {
  record?: string;
  recordMode: 'all' | 'once' | 'new';
  redact: string[];
}

/** `synconf run`: a live agent (a lab by default), recorded with --record */
export async function run(opts: RunCommandOptions): Promise<void> {
  const record = opts.record
    ? { dir: opts.record, mode: opts.recordMode ?? 'all', redact: opts.redact ?? [] }
    : undefined;
  checkLiveTarget(opts, console.error);
  await checkSyncthing(opts.syncthing, !opts.agent);
  await checkAgentVersion(opts.agentVersion);
  const knownVersion = opts.agentVersion ?? (opts.syncthing && isVersion(opts.syncthing) ? opts.syncthing : undefined);
  process.exitCode = await executeRun({ ...opts, knownVersion }, liveTargetMaker(opts), io(), record);
}

/** `synconf replay [DIR]`: the cassettes of DIR (default the bundled recordings), offline */
export async function replay(opts: CommonRunOptions & { dir?: string }): Promise<void> {
  await checkAgentVersion(opts.agentVersion);
  process.exitCode = await executeRun(
    opts,
    async () => replayTarget(opts.dir ?? DEFAULT_RECORDINGS),
    io(),
    undefined,
    'replay',
  );
}

/** what a run or a replay prints and how it stops: the terminal's listener, the process's signals */
const io = () => ({ listener: runListener(), signals: processSignals });
