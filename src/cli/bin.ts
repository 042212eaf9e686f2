#!/usr/bin/env node
// Entry point of the built `synconf` command (scripts/bundle.mjs); everything else is src/cli/main.ts.
// `synconf --help` (or -h) alone prints the top-level help that the build laid out with yargs from the same
// definitions (dist/bin/help.json: the text per wrap width, written by each build), without loading yargs and
// every command module: a start about as fast as bare Node's (bench/README.md). Any other arguments, a width the
// build did not lay out, or no help.json (the sources run by tsx) go to main.ts.
import { readFileSync } from 'node:fs';
import { helpWidth } from './help-width.js';

/** the top-level help the build laid out for this terminal's width, if it did */
function builtHelp(): string | undefined {
  try {
    const texts = JSON.parse(readFileSync(new URL('./help.json', import.meta.url), 'utf8')) as Record<string, string>;
    return texts[helpWidth()];
  } catch {
    return undefined;
  }
}

// A reader that stops early (`synconf replay | head`) closes the pipe: what is printed after it is dropped, and the
// run goes on to write its reports and exit with its verdict (an unheard 'error' event would end it with a stack).
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });

// A signal before a command listens for it itself (the engine still loading, scenarios not yet read) would kill the
// process with no line: until then it is one "interrupted" line and 128 + its number. A command's own interrupt
// (commands/terminal/interrupt.ts) marks itself on the process and takes over; the lab's exit handlers still run.
const EARLY = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;
for (const [signal, n] of Object.entries(EARLY))
  process.on(signal, () => {
    if ((process as { synconfInterrupt?: boolean }).synconfInterrupt) return;
    process.stderr.write(`synconf: interrupted (${signal})\n`);
    process.exit(128 + n);
  });

// Once the command is done (Node emits beforeExit only when nothing is left to run or write), exit at once with the
// exit code it set: Node's own exit after the last task first tears the heap down page by page (~3 ms of a replay,
// more after a larger run), which process.exit() skips. The 'exit' handlers run either way. Two turns first: a
// signal that landed during the command's last synchronous work is read only in a turn's poll phase, and without
// one it would be lost (the run exited with its verdict's code, issue 41). A signal heard then may start an orderly
// stop (a report rewritten, marked interrupted: commands/terminal/interrupt.ts), which ends the process itself.
const ending = () => (process as { synconfEnding?: boolean }).synconfEnding;
process.once('beforeExit', () => setImmediate(() => setImmediate(() => ending() || process.exit())));

const args = process.argv.slice(2);
const help = args.length === 1 && (args[0] === '--help' || args[0] === '-h') ? builtHelp() : undefined;
// Not a top-level await: the build makes this module CommonJS (Node then starts without its ES module loader)
if (help === undefined) void import('./main.js');
else process.stdout.write(help);
