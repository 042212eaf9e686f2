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
    // one line: the file and its first problem (a report edited by hand, or cut); not a dump of the schema's errors
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    throw new InputError(`"${file}" is not a valid synconf report: ${formatError(errors[0])}${more}`);
  }
  return doc as Report;
}
