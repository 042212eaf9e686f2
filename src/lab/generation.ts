// Syncthing's command line comes in generations, and the lab must start each:
//  - flags (1.12.1; Go's flag package): `syncthing -generate=DIR`, `syncthing -home=DIR -no-browser ...`
//  - subcommands (1.19.0 on, syncthing#8043 made `generate` a subcommand): `syncthing generate --home=DIR
//    --no-default-folder --skip-port-probing`, `syncthing serve --home=DIR ...` (1.19.2, 1.29.5, 1.30.0)
//  - subcommands of 2.x (2.0.0 on): `generate` lost --no-default-folder (2.x never makes a default folder) and
//    --skip-port-probing became --no-port-probing; it prints the device ID as a structured log line
//    (`INF Calculated device ID (device=…)`), so the lab reads it from config.xml. `serve` takes the 1.x options
//    (--logflags is a hidden no-op, --logfile an alias of --log-file).
// In between the first two, releases had a `serve` command that is also the default, taking `--generate=DIR` (per
// #8043). The lab tells them apart by the binary's own help: a `generate` command means subcommands, and then
// `generate --help` tells 1.x (--no-default-folder) from 2.x (--no-port-probing without it); anything else with
// `-generate=` or a `serve` command gets the flags, written with two dashes, which Go's flag package and the later
// parser both accept (the in-between releases are not tested here: Debian ships none of them).
import { tmpdir } from 'node:os';
import { runBounded } from '../bounded-exec.js';
import { LabError } from './errors.js';

export type CliGeneration = 'flags' | 'subcommands' | 'subcommands-2';

export interface CliArgs {
  generation: CliGeneration;
  /** generate a home (keys and config.xml), no default folder */
  generate(home: string): { args: string[]; env: Record<string, string> };
  /** run in monitor mode (no --no-restart: a restart request really restarts), logging to stdout */
  serve(home: string): string[];
  /** the device ID `generate` printed, if it prints one the lab can read (else config.xml's own device is read) */
  printedDeviceId(stdout: string): string | undefined;
}

const DEVICE_ID_LINE = (stdout: string) => /Device ID: (\S+)/.exec(stdout)?.[1];

const FLAGS: CliArgs = {
  generation: 'flags',
  // --generate has no option against the default folder; the variable is read when it writes config.xml
  generate: (home) => ({ args: [`--generate=${home}`], env: { STNODEFAULTFOLDER: '1' } }),
  // no --no-upgrade flag in 1.12: options.autoUpgradeIntervalH=0 turns upgrades off
  serve: (home) => [`--home=${home}`, '--no-browser', '--logflags=7', '--logfile=-'],
  printedDeviceId: DEVICE_ID_LINE,
};

const SERVE = (home: string) => [
  'serve',
  `--home=${home}`,
  '--no-browser',
  '--no-upgrade',
  '--logflags=7',
  '--logfile=-',
];

const SUBCOMMANDS: CliArgs = {
  generation: 'subcommands',
  generate: (home) => ({ args: ['generate', `--home=${home}`, '--no-default-folder', '--skip-port-probing'], env: {} }),
  serve: SERVE,
  printedDeviceId: DEVICE_ID_LINE,
};

const SUBCOMMANDS_2: CliArgs = {
  generation: 'subcommands-2',
  generate: (home) => ({ args: ['generate', `--home=${home}`, '--no-port-probing'], env: {} }),
  serve: SERVE,
  // a structured log line whose format is not the lab's to rely on: config.xml names the device
  printedDeviceId: () => undefined,
};

/** Which generation a help text belongs to; undefined when it is neither. `generate --help` tells the subcommands apart. */
export function generationOfHelp(help: string): 'flags' | 'subcommands' | undefined {
  const commands = /(?:^|\n)Commands:\n([\s\S]*?)(?:\n\S|$)/.exec(help)?.[1] ?? ''; // up to the next unindented line
  if (/^\s+generate\b/m.test(commands)) return 'subcommands';
  if (/^\s+--?generate=/m.test(help) || /^\s+serve\b/m.test(commands)) return 'flags';
  return undefined;
}

/** Which subcommand generation a `generate --help` belongs to; undefined when it shows neither one's options. */
export function generationOfGenerateHelp(help: string): 'subcommands' | 'subcommands-2' | undefined {
  if (/^\s+--no-default-folder\b/m.test(help)) return 'subcommands';
  if (/^\s+--no-port-probing\b/m.test(help)) return 'subcommands-2';
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

/** the binary's help text (stdout and stderr); 1.12.1 needs a HOME even for --help; nothing is written there */
async function helpOf(binary: string, args: string[]) {
  const res = await runBounded(binary, args, { timeoutMs: 10_000, env: { HOME: tmpdir(), TZ: 'UTC' } });
  return { help: res.all, failed: res.failed && `${binary} ${args.join(' ')}: ${res.failed}` };
}

const firstLines = (help: string) => help.trimEnd().split('\n').slice(0, 3).join(' | ');

async function detect(binary: string): Promise<CliArgs> {
  const top = await helpOf(binary, ['--help']);
  const generation = generationOfHelp(top.help);
  if (generation === 'flags') return FLAGS;
  if (generation === 'subcommands') {
    const gen = await helpOf(binary, ['generate', '--help']);
    const sub = generationOfGenerateHelp(gen.help);
    if (sub === 'subcommands') return SUBCOMMANDS;
    if (sub === 'subcommands-2') return SUBCOMMANDS_2;
    throw new LabError(
      `${binary} generate --help shows neither --no-default-folder (Syncthing 1.x) nor --no-port-probing (2.x): ` +
        `the lab does not know how to generate a home with it (${gen.failed ?? firstLines(gen.help)})`,
    );
  }
  throw new LabError(
    `${binary} --help shows neither Syncthing's subcommands (generate, serve) nor its flags (-generate, -home): is it Syncthing? ` +
      `(${top.failed ?? firstLines(top.help)})`,
  );
}
