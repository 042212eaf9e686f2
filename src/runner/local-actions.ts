// File actions of `file:` steps, confined to folders synconf owns.
import { mkdtemp, mkdir, writeFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import type { LocalActions } from './context.js';

export function fileActions(root?: string): LocalActions {
  return {
    makeTempDir: async (scenario) => mkdtemp(join(root ?? tmpdir(), `synconf-${scenario}-`)),
    async apply(action, allowedRoots) {
      const path = resolve(action.path);
      if (!allowedRoots.some((r) => path === resolve(r) || path.startsWith(resolve(r) + sep))) {
        throw new Error(`${path} is outside the folders synconf owns (${allowedRoots.join(', ')})`);
      }
      if (action.remove) await rm(path, { recursive: true, force: true });
      if (action.mkdir) await mkdir(path, { recursive: true });
      if (action.write !== undefined) {
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, action.write);
      }
      if (action.mtime) await utimes(path, new Date(action.mtime), new Date(action.mtime));
    },
    removeTempDir: (path) => rm(path, { recursive: true, force: true }),
  };
}

