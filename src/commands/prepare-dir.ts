// The folder a command writes into (--report-dir, --out), made and checked before any work is done, so a
// bad one is one line up front and never a lost report at the end. Made one level at a time: Node 20's
// recursive mkdir spins at full CPU, deaf to SIGTERM, under /proc.
import { access, mkdir, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from '../errors.js';

export async function prepareDir(dir: string, option: string): Promise<void> {
  const abs = resolve(dir);
  const missing: string[] = [];
  for (let at = abs; ; at = dirname(at)) {
    const found = await stat(at).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return undefined; // ENOTDIR: a parent is a file, found next
      throw new InputError(`${option} ${dir}: cannot use ${at}: ${e.code ?? e.message}`);
    });
    if (found) {
      if (!found.isDirectory())
        throw new InputError(`${option} ${dir}: ${at === abs ? 'it' : at} is a file, not a folder`);
      break;
    }
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const d of missing) {
    await mkdir(d).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') throw new InputError(`${option} ${dir}: cannot create ${d}: ${e.code ?? e.message}`);
    });
  }
  await access(abs, constants.W_OK).catch(() => {
    throw new InputError(`${option} ${dir}: the folder is not writable`);
  });
}
