// One Syncthing instance: generate its home, make it loopback-only, start it in monitor mode, wait for its API, stop it.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { runBounded } from '../bounded-exec.js';
import { agentFetch, parseCertificates } from '../agent-https.js';
import { editMismatches, loopbackConfig, loopbackViolations } from './config.js';
import { cliArgsOf, type CliArgs } from './generation.js';
import { LabError, LabFault } from './errors.js';
import { isAlive, ownedProcesses, signalOwned, track, trySignalGroup, untrack, waitGone } from './procs.js';

export interface LabInstance {
  name: string; // "agent", "peer", "peer2", ...
  url: string; // http://127.0.0.1:<guiPort>
  apiKey: string;
  deviceId: string;
  syncAddress: string; // tcp://127.0.0.1:<syncPort>
  pid: number; // the monitor process (`syncthing serve` in monitor mode); also its process group id
  home: string;
  dataDir: string; // empty folder for the instance's shared folders
  logFile: string;
  /** the binary it runs */
  binary: string;
  /** the version the agent reports (GET /rest/system/version), as printed, e.g. v1.12.1-ds1 */
  version: string;
}

export interface InstanceSpec {
  name: string;
  /** the lab folder: home <dir>/<name>, data <dir>/<name>-data, log <dir>/<name>.log */
  dir: string;
  binary: string;
  guiPort: number;
  syncPort: number;
  readyTimeoutMs: number;
  reconnectionIntervalS: number;
  /** the GUI speaks TLS: its URL is https://, its certificate the one Syncthing makes in the home (https-cert.pem) */
  guiTls?: boolean;
}

/** `syncthing generate` into the instance's home: its config.xml and device ID */
async function generateHome(spec: InstanceSpec, home: string, env: NodeJS.ProcessEnv, cli: CliArgs) {
  const generate = cli.generate(home);
  const gen = await runBounded(spec.binary, generate.args, { env: { ...env, ...generate.env }, timeoutMs: 30_000 });
  if (gen.failed)
    throw new LabError(
      `${spec.name}: "${spec.binary} ${generate.args.join(' ')}" failed (${gen.failed})\n${gen.all.slice(0, 2000)}`,
    );
  const configFile = join(home, 'config.xml');
  // a binary that says it generated a home and wrote none is not Syncthing (or a broken one): the user's binary
  const xml = await readFile(configFile, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new LabError(
      `${spec.name}: "${spec.binary} ${generate.args.join(' ')}" wrote no ${configFile} (${e.code ?? e.message}): is it Syncthing?`,
    );
  });
  // a fresh config.xml names one device: the instance itself
  const deviceId = cli.printedDeviceId(gen.stdout) ?? /<device id="([^"]+)"/.exec(xml)?.[1];
  if (!deviceId)
    throw new LabError(`${spec.name}: could not read the device ID from "${spec.binary} generate" or ${configFile}`);
  return { configFile, xml, deviceId };
}

/** the generated config.xml edited to loopback ports and a fresh API key (checked to have taken); the key */
async function writeLoopbackConfig(spec: InstanceSpec, configFile: string, xml: string, deviceId: string) {
  // hex so it can go into a header, a shell line or a URL as is, and never starts with "-" (base64url did one time
  // in 64, and `--api-key -x…` reads as a missing value, as to yargs); written only to config.xml and lab.json
  const apiKey = randomBytes(24).toString('hex');
  const settings = {
    name: spec.name,
    deviceId,
    guiPort: spec.guiPort,
    syncPort: spec.syncPort,
    apiKey,
    reconnectionIntervalS: spec.reconnectionIntervalS,
    guiTls: spec.guiTls,
  };
  const edited = loopbackConfig(xml, settings);
  const missed = editMismatches(edited, settings);
  if (missed.length > 0)
    throw new LabFault(`lab: the config.xml edit did not take for ${spec.name} (${configFile}): ${missed.join('; ')}`);
  await writeFile(configFile, edited);
  return apiKey;
}

/**
 * Starts the instance's process, logging to `logFile`; its pid, and how it exited once it has (for the wait).
 * The log gets an inherited file descriptor, not a pipe through this process: the instance must keep logging after
 * `synconf lab up` exits (Go dies of SIGPIPE writing to a closed stdout). execa pipes `{file}` targets through the
 * parent and its types do not take an arbitrary fd number, so this one spawn uses node:child_process directly.
 * Monitor mode (no --no-restart) so POST /rest/system/restart really restarts; detached = its own process group.
 */
async function spawnInstance(spec: InstanceSpec, home: string, env: NodeJS.ProcessEnv, cli: CliArgs, logFile: string) {
  const logFd = openSync(logFile, 'a');
  let sub;
  try {
    sub = spawn(spec.binary, cli.serve(home), {
      env,
      cwd: home,
      detached: true,
      stdio: ['ignore', logFd, logFd],
    });
  } finally {
    closeSync(logFd); // the child has its own copy
  }
  let exited: string | undefined;
  sub.once('exit', (code, signal) => (exited = signal ? `signal ${signal}` : `exit code ${code}`));
  const spawnError = new Promise<Error>((resolve) => sub.once('error', resolve));
  const pid = sub.pid;
  if (pid === undefined)
    throw new LabError(`${spec.name}: could not start ${spec.binary} (${(await spawnError).message})`);
  sub.unref(); // the instance must not keep the caller alive; the exit handlers or `down` stop it
  return { pid, exited: () => exited };
}

/** Starts one instance and resolves once its API answers (any HTTP status). On failure nothing is left running. */
export async function startInstance(spec: InstanceSpec): Promise<LabInstance> {
  const home = join(spec.dir, spec.name);
  const dataDir = join(spec.dir, `${spec.name}-data`);
  const logFile = join(spec.dir, `${spec.name}.log`);
  await mkdir(dataDir, { recursive: true });
  const env = cleanEnv(home);
  const cli = await cliArgsOf(spec.binary);
  const { configFile, xml, deviceId } = await generateHome(spec, home, env, cli);
  const apiKey = await writeLoopbackConfig(spec, configFile, xml, deviceId);
  const { pid, exited } = await spawnInstance(spec, home, env, cli, logFile);

  const inst: LabInstance = {
    name: spec.name,
    url: `${spec.guiTls ? 'https' : 'http'}://127.0.0.1:${spec.guiPort}`,
    apiKey,
    deviceId,
    syncAddress: `tcp://127.0.0.1:${spec.syncPort}`,
    pid,
    home,
    dataDir,
    logFile,
    binary: spec.binary,
    version: '',
  };
  track(inst); // until ready at least: a Ctrl-C during start-up must not leave it behind
  try {
    await waitReady(inst, spec.readyTimeoutMs, exited);
    inst.version = await checkRunning(inst, spec);
    await clearStartUpErrors(inst);
  } catch (err) {
    // Our child not yet exited holds its pid, so the process group it leads is ours: killed whole, even when what
    // runs there no longer carries --home (a binary that exec'd another program was left running)
    if (!exited()) trySignalGroup(pid, 'SIGKILL');
    signalOwned(inst, 'SIGKILL');
    await waitGone(inst, 2000);
    untrack(pid);
    throw err;
  }
  return inst;
}

/** A clean environment: no ST* variables (they would change longVersion and tags), UTC for stable times. */
function cleanEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH || '/usr/local/bin:/usr/bin:/bin', HOME: home, TZ: 'UTC' };
}

/**
 * One request of the lab to its instance. A GUI with TLS is asked trusting only the certificate Syncthing made in
 * the instance's home (pinned); until that file is written the instance is not ready (the request fails).
 */
async function ask(
  inst: Pick<LabInstance, 'url' | 'apiKey' | 'home'>,
  path: string,
  timeoutMs: number,
  method = 'GET',
) {
  const url = new URL(path, inst.url);
  const trust =
    url.protocol === 'https:'
      ? parseCertificates(await readFile(join(inst.home, 'https-cert.pem'), 'utf8'))
      : undefined;
  return agentFetch(url, { method, headers: { 'X-API-Key': inst.apiKey }, timeoutMs, trust });
}

/**
 * Resolves once the API answers GET /rest/system/ping with any HTTP response: ready means the API
 * is served, not that it answers right (a broken ping is the ping scenario's finding, not a lab fault).
 */
export async function waitReady(
  inst: Pick<LabInstance, 'name' | 'url' | 'apiKey' | 'logFile' | 'home'>,
  timeoutMs: number,
  exited: () => string | undefined = () => undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    const how = exited();
    if (how) {
      throw new LabError(
        `${inst.name}: syncthing exited (${how}) before its API at ${inst.url} answered.\n${await logTail(inst.logFile)}`,
      );
    }
    const left = deadline - Date.now();
    if (left <= 0) break;
    try {
      await ask(inst, '/rest/system/ping', Math.min(1000, left)); // any answer, a broken body's too
      return;
    } catch (err) {
      last = describeFetchError(err);
    }
    await sleep(50);
  }
  throw new LabError(
    `${inst.name}: the API at ${inst.url} did not answer within ${timeoutMs} ms (GET /rest/system/ping; last: ${last}); ` +
      `the process was killed.\n${await logTail(inst.logFile)}`,
  );
}

/** Checks through the REST config API that the loopback settings are in force; returns the agent's version. */
async function checkRunning(inst: LabInstance, spec: InstanceSpec): Promise<string> {
  const get = async (path: string, orAt?: string): Promise<Record<string, unknown>> => {
    const res = await ask(inst, path, 5000);
    if (res.status === 404 && orAt) return get(orAt);
    if (res.status !== 200)
      throw new LabError(`${inst.name}: GET ${inst.url}${path} answered ${res.status} right after start`);
    return JSON.parse(res.body) as Record<string, unknown>;
  };
  // GET /rest/config came in 1.12.0: an older agent answers the same document at /rest/system/config only
  const [config, version] = await Promise.all([
    get('/rest/config', '/rest/system/config'),
    get('/rest/system/version'),
  ]);
  const wrong = loopbackViolations(config, spec);
  if (wrong.length > 0) {
    throw new LabError(
      `${inst.name}: ${spec.binary} did not take the loopback-only settings of its config.xml (${wrong.join('; ')}); the process was killed`,
    );
  }
  return String(version.version);
}

/**
 * Empties the agent's list of recent errors once it answers: 1.x lists a start-up warning there when it runs as root
 * (as in CI), 2.x only logs it. A fresh lab then starts with no recent errors whoever runs it, so that what a
 * scenario reads there does not depend on the user, nor on whether an earlier scenario of the run cleared it.
 */
async function clearStartUpErrors(inst: LabInstance): Promise<void> {
  const res = await ask(inst, '/rest/system/error/clear', 5000, 'POST');
  if (res.status !== 200)
    throw new LabError(
      `${inst.name}: POST ${inst.url}/rest/system/error/clear answered ${res.status} right after start`,
    );
}

function describeFetchError(err: unknown): string {
  if ((err as NodeJS.ErrnoException).code) return (err as NodeJS.ErrnoException).code!;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}

async function logTail(logFile: string, lines = 15): Promise<string> {
  const text = await readFile(logFile, 'utf8').catch(() => '');
  const tail = text.trimEnd().split('\n').slice(-lines).join('\n');
  return tail ? `Last lines of ${logFile}:\n${tail}` : `${logFile} is empty.`;
}

/**
 * Stops an instance by PID, politely first: POST /rest/system/shutdown, then SIGTERM to its process group,
 * then SIGKILL, each with a bounded wait. Resolves only when none of its processes runs any more.
 */
export async function stopInstance(inst: Pick<LabInstance, 'name' | 'url' | 'apiKey' | 'pid' | 'home'>): Promise<void> {
  try {
    if (ownedProcesses(inst).length === 0) return;
    if (isAlive(inst.pid)) {
      try {
        await ask(inst, '/rest/system/shutdown', 1000, 'POST');
      } catch {
        // not answering (restarting, hung): the signals below take over
      }
      if (await waitGone(inst, 3000)) return;
    }
    signalOwned(inst, 'SIGTERM');
    if (await waitGone(inst, 3000)) return;
    signalOwned(inst, 'SIGKILL');
    if (await waitGone(inst, 2000)) return;
    const left = ownedProcesses(inst).map((p) => p.pid);
    throw new LabError(
      `${inst.name}: processes ${left.join(', ')} still run after SIGKILL; check them with: ps -p ${left.join(',')}`,
    );
  } finally {
    untrack(inst.pid);
  }
}
