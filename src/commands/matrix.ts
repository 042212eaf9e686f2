// `synconf matrix`: the suite against several agent versions, each in its own lab (or from its own recordings),
// a few at a time, then one report per version and the merged version matrix. The exit code is the worst of
// the versions: 0 only when every version conforms or deviates only as listed. Running one version is
// src/matrix/versions.ts; session/matrix-run.ts runs them side by side, writes their reports as they end, and the matrix.
import { releaseGateOf } from '../matrix/release-gate.js';
import { matrixGates } from '../report/matrix-answer.js';
import { EXIT } from '../errors.js';
import { resolve } from 'node:path';
import type { FailOn } from '../schema/generated/types.js';
import type { ShardSpec } from '../scenario/shard.js';
import { boundsOf } from '../session/scope.js';
import { makeOutputDir, usableTempDir } from '../output-dir.js';
import { reapLeftovers } from '../session/targets.js';
import { processSignals } from './terminal/interrupt.js';
import { matrixProgress } from './terminal/matrix-progress.js';
import { chooseAgents } from '../matrix/agents.js';
import { defaultJobs } from '../matrix/versions.js';
import { runMatrix } from '../session/matrix-run.js';

/** the options of `synconf matrix`, as the command line gives them */
export interface MatrixOptions {
  syncthing?: string[];
  replay?: boolean;
  recordings?: string[];
  jobs?: number;
  suite?: string[];
  only?: string[];
  reportDir: string;
  expectations?: string | false;
  /** verdicts that fail a version, at most one change level (breaking|risky|compatible|any): the change gate, and
   * boundary: the version statements' gate */
  failOn: string[];
  /** RULE@METHOD /path [/pointer]: a reviewed change, accepted */
  ignore?: string[];
  ignoreFile?: string;
  timeout: number;
  strict?: boolean;
  shard?: ShardSpec;
  /** --run-timeout: seconds each version's run may take, as run's (default runner/bounds.ts) */
  runTimeout?: number;
  /** --scenario-timeout: seconds each scenario may take */
  scenarioTimeout?: number;
}

/** `synconf matrix`: the versions chosen, run side by side, their reports and the matrix; the exit code the worst */
export async function matrix(opts: MatrixOptions): Promise<void> {
  // the change gate's level apart from the verdicts; the accepted changes read before any work
  const gate = releaseGateOf(opts);
  const { agents, offline, leftOut } = await chooseAgents({
    syncthing: opts.syncthing ?? [],
    replay: opts.replay ?? false,
    recordings: opts.recordings ?? [],
  });
  if (leftOut.length)
    console.log(
      `synconf matrix: the default set only; installed besides it, not run: ${leftOut.join(', ')} (name versions to run with --syncthing, e.g. --syncthing ${[...agents.map((a) => a.name), ...leftOut].join(',')})`,
    );
  // after the versions are known to exist: a version mistyped makes no folder
  makeOutputDir(opts.reportDir, '--report-dir');
  if (!offline) {
    usableTempDir(); // the labs' homes go there
    reapLeftovers(console.error);
  }
  const jobs = opts.jobs ?? defaultJobs(agents.length);
  const out = matrixProgress(agents, jobs, offline);
  const result = await runMatrix(
    {
      agents,
      jobs,
      suites: opts.suite,
      only: opts.only,
      reportDir: resolve(opts.reportDir),
      expectations: opts.expectations,
      // only a change level given: the verdicts' default (a change gate adds to them)
      failOn: (gate.verdicts.length ? gate.verdicts : ['fail', 'unexpected-pass']) as FailOn[],
      accepted: gate.accepted,
      strict: opts.strict,
      shard: opts.shard,
      requestTimeoutMs: opts.timeout * 1000,
      ...boundsOf(opts),
    },
    { listener: out, signals: processSignals },
  );
  const outcome = matrixGates(result.matrix, gate.ask);
  out.done(result, outcome);
  process.exitCode = Math.max(result.exitCode, outcome?.code ?? EXIT.ok);
}
