// `synconf lab up|down`: start real Syncthing instances for manual runs and print how to reach them; stop them.
import { join } from 'node:path';
import { InputError } from '../errors.js';
import { usableTempDir } from '../output-dir.js';
import { reapLeftovers } from '../session/targets.js';
import { startLab, readState, stopLab } from '../lab/lab.js';
import { printableLine } from '../printable.js';

export interface LabUpOptions {
  instances: number;
  dir?: string;
  json?: boolean;
  reconnectInterval: number;
  readyTimeout: number;
  syncthing?: string;
  /** --tls: the GUIs speak TLS */
  tls?: boolean;
}

export async function labUp(opts: LabUpOptions): Promise<void> {
  if (opts.dir === undefined) usableTempDir(); // the lab's folder goes there
  reapLeftovers(console.error);
  const started = await startLab({
    instances: opts.instances,
    dir: opts.dir,
    binary: opts.syncthing,
    reconnectionIntervalS: opts.reconnectInterval,
    readyTimeoutMs: opts.readyTimeout,
    detach: true, // the point of `lab up` is that they outlive this command
    guiTls: opts.tls,
  });
  const stop = `synconf lab down --dir ${shellQuote(started.dir)}`;
  if (opts.json) {
    console.log(JSON.stringify(started.instances, null, 2));
    console.error(`Stop them with: ${printableLine(stop)}`);
    return;
  }
  const rows = [
    ['NAME', 'VERSION', 'URL', 'API KEY', 'DEVICE ID', 'SYNC ADDRESS', 'PID'],
    // what the agents answered (version, device ID) is foreign text
    ...started.instances.map((i) =>
      [i.name, i.version, i.url, i.apiKey, i.deviceId, i.syncAddress, String(i.pid)].map(printableLine),
    ),
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows)
    console.log(
      r
        .map((cell, c) => cell.padEnd(widths[c]))
        .join('  ')
        .trimEnd(),
    );
  console.log(`\nLab folder: ${printableLine(started.dir)} (homes, data folders, logs, lab.json)`);
  if (opts.tls)
    console.log(
      `TLS: each GUI's certificate is <home>/https-cert.pem (${printableLine(join(started.instances[0].home, 'https-cert.pem'))}): trust it with --agent-ca`,
    );
  console.log(`Stop them with: ${printableLine(stop)}`);
}

export async function labDown(dir: string): Promise<void> {
  const state = await readState(dir);
  if (!state)
    throw new InputError(`no lab in ${dir}: there is no ${dir}/lab.json (start one with: synconf lab up --dir ${dir})`);
  await stopLab(dir);
  const names = state.instances.map((i) => i.name).join(', ');
  console.log(
    printableLine(
      `Stopped ${names}. ${state.ownsDir ? `Removed ${state.dir}.` : `Kept ${state.dir} (homes, data folders, logs).`}`,
    ),
  );
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
