// Reads a report.json given on the command line. Any problem is an InputError naming the file,
// because it is the user's input that is wrong, not synconf.
import { readFile } from 'node:fs/promises';
import type { Report } from '../schema/generated/types.js';
import { InputError } from '../errors.js';
import { formatError, loadDocumentValidators, validate } from '../schema/registry.js';

export async function readReport(file: string): Promise<Report> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read report "${file}": ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new InputError(`"${file}" is not JSON: ${(err as Error).message}`);
  }
  await loadDocumentValidators();
  const errors = validate('report', doc);
  if (errors.length) {
    const shown = errors.slice(0, 5).map((e) => `  ${formatError(e)}`);
    const more = errors.length > 5 ? [`  … and ${errors.length - 5} more`] : [];
    throw new InputError(
      [
        `"${file}" is not a valid synconf report (${errors.length} error${errors.length === 1 ? '' : 's'}):`,
        ...shown,
        ...more,
      ].join('\n'),
    );
  }
  return doc as Report;
}
