// A large scenario file is loaded in a worker thread: its parse and checks are seconds of synchronous work (200,000
// steps: ~6 s), during which the main thread could not hear Ctrl-C, SIGTERM or SIGHUP. The main thread waits for the
// worker's answer instead, and an abort (the command's signal handler) terminates the worker at once. The worker is
// dist/bin/load-worker.cjs beside the built engine, or load-worker.ts beside this file under tsx; without either,
// the file is loaded here as any other.
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loadScenario, ScenarioError, type LoadedScenario } from './load.js';
import type { LoadAnswer, LoadRequest } from './load-worker.js';

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
    if ('loaded' in answer) return answer.loaded;
    if ('error' in answer) throw new ScenarioError(...answer.error);
    throw new Error(`loading ${path} in a worker thread failed: ${answer.fault}`);
  } finally {
    signal?.removeEventListener('abort', stop);
    void worker.terminate();
  }
}
