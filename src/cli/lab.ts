// `synconf lab up|down`: start real Syncthing instances on loopback for manual runs and recordings, and stop them.
// The implementation is imported inside the handlers so other commands do not load it.
import type { CommandModule } from 'yargs';
import { EXIT, UsageError } from './exit.js';

interface UpArgs {
  instances: number;
  dir?: string;
  json: boolean;
  // yargs also sets the camelCase forms, but its types only know the option names
  'reconnect-interval': number;
  'ready-timeout': number;
}
interface DownArgs {
  dir: string;
}

/** Runs a handler; usage and lab errors print one line (no stack) and exit 2, like the other commands. */
async function run(sub: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    const { LabError } = await import('../lab/errors.js');
    if (!(err instanceof UsageError || err instanceof LabError)) throw err;
    console.error(`synconf lab ${sub}: ${err.message}`);
    process.exitCode = EXIT.usage;
  }
}

const upCommand: CommandModule<object, UpArgs> = {
  command: 'up',
  describe: 'Start N loopback-only Syncthing instances and print their URL, API key, device ID, sync address and PID; they keep running until `synconf lab down`',
  builder: (y) =>
    y
      .option('instances', { alias: 'n', type: 'number', default: 1, describe: 'how many instances (named agent, peer, peer2, ...)' })
      .option('dir', { type: 'string', describe: 'lab folder (kept by `lab down`); default a new temp dir that `lab down` removes' })
      .option('json', { type: 'boolean', default: false, describe: 'print the instances as a JSON array (the stop command goes to stderr)' })
      .option('reconnect-interval', { type: 'number', default: 5, describe: 'options.reconnectionIntervalS in seconds (Syncthing clamps values below 5)' })
      .option('ready-timeout', { type: 'number', default: 20_000, describe: 'ms to wait for each instance to answer GET /rest/system/ping' })
      .example('$0 lab up -n 2 --dir /tmp/lab', 'start agent and peer in /tmp/lab')
      .example('$0 lab up -n 2 --json', 'the same as a JSON array, for scripts'),
  handler: (args) =>
    run('up', async () => {
      if (!Number.isInteger(args.instances) || args.instances < 1) throw new UsageError(`--instances must be a whole number ≥ 1, got ${args.instances}`);
      const { startLab } = await import('../lab/lab.js');
      const lab = await startLab({
        instances: args.instances,
        dir: args.dir,
        reconnectionIntervalS: args['reconnect-interval'],
        readyTimeoutMs: args['ready-timeout'],
        detach: true, // the point of `lab up` is that they outlive this command
      });
      const stop = `synconf lab down --dir ${shellQuote(lab.dir)}`;
      if (args.json) {
        console.log(JSON.stringify(lab.instances, null, 2));
        console.error(`Stop them with: ${stop}`);
        return;
      }
      const rows = [
        ['NAME', 'URL', 'API KEY', 'DEVICE ID', 'SYNC ADDRESS', 'PID'],
        ...lab.instances.map((i) => [i.name, i.url, i.apiKey, i.deviceId, i.syncAddress, String(i.pid)]),
      ];
      const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
      for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd());
      console.log(`\nLab folder: ${lab.dir} (homes, data folders, logs, lab.json)`);
      console.log(`Stop them with: ${stop}`);
    }),
};

const downCommand: CommandModule<object, DownArgs> = {
  command: 'down',
  describe: 'Stop the instances of the lab in --dir (by PID, from its lab.json); removes the folder only if `lab up` created it',
  builder: (y) =>
    y
      .option('dir', { type: 'string', demandOption: true, describe: 'the lab folder printed by `synconf lab up`' })
      .example('$0 lab down --dir /tmp/lab', 'stop the lab started with --dir /tmp/lab'),
  handler: (args) =>
    run('down', async () => {
      const { readState, stopLab } = await import('../lab/lab.js');
      const state = await readState(args.dir);
      if (!state) throw new UsageError(`no lab in ${args.dir}: there is no ${args.dir}/lab.json (start one with: synconf lab up --dir ${args.dir})`);
      await stopLab(args.dir);
      const names = state.instances.map((i) => i.name).join(', ');
      console.log(`Stopped ${names}. ${state.ownsDir ? `Removed ${state.dir}.` : `Kept ${state.dir} (homes, data folders, logs).`}`);
    }),
};

export const labCommand: CommandModule = {
  command: 'lab',
  describe: 'Start or stop a lab of real Syncthing instances on loopback (lab up | lab down)',
  builder: (y) => y.command(upCommand).command(downCommand).demandCommand(1, 'Name a lab command: up or down.'),
  handler: () => {
    // not reached: demandCommand requires up or down
  },
};

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
