// `synconf lab up|down`: start a lab of real Syncthing instances on loopback for manual runs and recordings, and stop it.
import type { CommandModule } from 'yargs';
import { wholeNumber, syncthingOption } from './options.js';
import type { LabUpOptions } from '../commands/lab.js';

const LAB_EXIT_CODES =
  'Exit codes: 0 done, 2 usage or input error (no Syncthing binary, an instance that never answers, no lab in --dir), 3 a fault of synconf itself.';

const up: CommandModule = {
  command: 'up',
  describe:
    'Start N loopback-only Syncthing instances and print their URL, API key, device ID, sync address and PID; they keep running until `synconf lab down`',
  builder: (y) =>
    y
      .option('instances', {
        alias: 'n',
        type: 'string',
        coerce: wholeNumber('instances', 1),
        default: '1',
        defaultDescription: '1',
        describe: 'how many instances (named agent, peer, peer2, ...)',
      })
      .option('dir', {
        type: 'string',
        describe: 'lab folder (kept by `lab down`); default a new temp dir that `lab down` removes',
      })
      .option('syncthing', syncthingOption())
      .option('tls', {
        type: 'boolean',
        describe:
          'the GUIs speak TLS (https:// URLs), each with the self-signed certificate Syncthing makes in its home (https-cert.pem, for --agent-ca)',
      })
      .option('json', {
        type: 'boolean',
        describe: 'print the instances as a JSON array (the stop command goes to stderr)',
      })
      .option('reconnect-interval', {
        type: 'string',
        coerce: wholeNumber('reconnect-interval', 1, 86_400),
        default: '5',
        defaultDescription: '5',
        describe: 'options.reconnectionIntervalS in seconds (Syncthing clamps values below 5)',
      })
      .option('ready-timeout', {
        type: 'string',
        coerce: wholeNumber('ready-timeout', 1, 3_600_000),
        default: '20000',
        defaultDescription: '20000',
        describe: 'ms to wait for each instance to answer GET /rest/system/ping',
      })
      .example('synconf lab up -n 2 --dir /tmp/lab', 'start agent and peer in /tmp/lab')
      .example('synconf lab up -n 2 --json', 'the same as a JSON array, for scripts')
      .example('synconf lab up --tls', 'an agent whose GUI speaks TLS; trust <home>/https-cert.pem with --agent-ca')
      .example('synconf lab up --syncthing 1.12.1', 'one instance of Syncthing 1.12.1 (synconf agents install 1.12.1)')
      .epilogue(LAB_EXIT_CODES),
  handler: async (argv) => {
    const { labUp } = await import('../commands/lab.js');
    await labUp(argv as unknown as LabUpOptions);
  },
};

const down: CommandModule = {
  command: 'down',
  describe:
    'Stop the instances of the lab in --dir (by PID, from its lab.json); removes the folder only if `lab up` created it',
  builder: (y) =>
    y
      .option('dir', { type: 'string', demandOption: true, describe: 'the lab folder printed by `synconf lab up`' })
      .example('synconf lab down --dir /tmp/lab', 'stop the lab started with `synconf lab up --dir /tmp/lab`')
      .epilogue(LAB_EXIT_CODES),
  handler: async (argv) => {
    const { labDown } = await import('../commands/lab.js');
    await labDown(argv.dir as string);
  },
};

export const labCommand: CommandModule = {
  command: 'lab',
  describe: 'Start or stop a lab of real Syncthing instances on loopback (lab up | lab down)',
  builder: (y) =>
    y
      .command(up)
      .command(down)
      .demandCommand(1, 'lab needs a command: up or down')
      .example('synconf lab up -n 2 --dir /tmp/lab', 'start an agent and a peer')
      .example('synconf lab down --dir /tmp/lab', 'stop them')
      .epilogue(LAB_EXIT_CODES),
  handler: () => {},
};
