// `synconf report merge|render`: the version matrix of several runs, and the report files of one
// run rewritten from its report.json (e.g. after a synconf upgrade changed the HTML).
import type { CommandModule } from 'yargs';
import { dirname, join } from 'node:path';
import { EXIT, UsageError } from './exit.js';

/** runs `work`, turning a UsageError into its message and exit code 2 (no stack trace) */
async function guarded(name: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`synconf report ${name}: ${err.message}`);
    process.exitCode = EXIT.usage;
  }
}

interface MergeArgs { reports: string[]; out: string; }
interface RenderArgs { report: string; out?: string; }

const mergeCommand: CommandModule<object, MergeArgs> = {
  command: 'merge <reports..>',
  describe: 'Merge the report.json of several runs into a version matrix (matrix.html, matrix.json, matrix.md)',
  builder: (y) =>
    y
      .positional('reports', { type: 'string', array: true, demandOption: true, describe: 'report.json files, one per run (agent version, platform)' })
      .option('out', { type: 'string', default: join('reports', 'matrix'), describe: 'folder to write the matrix files into' })
      .example('$0 report merge v1/report.json v2/report.json', 'compare two agent versions'),
  handler: (args) =>
    guarded('merge', async () => {
      const { readReport } = await import('../report/load.js');
      const { mergeReports } = await import('../report/merge.js');
      const { writeMatrix } = await import('../report/write.js');
      const reports = [];
      for (const file of args.reports) reports.push(await readReport(file));
      const matrix = mergeReports(reports, args.reports);
      for (const path of await writeMatrix(matrix, args.out)) console.log(`wrote ${path}`);
      console.log(`${matrix.changed} of ${matrix.rows.length} checks changed verdict across ${matrix.columns.length} runs`);
    }),
};

const renderCommand: CommandModule<object, RenderArgs> = {
  command: 'render <report>',
  describe: 'Rewrite report.json, junit.xml, report.html and summary.md from a report.json',
  builder: (y) =>
    y
      .positional('report', { type: 'string', demandOption: true, describe: 'a report.json file' })
      .option('out', { type: 'string', describe: 'folder to write into (default: the folder of the report)' }),
  handler: (args) =>
    guarded('render', async () => {
      const { readReport } = await import('../report/load.js');
      const { writeReports } = await import('../report/write.js');
      const report = await readReport(args.report);
      for (const path of await writeReports(report, args.out ?? dirname(args.report))) console.log(`wrote ${path}`);
    }),
};

export const reportCommand: CommandModule = {
  command: 'report <command>',
  describe: 'Work with report files: merge runs into a version matrix, re-render a report',
  builder: (y) =>
    y
      .command(mergeCommand)
      .command(renderCommand)
      .demandCommand(1, 'Name a report command: merge or render.'),
  handler: () => {},
};
