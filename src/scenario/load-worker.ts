// The worker thread of a large scenario file (load-off-thread.ts): loadScenario as on the main thread, its result
// or its ScenarioError posted back as data. Loading 200,000 steps takes seconds of synchronous work; here it leaves
// the main thread free to hear a signal, and a terminate() stops it where it is.
import { serialize } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { loadScenario, ScenarioError, type LoadedScenario } from './load.js';

/** steps per part of a loaded scenario posted back (load-off-thread.ts reads each part in a piece of its own) */
export const PART_STEPS = 1000;

/** a part of a loaded scenario: some of its steps and of their lines */
export interface LoadedPart {
  steps: LoadedScenario['scenario']['steps'];
  lines: [name: string, line: number][];
}

export interface LoadRequest {
  path: string;
  endpointIds: string[] | undefined;
}

export type LoadAnswer =
  | { loaded: LoadedScenario; parts: Uint8Array[] }
  | { error: ConstructorParameters<typeof ScenarioError> }
  | { fault: string };

async function answer({ path, endpointIds }: LoadRequest): Promise<LoadAnswer> {
  try {
    return inParts(await loadScenario(path, endpointIds && new Set(endpointIds)));
  } catch (e) {
    if (e instanceof ScenarioError) return { error: [e.file, e.line, e.cause_, e.step, e.pointer, e.column] };
    return { fault: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

/**
 * The scenario without its steps and their lines, and those in parts, each serialized apart: posted whole, the
 * 50,000 steps of 50 `each:` tables of 1,000 rows took ~0.3 s to deserialize in one piece on the main thread
 * (seconds on a loaded machine), deaf to signals (issue 41); a part is read in a few milliseconds.
 */
function inParts(loaded: LoadedScenario): LoadAnswer {
  const { steps } = loaded.scenario;
  const lines = Object.entries(loaded.stepLines);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < Math.max(steps.length, lines.length); i += PART_STEPS) {
    const part: LoadedPart = { steps: steps.slice(i, i + PART_STEPS), lines: lines.slice(i, i + PART_STEPS) };
    parts.push(serialize(part));
  }
  return { loaded: { ...loaded, scenario: { ...loaded.scenario, steps: [] }, stepLines: {} }, parts };
}

if (parentPort) void answer(workerData as LoadRequest).then((a) => parentPort!.postMessage(a));
