// Writes mutation.json, mutation.html and mutation.md into one folder (and the Markdown to the
// GitHub job summary when there is one).
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MutationReport } from '../schema/generated/types.js';
import { mutationHtml, mutationMarkdown } from './render.js';

export async function writeMutationReports(report: MutationReport, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const markdown = mutationMarkdown(report);
  const files: [string, string][] = [
    ['mutation.json', JSON.stringify(report, null, 2) + '\n'],
    ['mutation.html', mutationHtml(report)],
    ['mutation.md', markdown],
  ];
  for (const [name, text] of files) await writeFile(join(dir, name), text, 'utf8');
  if (process.env.GITHUB_STEP_SUMMARY) await appendFile(process.env.GITHUB_STEP_SUMMARY, markdown + '\n', 'utf8');
  return files.map(([name]) => join(dir, name));
}
