// The bundled Syncthing 1.19.2 recordings replayed in-process, and a known-deviations file with
// one entry left out: a real run that fails exactly one check (the agent's real answer is the
// evidence), for the report tests.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, dump } from 'js-yaml';
import type { Report } from '../../src/schema/generated/types.js';
import { runScenarios } from '../../src/runner/run.js';
import { selectScenarios } from '../../src/scenario/select.js';
import { replayTarget } from '../../src/runner/replay-target.js';
import { EXPECTATIONS_DIR, RECORDINGS_DIR } from '../../src/paths.js';

export const RECORDINGS = join(RECORDINGS_DIR, 'syncthing-1.19.2');
export const EXPECTATIONS = join(EXPECTATIONS_DIR, 'syncthing-1.19.yaml');
/** the known deviation left out: system status without discovery fields and themes */
export const DROPPED = 'system-status/get-status/schema';

/** a copy of the 1.19 known deviations without `check`, written into `dir`; its path */
export function expectationsWithout(check: string, dir: string): string {
  const doc = load(readFileSync(EXPECTATIONS, 'utf8')) as { deviations: { check: string }[] };
  const before = doc.deviations.length;
  doc.deviations = doc.deviations.filter((d) => d.check !== check);
  if (doc.deviations.length !== before - 1) throw new Error(`${check} is not listed in ${EXPECTATIONS}`);
  const file = join(dir, `without-${check.replace(/\W+/g, '-')}.yaml`);
  writeFileSync(file, dump(doc));
  return file;
}

/** replay the bundled recordings (every scenario) with these known deviations */
export async function replayReport(expectations?: string | false): Promise<Report> {
  const selection = await selectScenarios(undefined, undefined);
  const target = replayTarget(RECORDINGS);
  try {
    return await runScenarios(selection, target, { expectations });
  } finally {
    await target.close();
  }
}
