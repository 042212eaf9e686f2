// The one way tests get a scratch folder: made under the system's temporary folder, removed afterwards.
import { before, after } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** a new empty folder `<tmp>/synconf-<name>-XXXXXX`; the caller removes it (removeTemp) */
export function makeTemp(name: string): string {
  return mkdtempSync(join(tmpdir(), `synconf-${name}-`));
}

export function removeTemp(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * A scratch folder for the enclosing describe (or the file, at top level): made before its tests, removed after them.
 * Returns a function that gives its path (the folder exists only once the hooks ran).
 */
export function tempFolder(name: string): () => string {
  let dir: string | undefined;
  before(() => {
    dir = makeTemp(name);
  });
  after(() => {
    if (dir) removeTemp(dir);
  });
  return () => {
    if (!dir) throw new Error(`the temporary folder ${name} is used before its describe started`);
    return dir;
  };
}

/** `fn` given a scratch folder that is removed when it settles */
export async function withTemp<T>(name: string, fn: (dir: string) => T | Promise<T>): Promise<T> {
  const dir = makeTemp(name);
  try {
    return await fn(dir);
  } finally {
    removeTemp(dir);
  }
}
