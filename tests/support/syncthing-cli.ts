// The real `syncthing cli` as a client of the REST API: the subcommands the tests drive it with (each asks the agent
// one or two endpoints: version, status, configuration, errors, connections, usage report, pending records).
import { spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

/** a synconf process that listens for clients (serve, proxy): where, with which key, and what it printed */
export interface Listening {
  child: ChildProcess;
  url: string;
  host: string;
  port: number;
  key: string;
  stdout: () => string;
  stderr: () => string;
}

/** the subcommands the client tests run, in order */
export const CLI_COMMANDS = [
  ['show', 'version'],
  ['show', 'system'],
  ['config', 'folders', 'list'],
  ['errors', 'show'],
  ['show', 'connections'],
  ['show', 'usage'],
  ['show', 'pending', 'devices'],
  ['show', 'pending', 'folders'],
  ['config', 'devices', 'list'],
];

/** `syncthing cli` of `binary` against host:port with `key` */
export function syncthingCli(binary: string, at: Pick<Listening, 'host' | 'port'>, key: string, ...command: string[]) {
  return spawnSync(binary, ['cli', `--gui-address=${at.host}:${at.port}`, `--gui-apikey=${key}`, ...command], {
    encoding: 'utf8',
    timeout: 30_000,
  });
}

/** where a listening synconf is, from the URL and key lines it printed once it printed `ready` too; else undefined */
export function listeningFrom(
  child: ChildProcess,
  stdout: () => string,
  stderr: () => string,
  ready: RegExp,
): Listening | undefined {
  const out = stdout();
  const url = /^URL\s+(\S+)$/m.exec(out)?.[1];
  const key = /^API key\s+(\S+)$/m.exec(out)?.[1];
  if (!url || !key || !ready.test(out)) return undefined;
  const u = new URL(url);
  return { child, url, host: u.hostname, port: Number(u.port), key, stdout, stderr };
}
