// The lab: N real Syncthing instances on loopback, started from nothing and stopped by PID.
//
// Layout of a lab folder D: D/lab.json (state: PIDs, URLs, API keys), and per instance D/<name>/ (home),
// D/<name>-data/ (for its folders) and D/<name>.log.
// Cleanup policy: a lab folder the lab created itself (a temp dir `synconf-lab-*`) is removed by `down`. A folder the
// user gave (--dir) is never removed: `down` only stops the processes and keeps homes, data and logs for inspection.
// A later `up` in the same folder replaces the files of the previous, stopped lab listed in its lab.json, and
// refuses to touch anything else that is in the way. A failed `up` there removes the homes and data folders it made
// and keeps the logs.
import { existsSync } from 'node:fs';
import { access, constants, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, delimiter, join, resolve } from 'node:path';
import { agentsDir, installedAgents, isVersionSpec, resolveSyncthing, versionHint } from '../agents/index.js';
import { makeOutputDir, tempDirFullProblem, tempDirWriteError } from '../output-dir.js';
import { LabError } from './errors.js';
import { startInstance, stopInstance, type LabInstance } from './instance.js';
import { detachPorts, freePorts, releasePorts } from './ports.js';
import { parseJson, readTextFile, TextFileError } from '../text-file.js';
import { kindProblem } from '../schema/file-kind.js';
import { formatError, validate } from '../schema/registry.js';
import { ownedProcesses, removeOnExit, untrack } from './procs.js';
import { claimLabDir, detachLabDir, TEMP_PREFIX } from './reaper.js';

export { reapOrphanedLabs } from './reaper.js';

export { LabError, LabFault } from './errors.js';
export { startInstance, stopInstance, type InstanceSpec, type LabInstance } from './instance.js';

export interface Lab {
  dir: string;
  instances: LabInstance[];
  /** true when the lab created dir (a temp dir) and `down` removes it */
  ownsDir: boolean;
  /** Stops every instance (idempotent) and removes dir if the lab owns it. */
  down(): Promise<void>;
}

export interface LabOptions {
  /** how many instances, default 1 */
  instances?: number;
  /** lab folder; default a new temp dir `synconf-lab-*` that `down` removes */
  dir?: string;
  /**
   * the syncthing binary: a VERSION installed in the agents cache (`synconf agents install`) or a PATH;
   * default $SYNCONF_SYNCTHING (the same two forms), else `syncthing` on PATH, else the newest installed agent
   */
  binary?: string;
  /** bound for each instance's API to answer at all (any HTTP status), default 20000 */
  readyTimeoutMs?: number;
  /** options.reconnectionIntervalS, default 5 so pending devices reappear fast (Syncthing clamps below 5) */
  reconnectionIntervalS?: number;
  /** the GUIs speak TLS (https://), each with the certificate Syncthing makes in its home (https-cert.pem) */
  guiTls?: boolean;
  /** instance names, default agent, peer, peer2, ... */
  names?: string[];
  /**
   * Leave the instances running when this process exits (the `synconf lab up` command). By default they are
   * SIGKILLed on exit, SIGINT, SIGTERM and SIGHUP, so a failing test or Ctrl-C never leaves Syncthing running.
   */
  detach?: boolean;
}

export interface LabState {
  dir: string;
  ownsDir: boolean;
  startedAt: string;
  instances: LabInstance[];
}

const STATE_FILE = 'lab.json';
const INSTALL_HINT =
  'Install the known versions with `synconf agents install` (or `npm run setup`) and pick one with --syncthing VERSION, ' +
  "or install Debian's with `apt-get install -y syncthing`, or set SYNCONF_SYNCTHING=VERSION|/path/to/syncthing.";

/** The binary: explicit VERSION|PATH, else $SYNCONF_SYNCTHING, else `syncthing` on PATH, else the newest installed agent. */
export async function resolveBinary(explicit?: string): Promise<string> {
  const chosen = explicit ?? process.env.SYNCONF_SYNCTHING;
  if (chosen) {
    try {
      return resolveSyncthing(chosen);
    } catch (err) {
      const from = explicit ? '--syncthing' : 'SYNCONF_SYNCTHING';
      throw new LabError(
        // a version (or one close to a version) has its own hint: how to install it, or the version meant
        `${(err as Error).message} (from ${from}). ${isVersionSpec(chosen) || versionHint(chosen) ? '' : INSTALL_HINT}`.trimEnd(),
      );
    }
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && (await isExecutable(join(dir, 'syncthing')))) return join(dir, 'syncthing');
  }
  const newest = installedAgents().at(-1);
  if (newest) return newest.path;
  throw new LabError(
    `syncthing binary not found: no --syncthing, SYNCONF_SYNCTHING is not set, there is no \`syncthing\` on PATH and no agent in ${agentsDir()}. ${INSTALL_HINT}`,
  );
}

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

export function instanceNames(n: number, names: string[] = []): string[] {
  const out = Array.from({ length: n }, (_, i) => names[i] ?? (i === 0 ? 'agent' : i === 1 ? 'peer' : `peer${i}`));
  for (const name of out) {
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name))
      throw new LabError(`instance name "${name}" must be letters, digits, - and _ (it names folders)`);
  }
  if (new Set(out).size !== out.length) throw new LabError(`instance names must be distinct: ${out.join(', ')}`);
  return out;
}

/**
 * A lab folder of ours in the temporary folder. It holds API keys and private keys: removed however this process ends
 * (its exit handler), and named for the next run to reap (owner.json) if it is killed before any handler runs. A
 * temporary folder with no room left is the user's (one line naming TMPDIR), not a fault of the lab.
 */
async function ownLabDir(detach: boolean | undefined): Promise<string> {
  let dir: string | undefined;
  try {
    dir = await mkdtemp(join(tmpdir(), TEMP_PREFIX));
    claimLabDir(dir, false);
  } catch (e) {
    if (dir) await rm(dir, { recursive: true, force: true });
    throw tempDirWriteError(e, dir ? `the lab folder ${dir}` : 'a lab folder');
  }
  if (!detach) removeOnExit(dir);
  return dir;
}

/**
 * What a start that failed throws, once what it made is removed. In our temporary folder, a file system found full
 * when the start failed is the user's TMPDIR (one line, exit 2), whatever the agent managed to say about it.
 */
async function failedStart(dir: string, ownsDir: boolean, names: string[], failures: unknown[]): Promise<unknown> {
  const said = failures.map((e) => (e instanceof Error ? e.message : String(e))).join('\n\n');
  const full = ownsDir ? tempDirFullProblem(dir, said) : undefined;
  if (ownsDir) await removeOwnedDir(dir);
  // in a user's folder: remove the homes and data folders this call made (so a retry is not blocked), keep the logs
  else {
    for (const name of names) {
      await rm(join(dir, name), { recursive: true, force: true });
      await rm(join(dir, `${name}-data`), { recursive: true, force: true });
    }
  }
  if (full) return full;
  return failures.length === 1 ? failures[0] : new LabError(said);
}

export async function startLab(opts: LabOptions = {}): Promise<Lab> {
  const n = opts.instances ?? 1;
  if (!Number.isInteger(n) || n < 1) throw new LabError(`instances must be a whole number ≥ 1, got ${n}`);
  const names = instanceNames(n, opts.names);
  const binary = await resolveBinary(opts.binary);
  const ownsDir = opts.dir === undefined;
  const dir = ownsDir ? await ownLabDir(opts.detach) : resolve(opts.dir!);
  if (!ownsDir) await prepareUserDir(dir, names);

  const ports = await freePorts(2 * n, dir);
  // in parallel: each start spends ~1.5 s in Syncthing's hash benchmarks
  const results = await Promise.allSettled(
    names.map((name, i) =>
      startInstance({
        name,
        dir,
        binary,
        guiPort: ports[2 * i],
        syncPort: ports[2 * i + 1],
        readyTimeoutMs: opts.readyTimeoutMs ?? 20_000,
        reconnectionIntervalS: opts.reconnectionIntervalS ?? 5,
        guiTls: opts.guiTls,
      }),
    ),
  );
  const instances = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  if (failures.length > 0) {
    await Promise.allSettled(instances.map((i) => stopInstance(i)));
    releasePorts(ports);
    throw await failedStart(dir, ownsDir, names, failures);
  }

  const state: LabState = { dir, ownsDir, startedAt: new Date().toISOString(), instances };
  await writeFile(join(dir, STATE_FILE), JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
  if (opts.detach) {
    for (const i of instances) untrack(i.pid);
    if (ownsDir) detachLabDir(dir);
    detachPorts(ports);
  }

  let stopping: Promise<void> | undefined;
  return { dir, instances, ownsDir, down: () => (stopping ??= stopAll(state)) };
}

/** Stops the lab described by <dir>/lab.json (possibly started by another process). */
export async function stopLab(dir: string): Promise<void> {
  const state = await readState(resolve(dir));
  if (!state) throw new LabError(`no lab in ${dir}: ${join(dir, STATE_FILE)} does not exist`);
  await stopAll(state);
}

export async function readState(dir: string): Promise<LabState | undefined> {
  const file = join(dir, STATE_FILE);
  if (!existsSync(file)) return undefined;
  // recognised before a process is signalled: an edited or foreign lab.json is one line, never "Stopped ." (exit 0)
  let doc: unknown;
  try {
    doc = parseJson(readTextFile(file, file), file);
  } catch (err) {
    if (!(err instanceof TextFileError)) throw err;
    throw new LabError(`${err.message}: not a lab state file (synconf lab up writes one)`);
  }
  const problem = kindProblem(doc, 'lab-state') ?? validate('lab-state', doc).map(formatError)[0];
  if (problem) throw new LabError(`${file}: not a lab state file (synconf lab up writes one): ${problem}`);
  return doc as LabState;
}

async function stopAll(state: LabState): Promise<void> {
  const results = await Promise.allSettled(state.instances.map((i) => stopInstance(i)));
  const failed = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
  if (failed.length > 0) throw new LabError(failed.join('; '));
  releasePorts(state.instances.flatMap(portsOf), state.dir);
  if (state.ownsDir) await removeOwnedDir(state.dir);
}

/** the GUI and sync ports of an instance, read from its addresses */
const portsOf = (i: Pick<LabInstance, 'url' | 'syncAddress'>) =>
  [i.url, i.syncAddress].map((a) => Number(/:(\d+)\/?$/.exec(a)?.[1])).filter(Number.isInteger);

/** Removes a lab-created temp dir; the name check guards against an edited lab.json pointing elsewhere. */
async function removeOwnedDir(dir: string): Promise<void> {
  if (!basename(dir).startsWith(TEMP_PREFIX))
    throw new LabError(`refusing to remove ${dir}: not a ${TEMP_PREFIX}* folder made by the lab`);
  await rm(dir, { recursive: true, force: true });
}

/** A user-given folder: replace a previous stopped lab's files, refuse a running lab or foreign files in the way. */
async function prepareUserDir(dir: string, names: string[]): Promise<void> {
  makeOutputDir(dir, '--dir');
  const previous = await readState(dir);
  if (previous) {
    const running = previous.instances.filter((i) => ownedProcesses(i).length > 0);
    if (running.length > 0) {
      throw new LabError(
        `a lab is already running in ${dir} (${running.map((i) => `${i.name} pid ${i.pid}`).join(', ')}); stop it first: synconf lab down --dir ${dir}`,
      );
    }
    for (const i of previous.instances) {
      for (const path of [i.home, i.dataDir, i.logFile])
        if (path.startsWith(dir + '/')) await rm(path, { recursive: true, force: true });
    }
    await rm(join(dir, STATE_FILE), { force: true });
  }
  for (const name of names) {
    // a stray <name>.log is simply appended to; a home or data folder in the way is not ours to replace
    for (const path of [join(dir, name), join(dir, `${name}-data`)]) {
      if (existsSync(path))
        throw new LabError(`${path} already exists and is not from a previous lab; use an empty --dir or remove it`);
    }
  }
}
