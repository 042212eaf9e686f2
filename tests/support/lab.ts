// Lab helpers for tests that need real Syncthing instances.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { startLab, type Lab, type LabInstance, type LabOptions } from '../../src/lab/lab.js';
import { runningProcesses } from '../../src/lab/procs.js';

export type { Lab, LabInstance };

/** Runs fn with a fresh lab of n instances and always stops it (also when fn throws). */
export async function withLab<T>(n: number, fn: (lab: Lab) => Promise<T>, opts: LabOptions = {}): Promise<T> {
  const lab = await startLab({ ...opts, instances: n });
  try {
    return await fn(lab);
  } finally {
    await lab.down();
  }
}

/**
 * One lab shared by the tests of a file (or of the describe() it is called in): started in before(), stopped in after().
 * Read `.lab` inside tests only, e.g. `const shared = useLab(2); test('x', () => shared.lab.instances[0].url)`.
 */
export function useLab(n: number, opts: LabOptions = {}): { readonly lab: Lab } {
  let lab: Lab | undefined;
  before(async () => {
    lab = await startLab({ ...opts, instances: n });
  });
  after(async () => {
    await lab?.down();
  });
  return {
    get lab(): Lab {
      if (!lab) throw new Error('useLab: the lab is not up (read .lab inside a test, after before() has run)');
      return lab;
    },
  };
}

/** fetch against an instance with its API key. */
export function labFetch(inst: LabInstance, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('X-API-Key', inst.apiKey);
  return fetch(`${inst.url}${path}`, { ...init, headers, signal: init.signal ?? AbortSignal.timeout(10_000) });
}

/** a folder the instance holds before a client's session begins (its calls then depend on it): made at `path` */
export async function holdFolder(inst: LabInstance, path: string, id: string): Promise<void> {
  mkdirSync(path);
  const made = await labFetch(inst, '/rest/config/folders', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ id, label: 'Held', path }),
  });
  assert.equal(made.status, 200, await made.text());
}

/** Running processes (zombies excluded) whose command line mentions text, e.g. a lab dir: what a clean stop must leave empty. */
export function processesMentioning(text: string): { pid: number; cmdline: string }[] {
  return runningProcesses()
    .map((p) => ({ pid: p.pid, cmdline: p.args.join(' ') }))
    .filter((p) => p.cmdline.includes(text) && p.pid !== process.pid);
}
