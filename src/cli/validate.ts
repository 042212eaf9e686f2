// `synconf validate <resource> <file|->`: check one JSON document against a resource schema.
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { EXIT } from './exit.js';

interface Options { agentVersion?: string; json?: boolean; }

export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('Validate a JSON document (a response body) against a resource schema')
    .argument('<resource>', 'resource name, e.g. config, system-status, folder-status; an unknown name lists the known ones')
    .argument('<file>', 'a JSON file, or a full HTTP capture (status line, headers, body: the body is checked); - for standard input')
    .option('--agent-version <version>', 'apply the version overlay of this agent version (fields added later are not required)')
    .option('--json', 'print the errors as a JSON array of {resource, pointer, rule, expected, actual, message}')
    .addHelpText('after', `
Examples:
  synconf validate config config.json          check a GET /rest/system/config body
  curl -s -H "X-API-Key: $KEY" $URL/rest/system/status | synconf validate system-status - --agent-version 1.19.2

Exit codes: 0 valid, 1 invalid, 2 unknown resource, unreadable file or not JSON.`)
    .action(async (resource: string, file: string, opts: Options) => {
      const { validate, formatError, UnknownResourceError } = await import('../schema/registry.js');
      const { isVersion } = await import('../schema/version.js');
      const fail = (message: string): never => {
        console.error(`synconf validate: ${message}`);
        process.exit(EXIT.usage);
      };
      if (opts.agentVersion !== undefined && !isVersion(opts.agentVersion)) fail(`--agent-version "${opts.agentVersion}" is not a version (expected e.g. 1.19.2)`);
      const stdin = file === '-';
      const what = stdin ? 'standard input' : `"${file}"`;
      let text = '';
      try {
        text = readFileSync(stdin ? 0 : file, 'utf8');
      } catch (e) {
        fail(`cannot read ${what}: ${(e as Error).message}`);
      }
      // A full HTTP capture (curl -i, a proxy log): the document is its body.
      const capture = /^HTTP\/\d(\.\d)? \d{3}/.test(text);
      if (capture) {
        const blank = text.search(/\r?\n\r?\n/);
        text = blank < 0 ? '' : text.slice(blank).replace(/^\r?\n\r?\n/, '');
      }
      let doc: unknown;
      try {
        doc = JSON.parse(text);
      } catch (e) {
        fail(`${capture ? `the body of the HTTP capture in ${what}` : what} is not JSON: ${(e as Error).message}`);
      }
      let errors;
      try {
        errors = validate(resource, doc, opts.agentVersion);
      } catch (e) {
        if (e instanceof UnknownResourceError) fail(e.message);
        throw e;
      }
      if (opts.json) console.log(JSON.stringify(errors, null, 2));
      else if (errors.length === 0) console.log(`valid ${resource}${opts.agentVersion ? ` (agent version ${opts.agentVersion})` : ' (spec)'}`);
      else {
        for (const e of errors) console.log(formatError(e));
        console.log(`${errors.length} error${errors.length === 1 ? '' : 's'}: not a valid ${resource}`);
      }
      process.exitCode = errors.length ? EXIT.nonConforming : EXIT.ok;
    });
}
