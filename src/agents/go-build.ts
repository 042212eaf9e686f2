// Building a Syncthing release Debian lacks from the Go module proxy, as the project's own build script does:
// `go mod download -json` of the release's module version (checked to be its commit: the version it names, the
// go.sum hash pinned in known.ts, the proxy's Origin.Hash when it gives one), a writable copy of the module folder
// built as the main module (its go.mod has replace lines, which `go install pkg@version` refuses), with
// `-trimpath` and the build tags of the release's recipe (data/releases.json: noassets, as the GUI assets are
// generated and not in the module, every /rest/ route unaffected; before 1.15.0 Syncthing's own go:generate writes
// them instead; noquic where an old quic-go cannot run under today's Go), cgo on (the official Linux builds use
// the cgo SQLite driver), and the version stamped by ldflags.
// Go's module and build caches stay where Go keeps them; only the binary goes into the agents cache.
import { existsSync } from 'node:fs';
import { appendFile, chmod, cp, readdir, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { InputError } from '../errors.js';
import { SYNCTHING_MODULE, type GoModuleSource } from './known.js';

/** where synconf looks for Go when it is not on PATH: the official tarball's place */
export const GO_FALLBACK = '/usr/local/go/bin/go';

/** where synconf looked for Go, for the message that it found none */
export function goSearched(): string {
  return process.env.SYNCONF_GO
    ? `no Go at ${process.env.SYNCONF_GO} (SYNCONF_GO)`
    : `no \`go\` on PATH nor at ${GO_FALLBACK}`;
}

/** the `go` command: $SYNCONF_GO, else on PATH, else /usr/local/go/bin/go; undefined when none is there */
export function findGo(path = process.env.PATH ?? '', fallback = GO_FALLBACK): string | undefined {
  const explicit = process.env.SYNCONF_GO;
  if (explicit) return existsSync(explicit) ? explicit : undefined;
  for (const dir of path.split(delimiter)) {
    if (dir && existsSync(join(dir, 'go'))) return join(dir, 'go');
  }
  return existsSync(fallback) ? fallback : undefined;
}

/** A step of a build that failed: the message is one line, starting with the version. */
export class GoBuildError extends InputError {
  override name = 'GoBuildError';
}

/** What `go mod download -json` says of the module it got. */
interface ModuleInfo {
  Path?: string;
  Version?: string;
  Dir?: string;
  Sum?: string;
  Error?: string;
  Origin?: { VCS?: string; URL?: string; Hash?: string };
}

export interface GoBuildSteps {
  go: string;
  /** the build's folder (inside the agents cache): the module copy goes to src/, the binary to syncthing */
  work: string;
  log: (line: string) => void;
  /** a file every go command and its whole output is appended to, named in a failure's message */
  transcript?: string;
}

/** A tool's output as one line: its meaningful lines (not go's "downloading" chatter), at most 3, at most 400 chars. */
export function oneLine(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^go: (downloading|finding|extracting) /.test(l));
  const text = lines.slice(0, 3).join('; ') || 'no output';
  return text.length > 400 ? text.slice(0, 399) + '…' : text;
}

/**
 * the environment of every go command: the user's, with the syncthing module out of the sum DB where the table pins
 * its hash (or sum.golang.org cannot know it: a 2.x pseudo-version, 404); an unpinned 1.x tag is checked by the DB
 */
function goEnv(src: GoModuleSource): Record<string, string> {
  const nosum = process.env.GONOSUMDB;
  const skipSumDb = src.moduleSum !== null || src.moduleVersion !== src.tag;
  return {
    ...(skipSumDb ? { GONOSUMDB: nosum ? `${nosum},${SYNCTHING_MODULE}` : SYNCTHING_MODULE } : {}),
    CGO_ENABLED: '1',
    GOWORK: 'off', // a go.work above the agents cache must not take part
    GOFLAGS: [process.env.GOFLAGS, '-buildvcs=false'].filter(Boolean).join(' '), // the module copy is no repository
  };
}

/** one go command; go reads GOFLAGS before anything else, so a flag it refuses fails every command whatever it was
 * asked: said as the environment's fault, not blamed on the module proxy or the build */
async function go(s: GoBuildSteps, src: GoModuleSource, args: string[], cwd: string, timeout: number) {
  const res = await execa(s.go, args, { cwd, env: goEnv(src), reject: false, all: true, timeout });
  if (s.transcript) await appendFile(s.transcript, `$ go ${args.join(' ')}\n${res.all ?? ''}\n`);
  const refused = res.failed ? /parsing \$GOFLAGS: ([^\n]*)/.exec(res.all ?? '') : null;
  if (refused)
    throw new GoBuildError(
      `GOFLAGS "${process.env.GOFLAGS ?? ''}": go refuses it (${refused[1].trim()}); fix or unset GOFLAGS`,
    );
  return res;
}

/** " (whole log: FILE)" when the build keeps a transcript */
const logNote = (s: GoBuildSteps) => (s.transcript ? ` (whole log: ${s.transcript})` : '');

/** `-tags a,b` of the recipe, or nothing */
const tagArgs = (src: GoModuleSource) => (src.buildTags.length > 0 ? ['-tags', src.buildTags.join(',')] : []);

/** the release's module: downloaded, checked to be the table's commit; its folder in Go's module cache */
async function downloadModule(version: string, src: GoModuleSource, s: GoBuildSteps): Promise<string> {
  const spec = `${SYNCTHING_MODULE}@${src.moduleVersion}`;
  const res = await go(s, src, ['mod', 'download', '-json', spec], s.work, 600_000);
  let info: ModuleInfo = {};
  try {
    info = JSON.parse(res.stdout) as ModuleInfo;
  } catch {
    // no JSON: the error is in the output
  }
  const output = info.Error ?? res.all ?? '';
  // go asks the checksum database (through GOPROXY) before it takes an unpinned tag: a 404 there is not the proxy's
  const unknownToSumDb = /verifying [^:]*: .*?reading (\S*sum\S*): 404 Not Found/.exec(output);
  if (unknownToSumDb)
    throw new GoBuildError(
      `${version}: the Go checksum database does not know ${spec} (404 at ${unknownToSumDb[1]}), so go refuses its download though the proxy serves it; GONOSUMDB=${SYNCTHING_MODULE} installs it unverified`,
    );
  if (res.failed || info.Error || !info.Dir) {
    throw new GoBuildError(
      `${version}: the Go module proxy (${process.env.GOPROXY || 'GOPROXY default'}) did not give ${spec}: ${oneLine(info.Error ?? res.all ?? '')}`,
    );
  }
  const wrong: string[] = [];
  if (info.Version !== src.moduleVersion) wrong.push(`version ${info.Version}, not ${src.moduleVersion}`);
  if (src.moduleSum !== null && info.Sum !== src.moduleSum) wrong.push(`go.sum hash ${info.Sum}, not ${src.moduleSum}`);
  if (info.Origin?.Hash && info.Origin.Hash !== src.commit)
    wrong.push(`the proxy's origin commit ${info.Origin.Hash}, not ${src.commit}`);
  const named = /-([0-9a-f]{12})$/.exec(info.Version ?? '')?.[1];
  if (named && !src.commit.startsWith(named)) wrong.push(`a pseudo-version of commit ${named}, not ${src.commit}`);
  if (wrong.length > 0)
    throw new GoBuildError(`${version}: the module the proxy gave for ${spec} is not ${src.tag}: ${wrong.join('; ')}`);
  if (src.moduleSum === null)
    s.log(
      `${version}: the release table pins no hash: the proxy gave ${info.Sum || 'no hash'}` +
        (src.moduleVersion === src.tag ? ' (checked by the Go checksum database)' : `, commit ${named ?? '?'}`),
    );
  return info.Dir;
}

/** every file and folder under dir made writable by its owner (Go's module cache is read-only) */
async function makeWritable(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { recursive: true })) {
    const path = join(dir, entry);
    const { mode } = await stat(path);
    await chmod(path, mode | 0o200);
  }
  await chmod(dir, (await stat(dir)).mode | 0o200);
}

/**
 * the source (the module, or a user's tree without its .git: never written to) copied into work/src, its go.mod
 * edited as the table says, and its dependencies downloaded
 */
async function prepareSource(version: string, src: GoModuleSource, sourceDir: string, s: GoBuildSteps) {
  const dir = join(s.work, 'src');
  await cp(sourceDir, dir, { recursive: true, filter: (from) => from !== join(sourceDir, '.git') });
  await makeWritable(dir);
  const run = async (what: string, args: string[]) => {
    const res = await go(s, src, args, dir, 600_000);
    if (res.failed) throw new GoBuildError(`${version}: ${what} failed: ${oneLine(res.all ?? '')}${logNote(s)}`);
  };
  for (const edit of src.goModEdits) {
    await run(`go mod edit -dropreplace=${edit.dropReplace}`, ['mod', 'edit', `-dropreplace=${edit.dropReplace}`]);
    const path = edit.dropReplace.replace(/@.*$/, '');
    await run(`go mod download ${path} (after dropping its replace)`, ['mod', 'download', path]);
  }
  await run('downloading its dependencies (go list -deps)', ['list', '-deps', ...tagArgs(src), './cmd/syncthing']);
  // before 1.15.0 there is no noassets tag: Syncthing's own go:generate directive writes lib/api/auto's assets
  if (src.generateAssets)
    await run('generating the GUI assets (go generate ./lib/api/auto)', ['generate', './lib/api/auto']);
  return dir;
}

const BUILD_PKG = 'github.com/syncthing/syncthing/lib/build';

/** `go build` of cmd/syncthing with the release stamped as Syncthing's build.go stamps it; the binary's path */
async function compile(version: string, src: GoModuleSource, dir: string, s: GoBuildSteps): Promise<string> {
  const out = join(s.work, 'syncthing');
  const stamp = Math.round(Date.parse(src.commitTime) / 1000);
  // User and Host are synconf's, not this machine's: they show in /rest/system/version and in recordings
  const ldflags = [
    '-w',
    '-buildid=',
    `-X ${BUILD_PKG}.Version=${src.tag}`,
    `-X ${BUILD_PKG}.Stamp=${stamp}`,
    `-X ${BUILD_PKG}.User=synconf`,
    `-X ${BUILD_PKG}.Host=synconf`,
  ].join(' ');
  const args = ['build', '-trimpath', ...tagArgs(src), '-o', out, '-ldflags', ldflags, './cmd/syncthing'];
  const res = await go(s, src, args, dir, 1_800_000);
  if (res.failed) throw new GoBuildError(`${version}: go build failed: ${oneLine(res.all ?? '')}${logNote(s)}`);
  return out;
}

/** the Go toolchain's own version (go1.26.8), for the progress line */
export async function goVersion(goBin: string): Promise<string> {
  const res = await execa(goBin, ['env', 'GOVERSION'], { reject: false, timeout: 30_000 });
  return res.failed ? 'go (version unknown)' : res.stdout.trim();
}

export interface BuiltBinary {
  /** the binary, in work */
  path: string;
  /** seconds spent downloading (module and dependencies) and compiling */
  downloadS: number;
  compileS: number;
}

/** Downloads, checks and compiles a release into s.work; progress one line per step. Throws a GoBuildError. */
export async function buildFromModuleProxy(
  version: string,
  src: GoModuleSource,
  s: GoBuildSteps,
): Promise<BuiltBinary> {
  const t0 = performance.now();
  s.log(
    `${version}: download ${SYNCTHING_MODULE}@${src.moduleVersion} (${src.tag}, commit ${src.commit.slice(0, 12)}) and its dependencies from the Go module proxy`,
  );
  const moduleDir = await downloadModule(version, src, s);
  return prepareAndCompile(version, src, moduleDir, s, t0);
}

/**
 * Builds a Syncthing source tree (a release candidate) into s.work with the recipe and stamps of src (its tag the
 * candidate's name); progress one line per step, each go command in s.transcript. Throws a GoBuildError.
 */
export async function buildFromSourceTree(
  name: string,
  src: GoModuleSource,
  sourceDir: string,
  s: GoBuildSteps,
): Promise<BuiltBinary> {
  const t0 = performance.now();
  s.log(`${name}: copy ${sourceDir} and download its dependencies from the Go module proxy`);
  return prepareAndCompile(name, src, sourceDir, s, t0);
}

async function prepareAndCompile(
  version: string,
  src: GoModuleSource,
  sourceDir: string,
  s: GoBuildSteps,
  t0: number,
): Promise<BuiltBinary> {
  const dir = await prepareSource(version, src, sourceDir, s);
  const t1 = performance.now();
  const how = ['cgo', ...(src.generateAssets ? ['assets generated'] : []), ...tagArgs(src)]
    .join(', ')
    .replace('-tags, ', '-tags ');
  s.log(`${version}: compile ./cmd/syncthing with ${await goVersion(s.go)} (${how}; takes minutes)`);
  const path = await compile(version, src, dir, s);
  const t2 = performance.now();
  return { path, downloadS: (t1 - t0) / 1000, compileS: (t2 - t1) / 1000 };
}
