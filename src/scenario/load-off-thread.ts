// A large scenario file is loaded in a worker thread: its parse and checks are seconds of synchronous work (200,000
// steps: ~6 s), during which the main thread could not hear Ctrl-C, SIGTERM or SIGHUP. The main thread waits for the
// worker's answer instead, and an abort (the command's signal handler) terminates the worker at once. The worker is
// dist/bin/load-worker.cjs beside the built engine, or load-worker.ts beside this file under tsx; without either,
// the file is loaded here as any other.
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { pacer } from '../turns.js';
import { loadScenario, ScenarioError, type LoadedScenario } from './load.js';
import type { LoadAnswer, LoadedPart, LoadRequest } from './load-worker.js';

/** files at least this large are loaded off the main thread (the bundled suites' largest is ~20 KB) */
export const OFF_THREAD_BYTES = 1024 * 1024;

function workerFile(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  return ['load-worker.cjs', 'load-worker.ts'].map((f) => join(here, f)).find(existsSync);
}

const isLarge = (path: string) => {
  try {
    return statSync(path).size >= OFF_THREAD_BYTES;
  } catch {
    return false; // loadScenario says what is wrong with it
  }
};

/** loads `path` (in a worker when large); undefined when `signal` aborted it first */
export async function loadScenarioAbortably(
  path: string,
  endpointIds: Set<string> | undefined,
  signal?: AbortSignal,
): Promise<LoadedScenario | undefined> {
  const file = isLarge(path) ? workerFile() : undefined;
  if (!file) return loadScenario(path, endpointIds);
  const request: LoadRequest = { path, endpointIds: endpointIds && [...endpointIds] };
  const worker = new Worker(file, { workerData: request });
  let stop = () => {};
  const aborted = new Promise<undefined>((resolve) => {
    stop = () => void worker.terminate().then(() => resolve(undefined));
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
  const answered = new Promise<LoadAnswer>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    // a worker that ends without a word (out of memory) is no answer to wait for; after an answer or an abort (the
    // terminate above), its end says nothing
    worker.once('exit', (code) => {
      if (!signal?.aborted) reject(new Error(`the worker thread loading ${path} ended (${code}) unanswered`));
    });
  });
  try {
    const answer = await Promise.race([answered, aborted]);
    if (!answer) return undefined;
    if ('loaded' in answer) return await joined(answer, signal);
    if ('error' in answer) throw new ScenarioError(...answer.error);
    throw new Error(`loading ${path} in a worker thread failed: ${answer.fault}`);
  } finally {
    signal?.removeEventListener('abort', stop);
    void worker.terminate();
  }
}

/** the scenario the worker posted in parts, read part by part with a turn now and then; undefined once aborted */
async function joined(
  { loaded, parts }: { loaded: LoadedScenario; parts: Uint8Array[] },
  signal?: AbortSignal,
): Promise<LoadedScenario | undefined> {
  const pace = pacer();
  const steps: LoadedScenario['scenario']['steps'] = [];
  const stepLines: LoadedScenario['stepLines'] = {};
  for (const bytes of parts) {
    await pace();
    if (signal?.aborted) return undefined;
    const part = deserialize(bytes) as LoadedPart;
    for (const step of part.steps) steps.push(step);
    for (const [name, line] of part.lines) stepLines[name] = line;
  }
  return { ...loaded, scenario: { ...loaded.scenario, steps }, stepLines };
}
