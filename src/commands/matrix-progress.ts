// Console output of `synconf matrix`: one line per finished scenario and version (versions run side by side, so
// every line names its version), then the matrix summary: per pair of versions the causes of the changes, then the
// regressions.
import { relative } from 'node:path';
import type { Report, ScenarioResult } from '../schema/generated/types.js';
import type { MatrixAgent } from '../matrix/agents.js';
import type { MatrixResult } from './matrix.js';
import { CHANGE_CLASSES, CHANGE_LABEL, type ChangeClass } from '../verdict/change-class.js';
import { pairsText } from '../report/matrix-causes-text.js';
import { boundaryLines } from '../report/matrix-boundaries.js';
import { checkKind, fold, moreLine } from '../report/fold.js';
import { harnessLines } from './harness-lines.js';

/** a path as short as it reads well: relative inside the working folder, absolute outside it */
const rel = (p: string) => {
  const r = relative(process.cwd(), p);
  return r.startsWith('..') ? p : r || '.';
};
const versions = (n: number) => `${n} version${n === 1 ? '' : 's'}`;
/** regressions printed at the end; matrix.md lists them all */
const REGRESSION_LINES = 20;

export function matrixProgress(agents: MatrixAgent[], jobs: number, offline: boolean) {
  const width = Math.max(...agents.map((a) => a.name.length));
  const tag = (a: MatrixAgent) => `[${a.name.padEnd(width)}]`;
  return {
    /** the first line, once the matrix listens for Ctrl-C */
    begin() {
      console.log(
        `synconf matrix: ${versions(agents.length)} (${agents.map((a) => a.name).join(', ')}), ${offline ? 'replayed from recordings' : 'each in its own lab'}, ${jobs} at a time`,
      );
    },
    start(a: MatrixAgent) {
      console.log(`${tag(a)} ${offline ? `replaying ${rel(a.recordings!)}` : `starting a lab with ${a.binary}`}`);
    },
    scenario(a: MatrixAgent, s: ScenarioResult, i: number, total: number) {
      const failing = s.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'unexpected-pass');
      console.log(
        `${tag(a)} [${i + 1}/${total}] ${s.verdict.toUpperCase().padEnd(15)} ${s.id}${s.mode === 'absent' ? ' (absent)' : ''} (${(s.durationMs / 1000).toFixed(1)}s)`,
      );
      for (const { item: c, more } of fold(failing, (c) => checkKind(c, s.id))) {
        console.log(`${tag(a)}       ✗ ${c.id}: ${c.message}`);
        if (more) console.log(`${tag(a)}       ${moreLine(more)}`);
      }
    },
    end(a: MatrixAgent, r: Report, dir: string) {
      for (const line of harnessLines(r.harnessErrors)) console.error(`${tag(a)} ${line}`);
      console.log(`${tag(a)} ${r.verdict} → ${rel(dir)}/`);
    },
    done(result: MatrixResult) {
      const m = result.matrix;
      console.log(
        `\nversion matrix: ${m.changed} of ${m.rows.length} checks changed across ${versions(m.columns.length)} (${CHANGE_CLASSES.map((c) => `${CHANGE_LABEL[c]}: ${m.classes[c]}`).join(', ')})`,
      );
      for (const line of pairsText(m)) console.log(line);
      const isRegression = (c: ChangeClass | null) => c === 'regression' || c === 'listed-regression';
      const regressions = m.rows.filter((x) => isRegression(x.class));
      for (const r of regressions.slice(0, REGRESSION_LINES))
        console.log(
          `  ${CHANGE_LABEL[r.class!]} ${r.id}: ${r.changes
            .filter((c) => isRegression(c.class))
            .map((c) => c.note)
            .join('; ')}`,
        );
      if (regressions.length > REGRESSION_LINES)
        console.log(`  …and ${regressions.length - REGRESSION_LINES} more regressions (matrix.md)`);
      for (const line of boundaryLines(m)) console.log(line);
      for (const i of m.order) {
        const c = m.columns[i];
        console.log(
          `  ${c.label.padEnd(width)}  exit ${c.exitCode}: ${c.totals.pass} pass, ${c.totals.fail} fail, ${c.totals['expected-fail']} expected fail, ${c.totals['unexpected-pass']} unexpected pass, ${c.totals.skip} skip`,
        );
      }
      console.log(
        `reports: ${result.dirs.map((d) => `${rel(d)}/`).join(', ')}; matrix: ${result.matrixFiles.map(rel).join(', ')}`,
      );
      console.log(
        `synconf matrix: ${result.exitCode === 0 ? 'CONFORMS' : result.exitCode === 1 ? 'DOES NOT CONFORM' : 'HARNESS ERROR'} (worst of ${versions(m.columns.length)}; exit ${result.exitCode}) in ${(result.wallMs / 1000).toFixed(1)} s`,
      );
    },
  };
}
