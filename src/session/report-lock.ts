// One writer a session file: two proxies on one --report-dir (two CI jobs in one workspace), or two serves on one
// --log, would each write the other's session over its own, both green. The first holds the place (a lock file naming
// its process) until its files are written; a second is refused in one line. A lock left by a process that died is
// taken over.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../errors.js';
import { isAlive } from '../lab/procs.js';

/** the file's text, or `fallback` when it is gone (its holder released it meanwhile) */
function readTextOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

/** holds `lock` for this process; the release. `where` names the place in the messages, `refusal` says why a live
 * holder (its pid) keeps this process out */
function hold(lock: string, where: string, refusal: (holder: number) => string): () => void {
  for (;;) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      return () => rmSync(lock, { force: true });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code !== 'EEXIST') throw new InputError(`${where}: cannot write ${lock} (${err.code ?? err.message})`);
    }
    const holder = Number(readTextOr(lock, '0').trim());
    if (holder && holder !== process.pid && isAlive(holder)) throw new InputError(`${where}: ${refusal(holder)}`);
    rmSync(lock, { force: true }); // its process is gone: the place is free
  }
}

/** holds `reportDir` for this proxy session; the release. `option` names the folder in the refusal */
export function lockReportDir(reportDir: string, option: string): () => void {
  return hold(
    join(reportDir, '.synconf-proxy.lock'),
    `${option} ${reportDir}`,
    (pid) => `another synconf proxy (pid ${pid}) writes its session there; give each proxy a report folder of its own`,
  );
}

/** holds serve's request log `file` (its folder exists) for this process; the release */
export function lockRequestLog(file: string, option: string): () => void {
  return hold(
    join(dirname(file), `.${basename(file)}.synconf-lock`),
    `${option} ${file}`,
    (pid) => `another synconf serve (pid ${pid}) writes its request log there; give each serve a log of its own`,
  );
}
