// What a command that throws prints, and its exit code: an error the user can act on (SynconfError) is one line
// (and its hint), exit 2; anything else is a fault of synconf itself (a bug, exit 3): one line that says so, the
// stack trace in a log file (or on stderr with --verbose), and a request to report it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { SYNCONF_VERSION } from '../../paths.js';
import { SynconfError, exitCodeOf, type ExitCode } from '../../errors.js';
import { printableLine } from '../../printable.js';

/** prints `err` as its kind asks; returns the exit code */
export function reportError(err: unknown, verbose: boolean): ExitCode {
  // one line each: a newline in a file's name or an agent's text would print a line synconf never wrote
  if (err instanceof SynconfError) {
    console.error(`synconf: ${printableLine(err.message)}`);
    if (err.hint) console.error(`synconf: ${printableLine(err.hint)}`);
  } else reportFault(err, verbose);
  return exitCodeOf(err);
}

/** the command line as a bug report may show it: the value of --api-key (as --api-key K or --api-key=K) replaced */
export function withoutSecrets(args: string[]): string[] {
  return args.map((a, i) =>
    /^--api-key=/.test(a) ? '--api-key=<API_KEY>' : args[i - 1] === '--api-key' ? '<API_KEY>' : a,
  );
}

export function reportFault(err: unknown, verbose: boolean): void {
  const e = err instanceof Error ? err : new Error(String(err));
  console.error(`synconf: internal error (a bug in synconf ${SYNCONF_VERSION}): ${printableLine(e.message)}`);
  const details = `synconf ${SYNCONF_VERSION}, node ${process.version}, ${process.platform}-${process.arch}\nsynconf ${withoutSecrets(process.argv.slice(2)).join(' ')}\n\n${e.stack ?? e}\n`;
  if (verbose) {
    console.error(details);
    console.error('synconf: please report this bug with the lines above');
    return;
  }
  const log = join(tmpdir(), `synconf-error-${process.pid}.log`);
  try {
    writeFileSync(log, details, { mode: 0o600 }); // the owner's only: it names the run's files and options
    console.error(`synconf: please report this bug with ${log} (the stack trace; --verbose prints it)`);
  } catch {
    console.error(`synconf: please report this bug; run again with --verbose for the stack trace`);
  }
}
