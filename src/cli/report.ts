// `synconf report merge|render`: the version matrix of several runs, and the report files of one
// run rewritten from its report.json (e.g. after a synconf upgrade changed the HTML).
import type { CommandModule } from 'yargs';
import { join } from 'node:path';

const REPORT_EXIT_CODES =
  'Exit codes: 0 written, 2 usage or input error (a report that is missing, not JSON or not a synconf report), 3 a fault of synconf itself.';

const MERGE_EXIT_CODES =
  'Exit codes: the worst of the runs merged, as synconf matrix: 0 every run conforms (or deviates only as listed), 1 a check of some run does not conform, 2 usage or input error (a report that is missing, not JSON or not a synconf report; shards of a version missing, given twice or of different plans; a shard that did not finish), 3 a fault of synconf itself.';

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
        describe: 'folder to write the matrix files into',
      })
      .example('synconf report merge v1/report.json v2/report.json', 'compare two agent versions')
      .example('synconf report merge shards/*/report.json', 'the shards of CI jobs (--shard i/n), every version')
      .epilogue(MERGE_EXIT_CODES),
  handler: async (argv) => {
    const { reportMerge } = await import('../engine.js');
    await reportMerge(argv.reports as string[], argv.out as string);
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
