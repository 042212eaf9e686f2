// Where synconf's own files live. The code runs both from src/ (tsx, tests) and from dist/src/
// (the built bin), so the package root is found by walking up to synconf's package.json.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'synconf') return dir;
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('synconf: cannot find its own package.json above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const ROOT = findRoot();
export const SCHEMAS_DIR = join(ROOT, 'schemas');
export const SUITES_DIR = join(ROOT, 'suites');
export const RECORDINGS_DIR = join(ROOT, 'recordings');
export const EXPECTATIONS_DIR = join(ROOT, 'expectations');
/** the recordings replay (and drift) use when none is named */
export const DEFAULT_RECORDINGS = join(RECORDINGS_DIR, 'syncthing-1.19.2');
export const DEFAULT_REPORT_DIR = join('reports', 'latest');
export const SYNCONF_VERSION: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
