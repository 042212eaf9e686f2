// `synconf validate <resource> <file|->`: one JSON document (or the body of an HTTP capture) checked against a
// resource schema; or `synconf validate scenario|expectations|cassette|report FILE`: synconf's own files checked by
// the very loaders a run uses, so an author sees the message a run would give (file:line, step, cause) before running.
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { EXIT, InputError } from '../errors.js';
import { loadScenario } from '../scenario/load.js';
import { loadEndpoints } from '../schema/endpoints.js';
import { loadExpectations } from '../runner/expectations.js';
import { readCassette } from '../transport/cassette.js';
import { readReport } from '../report/load.js';
import { validate, formatError, loadDocumentValidators } from '../schema/registry.js';

export type Linted = 'scenario' | 'expectations' | 'cassette' | 'report';
const LINTED: readonly string[] = ['scenario', 'expectations', 'cassette', 'report'];

/** `synconf validate <resource> <file>`: a document against a resource schema, or one of synconf's own files */
export async function validateFile(resource: string, file: string, opts: ValidateDocumentOptions): Promise<void> {
  process.exitCode = LINTED.includes(resource)
    ? await lintFile(resource as Linted, file)
    : await validateDocument(resource, file, opts);
}

/** prints `valid …` or the loader's message; returns the exit code (0 valid, 1 not valid) */
export async function lintFile(kind: Linted, file: string): Promise<number> {
  try {
    if (!statSync(file).isFile()) throw new Error('not a file');
    accessSync(file, constants.R_OK);
  } catch (e) {
    throw new InputError(`cannot read ${kind} "${file}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let what: string;
  try {
    what = await load(kind, file);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    console.log(e.message);
    console.log(`not a valid ${kind}`);
    return EXIT.nonConforming;
  }
  console.log(`valid ${kind}: ${what}`);
  return EXIT.ok;
}

async function load(kind: Linted, file: string): Promise<string> {
  switch (kind) {
    case 'scenario': {
      const loaded = await loadScenario(file, new Set(loadEndpoints().map((e) => e.id)));
      return `${loaded.scenario.id} (${loaded.file})`;
    }
    case 'expectations': {
      const loaded = loadExpectations(file);
      return `${loaded.file}`;
    }
    case 'cassette': {
      if (!file.endsWith('.har')) throw new InputError(`cassette ${file}: a cassette is a <scenario>.har file`);
      const cassette = readCassette(dirname(file), basename(file, '.har'))!;
      return `${cassette.log._synconf.scenario}, ${cassette.log.entries.length} exchange${cassette.log.entries.length === 1 ? '' : 's'} (${file})`;
    }
    case 'report': {
      const report = await readReport(file);
      return `${report.run.mode} run of ${report.totals.scenarios} scenario${report.totals.scenarios === 1 ? '' : 's'}, exit ${report.exitCode} (${file})`;
    }
  }
}

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
