// The results `synconf history` keeps per release: a release does not change, so a release's report folder (its
// report.json and the exchanges it recorded) is kept under a key of the release, the scenario files that ran and
// synconf's build (its bundled engine, and the schemas, known deviations and statements it reads at run time),
// and a later history with the same key copies it back instead of running the release again. Only a whole run is
// kept: exit 0 or 1, no harness error. The cache is ($XDG_CACHE_HOME or ~/.cache)/synconf/history, or --cache-dir.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import type { Report } from '../schema/generated/types.js';
import type { LoadedScenario } from '../scenario/load.js';
import { EXPECTATIONS_DIR, ROOT, SCHEMAS_DIR, SYNCONF_VERSION } from '../paths.js';
import { makeOutputDir } from '../output-dir.js';

/** ($XDG_CACHE_HOME or ~/.cache)/synconf/history, or the folder given */
export function historyCacheDir(given?: string): string {
  if (given) return resolve(given);
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'synconf', 'history');
}

/** every file under `dir` (sorted, relative), for a hash; nothing when it is not there */
function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((d) => (d.isDirectory() ? filesUnder(join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`]));
}

/** what synconf's build reads at run time that decides a verdict: its engine as built, schemas, deviations, statements */
function buildInputs(): string[] {
  const bundled = ['engine.cjs', 'load-worker.cjs'].map((f) => join(ROOT, 'dist', 'bin', f)).filter(existsSync);
  return [
    ...bundled,
    ...filesUnder(SCHEMAS_DIR).map((f) => join(SCHEMAS_DIR, f)),
    ...filesUnder(EXPECTATIONS_DIR).map((f) => join(EXPECTATIONS_DIR, f)),
    join(ROOT, 'spec', 'statements.yaml'),
  ];
}

/** the hash of the scenario files that ran, synconf's build and the options that change a verdict */
export function suiteKey(scenarios: LoadedScenario[], options: Record<string, unknown>): string {
  const hash = createHash('sha256').update(`synconf ${SYNCONF_VERSION}\n${JSON.stringify(options)}\n`);
  for (const file of buildInputs()) hash.update(`${file.slice(ROOT.length)}\n`).update(readFileSync(file));
  for (const s of [...scenarios].sort((a, b) => a.scenario.id.localeCompare(b.scenario.id)))
    hash.update(`\n${s.scenario.id} ${basename(s.path)}\n`).update(readFileSync(s.path));
  return hash.digest('hex').slice(0, 20);
}

/** the key of one release: the suite's key, and for a replay the recordings it replays (they may be re-recorded) */
export function releaseKey(suite: string, recordings?: string): string {
  if (!recordings) return suite;
  const hash = createHash('sha256').update(suite);
  for (const f of filesUnder(recordings)) hash.update(`\n${f}\n`).update(readFileSync(join(recordings, f)));
  return hash.digest('hex').slice(0, 20);
}

const entryOf = (cache: string, version: string, key: string) => join(cache, version, key);

/** the cached report folder of a release under a key, when there is one */
export function cachedRun(cache: string, version: string, key: string): string | undefined {
  const dir = entryOf(cache, version, key);
  return existsSync(join(dir, 'report.json')) ? dir : undefined;
}

/** a cached report folder copied into the history's report folder, replacing what was there */
export function restoreRun(from: string, reportDir: string): void {
  rmSync(reportDir, { recursive: true, force: true });
  cpSync(from, reportDir, { recursive: true });
}

/** a whole run: one that conforms or not, with no harness error (an agent that did not start is not kept) */
export const keepable = (r: Report) => (r.exitCode === 0 || r.exitCode === 1) && r.harnessErrors.length === 0;

/** how many keys a release keeps (other suites, other builds): the oldest beyond go */
const KEYS_KEPT = 4;

/** a release's report folder kept under its key: copied beside it first and renamed into place whole */
export function storeRun(cache: string, version: string, key: string, reportDir: string): void {
  const dir = entryOf(cache, version, key);
  makeOutputDir(join(cache, version), '--cache-dir');
  const staged = `${dir}.${process.pid}.partial`;
  rmSync(staged, { recursive: true, force: true });
  cpSync(reportDir, staged, { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  renameSync(staged, dir);
  const keys = readdirSync(join(cache, version))
    .filter((k) => !k.endsWith('.partial'))
    .map((k) => ({ k, at: statSync(join(cache, version, k)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { k } of keys.slice(KEYS_KEPT)) rmSync(join(cache, version, k), { recursive: true, force: true });
}
