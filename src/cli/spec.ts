// `synconf spec`: list the statement index of the spec (spec/statements.yaml).
import type { CommandModule } from 'yargs';
import { list, TIMEOUT } from './options.js';
import type { SpecOptions } from '../commands/spec.js';

export const specCommand: CommandModule = {
  command: 'spec',
  describe:
    "List the spec's statements (spec/statements.yaml): id, kind, section, and whether the tested agents can check each (if not, why)",
  builder: (y) =>
    y
      .option('kind', {
        type: 'string',
        coerce: list,
        describe:
          'only statements of these kinds (schemas/statement-index.schema.json; an unknown kind lists the known ones); repeat or comma-separate',
      })
      .option('coverage', {
        type: 'string',
        coerce: list,
        describe:
          'report.json files of runs (one a version), repeat or comma-separate: one column each, the state of every statement there (passed, deviating, failing, not checked, not checkable)',
      })
      .option('json', {
        type: 'boolean',
        describe:
          'print the statements as a JSON array of {id, kind, section, line, checkable, reason, sameAs} (with --boundaries: schemas/spec-boundaries.schema.json)',
      })
      .option('boundaries', {
        type: 'boolean',
        describe:
          'each version statement ("added in 1.18.0") told by the two releases that straddle it (the release table): where both are installed, only its scenarios run on them, a lab each, no known deviations applied, and the verdict names them',
      })
      .option('install', {
        type: 'boolean',
        describe:
          'with --boundaries: install the straddling releases first (Debian or a build from the Go module proxy; minutes each); without it nothing is installed',
      })
      .option('report-dir', {
        type: 'string',
        default: 'reports/boundaries',
        describe: "with --boundaries: where each pair of releases' reports and matrix go (<report-dir>/<before>-<at>/)",
      })
      .option('timeout', TIMEOUT)
      .example('synconf spec', 'every statement, then the counts by kind and the reasons for "not checkable"')
      .example(
        'synconf spec --kind cross-endpoint,effect',
        'the statements that need another endpoint or a state after',
      )
      .example(
        'synconf spec --coverage reports/1.12.1/report.json,reports/1.29.5/report.json',
        'what each run proved of every statement, one column per agent version',
      )
      .example(
        'synconf spec --boundaries --install',
        'build the releases straddling each version statement, run its scenarios on them: "from 1.18.0: … as the spec says"',
      )
      .example(
        'synconf spec --json | jq -r \'.[] | select(.checkable == "not checkable") | .id\'',
        'what cannot be checked',
      )
      .epilogue(
        'Exit codes: 0 listed (--boundaries: no statement disagrees with its straddling releases), 1 (--boundaries) a statement disagrees, 2 an unknown --kind, a malformed statement index or a report that cannot be read, 3 a fault of synconf itself.',
      ),
  handler: async (argv) => {
    const { spec } = await import('../engine.js');
    await spec(argv as unknown as SpecOptions);
  },
};
