// `synconf validate <resource> <file|->`: check one JSON document against a resource schema.
import type { CommandModule } from 'yargs';
import { readFileSync } from 'node:fs';
import { EXIT } from './exit.js';

interface Args { resource: string; file: string; agentVersion?: string; json: boolean; }

export const validateCommand: CommandModule<object, Args> = {
  command: 'validate <resource> <file>',
  describe: 'Validate a JSON document (a response body) against a resource schema',
  builder: (y) =>
    y
      .positional('resource', { type: 'string', demandOption: true, describe: 'resource name, e.g. config, system-status, folder-status; an unknown name lists the known ones' })
      .positional('file', { type: 'string', demandOption: true, describe: 'path of a JSON file, or - for standard input' })
      .option('agent-version', { type: 'string', describe: 'apply the version overlay of this agent version (fields added later are not required)' })
      .option('json', { type: 'boolean', default: false, describe: 'print the errors as a JSON array of {resource, pointer, rule, expected, actual, message}' })
      .example('$0 validate config config.json', 'check a GET /rest/system/config body')
      .example('curl -s -H "X-API-Key: $KEY" $URL/rest/system/status | $0 validate system-status - --agent-version 1.19.2', 'check a live response'),
  handler: async (args) => {
    const { validate, formatError, UnknownResourceError } = await import('../schema/registry.js');
    const { isVersion } = await import('../schema/version.js');
    const fail = (message: string): never => {
      console.error(`synconf validate: ${message}`);
      process.exit(EXIT.usage);
    };
    if (args.agentVersion !== undefined && !isVersion(args.agentVersion)) fail(`--agent-version "${args.agentVersion}" is not a version (expected e.g. 1.19.2)`);
    // yargs hands a lone "-" to a positional as ""
    const stdin = args.file === '-' || args.file === '';
    let text = '';
    try {
      text = readFileSync(stdin ? 0 : args.file, 'utf8');
    } catch (e) {
      fail(`cannot read ${stdin ? 'standard input' : `"${args.file}"`}: ${(e as Error).message}`);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      fail(`${stdin ? 'standard input' : `"${args.file}"`} is not JSON: ${(e as Error).message}`);
    }
    let errors;
    try {
      errors = validate(args.resource, doc, args.agentVersion);
    } catch (e) {
      if (e instanceof UnknownResourceError) fail(e.message);
      throw e;
    }
    if (args.json) console.log(JSON.stringify(errors, null, 2));
    else if (errors.length === 0) console.log(`valid ${args.resource}${args.agentVersion ? ` (agent version ${args.agentVersion})` : ' (spec)'}`);
    else {
      for (const e of errors) console.log(formatError(e));
      console.log(`${errors.length} error${errors.length === 1 ? '' : 's'}: not a valid ${args.resource}`);
    }
    process.exitCode = errors.length ? EXIT.nonConforming : EXIT.ok;
  },
};
