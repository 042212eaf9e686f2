// Free loopback ports. 8384/22000 may be taken on a shared machine, so every instance gets ports the OS hands out.
//
// Syncthing binds its sync port with SO_REUSEPORT, so two instances given the same port both start and the kernel
// shares the connections between them: a dial of one reaches the other ("unexpected device id"), and a peer of one
// lab is recorded as a pending device of another lab's agent. The OS only keeps a port from being handed out twice
// while something listens on it, not in the second between our pick and Syncthing's bind, nor while an instance
// restarts. So every port a lab gets is reserved, across synconf processes (parallel shards, a matrix's labs), by a
// file in the temporary folder named for the port, until the lab stops.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabError } from './errors.js';
import { processStart } from './reaper.js';
import { tempDirWriteError } from '../output-dir.js';

interface Reservation {
  pid: number;
  /** the owner's process start, so a reused pid is not taken for the owner */
  started: string | null;
  /** the lab folder the port is for ('' for a port not given to a lab) */
  dir: string;
  /** a lab of `synconf lab up` outlives its process: its ports stay reserved while its folder exists */
  detached: boolean;
}

/** how many listeners a call may open before it gives up finding ports no one has reserved */
const MAX_TRIES_PER_PORT = 50;
/** the reservations this process made, by port */
const mine = new Map<number, Reservation>();

const registry = () => join(tmpdir(), 'synconf-ports');
const fileOf = (port: number) => join(registry(), String(port));

function readReservation(file: string): Reservation | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Reservation;
  } catch {
    return undefined; // vanished meanwhile, or half written by a process that died: not a reservation
  }
}

/** a reservation still stands while its owner runs, or, for a detached lab, while the lab's folder exists */
const stands = (r: Reservation) =>
  (r.started !== null && processStart(r.pid) === r.started) || (r.detached && r.dir !== '' && existsSync(r.dir));

/** a file empty or unreadable this long was left half written by a process that died, not one writing it now */
const HALF_WRITTEN_MS = 10_000;

/** whether the reservation in `file` no longer stands (its owner gone, or it was never written whole) */
function isStale(file: string): boolean {
  const held = readReservation(file);
  if (held) return !stands(held);
  try {
    return Date.now() - statSync(file).mtimeMs > HALF_WRITTEN_MS;
  } catch {
    return false; // gone meanwhile: nothing to remove
  }
}

/** the registries swept by this process (one per temporary folder it used) */
const swept = new Set<string>();
/** once a process: the reservations of processes that died (SIGKILL runs no exit handler) are removed */
function sweepStale(): void {
  if (swept.has(registry())) return;
  swept.add(registry());
  for (const name of readdirSync(registry()))
    if (/^\d+$/.test(name) && isStale(fileOf(Number(name)))) rmSync(fileOf(Number(name)), { force: true });
}

function write(file: string, r: Reservation, flag: 'wx' | 'w'): void {
  const fd = openSync(file, flag, 0o600);
  try {
    writeSync(fd, JSON.stringify(r) + '\n');
  } catch (e) {
    rmSync(file, { force: true }); // a reservation half written is none
    throw tempDirWriteError(e, `the port reservation ${file}`);
  } finally {
    closeSync(fd);
  }
}

function openRegistry(): void {
  try {
    mkdirSync(registry(), { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new LabError(`cannot reserve loopback ports in ${registry()}: ${(err as Error).message}`);
  }
}

/**
 * Reserves a port for this process, false when another reservation stands. A stale one (its owner gone) is
 * replaced; two processes replacing the same stale file at once is the one race left, and needs the OS to hand both
 * the very port a dead synconf held.
 */
export function reservePort(port: number, dir = ''): boolean {
  openRegistry();
  sweepStale();
  const r: Reservation = { pid: process.pid, started: processStart(process.pid), dir, detached: false };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      write(fileOf(port), r, 'wx');
      if (mine.size === 0) process.on('exit', releaseAll);
      mine.set(port, r);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (!isStale(fileOf(port))) return false;
      rmSync(fileOf(port), { force: true });
    }
  }
  return false;
}

/** n distinct free TCP ports on 127.0.0.1, each reserved for the lab in `dir` until `releasePorts` */
export async function freePorts(n: number, dir = ''): Promise<number[]> {
  const servers: Server[] = [];
  const picked: number[] = [];
  try {
    // every listener is held open until all ports are picked, so the OS cannot hand the same port out twice
    for (let tries = 0; picked.length < n && tries < n * MAX_TRIES_PER_PORT; tries++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      const port = (server.address() as AddressInfo).port;
      if (reservePort(port, dir)) picked.push(port);
    }
    if (picked.length < n) {
      releasePorts(picked);
      throw new LabError(`found ${picked.length} of ${n} free loopback ports no other lab has reserved`);
    }
    return picked;
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

/** a lab that outlives this process (`synconf lab up`): its ports stay reserved while its folder exists */
export function detachPorts(ports: number[]): void {
  for (const port of ports) {
    const r = mine.get(port);
    if (!r) continue;
    write(fileOf(port), { ...r, detached: true }, 'w');
    mine.delete(port);
  }
}

/** gives up the reservations of a stopped lab's ports (those of this process, or of the lab in `dir`) */
export function releasePorts(ports: number[], dir?: string): void {
  for (const port of ports) {
    const held = mine.get(port) ?? readReservation(fileOf(port));
    if (!held || (!mine.has(port) && held.dir !== dir)) continue; // someone else's since
    rmSync(fileOf(port), { force: true });
    mine.delete(port);
  }
}

function releaseAll(): void {
  for (const port of mine.keys()) rmSync(fileOf(port), { force: true });
  mine.clear();
}
