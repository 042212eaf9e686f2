// `synconf agents install --source DIR --as NAME`: a release candidate built from a Syncthing source tree with the
// recipe of the release it descends from, stamped NAME, into the agents cache beside the releases. Its folder holds
// candidate.json (schemas/candidate.schema.json): the mark that synconf made it, which is the only folder of that
// name synconf writes over. The tree itself is only read (copied without its .git, then built).
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { execa } from 'execa';
import semver from 'semver';
import { InputError, UsageError } from '../errors.js';
import { validate } from '../schema/registry.js';
import type { Candidate } from '../schema/generated/types.js';
import { agentsDir } from './cache.js';
import { makeOutputDir } from '../output-dir.js';
import { buildFromSourceTree, findGo, GoBuildError, goSearched } from './go-build.js';
import { installBuild, type GoAgent, type InstallOptions, type InstallResult } from './install.js';
import { KNOWN_VERSIONS, releaseAgent, SYNCTHING_MODULE } from './known.js';
import { findRelease, releaseTable, type Release } from './releases.js';

export type { Candidate };

export const CANDIDATE_FILE = 'candidate.json';

export interface CandidateRequest {
  /** --source: the source tree */
  source: string;
  /** --as: the candidate's version */
  name: string;
  /** --after: the release it descends from, when its tree does not say */
  after?: string;
  /** replace a candidate of that name built from another tree */
  force?: boolean;
}

/** --as NAME: a version (2.1.3-rc.1) that no release has */
export function candidateName(given: string): string {
  const name = given.replace(/^v/, '');
  if (semver.valid(name) !== name)
    throw new UsageError(`--as ${given}: not a version (name a candidate as one, like 2.1.3-rc.1)`);
  if (findRelease(name) || KNOWN_VERSIONS.includes(name)) {
    const core = semver.parse(name)!;
    throw new UsageError(
      `--as ${name}: a Syncthing release has that name (synconf agents install ${name} gets it): ` +
        `name the candidate as one, e.g. ${core.major}.${core.minor}.${core.patch + 1}-rc.1`,
    );
  }
  return name;
}

/** --source DIR: a Syncthing source tree (its go.mod is github.com/syncthing/syncthing's, it has cmd/syncthing) */
export function sourceTree(given: string): string {
  const dir = resolve(given);
  const notTree = (why: string) => new InputError(`--source ${given}: not a Syncthing source tree (${why})`);
  if (!existsSync(dir)) throw new InputError(`--source ${given}: no such folder`);
  if (!statSync(dir).isDirectory()) throw notTree('a file, not a folder');
  const goMod = join(dir, 'go.mod');
  if (!existsSync(goMod)) throw notTree('no go.mod');
  const module = /^module\s+(\S+)/m.exec(readFileSync(goMod, 'utf8'))?.[1];
  if (module !== SYNCTHING_MODULE)
    throw notTree(`go.mod's module is ${module ?? 'not named'}, not ${SYNCTHING_MODULE}`);
  if (!existsSync(join(dir, 'cmd', 'syncthing'))) throw notTree('no cmd/syncthing');
  return dir;
}

/** the release tag the tree's git history names last (git describe), if it is a git tree with tags */
async function gitRelease(dir: string): Promise<Release | undefined> {
  if (!existsSync(join(dir, '.git'))) return undefined;
  const res = await execa('git', ['-C', dir, 'describe', '--tags', '--abbrev=0', '--match', 'v[0-9]*'], {
    reject: false,
    timeout: 30_000,
  });
  return res.failed ? undefined : findRelease(res.stdout.trim().replace(/^v/, ''));
}

/**
 * The release the tree descends from: --after, else its git tags, else the module cache folder it is (Go names it
 * syncthing@<module version>), else the newest release whose version sorts before the name.
 */
async function descendsFrom(
  dir: string,
  name: string,
  after?: string,
): Promise<Pick<Candidate, 'after' | 'afterFrom'>> {
  const table = releaseTable();
  if (after !== undefined) {
    const release = findRelease(after.replace(/^v/, ''));
    if (!release)
      throw new UsageError(`--after ${after}: not a release synconf knows (synconf agents list --all lists them)`);
    return { after: release.version, afterFrom: '--after' };
  }
  const git = await gitRelease(dir);
  if (git) return { after: git.version, afterFrom: 'git' };
  const moduleVersion = /^syncthing@(v\S+)$/.exec(basename(dir))?.[1];
  const module = table.releases.find((r) => r.moduleVersion === moduleVersion);
  if (module) return { after: module.version, afterFrom: 'module' };
  const before = table.releases.filter((r) => semver.lt(r.version, name)).at(-1);
  if (!before) throw new UsageError(`--as ${name}: sorts before every release: say which it descends from (--after)`);
  return { after: before.version, afterFrom: 'name' };
}

/** the name sorts between the release it descends from and the next release, so every order of versions holds */
function checkOrder(name: string, after: string): void {
  const next = releaseTable().releases.find((r) => semver.gt(r.version, after));
  if (semver.gt(name, after) && (!next || semver.lt(name, next.version))) return;
  const core = semver.parse(after)!;
  throw new UsageError(
    `--as ${name}: the candidate descends from ${after}, so its name must sort after it${next ? ` and before ${next.version}` : ''}` +
      ` (e.g. ${core.major}.${core.minor}.${core.patch + 1}-rc.1)`,
  );
}

/** the record of a candidate in the cache, if the folder holds a valid one */
export function readCandidate(name: string, dir = agentsDir()): Candidate | undefined {
  try {
    const doc: unknown = JSON.parse(readFileSync(join(dir, name, CANDIDATE_FILE), 'utf8'));
    return validate('candidate', doc).length === 0 ? (doc as Candidate) : undefined;
  } catch {
    return undefined;
  }
}

/** a folder NAME in the cache that synconf did not build as a candidate is never written over */
function checkFolderFree(req: { name: string; source: string; force?: boolean }, dir: string): void {
  const folder = join(dir, req.name);
  if (!existsSync(folder)) return;
  const record = readCandidate(req.name, dir);
  if (!record)
    throw new InputError(
      `--as ${req.name}: ${folder} exists and synconf did not build it as a candidate (no valid ${CANDIDATE_FILE}): ` +
        'synconf does not write over it; remove it or choose another name',
    );
  if (record.source !== req.source && !req.force)
    throw new UsageError(
      `--as ${req.name}: names the candidate built from ${record.source}; --force replaces it with a build of ${req.source}`,
    );
}

/** the candidate as a build: the recipe of the release it descends from, stamped with its name and the time now */
function candidateAgent(name: string, after: Release, builtAt: string): GoAgent {
  const recipe = releaseTable().recipes[after.recipe];
  if (!recipe.buildable)
    throw new UsageError(
      `--after ${after.version}: synconf cannot build such a release (${recipe.why}), nor a tree descending from it`,
    );
  return {
    ...(releaseAgent(after) as GoAgent),
    version: name,
    tag: `v${name}`,
    commit: '',
    commitTime: builtAt,
    moduleVersion: `v${name}`,
    moduleSum: null,
  };
}

/**
 * Builds the tree as the candidate NAME into the cache (replacing an earlier build of the same candidate), checked
 * as a release is. Throws a SynconfError: a tree, name or order refused (exit 2), or a build that fails, naming its log.
 */
export async function installCandidate(req: CandidateRequest, opts: InstallOptions): Promise<InstallResult> {
  const log = opts.log ?? (() => {});
  const name = candidateName(req.name);
  const source = sourceTree(req.source);
  const place = await descendsFrom(source, name, req.after);
  checkOrder(name, place.after);
  const dir = agentsDir();
  checkFolderFree({ name, source, force: req.force }, dir);
  const builtAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const agent = candidateAgent(name, findRelease(place.after)!, builtAt);
  const go = findGo();
  if (!go) throw new GoBuildError(`${name}: a candidate is built with Go (1.25 or later): ${goSearched()}`);
  makeOutputDir(dir, process.env.SYNCONF_AGENTS_DIR ? 'SYNCONF_AGENTS_DIR' : 'the agents cache');
  const logs = join(dir, '.logs');
  mkdirSync(logs, { recursive: true });
  const transcript = join(logs, `${name}.log`);
  writeFileSync(transcript, `synconf agents install --source ${source} --as ${name} (after ${place.after})\n`);
  const how = { '--after': 'as --after says', git: 'its git tags', module: 'the module it is', name: 'its name' };
  log(
    `${name}: a candidate descending from ${place.after} (${how[place.afterFrom]}): built with ${place.after}'s recipe`,
  );
  const record: Candidate = { name, source, ...place, builtAt };
  return installBuild(agent, dir, opts, {
    from: source,
    build: (work, progress) => buildFromSourceTree(name, agent, source, { go, work, log: progress, transcript }),
    extraFiles: { [CANDIDATE_FILE]: JSON.stringify(record, null, 2) + '\n' },
  });
}
