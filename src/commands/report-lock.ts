// One proxy session a report folder: two proxies on one --report-dir (two CI jobs in one workspace) would each
// write the other's report over its own, both green. The first holds the folder (a file naming its process) until
// its report is written; a second is refused in one line. A lock left by a process that died is taken over.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors.js';
import { isAlive } from '../lab/procs.js';

const LOCK = '.synconf-proxy.lock';

/** the file's text, or `fallback` when it is gone (its holder released it meanwhile) */
function readTextOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

/** holds `reportDir` for this process; the release. `option` names the folder in the refusal */
export function lockReportDir(reportDir: string, option: string): () => void {
  const file = join(reportDir, LOCK);
  for (;;) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code !== 'EEXIST')
        throw new InputError(`${option} ${reportDir}: cannot write ${file} (${err.code ?? err.message})`);
    }
    const holder = Number(readTextOr(file, '0').trim());
    if (holder && holder !== process.pid && isAlive(holder))
      throw new InputError(
        `${option} ${reportDir}: another synconf proxy (pid ${holder}) writes its session there; give each proxy a report folder of its own`,
      );
    rmSync(file, { force: true }); // its process is gone: the folder is free
  }
}
