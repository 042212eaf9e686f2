// The time bounds of a run and of each scenario, and the watch on an agent that restarts on its own: what keeps a run
// against a faulty agent from going on for ever or ending green. Stated in docs/cli.md (run --help).
import type { CheckResult, ScenarioResult } from '../schema/generated/types.js';
import type { LoadedScenario } from '../scenario/load.js';
import { scenarioVerdict } from '../verdict/verdicts.js';
import type { AgentWatch } from './context.js';
import type { RunOptions } from './run.js';

/** the defaults of --run-timeout and --scenario-timeout, in seconds */
export const RUN_TIMEOUT_S = 3600;
export const SCENARIO_TIMEOUT_S = 600;

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/** a timer that aborts `c` with `message` after `ms`, never keeping the process alive */
function abortAfter(c: AbortController, ms: number, message: string): NodeJS.Timeout {
  const t = setTimeout(() => c.abort(new Error(message)), ms);
  t.unref();
  return t;
}

/** the run's signal (Ctrl-C, its bound, a silent agent) and a signal per scenario that adds the scenario's bound */
export function runBounds(opts: RunOptions) {
  const run = new AbortController();
  const runMs = opts.runTimeoutMs ?? RUN_TIMEOUT_S * 1000;
  const timer = abortAfter(run, runMs, `the run passed its time bound of ${seconds(runMs)} (--run-timeout)`);
  const runSignal = opts.signal ? AbortSignal.any([opts.signal, run.signal]) : run.signal;
  return {
    run: runSignal,
    scenario(id: string) {
      const own = new AbortController();
      const ms = opts.scenarioTimeoutMs ?? SCENARIO_TIMEOUT_S * 1000;
      const t = abortAfter(own, ms, `scenario ${id} passed its time bound of ${seconds(ms)} (--scenario-timeout)`);
      return {
        signal: AbortSignal.any([runSignal, own.signal]),
        /** an agent that stopped answering stops the run, not only the scenario that found it out */
        stopRun: (reason: string) => run.abort(new Error(reason)),
        done: () => clearTimeout(t),
      };
    },
    done: () => clearTimeout(timer),
  };
}

/** the scenarios that ask the agent to restart or stop: a new start during them is theirs */
const restarts = (s: LoadedScenario) => (s.scenario.needs ?? []).some((n) => n === 'restart' || n === 'shutdown');

/**
 * After each scenario, the agent's startTime (GET /rest/system/status, past the recorder): a new one during a scenario
 * that did not ask for a restart is a failing check of that scenario. The agent crashed and its monitor started it
 * again, and every check that passed after that judged a fresh agent, not the state the scenario built.
 */
export function restartWatch(watch: AgentWatch) {
  let started: string | undefined;
  return {
    async start() {
      started = await watch.startTime('agent');
    },
    async check(loaded: LoadedScenario, result: ScenarioResult) {
      const now = await watch.startTime('agent');
      const before = started;
      if (now) started = now;
      if (!now || !before || now === before || restarts(loaded)) return;
      const check: CheckResult = {
        id: `${result.id}/agent/restarted`,
        step: 'agent',
        phase: 'steps',
        kind: 'request',
        verdict: 'fail',
        message: `the agent restarted during this scenario (startTime ${before} → ${now}) and no step asked it to`,
        expected: before,
        actual: now,
      };
      result.checks.push(check);
      result.verdict = scenarioVerdict(result.checks);
    },
  };
}
