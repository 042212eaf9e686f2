// `synconf validate <resource> <file|->`: check one JSON document against a resource schema; or lint one of
// synconf's own files (scenario, expectations, cassette, report) with the messages a run gives.
import type { CommandModule } from 'yargs';
import { version } from './options.js';
import type { ValidateDocumentOptions } from '../commands/validate.js';

export const validateCommand: CommandModule = {
  command: 'validate <resource> <file>',
  describe:
    'Validate a JSON document (a response body) against a resource schema, or lint a scenario, expectations file, cassette or report with the messages a run would give',
  builder: (y) =>
    y
      .positional('resource', {
        type: 'string',
        describe:
          'resource name, e.g. config, system-status, folder-status (an unknown name lists the known ones); or scenario, expectations, cassette, report to lint that file',
      })
      .positional('file', {
        type: 'string',
        describe:
          'a JSON file, or a full HTTP capture (status line, headers, body: the body is checked); - for standard input',
      })
      .option('agent-version', {
        type: 'string',
        coerce: version('agent-version'),
        describe: 'apply the version overlay of this agent version (fields added later are not required)',
      })
      .option('json', {
        type: 'boolean',
        describe: 'print the errors as a JSON array of {resource, pointer, rule, expected, actual, message}',
      })
      .example('synconf validate config config.json', 'check a GET /rest/system/config body')
      .example(
        'synconf validate scenario suites/system/ping.yaml',
        'lint a scenario before running it: file:line, step and cause',
      )
      .example(
        'synconf validate cassette recordings/syncthing-1.19.2/system-ping.har',
        'a cassette, as replay reads it',
      )
      .example(
        'curl -s -H "X-API-Key: $KEY" $URL/rest/system/status | synconf validate system-status - --agent-version 1.19.2',
        'a live answer, for that version',
      )
      .epilogue(
        'Exit codes: 0 valid, 1 the document does not conform to the resource schema, 2 unknown resource, unreadable, empty or not UTF-8 or not JSON, or a scenario, expectations file, cassette or report a run would refuse (the same line as the run), 3 a fault of synconf itself.',
      ),
  handler: async (argv) => {
    const {
      resource,
      file: given,
      ...opts
    } = argv as unknown as ValidateDocumentOptions & { resource: string; file: string };
    // yargs turns a positional "-" into "" (it parses it as the value of --file): take it back.
    const file = given === '' && process.argv.slice(2).includes('-') ? '-' : given;
    const { validateFile } = await import('../engine.js');
    await validateFile(resource, file, opts);
  },
};
