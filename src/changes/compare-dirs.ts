// Drift between two recordings folders (say recordings/syncthing-1.19.2 and recordings/syncthing-1.29.5), offline:
// scenario by scenario, what changed in the API's shapes (src/changes/compare.ts). A scenario recorded in one
// folder only is a difference; a cassette that cannot be read is an input error, named with its file.
import { readdirSync } from 'node:fs';
import { checkRecordingsFolder, readCassette, CassetteError } from '../transport/cassette.js';
import type { Cassette } from '../schema/generated/types.js';
import { describeDifference, differenceSteps, type Difference } from './compare.js';
import { InputError } from '../errors.js';
import { drained, pacedDrain, type Pace } from '../turns.js';

export interface ScenarioDrift {
  scenario: string;
  lines: string[];
  /** the differences of the lines, for grouping by cause; none when the scenario is recorded in one folder only */
  differences: Difference[];
  /** the folder that holds the only recording of the scenario */
  onlyIn?: 'a' | 'b';
}

export interface FolderDrift {
  scenarios: ScenarioDrift[];
  differences: number;
  /** cassettes that could not be read, one message each */
  problems: string[];
}

function scenariosIn(dir: string): string[] {
  checkRecordingsFolder(dir);
  const ids = readdirSync(dir)
    .filter((f) => f.endsWith('.har'))
    .map((f) => f.slice(0, -4));
  if (ids.length === 0) throw new InputError(`recordings folder ${dir} holds no .har cassette`);
  return ids;
}

/** the cassette of `scenario` in `dir`, or the message of why it cannot be read (counted per folder in `seen`) */
function cassetteOf(dir: string, scenario: string, seen: Map<string, { read: number; problem?: string }>) {
  const folder = seen.get(dir) ?? seen.set(dir, { read: 0 }).get(dir)!;
  try {
    const cassette = readCassette(dir, scenario)!;
    folder.read++;
    return cassette;
  } catch (e) {
    if (!(e instanceof CassetteError)) throw e;
    folder.problem ??= e.message;
    return e.message;
  }
}

/** the drift from folder `a` (older) to folder `b` (newer); `only` limits it to some scenario ids */
export const driftBetween = (a: string, b: string, only?: (scenario: string) => boolean): FolderDrift =>
  drained(driftSteps(a, b, only));

/**
 * The same, a turn of the event loop now and then (`pace`): folders of thousands of cassettes compare for seconds,
 * which in one piece left a signal unheard (issue 41)
 */
export const pacedDriftBetween = (
  a: string,
  b: string,
  only: ((scenario: string) => boolean) | undefined,
  pace: Pace,
): Promise<FolderDrift> => pacedDrain(driftSteps(a, b, only), pace);

/** the drift, scenario by scenario, exchange by exchange: it yields after each, where a paced caller may take a turn */
export function* driftSteps(a: string, b: string, only?: (scenario: string) => boolean): Generator<void, FolderDrift> {
  const inA = new Set(scenariosIn(a));
  const inB = new Set(scenariosIn(b));
  const ids = [...new Set([...inA, ...inB])].filter((id) => !only || only(id)).sort();
  const result: FolderDrift = { scenarios: [], differences: 0, problems: [] };
  // every cassette is read, one folder's only too: a folder of HAR files saved by a browser is not "27 scenarios
  // recorded in the older folder only" (a green gate), it is no recordings folder
  const seen = new Map<string, { read: number; problem?: string }>();
  for (const scenario of ids) {
    yield;
    const [older, newer] = [
      inA.has(scenario) && cassetteOf(a, scenario, seen),
      inB.has(scenario) && cassetteOf(b, scenario, seen),
    ];
    const problem = [older, newer].find((c) => typeof c === 'string');
    if (problem) {
      result.problems.push(problem);
      continue;
    }
    if (!older || !newer) {
      const onlyIn = older ? 'a' : 'b';
      result.differences++;
      result.scenarios.push({
        scenario,
        lines: [`recorded only in ${onlyIn === 'a' ? a : b}`],
        differences: [],
        onlyIn,
      });
      continue;
    }
    const differences = yield* differenceSteps(older as Cassette, newer as Cassette);
    result.differences += differences.length;
    result.scenarios.push({ scenario, lines: differences.map(describeDifference), differences });
  }
  for (const dir of [a, b]) {
    const folder = seen.get(dir);
    if (folder && folder.read === 0 && folder.problem)
      throw new InputError(`recordings folder ${dir} holds no synconf cassette: ${folder.problem}`);
  }
  return result;
}
