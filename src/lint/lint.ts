// `synconf validate scenario|expectations|cassette|report FILE`: synconf's own files checked by the very
// loaders a run uses, so an author sees the message a run would give (file:line, step, cause) before running.
import { accessSync, constants, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { EXIT, InputError } from '../errors.js';
import { loadScenario } from '../scenario/load.js';
import { loadEndpoints } from '../schema/endpoints.js';
import { loadExpectations } from '../runner/expectations.js';
import { readCassette } from '../transport/cassette.js';
import { readReport } from '../report/load.js';

export type Linted = 'scenario' | 'expectations' | 'cassette' | 'report';

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
