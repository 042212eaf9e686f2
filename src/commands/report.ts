// `synconf report merge|render`: the version matrix of several runs, and the report files of one run
// rewritten from its report.json.
import { dirname } from 'node:path';
import { readReport } from '../report/load.js';
import { mergeReports } from '../matrix/merge.js';
import { writeMatrix, writeReports } from './write-reports.js';
import { makeOutputDir } from '../output-dir.js';
import { selectScenarios } from '../scenario/select.js';
import { gateIndex } from '../matrix/gates.js';

export async function reportMerge(files: string[], out: string): Promise<void> {
  makeOutputDir(out, '--out');
  const reports = [];
  for (const file of files) reports.push(await readReport(file));
  // the version gates of the suite as it is here: they tell a version change from a regression
  const matrix = mergeReports(reports, {
    files,
    gates: gateIndex((await selectScenarios(undefined, undefined)).scenarios),
  });
  for (const path of await writeMatrix(matrix, out)) console.log(`wrote ${path}`);
  console.log(
    `${matrix.changed} of ${matrix.rows.length} check${matrix.rows.length === 1 ? '' : 's'} changed across ${matrix.columns.length} run${matrix.columns.length === 1 ? '' : 's'} (${Object.entries(
      matrix.classes,
    )
      .map(([c, n]) => `${c}: ${n}`)
      .join(', ')})`,
  );
}

export async function reportRender(file: string, out?: string): Promise<void> {
  const loaded = await readReport(file);
  makeOutputDir(out ?? dirname(file), out ? '--out' : 'the folder of the report');
  for (const path of await writeReports(loaded, out ?? dirname(file))) console.log(`wrote ${path}`);
}
