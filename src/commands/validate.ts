// `synconf validate <resource> <file|->`: one JSON document (or the body of an HTTP capture) checked against a
// resource schema; or `synconf validate scenario|expectations|cassette|report FILE`: synconf's own files checked by
// the very loaders a run uses, so an author sees the message a run would give (file:line, step, cause) before running.
import { accessSync, constants, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { EXIT, InputError } from '../errors.js';
import { parseJson, readTextFile } from '../text-file.js';
import { loadScenario } from '../scenario/load.js';
import { loadEndpoints } from '../schema/endpoints.js';
import { sniffKind, KIND_NAMES } from '../schema/file-kind.js';
import { loadExpectations } from '../runner/expectations.js';
import { readCassette } from '../transport/cassette.js';
import { readReport } from '../report/load.js';
import { checkAgentVersion } from '../session/versions.js';
import { fold, moreLine, validationKind } from '../report/fold.js';
import {
  validate,
  formatError,
  loadDocumentValidators,
  listResources,
  UnknownResourceError,
} from '../schema/registry.js';
import { printableLine } from '../printable.js';
import { plural } from '../plural.js';

export type Linted = 'scenario' | 'expectations' | 'cassette' | 'report';
const LINTED: readonly string[] = ['scenario', 'expectations', 'cassette', 'report'];

/** `synconf validate <resource> <file>`: a document against a resource schema, or one of synconf's own files */
export async function validateFile(resource: string, file: string, opts: ValidateDocumentOptions): Promise<void> {
  if (!LINTED.includes(resource) && !listResources().includes(resource)) throw new UnknownResourceError(resource);
  process.exitCode = LINTED.includes(resource)
    ? await lintFile(resource as Linted, file)
    : await validateDocument(resource, file, opts);
}

/** prints `valid …` and returns 0; a file the loader rejects throws its error, as a run would (the same line, exit 2) */
export async function lintFile(kind: Linted, file: string): Promise<number> {
  try {
    if (!statSync(file).isFile()) throw new Error('not a file');
    accessSync(file, constants.R_OK);
  } catch (e) {
    throw new InputError(`cannot read ${kind} "${file}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  console.log(`valid ${kind}: ${printableLine(await load(kind, file))}`);
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
      return `${cassette.log._synconf.scenario}, ${plural(cassette.log.entries.length, 'exchange')} (${file})`;
    }
    case 'report': {
      const report = await readReport(file, { whole: true });
      return `${report.run.mode} run of ${plural(report.totals.scenarios, 'scenario')}, exit ${report.exitCode} (${file})`;
    }
  }
}

export interface ValidateDocumentOptions {
  agentVersion?: string;
  json?: boolean;
}

export async function validateDocument(resource: string, file: string, opts: ValidateDocumentOptions): Promise<number> {
  await checkAgentVersion(opts.agentVersion);
  const stdin = file === '-';
  const what = stdin ? 'standard input' : `"${file}"`;
  let text = readTextFile(stdin ? 0 : file, what);
  // A full HTTP capture (curl -i, a proxy log): the document is its body.
  const capture = /^HTTP\/\d(\.\d)? \d{3}/.test(text);
  if (capture) {
    const blank = text.search(/\r?\n\r?\n/);
    text = blank < 0 ? '' : text.slice(blank).replace(/^\r?\n\r?\n/, '');
  }
  const doc = parseJson(text, capture ? `the body of the HTTP capture in ${what}` : what);
  const kind = sniffKind(doc);
  if (kind && kind !== resource)
    throw new InputError(`${what}: this is ${KIND_NAMES[kind]}, not a ${resource} document`);
  await loadDocumentValidators();
  const errors = validate(resource, doc, opts.agentVersion);
  if (opts.json) console.log(JSON.stringify(errors, null, 2));
  else if (errors.length === 0)
    console.log(`valid ${resource}${opts.agentVersion ? ` (agent version ${opts.agentVersion})` : ' (spec)'}`);
  else {
    for (const { item, more } of fold(errors, validationKind)) {
      console.log(printableLine(formatError(item))); // a member's name is the file's text
      if (more) console.log(`  ${moreLine(more)}`);
    }
    console.log(`${plural(errors.length, 'error')}: not a valid ${resource}`);
  }
  return errors.length ? EXIT.nonConforming : EXIT.ok;
}
