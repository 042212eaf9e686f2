// The built synconf (dist/bin/synconf.js) started as a user starts it, for the benchmarks that time a server of it
// (serve, proxy): resolves once its output holds what `parse` looks for.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;

/** start the built synconf with `args` and resolve with what `parse` finds in its output once it has all of it */
export function startBuilt(args, parse) {
  const child = spawn(process.execPath, [join(ROOT, 'dist/bin/synconf.js'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  return new Promise((resolve) => {
    child.stdout.on('data', (d) => {
      out += d;
      const found = parse(out);
      if (found) resolve({ child, url: found });
    });
  });
}

/** the URL a server printed, once its output matches `ready` */
export const printedUrl = (ready) => (out) => (ready.test(out) ? /^URL\s+(\S+)$/m.exec(out)?.[1] : undefined);
