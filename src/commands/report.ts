// `synconf report merge|render`: the version matrix of several runs, and the report files of one run
// rewritten from its report.json.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Report } from '../schema/generated/types.js';
import { readReport } from '../report/load.js';
import { mergeReports } from '../matrix/merge.js';
import { writeMatrix, writeReports } from './write-reports.js';
import { makeOutputDir } from '../output-dir.js';
import { selectScenarios } from '../scenario/select.js';
import { gateIndex } from '../matrix/gates.js';
import { mergeShardSets } from '../matrix/shard-set.js';
import { loadStatements } from '../schema/statements.js';
import { statementCoverage } from '../verdict/statement-coverage.js';
import { worstExit } from '../matrix/versions.js';

/** the recordings folder a run replayed or recorded, when it is still there: the causes of the changes come from it */
function recordingsOf(r: Report): string | null {
  const dir = r.run.mode === 'replay' ? r.run.target : r.run.mode === 'record' ? r.run.recordings : null;
  return dir && existsSync(dir) ? dir : null;
}

/**
 * `synconf report merge`: the version matrix of the runs given; the shards of a version (--shard) put back
 * together first, refused when one is missing, given twice or of another plan. Exit code: the worst of the runs,
 * as `synconf matrix` (a shard that did not finish fails its version).
 */
export async function reportMerge(files: string[], out: string): Promise<void> {
  makeOutputDir(out, '--out');
  const given = [];
  for (const file of files) given.push({ report: await readReport(file), file });
  for (const [i, g] of given.entries()) {
    const twin = given.slice(0, i).find((o) => JSON.stringify(o.report.run) === JSON.stringify(g.report.run));
    if (twin && !g.report.shard)
      console.error(`synconf: warning: ${g.file} is the same run as ${twin.file} (given twice?)`);
  }
  // the suite as it is here: its version gates tell a version change from a regression, its order the shards'
  const suite = (await selectScenarios(undefined, undefined)).scenarios;
  const { runs, crashed } = mergeShardSets(given, { order: suite.map((s) => s.scenario.id) });
  for (const line of crashed) console.error(`synconf: ${line}`);
  for (const { report } of runs.filter((r) => !r.report.statementCoverage))
    report.statementCoverage = statementCoverage(await loadStatements(), report.scenarios);
  const matrix = mergeReports(
    runs.map((r) => r.report),
    {
      files: runs.map((r) => r.file),
      gates: gateIndex(suite),
      recordings: runs.map((r) => recordingsOf(r.report)),
      statements: await loadStatements(),
    },
  );
  for (const path of await writeMatrix(matrix, out)) console.log(`wrote ${path}`);
  console.log(
    `${matrix.changed} of ${matrix.rows.length} check${matrix.rows.length === 1 ? '' : 's'} changed across ${matrix.columns.length} run${matrix.columns.length === 1 ? '' : 's'} (${Object.entries(
      matrix.classes,
    )
      .map(([c, n]) => `${c}: ${n}`)
      .join(', ')})`,
  );
  process.exitCode = worstExit(runs.map((r) => r.report.exitCode));
}

export async function reportRender(file: string, out?: string): Promise<void> {
  const loaded = await readReport(file);
  makeOutputDir(out ?? dirname(file), out ? '--out' : 'the folder of the report');
  for (const path of await writeReports(loaded, out ?? dirname(file), true)) console.log(`wrote ${path}`);
}
