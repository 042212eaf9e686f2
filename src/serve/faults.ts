// Faults serve injects on purpose, for the tests of a client's retry, timeout and reconnect code: given on the command
// line (--fault) or through the control endpoint (/__synconf/faults, only with --faults). Each fault applies to the
// requests of one endpoint (or all), to a share of them (drawn from a seeded generator, so a run repeats), or to the
// next N; the request log records it beside each exchange it touched.
import { UsageError } from '../errors.js';

export const FAULT_MODES = [
  'latency',
  'dribble',
  'reset-before',
  'reset-during',
  'truncate',
  'status',
  'restart',
] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface Fault {
  mode: FaultMode;
  /** a path ("/rest/system/status"); none: every path */
  endpoint?: string;
  /** the share of matching requests it touches, 0–1 (default 1) */
  share?: number;
  /** only the next N matching requests */
  next?: number;
  /** latency: the delay; dribble: the pause between chunks (default 100) */
  ms?: number;
  /** status: the status answered (default 500) */
  status?: number;
}

/** where the control endpoint lives: no path of the agent begins so */
export const CONTROL_PATH = '/__synconf/faults';

/** a small seeded generator (mulberry32): the same seed draws the same shares */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** a fault as given (JSON of the control endpoint, or parsed from --fault), checked; a problem is one line */
export function checkFault(raw: unknown, where: string): Fault {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new UsageError(`${where}: not an object`);
  const f = raw as Record<string, unknown>;
  const known = new Set(['mode', 'endpoint', 'share', 'next', 'ms', 'status']);
  const unknown = Object.keys(f).find((k) => !known.has(k));
  if (unknown) throw new UsageError(`${where}: unknown member "${unknown}" (known: ${[...known].join(', ')})`);
  if (!FAULT_MODES.includes(f.mode as FaultMode))
    throw new UsageError(`${where}: mode must be one of ${FAULT_MODES.join(', ')}`);
  const number = (name: string, min: number, max: number) => {
    const v = f[name];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max))
      throw new UsageError(`${where}: ${name} must be a number from ${min} to ${max}`);
  };
  number('share', 0, 1);
  number('next', 1, 1e9);
  number('ms', 0, 600_000);
  number('status', 100, 599);
  if (f.endpoint !== undefined && (typeof f.endpoint !== 'string' || !f.endpoint.startsWith('/')))
    throw new UsageError(`${where}: endpoint must be a path beginning with /`);
  return f as unknown as Fault;
}

/** `--fault MODE[:name=value:…]`, e.g. `status:status=503:endpoint=/rest/system/status:next=2` */
export function parseFaultOption(text: string): Fault {
  const [mode, rest] = text.split(/:(.*)/s, 2);
  const fault: Record<string, unknown> = { mode };
  // name=value pairs are joined by ":", so that faults themselves can be comma-separated as every list option is
  for (const pair of rest ? rest.split(':') : []) {
    const [name, value] = pair.split(/=(.*)/s, 2);
    fault[name] = name === 'endpoint' ? value : Number(value);
  }
  return checkFault(fault, `--fault ${text}`);
}

/** the faults in force, in the order given; the first that applies to a request touches it */
export class Faults {
  private faults: Fault[] = [];
  private readonly draw: () => number;

  constructor(faults: Fault[], seed: number) {
    this.faults = faults.map((f) => ({ ...f }));
    this.draw = seeded(seed);
  }

  add(fault: Fault): void {
    this.faults.push({ ...fault });
  }

  clear(): void {
    this.faults = [];
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** the fault that touches a request to `path`, if any (a `next` fault counts down, and goes at 0) */
  pick(path: string): Fault | undefined {
    for (const f of this.faults) {
      if (f.endpoint !== undefined && f.endpoint !== path) continue;
      if (f.share !== undefined && this.draw() >= f.share) continue;
      if (f.next !== undefined) {
        f.next--;
        if (f.next <= 0) this.faults = this.faults.filter((x) => x !== f);
      }
      return { ...f };
    }
    return undefined;
  }
}

/** the fault in a line of the request log and terminal */
export const describeFault = (f: Fault) =>
  [f.mode, f.status ?? '', f.ms !== undefined ? `${f.ms} ms` : ''].filter((x) => x !== '').join(' ');
