// The worker thread of a large scenario file (load-off-thread.ts): loadScenario as on the main thread, its result
// or its ScenarioError posted back as data. Loading 200,000 steps takes seconds of synchronous work; here it leaves
// the main thread free to hear a signal, and a terminate() stops it where it is.
import { parentPort, workerData } from 'node:worker_threads';
import { loadScenario, ScenarioError } from './load.js';

export interface LoadRequest {
  path: string;
  endpointIds: string[] | undefined;
}

export type LoadAnswer =
  | { loaded: Awaited<ReturnType<typeof loadScenario>> }
  | { error: ConstructorParameters<typeof ScenarioError> }
  | { fault: string };

async function answer({ path, endpointIds }: LoadRequest): Promise<LoadAnswer> {
  try {
    return { loaded: await loadScenario(path, endpointIds && new Set(endpointIds)) };
  } catch (e) {
    if (e instanceof ScenarioError) return { error: [e.file, e.line, e.cause_, e.step, e.pointer, e.column] };
    return { fault: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

if (parentPort) void answer(workerData as LoadRequest).then((a) => parentPort!.postMessage(a));
