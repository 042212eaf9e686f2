#!/usr/bin/env node
// The three speed ratios of `npm run bench` (bench/run.sh starts the lab agent and calls this), timed in one
// interleaved series (bench/interleave.mjs) so that the machine's load hits every command alike:
//   help    `synconf --help` against bare `node -e 0`                       target ≤ 3
//   replay  `synconf replay` (the bundled 1.19.2 recordings) against `node -e 0`  target ≤ 10
//   live    `synconf run` of bench/synconf-13.yaml against bench/plain-13.mjs    target ≤ 0.9
//
//   node bench/ratios.mjs BIN TMP [URL KEY FOLDER]   # without URL: help and replay only
// Environment: RUNS (default 30), WARMUP (default 3). Writes bench/results.json.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { interleave, load } from './interleave.mjs';

const [bin, tmp, url, key, folder] = process.argv.slice(2);
if (!bin || !tmp) {
  console.error('usage: node bench/ratios.mjs BIN TMP [URL KEY FOLDER]');
  process.exit(2);
}
const node = process.execPath;
const commands = [
  { name: 'node', argv: [node, '-e', '0'] },
  { name: 'help', argv: [node, bin, '--help'] },
  { name: 'replay', argv: [node, bin, 'replay', '--report-dir', `${tmp}/replay`] },
];
if (url)
  commands.push(
    { name: 'plain', argv: [node, 'bench/plain-13.mjs', url, key, folder] },
    {
      name: 'live',
      argv: [
        ...[node, bin, 'run', '--agent', url, '--api-key', key, '--suite', 'bench/synconf-13.yaml'],
        ...['--report-dir', `${tmp}/live`, '--expectations', 'bench/known-deviations-1.19.2.yaml'],
      ],
    },
  );

const runs = Number(process.env.RUNS ?? 30);
const warmup = Number(process.env.WARMUP ?? 3);
const loadBefore = load();
const results = interleave(commands, { runs, warmup });
const by = Object.fromEntries(results.map((r) => [r.name, r]));
const ratios = [
  { name: 'help', what: 'synconf --help / node -e 0', over: 'help', base: 'node', target: 3 },
  { name: 'replay', what: 'synconf replay (1.19.2) / node -e 0', over: 'replay', base: 'node', target: 10 },
  { name: 'live', what: 'synconf run (13 requests) / plain-13.mjs', over: 'live', base: 'plain', target: 0.9 },
].filter((r) => by[r.over]);

const ms = (v) => `${v.toFixed(1)} ms`;
console.log(
  `medians of ${runs} interleaved runs (after ${warmup} warm-up rounds), load average ${loadBefore} → ${load()}`,
);
for (const r of results) console.log(`  ${r.name.padEnd(7)} median ${ms(r.median).padStart(9)}  (min ${ms(r.min)})`);
for (const r of ratios) {
  const ratio = by[r.over].median / by[r.base].median;
  const verdict = ratio <= r.target ? 'met' : 'NOT met';
  console.log(
    `${r.name.padEnd(7)} ${ratio.toFixed(2)}×  ${r.what}: ${ms(by[r.over].median)} / ${ms(by[r.base].median)} (target ≤ ${r.target}×: ${verdict})`,
  );
  r.ratio = ratio;
}
writeFileSync(
  'bench/results.json',
  JSON.stringify({ date: new Date().toISOString(), load: loadavg(), runs, warmup, ratios, results }, null, 2),
);
