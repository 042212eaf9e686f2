// `synconf run`: run the scenarios against a live agent (a lab by default) and write the reports.
import type { CommandModule } from 'yargs';
import { selectionOptions, reportOptions, targetOptions, list, wholeNumber, runExitCodes, SHARD } from './options.js';
import type { RunCommandOptions } from '../commands/run.js';

export const runCommand: CommandModule = {
  command: 'run',
  describe:
    'Run the conformance scenarios against a live agent (by default a lab agent synconf starts) and write the reports',
  builder: (y) =>
    targetOptions(reportOptions(selectionOptions(y)))
      .option('record', { type: 'string', describe: 'record one HAR cassette per scenario into this folder' })
      .option('record-mode', {
        choices: ['all', 'once', 'new'],
        implies: 'record', // options that only work together say so when given alone
        defaultDescription: 'all',
        describe:
          'all: re-record every scenario; once: only scenarios without a cassette; new: keep recorded exchanges, add missing ones',
      })
      .option('repeat', {
        type: 'string',
        coerce: wholeNumber('repeat', 1),
        default: '1',
        defaultDescription: '1',
        describe:
          'run the suite this many times (a fresh lab each time, or the given agent) and report every check whose verdict varied as flaky; the run ends with a stability line',
      })
      .option('shard', SHARD)
      .option('redact', {
        type: 'string',
        implies: 'record',
        coerce: list,
        describe:
          'extra redaction rules for recordings: header:<name>, json:<pointer> or re:<regexp>; repeat or comma-separate',
      })
      .example('synconf run', 'start a lab agent and run every scenario')
      .example('synconf run --syncthing 1.12.1', 'a lab of Syncthing 1.12.1 (synconf agents install 1.12.1)')
      .example('synconf run --syncthing ./syncthing', 'a lab of the binary you built')
      .example('synconf run --agent http://127.0.0.1:8384 --api-key $KEY', 'an agent started by someone else')
      .example('synconf run --record recordings/syncthing-1.19.2', 'run against a lab agent and record cassettes')
      .example(
        'synconf run --only system-ping,config-get --fail-on fail',
        'two scenarios; an unexpected pass does not fail the run',
      )
      .example(
        'synconf run --baseline last/report.json --fail-on new-failure',
        'fail only on checks that did not fail in the last run',
      )
      .example('synconf run --syncthing 1.19.2 --shard 1/3', 'the first of three shards (one CI job each)')
      .example('synconf run --repeat 3', 'three runs, a fresh lab each: flaky checks reported')
      .example('synconf run --strict', 'a member the spec does not name fails its check (a note otherwise)')
      .epilogue(
        runExitCodes(
          'a bad option, a malformed scenario or expectations file, an agent that cannot be started or reached',
        ),
      ),
  handler: async (argv) => {
    const { run } = await import('../engine.js');
    await run(argv as unknown as RunCommandOptions);
  },
};
