// Drift between two recordings folders (say recordings/syncthing-1.19.2 and recordings/syncthing-1.29.5), offline:
// scenario by scenario, what changed in the API's shapes (src/drift/compare.ts). A scenario recorded in one
// folder only is a difference; a cassette that cannot be read is an input error, named with its file.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readCassette, CassetteError } from '../transport/cassette.js';
import { driftOf } from './compare.js';
import { InputError } from '../errors.js';

export interface ScenarioDrift {
  scenario: string;
  lines: string[];
}

export interface FolderDrift {
  scenarios: ScenarioDrift[];
  differences: number;
  /** cassettes that could not be read, one message each */
  problems: string[];
}

function scenariosIn(dir: string): string[] {
  if (!existsSync(dir)) throw new InputError(`recordings folder ${dir} does not exist`);
  if (!statSync(dir).isDirectory())
    throw new InputError(`${dir} is not a recordings folder (a folder of .har cassettes)`);
  const ids = readdirSync(dir)
    .filter((f) => f.endsWith('.har'))
    .map((f) => f.slice(0, -4));
  if (ids.length === 0) throw new InputError(`recordings folder ${dir} holds no .har cassette`);
  return ids;
}

/** the drift from folder `a` (older) to folder `b` (newer); `only` limits it to some scenario ids */
export function driftBetween(a: string, b: string, only?: (scenario: string) => boolean): FolderDrift {
  const inA = new Set(scenariosIn(a));
  const inB = new Set(scenariosIn(b));
  const ids = [...new Set([...inA, ...inB])].filter((id) => !only || only(id)).sort();
  const result: FolderDrift = { scenarios: [], differences: 0, problems: [] };
  for (const scenario of ids) {
    let lines: string[];
    if (!inA.has(scenario)) lines = [`recorded only in ${b}`];
    else if (!inB.has(scenario)) lines = [`recorded only in ${a}`];
    else {
      try {
        lines = driftOf(readCassette(a, scenario)!, readCassette(b, scenario)!);
      } catch (e) {
        if (!(e instanceof CassetteError)) throw e;
        result.problems.push(e.message);
        continue;
      }
    }
    result.differences += lines.length;
    result.scenarios.push({ scenario, lines });
  }
  return result;
}
