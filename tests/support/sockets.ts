// The network sockets processes hold, from Linux /proc: what "loopback only" must leave bound to 127.0.0.1.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface SocketInfo {
  proto: 'tcp' | 'tcp6' | 'udp' | 'udp6';
  /** local address, e.g. 127.0.0.1 or :: */
  address: string;
  port: number;
  /** TCP state (0A is LISTEN) or UDP state */
  state: string;
  pid: number;
}

function socketInodes(pid: number): Set<string> {
  const out = new Set<string>();
  let fds: string[] = [];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return out;
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) out.add(m[1]);
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

/** /proc/net addresses are hex in host (little-endian) byte order per 32-bit word */
function decodeAddress(hex: string): string {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((w) => (w.match(/../g) ?? []).reverse().map((b) => parseInt(b, 16)));
  if (bytes.length === 4) return bytes.join('.');
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255)
    return `::ffff:${bytes.slice(12).join('.')}`;
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

/** every TCP and UDP socket the given processes have open */
export function socketsOf(pids: number[]): SocketInfo[] {
  const owner = new Map<string, number>();
  for (const pid of pids) for (const inode of socketInodes(pid)) owner.set(inode, pid);
  const out: SocketInfo[] = [];
  for (const proto of ['tcp', 'tcp6', 'udp', 'udp6'] as const) {
    let lines: string[] = [];
    try {
      lines = readFileSync(`/proc/net/${proto}`, 'utf8').trim().split('\n').slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const f = line.trim().split(/\s+/);
      const pid = owner.get(f[9]);
      if (pid === undefined) continue;
      const [addr, port] = f[1].split(':');
      out.push({ proto, address: decodeAddress(addr), port: parseInt(port, 16), state: f[3], pid });
    }
  }
  return out;
}

const LOOPBACK = /^(127\.|::ffff:127\.|::1$)/;

/** the sockets not bound to a loopback address */
export function nonLoopback(sockets: SocketInfo[]): SocketInfo[] {
  return sockets.filter((s) => !LOOPBACK.test(s.address));
}
