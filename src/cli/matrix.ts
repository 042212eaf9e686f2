// `synconf matrix`: the suite against several agent versions (live, each in its own lab, or from recordings),
// one report per version and the merged version matrix. The work is src/matrix/; this file is the wiring.
import type { CommandModule } from 'yargs';
import { boundOptions, scenarioOptions, list, wholeNumber, STRICT, TIMEOUT, SHARD } from './options.js';
import { failOnVerdicts } from '../verdict/verdicts.js';
import { BOUNDARY_FAIL_ON, changeFailOnChoices } from '../verdict/change-levels.js';
import type { MatrixOptions } from '../commands/matrix.js';

/** --fail-on: verdicts and the change gate; the changes it accepts, as synconf drift takes them (a function: the
 * choices are read from the schemas when matrix runs, not at every start of every command) */
export const changeGate = () =>
  ({
    'fail-on': {
      type: 'string',
      coerce: list,
      choices: [...failOnVerdicts(), ...changeFailOnChoices(), BOUNDARY_FAIL_ON],
      default: 'fail,unexpected-pass',
      describe:
        "verdicts that make a version's exit code 1, and a change level: exit 1 when a newer version breaks clients of an older one (breaking), may (risky), or changes at all (compatible, any), the causes listed; boundary: exit 1 when a version statement of the spec disagrees with the versions; repeat or comma-separate",
    },
    ignore: {
      type: 'string',
      coerce: list,
      describe:
        'accept a reviewed change between versions: RULE@METHOD /path [/pointer]; repeat or comma-separate; the cause is still listed, as accepted',
    },
    'ignore-file': {
      type: 'string',
      describe: 'a YAML file of accepted changes, each with rule, endpoint, optional pointer and its reason',
    },
  }) as const;

export const matrixCommand: CommandModule = {
  command: 'matrix',
  describe:
    'Run the scenarios against several agent versions, each in its own lab (or replay their recordings), and write one report per version plus the version matrix that classifies every change between versions; exit code: the worst of the versions',
  builder: (y) =>
    boundOptions(
      scenarioOptions(
        y
          .option('syncthing', {
            type: 'string',
            coerce: list,
            describe:
              'agent versions (installed) or syncthing binaries to run; repeat or comma-separate (default: the installed versions of the default set)',
          })
          .option('replay', {
            type: 'boolean',
            describe:
              'offline: replay the bundled recordings (recordings/syncthing-*/) instead of starting agents; --syncthing then picks versions',
          })
          .option('recordings', {
            type: 'string',
            coerce: list,
            describe: 'offline: replay these recordings folders (implies --replay); repeat or comma-separate',
          })
          .option('jobs', {
            type: 'string',
            coerce: (v: unknown) => (v === undefined ? undefined : wholeNumber('jobs', 1)(v)),
            describe:
              'how many versions run at once (default: three per core, at most the number of versions: the labs mostly wait)',
          }),
        'run',
      )
        .option('report-dir', {
          type: 'string',
          default: 'reports/matrix',
          describe:
            'where <version>/ (the four report files of each version) and matrix.json, matrix.html, matrix.md go',
        })
        .option('expectations', {
          type: 'string',
          describe:
            'one known-deviations file for every version, whose versions range must hold each (default: each version its own expectations/*.yaml); --no-expectations applies none',
        })
        .option('timeout', TIMEOUT),
      "each version's run",
    )
      .option('strict', { type: 'boolean', describe: STRICT })
      .option('shard', SHARD)
      .options(changeGate())
      .example('synconf matrix', 'the installed versions of the default set, each in its own lab')
      .example(
        "synconf matrix --syncthing 1.19.2 --syncthing /opt/st/syncthing --only 'system-*'",
        'an installed version and a binary of your own',
      )
      .example('synconf matrix --replay', 'offline, from the bundled recordings')
      .example(
        'synconf matrix --recordings recordings/syncthing-1.19.2,my-recordings/syncthing-1.29.5',
        'offline, from these recordings',
      )
      .epilogue(
        'Exit codes: the worst of the versions and of the gate: 0 only when every version conforms or deviates only as listed (and the gate asked for passes), 1 a check of some version does not conform or the gate trips, 2 usage or input error, or the gate asked for a classification the exchanges cannot give (a version without recorded exchanges: "cannot tell"), 3 a fault of synconf itself, 130 interrupted. The last line says which.',
      ),
  handler: async (argv) => {
    const { matrix } = await import('../engine.js');
    await matrix(argv as unknown as MatrixOptions);
  },
};
