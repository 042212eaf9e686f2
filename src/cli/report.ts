// `synconf report merge|render`: the version matrix of several runs, and the report files of one
// run rewritten from its report.json (e.g. after a synconf upgrade changed the HTML).
import type { Command } from 'commander';
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

export function registerReport(program: Command): void {
  const report = program.command('report').description('Work with report files: merge runs into a version matrix, re-render a report');

  report
    .command('merge')
    .description('Merge the report.json of several runs into a version matrix (matrix.html, matrix.json, matrix.md)')
    .argument('<reports...>', 'report.json files, one per run (agent version, platform)')
    .option('--out <dir>', 'folder to write the matrix files into', join('reports', 'matrix'))
    .addHelpText('after', '\nExample:\n  synconf report merge v1/report.json v2/report.json     compare two agent versions')
    .action((files: string[], opts: { out: string }) =>
      guarded('merge', async () => {
        const { readReport } = await import('../report/load.js');
        const { mergeReports } = await import('../report/merge.js');
        const { writeMatrix } = await import('../report/write.js');
        const reports = [];
        for (const file of files) reports.push(await readReport(file));
        // the version gates of the suite as it is here: they tell a version change from a regression
        const { selectScenarios } = await import('../runner/run.js');
        const { gateIndex } = await import('../matrix/gates.js');
        const matrix = mergeReports(reports, { files, gates: gateIndex((await selectScenarios(undefined, undefined)).scenarios) });
        for (const path of await writeMatrix(matrix, opts.out)) console.log(`wrote ${path}`);
        console.log(`${matrix.changed} of ${matrix.rows.length} checks changed across ${matrix.columns.length} runs (${Object.entries(matrix.classes).map(([c, n]) => `${c}: ${n}`).join(', ')})`);
      }),
    );

  report
    .command('render')
    .description('Rewrite report.json, junit.xml, report.html and summary.md from a report.json')
    .argument('<report>', 'a report.json file')
    .option('--out <dir>', 'folder to write into (default: the folder of the report)')
    .action((file: string, opts: { out?: string }) =>
      guarded('render', async () => {
        const { readReport } = await import('../report/load.js');
        const { writeReports } = await import('../report/write.js');
        const loaded = await readReport(file);
        for (const path of await writeReports(loaded, opts.out ?? dirname(file))) console.log(`wrote ${path}`);
      }),
    );
}
