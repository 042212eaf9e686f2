#!/usr/bin/env node
// Where synconf's start-up goes: the import cost of each module synconf loads for `run --agent`,
// each measured in fresh processes (the minimum of RUNS), including everything that module imports.
// It measures the built code (dist/; run `npm run build` first) and changes nothing.
//
//   node bench/profile-startup.mjs            # table of import costs, ms
//   RUNS=25 STAT=median node bench/profile-startup.mjs
//
// Three tables: whole processes; the MARGINAL cost of each package inside the set of modules a
// `synconf run --agent` imports (time to import that set, minus the time when the package is already
// loaded: what removing or deferring it would save); and each module's cost alone (its import closure,
// so rows overlap).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.RUNS ?? 15);
if (!existsSync(join(ROOT, 'dist/src/cli/main.js'))) {
  console.error('profile-startup: dist/ is missing; run npm run build first');
  process.exit(2);
}

const dist = (p) => pathToFileURL(join(ROOT, 'dist/src', p)).href;
const pkg = (p) => p; // resolved from the repository (cwd)

// The minimum of RUNS fresh processes: the machine's other load only ever adds time, so the minimum is the
// steadiest estimate of a module's own cost (STAT=median to see the typical value instead).
const STAT = process.env.STAT ?? 'min';
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return STAT === 'median' ? s[Math.floor(s.length / 2)] : s[0]; };

/** median ms of `await import(spec)` (or of running code) in a fresh node process */
function measure(code) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
    times.push(Number(out.trim().split('\n').at(-1)));
  }
  return median(times);
}
const importCost = (spec) => measure(`const t = performance.now(); await import(${JSON.stringify(spec)}); console.log(performance.now() - t);`);

/** whole process, from exec to exit, median ms */
function wall(args) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    try { execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'ignore' }); } catch { /* exit codes do not matter here */ }
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(times);
}

const rows = [];
const row = (label, ms) => { rows.push([label, ms]); console.log(`${ms.toFixed(1).padStart(8)}  ${label}`); };

console.log(`${STAT} of ${RUNS} fresh processes, ms\n-- whole processes`);
row('node -e 0 (bare Node start and exit)', wall(['-e', '0']));
row('synconf --version (main.js: yargs + every command module)', wall([join(ROOT, 'dist/src/cli/main.js'), '--version']));
row('synconf run --help', wall([join(ROOT, 'dist/src/cli/main.js'), 'run', '--help']));
row('fetch() first use (undici), for plain-13.mjs', measure(`const t = performance.now(); await fetch('http://127.0.0.1:9/').catch(() => {}); console.log(performance.now() - t);`));

// What `synconf run --agent` imports: main.js's static imports (it cannot be imported itself: it parses argv),
// then, in the run handler, execute-run.js and runner/targets.js.
const RUN_SET = ['yargs', 'yargs/helpers', ...['cli/validate.js', 'cli/lab.js', 'cli/run.js', 'cli/replay.js', 'cli/drift.js', 'cli/report.js', 'cli/exit.js', 'cli/execute-run.js', 'runner/targets.js'].map(dist)];
const once = (code) => Number(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').at(-1));
// The module loader warms up on its first imports (its own code gets compiled), and whatever is imported
// first pays for that; every variant therefore first imports two tiny modules (one ESM, one CommonJS).
const WARM = [dist('cli/exit.js'), 'ajv/dist/runtime/equal.js'];
const setCode = (pre) => `${[...WARM, ...pre].map((p) => `await import(${JSON.stringify(p)});`).join(' ')} const t = performance.now(); for (const m of ${JSON.stringify(RUN_SET)}) await import(m); console.log(performance.now() - t);`;
console.log('-- marginal cost inside the modules of `run --agent` (what deferring the package would save)');
const groups = {
  'yargs (+ yargs/helpers, cliui, y18n, string-width, …)': ['yargs', 'yargs/helpers'],
  'fast-xml-parser (JUnit writer only)': ['fast-xml-parser'],
  'yaml (scenario and expectations files)': ['yaml'],
  'semver (whole package: index.js requires ~45 files)': ['semver'],
  'tinyglobby (+ picomatch, fdir)': ['tinyglobby'],
  'generated validators (validators-spec.js 840 kB + 0.0.0 + ajv runtime/formats)': [dist('schema/generated/index.js')],
  'report writers (write.js: html, junit → fast-xml-parser, markdown)': [dist('report/write.js')],
  'schema/registry.js (generated validators + semver)': [dist('schema/registry.js')],
  // scenario-runner imports transport/replay.js (→ cassette.js → registry.js) for one constant, RECORDING_ENDS;
  // compare with the registry row: what replay.js adds of its own is the difference
  'transport/replay.js (+ cassette.js → registry.js)': [dist('transport/replay.js')],
};
// Rounds: in each, the whole set once and the set after each preload once, so that the machine's other load
// falls on all of them alike; a package's marginal cost is the median over rounds of (whole − with it preloaded).
const labels = Object.keys(groups);
const whole = [];
const cold = [];
const diffs = Object.fromEntries(labels.map((l) => [l, []]));
for (let r = 0; r < RUNS; r++) {
  cold.push(once(`const t = performance.now(); for (const m of ${JSON.stringify(RUN_SET)}) await import(m); console.log(performance.now() - t);`));
  const w = once(setCode([]));
  whole.push(w);
  for (const l of labels) diffs[l].push(w - once(setCode(groups[l])));
}
const mid = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
row(`ALL modules of run --agent, cold (yargs, command modules, execute-run, targets; no request yet; median, min ${Math.min(...cold).toFixed(1)})`, mid(cold));
row(`the same after the loader warmed up on two tiny modules (median, min ${Math.min(...whole).toFixed(1)}); the rows below share out this`, mid(whole));
for (const l of labels) row(l, mid(diffs[l]));

console.log('-- third-party packages, alone (import closure)');
for (const p of ['yargs', 'yargs/helpers', 'yaml', 'semver', 'tinyglobby', 'fast-xml-parser', 'ajv-formats/dist/formats.js', 'ajv/dist/runtime/equal.js', 'ajv/dist/runtime/ucs2length.js', 'execa']) row(p, importCost(pkg(p)));

console.log('-- synconf modules (dist/, import closure)');
for (const p of [
  'cli/exit.js', 'paths.js', 'cli/run.js', 'cli/validate.js', 'cli/lab.js', 'cli/replay.js', 'cli/drift.js', 'cli/report.js',
  'cli/execute-run.js', 'runner/run.js', 'runner/targets.js', 'runner/scenario-runner.js', 'runner/expectations.js',
  'scenario/load.js', 'schema/registry.js', 'schema/generated/index.js', 'schema/generated/validators-spec.js', 'schema/generated/validators-0.0.0.js',
  'transport/live.js', 'transport/replay.js', 'report/write.js', 'report/html.js', 'report/junit.js', 'report/markdown.js', 'lab/lab.js',
]) row(p, importCost(dist(p)));
