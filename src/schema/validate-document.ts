// `synconf validate <resource> <file|->`: one JSON document (or the body of an HTTP capture) checked
// against a resource schema; what it prints and the exit code.
import { readFileSync } from 'node:fs';
import { EXIT, InputError } from '../errors.js';
import { validate, formatError, loadDocumentValidators } from './registry.js';

export interface ValidateDocumentOptions {
  agentVersion?: string;
  json?: boolean;
}

export async function validateDocument(resource: string, file: string, opts: ValidateDocumentOptions): Promise<number> {
  const stdin = file === '-';
  const what = stdin ? 'standard input' : `"${file}"`;
  let text: string;
  try {
    text = readFileSync(stdin ? 0 : file, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${what}: ${(e as Error).message}`);
  }
  // A full HTTP capture (curl -i, a proxy log): the document is its body.
  const capture = /^HTTP\/\d(\.\d)? \d{3}/.test(text);
  if (capture) {
    const blank = text.search(/\r?\n\r?\n/);
    text = blank < 0 ? '' : text.slice(blank).replace(/^\r?\n\r?\n/, '');
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new InputError(
      `${capture ? `the body of the HTTP capture in ${what}` : what} is not JSON: ${(e as Error).message}`,
    );
  }
  await loadDocumentValidators();
  const errors = validate(resource, doc, opts.agentVersion);
  if (opts.json) console.log(JSON.stringify(errors, null, 2));
  else if (errors.length === 0)
    console.log(`valid ${resource}${opts.agentVersion ? ` (agent version ${opts.agentVersion})` : ' (spec)'}`);
  else {
    for (const e of errors) console.log(formatError(e));
    console.log(`${errors.length} error${errors.length === 1 ? '' : 's'}: not a valid ${resource}`);
  }
  return errors.length ? EXIT.nonConforming : EXIT.ok;
}
