// For scripts/bundle.mjs, run with tsx: each of the files given that synconf's scenario loader accepts, loaded as the
// sources load them (src/scenario/load.ts; no build lies beside the sources, so every check runs), with what the
// loader made of it: its steps, their tables expanded, the line of each step, and the statements its value (as the
// build parses it) cites. Printed as JSON, one [file, {scenario, stepLines, cited}] each; a file the loader refuses
// (no scenario, or a broken one) is left out.
import { readFileSync } from 'node:fs';
import { CORE_SCHEMA, load } from 'js-yaml';
import { citedStatements, loadScenario, ScenarioError } from '../src/scenario/load.js';
import { loadEndpoints } from '../src/schema/endpoints.js';

const endpointIds = new Set(loadEndpoints().map((e) => e.id));
const loaded: [string, { scenario: unknown; stepLines: Record<string, number>; cited: [string, string][] }][] = [];
for (const file of process.argv.slice(2)) {
  try {
    const { scenario, stepLines } = await loadScenario(file, endpointIds);
    const cited = citedStatements(load(readFileSync(file, 'utf8'), { schema: CORE_SCHEMA }));
    loaded.push([file, { scenario, stepLines, cited }]);
  } catch (e) {
    if (!(e instanceof ScenarioError)) throw e;
  }
}
process.stdout.write(JSON.stringify(loaded));
