// `synconf report merge|render`: the version matrix of several runs, and the report files of one
// run rewritten from its report.json (e.g. after a synconf upgrade changed the HTML).
import type { CommandModule } from 'yargs';
import { join } from 'node:path';
import { changeGate } from './matrix.js';

const REPORT_EXIT_CODES =
  'Exit codes: 0 written, 2 usage or input error (a report that is missing, not JSON or not a synconf report), 3 a fault of synconf itself.';

const MERGE_EXIT_CODES =
  'Exit codes: the worst of the runs merged and of the gate, as synconf matrix: 0 every run conforms (or deviates only as listed) and the gate asked for passes, 1 a check of some run does not conform or the gate trips, 2 usage or input error (a report that is missing, not JSON or not a synconf report; a report whose scenarios disagree with its totals, emptied or cut: "cannot tell"; shards of a version missing, given twice, of different plans, or made by another synconf version, over another suite or statement index, or judged with another --fail-on, --strict or known deviations; a shard that did not finish), or the gate asked for a classification the reports cannot give (a run without recorded exchanges: "cannot tell"), 3 a fault of synconf itself. The last line says which.';

const merge: CommandModule = {
  command: 'merge <reports..>',
  describe: 'Merge the report.json of several runs into a version matrix (matrix.html, matrix.json, matrix.md)',
  builder: (y) =>
    y
      .positional('reports', {
        type: 'string',
        array: true,
        describe:
          'report.json files, one per run (agent version, platform), or every shard of a run (--shard i/n): the shards of a version are put back together first',
      })
      .option('out', {
        type: 'string',
        default: join('reports', 'matrix'),
        describe:
          "folder to write the matrix files into (and recordings/<version>/: a sharded version's exchanges merged)",
      })
      .options({ ...changeGate(), 'fail-on': { ...changeGate()['fail-on'], default: undefined } })
      .example('synconf report merge v1/report.json v2/report.json', 'compare two agent versions')
      .example(
        'synconf report merge shards/*/report.json --fail-on breaking',
        'the CI gate: exit 1 when a newer version breaks clients of an older one',
      )
      .example('synconf report merge shards/*/report.json', 'the shards of CI jobs (--shard i/n), every version')
      .epilogue(MERGE_EXIT_CODES),
  handler: async (argv) => {
    const { reportMerge } = await import('../engine.js');
    await reportMerge(argv.reports as string[], {
      out: argv.out as string,
      failOn: (argv.failOn as string[] | undefined) ?? [],
      ignore: argv.ignore as string[] | undefined,
      ignoreFile: argv.ignoreFile as string | undefined,
    });
  },
};

const render: CommandModule = {
  command: 'render <report>',
  describe: 'Rewrite report.json, junit.xml, report.html and summary.md from a report.json',
  builder: (y) =>
    y
      .positional('report', { type: 'string', describe: 'a report.json file' })
      .option('out', { type: 'string', describe: 'folder to write into (default: the folder of the report)' })
      .example('synconf report render reports/latest/report.json', 'rewrite the report files next to it')
      .example('synconf report render old/report.json --out /tmp/r', 'into another folder')
      .epilogue(REPORT_EXIT_CODES),
  handler: async (argv) => {
    const { reportRender } = await import('../engine.js');
    await reportRender(argv.report as string, argv.out as string | undefined);
  },
};

export const reportCommand: CommandModule = {
  command: 'report',
  describe: 'Work with report files: merge runs into a version matrix, re-render a report',
  builder: (y) =>
    y
      .command(merge)
      .command(render)
      .demandCommand(1, 'report needs a command: merge or render')
      .example('synconf report merge a/report.json b/report.json', 'a version matrix of two runs')
      .example('synconf report render reports/latest/report.json', 'rewrite the report files of a run')
      .epilogue(REPORT_EXIT_CODES),
  handler: () => {},
};
