// Running mutants: each scenario is replayed once as recorded (the baseline, which also shows what
// its steps check), then once per mutant with the mutant's answers in place of the recorded ones.
// Everything stays in memory: cassettes are read once, a mutant is a few replaced entries.
import { readFileSync } from 'node:fs';
import type { Cassette, CheckResult, ScenarioResult, HarEntry } from '../schema/generated/types.js';
import type { LoadedScenario } from '../scenario/load.js';
import { runScenario } from '../runner/scenario-runner.js';
import { applyDeviations, type DeviationIndex } from '../runner/expectations.js';
import { ReplayTransport } from '../transport/replay.js';
import { readCassette, cassettePath, CassetteError } from '../transport/cassette.js';
import { Redactor } from '../transport/redact.js';
import { virtualClock } from '../runner/clock.js';
import { contextFor, type Target } from '../runner/run.js';
import { deriveMutants, type Observation } from './derive.js';
import type { Mutant } from './mutants.js';
import { wordFor } from '../plural.js';

export interface Outcome {
  outcome: 'killed' | 'survived' | 'equivalent';
  killedBy?: { check: string; message: string }[];
  equivalentBecause?: string;
}

const FAILING = new Set<CheckResult['verdict']>(['fail', 'unexpected-pass']);

export class MutationEngine {
  private readonly cassettes = new Map<string, Cassette>();
  constructor(
    private readonly dir: string,
    private readonly target: Target,
    private readonly agentVersion: string | null,
    private readonly deviations: DeviationIndex,
  ) {}

  cassette(scenario: string): Cassette {
    let c = this.cassettes.get(scenario);
    if (!c) {
      c = readCassette(this.dir, scenario);
      if (!c)
        throw new CassetteError(
          cassettePath(this.dir, scenario),
          `missing: scenario "${scenario}" was never recorded here`,
        );
      this.cassettes.set(scenario, c);
    }
    return c;
  }

  /** one replay of a scenario; `replace` answers in place of recorded entries, `observe` sees what was checked */
  async replay(
    loaded: LoadedScenario,
    replace?: Map<number, HarEntry>,
    observe?: (o: Observation) => void,
  ): Promise<ScenarioResult> {
    const id = loaded.scenario.id;
    this.cassette(id);
    const served = new Map<string, number>();
    const transport = new ReplayTransport(this.dir, new Redactor(), {
      cassettes: this.cassettes,
      answer: (scenario, index, entry) => {
        served.set(entry._step, index);
        return scenario === id ? (replace?.get(index) ?? entry) : entry;
      },
    });
    const ctx = contextFor(this.target, this.agentVersion, {
      transport,
      clock: virtualClock(),
      ...(observe
        ? {
            observe: (o) =>
              observe({
                ...o,
                ...(o.kind === 'request' && served.has(o.step) ? { entryIndex: served.get(o.step) } : {}),
              }),
          }
        : {}),
    });
    const result = await runScenario(loaded, ctx);
    applyDeviations(result, this.deviations);
    return result;
  }

  /** the unmutated replay of a scenario and the mutants derived from what it checked */
  async derive(loaded: LoadedScenario): Promise<{ baseline: ScenarioResult; mutants: Mutant[] }> {
    const observations: Observation[] = [];
    const baseline = await this.replay(loaded, undefined, (o) => observations.push(o));
    // loaded.file is for people (relative to the package, or as given); loaded.path is the file
    const text = readFileSync(loaded.path, 'utf8').split('\n');
    const lineOf = (step: string) => {
      const re = new RegExp(`^\\s*-?\\s*name:\\s*["']?${step.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']?\\s*$`);
      const i = text.findIndex((l) => re.test(l));
      return i >= 0 ? i + 1 : undefined;
    };
    const mutants = deriveMutants({
      id: loaded.scenario.id,
      file: loaded.file,
      cassette: this.cassette(loaded.scenario.id),
      observations,
      lineOf,
      agentVersion: this.agentVersion,
      covers: loaded.scenario.spec,
    });
    return { baseline, mutants };
  }

  /**
   * Killed when a check fails (or passes unexpectedly) that did not in the baseline. A survivor whose
   * checks (the ones that exist to catch it) all fail already in the baseline, as known deviations of
   * the agent, is masked rather than missed: on this agent no check can tell it apart.
   */
  async run(loaded: LoadedScenario, baseline: ScenarioResult, mutant: Mutant): Promise<Outcome> {
    if (mutant.equivalentBecause) return { outcome: 'equivalent', equivalentBecause: mutant.equivalentBecause };
    const before = new Map(baseline.checks.map((c) => [c.id, c]));
    const result = await this.replay(loaded, mutant.replace);
    const killedBy = result.checks
      .filter((c) => FAILING.has(c.verdict) && before.get(c.id)?.verdict !== c.verdict)
      .map((c) => ({ check: c.id, message: c.message }));
    if (killedBy.length) return { outcome: 'killed', killedBy };
    const seen = mutant.maskedWhenSeen
      ? result.checks.filter((c) => c.verdict === 'expected-fail' && before.get(c.id)?.message !== c.message)
      : [];
    if (seen.length)
      return {
        outcome: 'equivalent',
        equivalentBecause: `masked: ${seen[0].id} sees the change but already fails on this agent, a known deviation (${seen[0].deviation?.file ?? 'expectations'})`,
      };
    const aimed = (mutant.aims ?? []).map((id) => before.get(id));
    if (aimed.length && aimed.every((c) => c?.verdict === 'expected-fail')) {
      return {
        outcome: 'equivalent',
        equivalentBecause: `masked: ${aimed.map((c) => c!.id).join(', ')} already ${wordFor(aimed.length, 'fails', 'fail')} on this agent, a known deviation (${aimed[0]!.deviation?.file ?? 'expectations'})`,
      };
    }
    return { outcome: 'survived' };
  }
}
