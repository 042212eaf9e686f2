// `synconf mutate [DIR]`: how sensitive the suite is, by mutants of recorded answers (src/mutate/).
import type { CommandModule } from 'yargs';
import { scenarioOptions, list, decimal } from './options.js';
import { UsageError } from '../errors.js';
import type { MutateCommandOptions } from '../commands/mutate.js';
import { operators, DEFAULT_OPERATORS, SPEC_OPERATORS } from '../mutate/operators.js';

/** the spec-derived operators, one line each, for the help's epilogue */
const specOperatorLines = () =>
  Object.entries(SPEC_OPERATORS)
    .map(([name, does]) => `  ${name}: ${does}`)
    .join('\n');

/** "0.9" or "90%" → 0.9; "90" is neither (a fraction above 1, or a percentage without its %): a usage error */
function score(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  const n = decimal(text.replace(/%$/, ''), true);
  const s = n !== undefined && text.endsWith('%') ? n / 100 : n;
  if (s === undefined || s > 1)
    throw new UsageError(
      `--min-score "${value}" is not a score: a fraction from 0 to 1 (e.g. 0.95) or a percentage with % (e.g. 95%)`,
    );
  return s;
}

const FROM = {
  type: 'string',
  choices: ['both', 'spec', 'checks'],
  defaultDescription: 'both',
  describe:
    "where the mutants come from: spec (at least one per statement of spec/statements.yaml, whichever checks exist), checks (from what the suite's checks and schemas read), both",
} as const;

const PROXY_SESSION = {
  type: 'string',
  describe:
    "score the proxy's checks instead of the suite's: each statement of the spec broken in the answers of a client's session (a report folder of synconf proxy, or its HAR), the session judged again by the proxy; no scenario runs",
} as const;

const EPILOGUE = `The statement score is caught / (caught + survived): the statements whose violation the suite catches; statements masked by a known deviation, without an operator on the recordings, or not checkable do not count. The mutant score is killed / (killed + survived); equivalent mutants (a change the spec allows, by a stated rule) do not count.\nSpec-derived operators:\n${specOperatorLines()}\nExit codes: 0 done (and the score is at least --min-score), 1 the score is below --min-score, 2 usage or input error (or recordings that fail without a mutant), 3 a fault of synconf itself.`;

export const mutateCommand: CommandModule = {
  command: 'mutate [dir]',
  describe:
    "Prove the suite catches deviations: replay recordings with mutated answers (a mutant per statement of the spec, and mutants from the scenarios' checks, the schemas and the side effects), one mutant at a time, and report the statement and mutation scores and every survivor",
  builder: (y) =>
    scenarioOptions(
      y.positional('dir', {
        type: 'string',
        describe: 'folder of cassettes (default: the bundled recordings/syncthing-1.19.2)',
      }),
      'mutate',
    )
      .option('expectations', {
        type: 'string',
        describe:
          'known-deviations file (default: the expectations/*.yaml of the recorded agent version); --no-expectations applies none',
      })
      .option('from', FROM)
      .option('min-score', {
        type: 'string',
        coerce: score,
        describe:
          'the gate: exit 1 when the statement score (caught / (caught + survived)) or the mutant score (killed / (killed + survived)) is below it; 0 to 1 or a percentage, e.g. 95%',
      })
      .option('report-dir', {
        type: 'string',
        default: 'reports/mutation',
        describe: 'where mutation.json, mutation.html and mutation.md are written',
      })
      .option('live', {
        type: 'boolean',
        describe:
          'run the mutants of --operators through a fault injector in front of a lab agent (and a peer) instead of the recordings: one live scenario run per mutant, minutes in all',
      })
      .option('operators', {
        type: 'string',
        coerce: list,
        choices: operators(),
        implies: 'live', // ignored without it: said so
        defaultDescription: DEFAULT_OPERATORS.join(','),
        describe:
          'with --live: the check-derived mutation operators to run live (--live runs no spec-derived mutant); repeat or comma-separate',
      })
      .option('syncthing', {
        type: 'string',
        implies: 'live',
        describe:
          'with --live: the syncthing the lab starts, a VERSION of the agents cache or a PATH (default: syncthing on PATH)',
      })
      .option('proxy-session', PROXY_SESSION)
      .example('synconf mutate', 'every mutant of the bundled Syncthing 1.19.2 recordings')
      .example(
        'synconf mutate recordings/my-agent --suite my-suites --min-score 95%',
        'a CI gate for your own scenarios',
      )
      .example(
        'synconf mutate --proxy-session reports/proxy',
        "which violations of the spec the proxy would report in your client's traffic",
      )
      .example(
        'synconf mutate --live --only "system-*"',
        'side effects and events through a fault injector in front of a lab agent',
      )
      .epilogue(EPILOGUE),
  handler: async (argv) => {
    const { mutateCommand } = await import('../engine.js');
    await mutateCommand(argv as unknown as MutateCommandOptions);
  },
};
