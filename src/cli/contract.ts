// `synconf contract SESSION`: a client's contract from a proxy session, for drift --contract and proxy --contract.
import type { CommandModule } from 'yargs';
import { once } from './options.js';
import type { ContractOptions } from '../commands/contract.js';

export const contractCommand: CommandModule = {
  command: 'contract <session>',
  describe:
    "Write a client's contract from a proxy session: each endpoint it called with the members of the answers it received, for its author to prune to what the client reads (as a Pact consumer's); drift --contract judges only what it names, proxy --contract accepts its quirks",
  builder: (y) =>
    y
      .positional('session', {
        type: 'string',
        describe: 'a report folder of `synconf proxy`, or its HAR file',
      })
      .option('out', {
        alias: 'o',
        type: 'string',
        coerce: once('out'),
        default: 'contract.json',
        describe: 'the contract file to write (schemas/contract.schema.json); an existing file is never written over',
      })
      .option('client', {
        type: 'string',
        coerce: once('client'),
        describe: 'the client, as the contract names it (e.g. "node-syncthing 3.3.7")',
      })
      .example('synconf contract reports/proxy -o my-client.contract.json', 'then prune it to what the client reads')
      .example(
        'synconf drift reports/proxy --against 2.1.2 --contract my-client.contract.json --fail-on breaking',
        'does 2.1.2 break what the client reads',
      )
      .epilogue(
        "The contract lists every member the client received: the proxy cannot see which it reads. Remove the members (or endpoints) your client does not read; an endpoint removed, or a status changed, on an endpoint the client called counts whatever the contract says. Quirks: checks of the client's requests accepted with a reason ({check, endpoint, reason}).\nExit codes: 0 written, 2 usage or input error (a session that cannot be read, an existing --out), 3 a fault of synconf itself.",
      ),
  handler: async (argv) => {
    const { contract } = await import('../engine.js');
    await contract(argv as unknown as ContractOptions);
  },
};
