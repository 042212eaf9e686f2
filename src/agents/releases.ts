// The release table (data/releases.json, schemas/releases.schema.json): every upstream Syncthing release since
// 1.12.0, whether the Go module proxy serves it (as measured, with the date) and how it builds with today's Go.
// The proxy cannot list Syncthing's releases (`go list -m -versions` gives only v1.30.0), so they ship as data,
// read from upstream's tags. Loaded once, checked against its schema and against itself (the 2.x formula).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { InputError } from '../errors.js';
import { ROOT } from '../paths.js';
import { validate } from '../schema/registry.js';
import type { Release, ReleaseRecipe, ReleaseTable } from '../schema/generated/types.js';

export type { Release, ReleaseRecipe, ReleaseTable };

export const RELEASES_FILE = join(ROOT, 'data', 'releases.json');

/**
 * The module version the proxy serves a release as: the tag itself for 1.x; for 2.x (a module path without /v2)
 * a pseudo-version of the commit, based on the newest v1 tag merged into every 2.x commit, v1.30.0-rc.1.
 */
export function moduleVersionOf(tag: string, commit: string, commitTime: string): string {
  if (!tag.startsWith('v2.')) return tag;
  const stamp = commitTime.replace(/[-T:Z]/g, '');
  return `v1.30.0-rc.1.0.${stamp}-${commit.slice(0, 12)}`;
}

/** what is wrong with a table beyond its schema: order, tags, the 2.x formula, refusals that say where */
export function tableProblems(table: ReleaseTable): string[] {
  const problems: string[] = [];
  table.releases.forEach((r, i) => {
    const at = `releases[${i}] (${r.version})`;
    if (r.tag !== `v${r.version}`) problems.push(`${at}: tag ${r.tag} is not v${r.version}`);
    const previous = table.releases[i - 1];
    if (previous && !semver.gt(r.version, previous.version))
      problems.push(`${at}: not after ${previous.version} (oldest first, each once)`);
    const expected = moduleVersionOf(r.tag, r.commit, r.commitTime);
    if (r.moduleVersion !== expected) problems.push(`${at}: module version ${r.moduleVersion}, not ${expected}`);
    if (r.proxy.status === 'not-served' && !r.proxy.refusedAt)
      problems.push(`${at}: not served, but refusedAt does not say where`);
    if (!table.recipes[r.recipe]) problems.push(`${at}: recipe ${r.recipe} is not in recipes`);
  });
  return problems;
}

/**
 * A table read from a file. One that cannot be read, or breaks its schema or itself, is an InputError naming the file
 * when the user gave it ($SYNCONF_RELEASES_FILE), a fault of synconf when it is the bundled one.
 */
export function loadReleaseTable(file = RELEASES_FILE, given = false): ReleaseTable {
  const fail = (why: string) => {
    const message = `release table ${file}: ${why}`;
    return given ? new InputError(`${message} (SYNCONF_RELEASES_FILE)`) : new Error(message);
  };
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw fail((e as Error).message.split('\n')[0]);
  }
  const errors = validate('releases', doc);
  if (errors.length) throw fail(`${errors[0].pointer || '/'}: ${errors[0].message}`);
  const problems = tableProblems(doc as ReleaseTable);
  if (problems.length) throw fail(problems.join('; '));
  return doc as ReleaseTable;
}

let bundled: ReleaseTable | undefined;

/** the bundled table (data/releases.json) */
export function releaseTable(): ReleaseTable {
  const given = process.env.SYNCONF_RELEASES_FILE;
  bundled ??= given ? loadReleaseTable(given, true) : loadReleaseTable();
  return bundled;
}

export function findRelease(version: string, table = releaseTable()): Release | undefined {
  return table.releases.find((r) => r.version === version);
}

/** "1.17" or "v1.18": a release line, as opposed to a release */
export function isReleaseLine(spec: string): boolean {
  return /^v?\d+\.\d+$/.test(spec);
}

/**
 * The release a line names: its newest release the proxy serves, else its newest whose state is unknown (an
 * install tries it); undefined when every release of the line is refused (or the line has none).
 */
export function lineRelease(line: string, table = releaseTable()): Release | undefined {
  const of = table.releases.filter((r) => `${semver.major(r.version)}.${semver.minor(r.version)}` === line);
  const buildable = of.filter((r) => !unobtainable(r, table)).reverse();
  return buildable.find((r) => r.proxy.status === 'served') ?? buildable.find((r) => r.proxy.status === 'unknown');
}

/** the releases of a line, for a message (`1.16.0, 1.16.1`) */
export function lineReleases(line: string, table = releaseTable()): Release[] {
  return table.releases.filter((r) => `${semver.major(r.version)}.${semver.minor(r.version)}` === line);
}

/** the module path of every release (the 2.x releases too: no /v2) */
export const SYNCTHING_MODULE = 'github.com/syncthing/syncthing';

/**
 * whether go leaves `module` out of the checksum database in this environment: GOSUMDB=off, or a GONOSUMDB or
 * GOPRIVATE pattern (comma-separated path globs, each matching a prefix of the path's elements) that matches it
 */
export function sumDbSkipped(module: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.GOSUMDB === 'off') return true;
  const elements = module.split('/');
  const patterns = [env.GONOSUMDB, env.GOPRIVATE].flatMap((v) => (v ?? '').split(',')).map((p) => p.trim());
  const glob = (p: string) =>
    new RegExp(
      `^${p
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '[^/]*')
        .replace(/\?/g, '[^/]')}$`,
    );
  return patterns.some((p) => {
    const parts = p.replace(/\/+$/, '').split('/');
    return (
      p !== '' &&
      parts.length <= elements.length &&
      glob(parts.join('/')).test(elements.slice(0, parts.length).join('/'))
    );
  });
}

/** why a release cannot be had, one phrase; undefined when synconf can try to build it */
export function unobtainable(r: Release, table = releaseTable()): string | undefined {
  if (r.proxy.status === 'not-served') {
    const where = r.proxy.refusedAt === 'info' ? '403 at .info' : '.info answers, .mod or .zip refused';
    return `not served by the Go module proxy (${where}; measured ${r.proxy.measured})`;
  }
  // go verifies an unpinned tag against the checksum database: where it does not know the tag, go refuses it
  if (r.proxy.sumDb === 'not-found' && r.moduleSum === null && !sumDbSkipped(SYNCTHING_MODULE))
    return `not verifiable: the Go checksum database answers 404 for ${SYNCTHING_MODULE}@${r.moduleVersion} (measured ${r.proxy.measured}), so go refuses its download; GONOSUMDB=${SYNCTHING_MODULE} installs it unverified`;
  const recipe = table.recipes[r.recipe];
  if (!recipe.buildable) return `served by the Go module proxy, but synconf cannot build it: ${recipe.why}`;
  return undefined;
}
