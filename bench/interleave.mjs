#!/usr/bin/env node
// Times whole processes in interleaved rounds: each round runs every command once, in turn, so that a burst of
// the shared machine's load hits all of them alike (hyperfine runs all the runs of one command, then the next).
// The result is a ratio of medians against the first command, the baseline.
//
//   node bench/interleave.mjs [--runs N] [--warmup N] [--json FILE] NAME='CMD ARGS' NAME='CMD ARGS' ...
//
// Each command is split at spaces (no shell, no quoting) and must exit 0: a fast failure is no result.
// Exit 0 when timed, 2 on a bad argument or a command that fails.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';

/** the middle value (the mean of the two middle ones for an even count) */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** one run of `argv` (a command and its arguments): wall time in ms; throws when it does not exit 0 */
function timeOnce(argv, env) {
  const start = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} ended ${r.status ?? r.signal}: ${r.stderr.slice(-400)}`);
  return ms;
}

/**
 * `commands`: [{ name, argv }]; every command runs `warmup` untimed rounds, then `runs` timed ones, interleaved.
 * Returns, per command, its times, median and minimum, and its ratio (of medians) to the first command.
 */
export function interleave(commands, { runs = 30, warmup = 3, env = process.env } = {}) {
  const times = commands.map(() => []);
  for (let round = 0; round < warmup + runs; round++)
    commands.forEach(({ argv }, i) => {
      const ms = timeOnce(argv, env);
      if (round >= warmup) times[i].push(ms);
    });
  const base = median(times[0]);
  return commands.map(({ name, argv }, i) => ({
    name,
    command: argv.join(' '),
    times: times[i],
    median: median(times[i]),
    min: Math.min(...times[i]),
    ratio: median(times[i]) / base,
  }));
}

/** the load average (1, 5, 15 min) as printed with every result */
export const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function parseArgs(args) {
  const opts = { runs: 30, warmup: 3, json: undefined, commands: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--runs' || a === '--warmup') opts[a.slice(2)] = Number(args[++i]);
    else if (a === '--json') opts.json = args[++i];
    else if (/^[\w-]+=/.test(a)) {
      const [name, ...cmd] = a.split('=');
      opts.commands.push({ name, argv: cmd.join('=').split(' ').filter(Boolean) });
    } else throw new Error(`unknown argument ${a}`);
  }
  if (opts.commands.length < 2 || !(opts.runs >= 1) || !(opts.warmup >= 0))
    throw new Error("usage: interleave.mjs [--runs N] [--warmup N] [--json FILE] NAME='CMD' NAME='CMD' ...");
  return opts;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const opts = parseArgs(process.argv.slice(2));
    const results = interleave(opts.commands, opts);
    for (const r of results)
      console.log(
        `${r.name.padEnd(10)} median ${r.median.toFixed(1)} ms (min ${r.min.toFixed(1)}), ratio ${r.ratio.toFixed(2)}`,
      );
    console.log(`load average ${load()}`);
    if (opts.json) writeFileSync(opts.json, JSON.stringify({ load: loadavg(), results }, null, 2));
  } catch (err) {
    console.error(`interleave: ${err.message}`);
    process.exit(2);
  }
}
