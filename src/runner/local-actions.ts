// File actions of `file:` steps, confined to folders synconf owns.
// fs.promises is read when an action runs: importing node:fs/promises loads it (~1 ms) in every command.
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { LocalActions } from './context.js';

const UNITS: Record<string, number> = { B: 1, KiB: 1024, MiB: 1024 * 1024 };
/** "4MiB" → 4194304 (the scenario schema guarantees the form) */
function byteSize(text: string): number {
  const m = /^([0-9]+)(B|KiB|MiB)$/.exec(text)!;
  return Number(m[1]) * UNITS[m[2]];
}

export function fileActions(root?: string): LocalActions {
  return {
    makeTempDir: async (scenario) => fs.mkdtemp(join(root ?? tmpdir(), `synconf-${scenario}-`)),
    async apply(action, allowedRoots) {
      const count = action.repeat ?? 1;
      for (let i = 0; i < count; i++) {
        const path = resolve(action.path.replace(/\{\{\s*n\s*\}\}/g, String(i).padStart(3, '0')));
        if (!allowedRoots.some((r) => path === resolve(r) || path.startsWith(resolve(r) + sep))) {
          throw new Error(`${path} is outside the folders synconf owns (${allowedRoots.join(', ')})`);
        }
        if (action.remove) await fs.rm(path, { recursive: true, force: true });
        if (action.mkdir) await fs.mkdir(path, { recursive: true });
        const content = action.random !== undefined ? randomBytes(byteSize(action.random)) : action.write;
        if (content !== undefined) {
          await fs.mkdir(dirname(path), { recursive: true });
          await fs.writeFile(path, content);
        }
        if (action.mtime) await fs.utimes(path, new Date(action.mtime), new Date(action.mtime));
      }
    },
    removeTempDir: (path) => fs.rm(path, { recursive: true, force: true }),
  };
}
