// Console output of `synconf matrix`: one line per finished scenario and version (versions run side by side, so
// every line names its version), then the release answer (report/matrix-answer.ts): per pair of versions what the
// newer does to clients of the older, per version its verdict, and the exit code with why.
import { relative } from 'node:path';
import type { Report, ScenarioResult } from '../../schema/generated/types.js';
import type { MatrixAgent } from '../../matrix/agents.js';
import type { MatrixResult } from '../../session/matrix-run.js';
import { matrixSummary, type GateOutcome } from '../../report/matrix-answer.js';
import { checkKind, fold, moreLine } from '../../report/fold.js';
import { harnessLines } from './harness-lines.js';
import { printableLine } from '../../printable.js';
import { plural } from '../../plural.js';
import { shardLine, type Shard } from '../../scenario/shard.js';

/** a path as short as it reads well: relative inside the working folder, absolute outside it */
const rel = (p: string) => {
  const r = relative(process.cwd(), p);
  return r.startsWith('..') ? p : r || '.';
};
const versions = (n: number) => plural(n, 'version');

/** what `synconf matrix` (and history) prints as its versions run: the matrix session's listener, and the answer */
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
    say: (line: string) => console.error(line),
    shard: (shard: Shard) => console.log(shardLine(shard)),
    targetStart(a: MatrixAgent) {
      console.log(`${tag(a)} ${offline ? `replaying ${rel(a.recordings!)}` : `starting a lab with ${a.binary}`}`);
    },
    scenario(a: MatrixAgent, s: ScenarioResult, i: number, total: number) {
      const failing = s.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'unexpected-pass');
      console.log(
        `${tag(a)} [${i + 1}/${total}] ${s.verdict.toUpperCase().padEnd(15)} ${printableLine(s.id)}${s.mode === 'absent' ? ' (absent)' : ''} (${(s.durationMs / 1000).toFixed(1)}s)`,
      );
      for (const { item: c, more } of fold(failing, (c) => checkKind(c, s.id))) {
        console.log(`${tag(a)}       ✗ ${printableLine(`${c.id}: ${c.message}`)}`);
        if (more) console.log(`${tag(a)}       ${moreLine(more)}`);
      }
    },
    targetEnd(a: MatrixAgent, r: Report, dir: string) {
      for (const line of harnessLines(r.harnessErrors)) console.error(`${tag(a)} ${line}`);
      console.log(`${tag(a)} ${r.verdict} → ${rel(dir)}/`);
    },
    /** the summary after the progress (report/matrix-answer.ts): it ends with the exit code and why */
    done(result: MatrixResult, gate: GateOutcome | undefined) {
      const where = `reports: ${result.dirs.map((d) => `${rel(d)}/`).join(', ')}; matrix: ${result.matrixFiles.map(rel).join(', ')}; in ${(result.wallMs / 1000).toFixed(1)} s`;
      const lines = matrixSummary(result.matrix, {
        command: 'synconf matrix',
        conformance: result.exitCode,
        gate,
        where: [where],
      });
      for (const line of lines) console.log(line);
    },
  };
}
