#!/usr/bin/env node
// Where the time of a short `synconf run --agent` goes, measured on the built command and changing
// nothing in synconf:
//   1. whole processes (bare Node, `--version`, `run --help`, fetch's first use for plain-13.mjs);
//   2. the phases of the benchmark run (bench/synconf-13.yaml) against a lab agent: start-up until the
//      first request, the requests, and the end (reports, exit), next to bench/plain-13.mjs;
//   3. a CPU profile of that run, its samples attributed to the source module they ran in (src/… or a
//      package): esbuild bundles the same entry point as scripts/bundle.mjs, unminified, into a scratch
//      folder under dist/, whose `// src/…` markers say which module each line came from.
//
//   npm run build && node bench/profile-startup.mjs [URL KEY]   # without URL KEY it starts (and stops) a lab
//   RUNS=25 STAT=median node bench/profile-startup.mjs
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.RUNS ?? 15);
// The minimum of RUNS: the machine's other load only ever adds time, so the minimum is the steadiest
// estimate of synconf's own cost (STAT=median for the typical value).
const STAT = process.env.STAT ?? 'min';
const pick = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return STAT === 'median' ? s[Math.floor(s.length / 2)] : s[0];
};
const BIN = join(ROOT, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin.synconf);
if (!existsSync(BIN)) {
  console.error(`profile-startup: ${BIN} is missing; run npm run build first`);
  process.exit(2);
}
const node = (args, opts = {}) => spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', ...opts });
const ms = (v) => (v === undefined ? '      -' : v.toFixed(1).padStart(7));
const row = (label, v) => console.log(`${ms(v)}  ${label}`);

function wall(args) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    node(args, { stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return pick(times);
}

console.log(`${STAT} of ${RUNS} fresh processes, ms\n-- whole processes`);
row('node -e 0 (bare Node start and exit)', wall(['-e', '0']));
row('synconf --version', wall([BIN, '--version']));
row('synconf run --help', wall([BIN, 'run', '--help']));
{
  const code =
    "const t = performance.now(); await fetch('http://127.0.0.1:9/').catch(() => {}); console.log(performance.now() - t);";
  const xs = Array.from({ length: RUNS }, () => Number(node(['--input-type=module', '-e', code]).stdout.trim()));
  row('fetch() first use (undici loads), paid by plain-13.mjs', pick(xs));
}

// -- a lab agent (or the one given) with the benchmark's folder
let [url, key] = process.argv.slice(2);
let labDir;
if (!url) {
  labDir = join(mkdtempSync(join(tmpdir(), 'synconf-profile-')), 'lab');
  const up = node([BIN, 'lab', 'up', '--json', '--dir', labDir]);
  if (up.status !== 0) {
    console.error(up.stderr);
    process.exit(2);
  }
  const [a] = JSON.parse(up.stdout);
  ({ url, apiKey: key } = a);
  const path = join(a.dataDir, 'bench-folder');
  mkdirSync(path, { recursive: true });
  const res = await fetch(`${url}/rest/config/folders`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ id: 'bench-folder', label: 'synconf bench', path, type: 'sendreceive' }),
  });
  if (!res.ok) throw new Error(`cannot create the folder: ${res.status}`);
}
const stopLab = () => {
  if (labDir) {
    node([BIN, 'lab', 'down', '--dir', labDir]);
    rmSync(dirname(labDir), { recursive: true, force: true });
  }
};
process.on('exit', stopLab);
await fetch(`${url}/rest/system/error/clear`, { method: 'POST', headers: { 'X-API-Key': key } });

const runArgs = (bin) => [
  bin,
  'run',
  '--agent',
  url,
  '--api-key',
  key,
  '--suite',
  'bench/synconf-13.yaml',
  '--report-dir',
  join(tmpdir(), 'synconf-profile-report'),
  '--expectations',
  'bench/known-deviations-1.19.2.yaml',
];
const plainArgs = ['bench/plain-13.mjs', url, key, 'bench-folder'];

// -- 2. phases, from bench/marks.mjs
function phases(args) {
  const all = Array.from({ length: RUNS }, () => {
    const m =
      /preload +([\d.]+) +first request +([\d.]+) +last response +([\d.]+) +exit +([\d.]+) +requests (\d+)/.exec(
        node(['--import', './bench/marks.mjs', ...args]).stderr,
      );
    if (!m) throw new Error(`no marks from ${args.join(' ')}`);
    const [boot, first, last, exit, n] = m.slice(1).map(Number);
    return { boot, startup: first - boot, requests: last - first, end: exit - last, n };
  });
  return Object.fromEntries(
    ['boot', 'startup', 'requests', 'end'].map((k) => [k, pick(all.map((x) => x[k]))]).concat([['n', all[0].n]]),
  );
}
console.log('-- phases of one benchmark run (ms since the process started; end = until the exit event)');
console.log('   Node boot   start-up   requests        end');
for (const [label, args] of [
  ['synconf', runArgs(BIN)],
  ['plain', plainArgs],
]) {
  const p = phases(args);
  console.log(`${ms(p.boot)}    ${ms(p.startup)}    ${ms(p.requests)}    ${ms(p.end)}  ${label} (${p.n} requests)`);
}

// -- 3. CPU profile by source module
const scratch = join(ROOT, 'dist', `profile-${process.pid}`);
try {
  const { build } = await import('esbuild');
  const { lazyStringWidth } = await import('../scripts/lazy-string-width-plugin.mjs');
  await build({
    entryPoints: { synconf: join(ROOT, 'src/cli/main.ts') },
    outdir: scratch,
    bundle: true,
    splitting: true,
    minify: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    plugins: [lazyStringWidth],
    banner: {
      js: "import { createRequire as __synconfRequire } from 'node:module'; const require = __synconfRequire(import.meta.url);",
    },
  });
  // line → source module, from esbuild's `// path` markers
  const moduleAt = new Map();
  for (const f of readdirSync(scratch)) {
    let current = `(bundle glue) ${f}`;
    moduleAt.set(
      f,
      readFileSync(join(scratch, f), 'utf8')
        .split('\n')
        .map((line) => {
          const m = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(line);
          if (m) current = m[1];
          return current;
        }),
    );
  }
  const group = (mod) => {
    const m = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(mod);
    return m ? m[1] : mod;
  };
  const totals = new Map();
  const byModule = new Map();
  let span = 0;
  const profiles = join(scratch, 'cpu');
  for (let i = 0; i < Math.min(RUNS, 5); i++)
    node(
      ['--cpu-prof', '--cpu-prof-dir', profiles, '--cpu-prof-interval', '200', ...runArgs(join(scratch, 'synconf.js'))],
      { stdio: 'ignore' },
    );
  const files = readdirSync(profiles);
  for (const f of files) {
    const p = JSON.parse(readFileSync(join(profiles, f), 'utf8'));
    span += (p.endTime - p.startTime) / 1000 / files.length;
    const self = new Map();
    for (let i = 0; i < p.samples.length; i++)
      self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000 / files.length);
    for (const n of p.nodes) {
      const t = self.get(n.id);
      if (!t) continue;
      const { url: u, lineNumber, functionName } = n.callFrame;
      let key;
      if (u.startsWith(`file://${scratch}/`))
        key = moduleAt.get(u.slice(`file://${scratch}/`.length))?.[lineNumber] ?? u;
      else if (u.startsWith('node:internal/modules') || u.startsWith('node:internal/deps/cjs-module-lexer'))
        key = '(node: module loader)';
      else if (u.startsWith('node:')) key = `(node: ${u.replace(/^node:(internal\/)?/, '').split('/')[0]})`;
      else key = `(${functionName || 'native'})`;
      byModule.set(key, (byModule.get(key) ?? 0) + t);
      totals.set(group(key), (totals.get(group(key)) ?? 0) + t);
    }
  }
  console.log(
    `-- CPU profile of the benchmark run (unminified bundle, mean of ${files.length} profiles of ~${span.toFixed(0)} ms), self time by package / source module, ms`,
  );
  for (const [k, v] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, 22)) row(k, v);
  console.log('-- the same, by source module (top 25)');
  for (const [k, v] of [...byModule]
    .filter(([k]) => !k.startsWith('('))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25))
    row(k, v);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
