// `run --record DIR` into a folder that already holds recordings: the new cassettes are staged in the report folder
// (its recordings/) as the run goes, and copied into DIR only when the run completed (no signal, no harness error).
// A run killed, interrupted or stopped halfway leaves DIR as it was: never a folder of half old, half new cassettes
// that no longer replays, nor cassettes holding only refused connections beside a report that says CONFORMS.
import { copyFileSync, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Report } from '../schema/generated/types.js';

const cassettes = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.har')) : []);
const shown = (dir: string) => relative(process.cwd(), dir) || '.';

/** the line said before the run: what the recording would replace, and that it will only if the run completes */
export function announceRecording(dir: string): string | undefined {
  const held = cassettes(dir);
  if (held.length)
    return `synconf: ${shown(dir)} holds ${held.length} cassette(s): those this run records replace them only if the run completes`;
}

/** copies each staged cassette into `dir` (to a temporary name, then renamed: a cassette is never half written) */
function commit(stage: string, dir: string): { written: number; replaced: number } {
  let replaced = 0;
  const files = cassettes(stage);
  for (const file of files) {
    const tmp = join(dir, `.${file}.${process.pid}.partial`);
    try {
      copyFileSync(join(stage, file), tmp);
      if (existsSync(join(dir, file))) replaced++;
      renameSync(tmp, join(dir, file));
    } finally {
      rmSync(tmp, { force: true });
    }
  }
  return { written: files.length, replaced };
}

/**
 * After the run: its cassettes into the recordings folder if it completed (the report then names that folder), else
 * the folder left alone and the report naming the staged cassettes; the one line that says which.
 */
export function settleRecording(report: Report, stage: string, dir: string, interrupted: boolean): string {
  const why = interrupted
    ? 'it was interrupted'
    : report.harnessErrors.length
      ? `it had ${report.harnessErrors.length} harness error(s)`
      : undefined;
  if (why)
    return `synconf: the recording did not complete (${why}): ${shown(dir)} is left as it was; this run's cassettes are in ${shown(stage)}`;
  const { written, replaced } = commit(stage, dir);
  report.run.recordings = dir;
  return `synconf: recorded ${written} cassette(s) into ${shown(dir)}${replaced ? ` (${replaced} replaced)` : ''}`;
}
