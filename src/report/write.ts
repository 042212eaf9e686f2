// Writes every format of a run's report, or of a version matrix, into one folder. The writers
// are pure; only this module touches the file system.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../schema/generated/types.js';
import { toHtml } from './html.js';
import { toJUnit } from './junit.js';
import { toMarkdown } from './markdown.js';
import type { Matrix } from '../schema/generated/types.js';
import { matrixToHtml } from './matrix-html.js';
import { matrixToMarkdown } from './matrix-markdown.js';
import { viewOf } from './view.js';

// Written synchronously: a few small files, and nothing else left to do meanwhile (each asynchronous
// write waited a turn of the thread pool: ~3 ms of every run, bench/).
function writeAll(dir: string, files: [name: string, text: string][]): string[] {
  mkdirSync(dir, { recursive: true });
  return files.map(([name, text]) => {
    const path = join(dir, name);
    writeFileSync(path, text, 'utf8');
    return path;
  });
}

/** report.json, junit.xml, report.html and summary.md in `dir`; the paths written, in that order */
export async function writeReports(report: Report, dir: string): Promise<string[]> {
  const view = viewOf(report); // computed once, rendered by each writer
  const markdown = toMarkdown(report, view);
  const paths = writeAll(dir, [
    ['report.json', JSON.stringify(report, null, 2) + '\n'],
    ['junit.xml', toJUnit(report, view)],
    ['report.html', toHtml(report, { view, reportDir: dir })],
    ['summary.md', markdown],
  ]);
  // GitHub Actions shows this file on the run's page; appending keeps other steps' summaries.
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (summary) appendFileSync(summary, markdown + '\n', 'utf8');
  return paths;
}

/** matrix.json, matrix.html and matrix.md in `dir`; the paths written, in that order */
export async function writeMatrix(matrix: Matrix, dir: string): Promise<string[]> {
  return writeAll(dir, [
    ['matrix.json', JSON.stringify(matrix, null, 2) + '\n'],
    ['matrix.html', matrixToHtml(matrix)],
    ['matrix.md', matrixToMarkdown(matrix)],
  ]);
}
