// The live runs the tests share. A whole live run of the bundled suite costs a minute or more on two cores, and
// several test files ask the same question of it (does each version conform, what does the matrix of them answer,
// does each shard give the whole run's verdicts, does the merge of the shards give the matrix): each run is made
// once, by the first test that needs it, and every other test reads its report folder.
//
// The runs live in one scratch folder per build: $SYNCONF_LIVE_RUNS (`npm test` makes a fresh one for each run of
// the suite and removes it), else <tmp>/synconf-live-<hash of the build, the suite and the agents>, kept for the next
// test file run alone. A run is made once across processes too: the first process to claim it (a lock folder with
// its pid) runs it; the others wait for its result.json, or take over the claim of a process that died.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { installedAgents } from '../../src/agents/index.js';
import { ROOT } from '../../src/paths.js';
import type { Matrix, Report } from '../../src/schema/generated/types.js';
import { AGENT_VERSIONS } from './agents.js';
import { BIN, cliAsync, type CliResult } from './cli.js';
import { holdDefaultPorts } from './default-ports.js';

/** a finished live run: how the command ended, and the folder it wrote its reports to */
export interface LiveRun extends CliResult {
  /** the --report-dir of the run */
  reportDir: string;
}

/** the live matrix of every version: the default ports held by another process while it ran */
export interface LiveMatrix extends LiveRun {
  /** the folder the labs' homes went to (TMPDIR): what they leave running mentions it */
  labsDir: string;
  held: string[];
  notHeld: string[];
}

/** what a run depends on besides the build (the built command's folder) and the agents: the suite, its
 * expectations, the shards' weights (recordings), what the reports cite */
const INPUTS = ['suites', 'expectations', 'schemas', 'spec', 'rules', 'recordings'];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** 12 hex digits over every input file's path and bytes, and each installed agent's version, path and size */
function buildKey(): string {
  const hash = createHash('sha256');
  for (const file of [...filesUnder(dirname(BIN)), ...INPUTS.flatMap((d) => filesUnder(join(ROOT, d)))]) {
    hash.update(relative(ROOT, file)).update(readFileSync(file));
  }
  for (const a of installedAgents()) hash.update(`${a.version} ${a.path} ${statSync(a.path).size}`);
  return hash.digest('hex').slice(0, 12);
}

let root: string | undefined;
/** the scratch folder of this build's shared runs */
export function liveRunsDir(): string {
  root ??= process.env.SYNCONF_LIVE_RUNS || join(tmpdir(), `synconf-live-${buildKey()}`);
  mkdirSync(root, { recursive: true });
  return root;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** claims run `name` for this process: true, or false while another live process holds the claim */
function claim(lock: string): boolean {
  try {
    mkdirSync(lock);
  } catch {
    let holder = NaN;
    try {
      holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    } catch {
      return false; // claimed this instant, its pid not yet written: look again
    }
    if (alive(holder)) return false;
    rmSync(lock, { recursive: true, force: true }); // the claim of a process that died: take it over
    return claim(lock);
  }
  writeFileSync(join(lock, 'pid'), String(process.pid));
  return true;
}

const made = new Map<string, Promise<unknown>>();

/**
 * The result of run `name` in this build's folder: read if a process made it, else made by `make` into `<name>/`
 * (what it returns is written to `<name>/result.json`, last, so that a result there is a whole run).
 */
function shared<T>(name: string, make: (dir: string) => Promise<T>): Promise<T> {
  const known = made.get(name) as Promise<T> | undefined;
  if (known) return known;
  const result = (async () => {
    const dir = join(liveRunsDir(), name);
    const done = join(dir, 'result.json');
    const lock = `${dir}.lock`;
    while (!existsSync(done)) {
      if (!claim(lock)) {
        await sleep(1000); // another process is making it: its result.json, or its death, ends the wait
        continue;
      }
      try {
        if (existsSync(done)) break;
        rmSync(dir, { recursive: true, force: true }); // what a process that died left half made
        mkdirSync(dir, { recursive: true });
        writeFileSync(done, JSON.stringify(await make(dir)));
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    }
    return JSON.parse(readFileSync(done, 'utf8')) as T;
  })();
  made.set(name, result);
  return result;
}

/**
 * `synconf matrix` of every version of the default set, live, all at once (--jobs: one lab each), with
 * --fail-on breaking, while another process holds Syncthing's default ports: one whole live run per version.
 */
export function liveMatrix(): Promise<LiveMatrix> {
  return shared('matrix', async (dir) => {
    const labsDir = join(dir, 'tmp');
    mkdirSync(labsDir);
    const reportDir = join(dir, 'm');
    const ports = await holdDefaultPorts();
    try {
      const versions = AGENT_VERSIONS.flatMap((v) => ['--syncthing', v]);
      const jobs = ['--jobs', String(AGENT_VERSIONS.length)];
      const args = ['matrix', ...versions, ...jobs, '--fail-on', 'breaking', '--report-dir', reportDir];
      const r = await cliAsync(args, { cwd: dir, timeout: 900_000, env: { TMPDIR: labsDir } });
      return { ...r, reportDir, labsDir, held: ports.held, notHeld: ports.notHeld };
    } finally {
      await ports.release();
    }
  });
}

/** `synconf run --syncthing VERSION ...more`, live, in its own lab, from `dir` */
async function liveRunIn(dir: string, version: string, more: string[]): Promise<LiveRun> {
  const reportDir = join(dir, 'r');
  const r = await cliAsync(['run', '--syncthing', version, ...more, '--report-dir', reportDir], {
    cwd: dir,
    timeout: 300_000,
  });
  return { ...r, reportDir };
}

/** `synconf run --syncthing VERSION --shard INDEX/COUNT`, live, in its own lab */
export function liveShard(version: string, index: number, count: number): Promise<LiveRun> {
  return shared(`shard-${version}-${index}-of-${count}`, (dir) =>
    liveRunIn(dir, version, ['--shard', `${index}/${count}`]),
  );
}

/**
 * `synconf run --syncthing VERSION`, the whole suite live in its own lab, after the live matrix: a second whole run
 * of the version in a row (suites.test.ts holds it to the first). shard-live.test.ts makes it in its pool of shard
 * runs, where it costs no wall time of its own.
 */
export function liveRunAgain(version: string): Promise<LiveRun> {
  return shared(`again-${version}`, async (dir) => {
    await liveMatrix(); // the first run: the matrix's
    return liveRunIn(dir, version, []);
  });
}

/** the report of a version in the live matrix: its whole live run */
export async function wholeRunReport(version: string): Promise<Report> {
  return readJson<Report>(join((await liveMatrix()).reportDir, version, 'report.json'));
}

export async function liveMatrixJson(): Promise<Matrix> {
  return readJson<Matrix>(join((await liveMatrix()).reportDir, 'matrix.json'));
}

/** the report a live run wrote */
export const reportOf = (run: LiveRun): Report => readJson<Report>(join(run.reportDir, 'report.json'));

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/**
 * How many live runs the tests make at once: as many labs as the live matrix runs at once (one per version of the
 * default set, --jobs), the load under which the whole runs they are compared with were made. The runs wait on their
 * agents far more than they compute: three at a time, the CI plan's 18 shards took the sum of their scenarios'
 * times divided by three.
 */
export const LABS_AT_ONCE = AGENT_VERSIONS.length;

/** `jobs` run with at most `limit` of them at once, in order; their results in the order of the jobs */
export async function pooled<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < jobs.length; i = next++) results[i] = await jobs[i]();
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}
