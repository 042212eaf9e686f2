// Syncthing's command line comes in generations, and the lab must start each:
//  - flags (1.12.1; Go's flag package): `syncthing -generate=DIR`, `syncthing -home=DIR -no-browser ...`
//  - subcommands (1.19.0 on, syncthing#8043 made `generate` a subcommand): `syncthing generate --home=DIR`,
//    `syncthing serve --home=DIR ...` (1.19.2, 1.29.5)
// In between, releases had a `serve` command that is also the default, taking `--generate=DIR` (per #8043).
// The lab tells them apart by the binary's own --help: a `generate` command means subcommands; anything else
// with `-generate=` or a `serve` command gets the flags, written with two dashes, which Go's flag package and
// the later parser both accept (the in-between releases are not tested here: Debian ships none of them).
import { tmpdir } from 'node:os';
import { execa } from 'execa';
import { LabError } from './errors.js';

export type CliGeneration = 'flags' | 'subcommands';

export interface CliArgs {
  generation: CliGeneration;
  /** generate a home (keys and config.xml), no default folder */
  generate(home: string): { args: string[]; env: Record<string, string> };
  /** run in monitor mode (no --no-restart: a restart request really restarts), logging to stdout */
  serve(home: string): string[];
}

const FLAGS: CliArgs = {
  generation: 'flags',
  // --generate has no option against the default folder; the variable is read when it writes config.xml
  generate: (home) => ({ args: [`--generate=${home}`], env: { STNODEFAULTFOLDER: '1' } }),
  // no --no-upgrade flag in 1.12: options.autoUpgradeIntervalH=0 turns upgrades off
  serve: (home) => [`--home=${home}`, '--no-browser', '--logflags=7', '--logfile=-'],
};

const SUBCOMMANDS: CliArgs = {
  generation: 'subcommands',
  generate: (home) => ({ args: ['generate', `--home=${home}`, '--no-default-folder', '--skip-port-probing'], env: {} }),
  serve: (home) => ['serve', `--home=${home}`, '--no-browser', '--no-upgrade', '--logflags=7', '--logfile=-'],
};

/** Which generation a help text belongs to; undefined when it is neither. */
export function generationOfHelp(help: string): CliGeneration | undefined {
  const commands = /(?:^|\n)Commands:\n([\s\S]*?)(?:\n\S|$)/.exec(help)?.[1] ?? ''; // up to the next unindented line
  if (/^\s+generate\b/m.test(commands)) return 'subcommands';
  if (/^\s+--?generate=/m.test(help) || /^\s+serve\b/m.test(commands)) return 'flags';
  return undefined;
}

const cache = new Map<string, Promise<CliArgs>>();

/** The command-line generation of a binary (asked once per binary per process). */
export function cliArgsOf(binary: string): Promise<CliArgs> {
  let found = cache.get(binary);
  if (!found) {
    found = detect(binary);
    cache.set(binary, found);
    found.catch(() => cache.delete(binary));
  }
  return found;
}

async function detect(binary: string): Promise<CliArgs> {
  // 1.12.1 needs a HOME even for --help; nothing is written there
  const res = await execa(binary, ['--help'], {
    reject: false,
    all: true,
    timeout: 10_000,
    env: { HOME: tmpdir(), TZ: 'UTC' },
    extendEnv: false,
  });
  const help = res.all ?? '';
  const generation = generationOfHelp(help);
  if (generation === 'subcommands') return SUBCOMMANDS;
  if (generation === 'flags') return FLAGS;
  const first = help.split('\n').slice(0, 3).join(' | ');
  throw new LabError(
    `${binary} --help shows neither Syncthing's subcommands (generate, serve) nor its flags (-generate, -home): is it Syncthing? ` +
      `(${res.failed ? res.shortMessage : first})`,
  );
}
