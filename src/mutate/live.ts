// `synconf mutate --live`: the mutants of chosen operators again, this time through a fault
// injector in front of a lab agent (and a peer when a scenario needs one). A replay can only
// pretend that a side effect did not happen; here the request really never reaches the agent, and
// the agent's own later answers show it. One scenario run per mutant: seconds each, so live mode
// takes a few operators (default: side effects and dropped events), not every mutant.
import type { CheckResult, ScenarioResult } from '../schema/generated/types.js';
import type { LoadedScenario } from '../scenario/load.js';
import { contextFor, identify, type Target } from '../runner/run.js';
import { runScenario } from '../runner/scenario-runner.js';
import { applyDeviations, type DeviationIndex } from '../runner/expectations.js';
import { FaultTransport } from './fault-transport.js';
import type { LiveTransport } from '../transport/live.js';
import type { Transport } from '../transport/types.js';
import type { Mutant } from './mutants.js';
import type { Outcome } from './engine.js';

const FAILING = new Set<CheckResult['verdict']>(['fail', 'unexpected-pass']);

export interface LiveRun {
  loaded: LoadedScenario;
  /** the replay's verdicts: the reference for a scenario whose live baseline would end the agent (shutdown) */
  replayBaseline: ScenarioResult;
  mutants: Mutant[];
}

export async function runLive(
  runs: LiveRun[],
  deviations: DeviationIndex,
  start: (wrap: (t: LiveTransport) => Transport) => Promise<Target>,
  onMutant?: (m: Mutant, o: Outcome) => void,
  signal?: AbortSignal,
): Promise<Map<string, Outcome>> {
  let fault: FaultTransport | undefined;
  const target = await start((t) => (fault = new FaultTransport(t)));
  const outcomes = new Map<string, Outcome>();
  try {
    const identity = await identify(target, 10_000);
    const ctx = contextFor(target, identity.version);
    const once = async (loaded: LoadedScenario, m?: Mutant): Promise<ScenarioResult> => {
      fault!.arm(loaded.scenario.id, m?.live);
      const result = await runScenario(loaded, { ...ctx, generations: {} });
      applyDeviations(result, deviations);
      return result;
    };
    for (const run of runs) {
      if (signal?.aborted) break; // Ctrl-C: no further run starts (each is seconds against a live agent)
      // After a shutdown there is no agent left: such a scenario is compared with its replay.
      const ends = run.loaded.scenario.needs?.includes('shutdown') ?? false;
      const baseline = ends ? run.replayBaseline : await once(run.loaded);
      const before = new Map(baseline.checks.map((c) => [c.id, c.verdict]));
      for (const m of run.mutants) {
        if (signal?.aborted) break;
        const result = await once(run.loaded, m);
        const killedBy = result.checks
          .filter((c) => FAILING.has(c.verdict) && before.get(c.id) !== c.verdict)
          .map((c) => ({ check: c.id, message: c.message }));
        const outcome: Outcome = killedBy.length ? { outcome: 'killed', killedBy } : { outcome: 'survived' };
        outcomes.set(m.id, outcome);
        onMutant?.(m, outcome);
      }
    }
  } finally {
    await target.close();
  }
  return outcomes;
}
