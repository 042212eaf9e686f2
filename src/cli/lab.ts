// `synconf lab up|down`: start real Syncthing instances on loopback for manual runs and recordings, and stop them.
// The implementation is imported inside the actions so other commands do not load it.
import { Command, InvalidArgumentError } from 'commander';
import { EXIT, UsageError } from './exit.js';

interface UpOptions { instances: number; dir?: string; json?: boolean; reconnectInterval: number; readyTimeout: number; syncthing?: string; }

/** Runs an action; usage and lab errors print one line (no stack) and exit 2, like the other commands. */
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

/** a whole number of at least `min`, for option parsing */
export function wholeNumber(min: number) {
  return (text: string): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`must be a whole number ≥ ${min}`);
    return n;
  };
}

/** --syncthing of a single lab: given twice is a mistake (the matrix runs several versions), not "the last one wins" */
export function oneSyncthing(value: string, previous: string | undefined): string {
  if (previous !== undefined) throw new InvalidArgumentError(`given twice (${previous}, ${value}): one lab runs one Syncthing; \`synconf matrix --syncthing A --syncthing B\` runs several`);
  return value;
}

export function registerLab(program: Command): void {
  const lab = program
    .command('lab')
    .description('Start or stop a lab of real Syncthing instances on loopback (lab up | lab down)');

  lab
    .command('up')
    .description('Start N loopback-only Syncthing instances and print their URL, API key, device ID, sync address and PID; they keep running until `synconf lab down`')
    .option('-n, --instances <n>', 'how many instances (named agent, peer, peer2, ...)', wholeNumber(1), 1)
    .option('--dir <dir>', 'lab folder (kept by `lab down`); default a new temp dir that `lab down` removes')
    .option('--syncthing <version|path>', 'a VERSION installed by `synconf agents install` (e.g. 1.29.5) or a PATH to a binary (default $SYNCONF_SYNCTHING, else `syncthing` on PATH, else the newest installed agent)', oneSyncthing)
    .option('--json', 'print the instances as a JSON array (the stop command goes to stderr)')
    .option('--reconnect-interval <seconds>', 'options.reconnectionIntervalS (Syncthing clamps values below 5)', wholeNumber(1), 5)
    .option('--ready-timeout <ms>', 'ms to wait for each instance to answer GET /rest/system/ping', wholeNumber(1), 20_000)
    .addHelpText('after', '\nExamples:\n  synconf lab up -n 2 --dir /tmp/lab     start agent and peer in /tmp/lab\n  synconf lab up -n 2 --json              the same as a JSON array, for scripts\n  synconf lab up --syncthing 1.12.1       one instance of Syncthing 1.12.1 (synconf agents install 1.12.1)')
    .action((opts: UpOptions) =>
      run('up', async () => {
        const { startLab } = await import('../lab/lab.js');
        const started = await startLab({
          instances: opts.instances,
          dir: opts.dir,
          binary: opts.syncthing,
          reconnectionIntervalS: opts.reconnectInterval,
          readyTimeoutMs: opts.readyTimeout,
          detach: true, // the point of `lab up` is that they outlive this command
        });
        const stop = `synconf lab down --dir ${shellQuote(started.dir)}`;
        if (opts.json) {
          console.log(JSON.stringify(started.instances, null, 2));
          console.error(`Stop them with: ${stop}`);
          return;
        }
        const rows = [
          ['NAME', 'VERSION', 'URL', 'API KEY', 'DEVICE ID', 'SYNC ADDRESS', 'PID'],
          ...started.instances.map((i) => [i.name, i.version, i.url, i.apiKey, i.deviceId, i.syncAddress, String(i.pid)]),
        ];
        const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
        for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd());
        console.log(`\nLab folder: ${started.dir} (homes, data folders, logs, lab.json)`);
        console.log(`Stop them with: ${stop}`);
      }),
    );

  lab
    .command('down')
    .description('Stop the instances of the lab in --dir (by PID, from its lab.json); removes the folder only if `lab up` created it')
    .requiredOption('--dir <dir>', 'the lab folder printed by `synconf lab up`')
    .action((opts: { dir: string }) =>
      run('down', async () => {
        const { readState, stopLab } = await import('../lab/lab.js');
        const state = await readState(opts.dir);
        if (!state) throw new UsageError(`no lab in ${opts.dir}: there is no ${opts.dir}/lab.json (start one with: synconf lab up --dir ${opts.dir})`);
        await stopLab(opts.dir);
        const names = state.instances.map((i) => i.name).join(', ');
        console.log(`Stopped ${names}. ${state.ownsDir ? `Removed ${state.dir}.` : `Kept ${state.dir} (homes, data folders, logs).`}`);
      }),
    );
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
