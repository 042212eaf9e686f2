// Reads a report.json given on the command line. Any problem is an InputError naming the file,
// because it is the user's input that is wrong, not synconf.
import type { Report } from '../schema/generated/types.js';
import { InputError } from '../errors.js';
import { kindOfYaml, kindProblem, KIND_NAMES } from '../schema/file-kind.js';
import { parseJson, readTextFile } from '../text-file.js';
import { formatError, loadDocumentValidators, validate } from '../schema/registry.js';

export async function readReport(file: string): Promise<Report> {
  const text = readTextFile(file, file);
  let doc: unknown;
  try {
    doc = parseJson(text, file);
  } catch (e) {
    const yaml = kindOfYaml(text);
    throw yaml && yaml !== 'report'
      ? new InputError(`${file}: this is ${KIND_NAMES[yaml]} (YAML), not ${KIND_NAMES.report}`)
      : e;
  }
  const wrongKind = kindProblem(doc, 'report');
  if (wrongKind) throw new InputError(`${file}: ${wrongKind}`);
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
