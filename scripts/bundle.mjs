// The `synconf` command as users run it, in dist/bin/ (the sources stay the TypeScript in src/; the
// tests run them with tsx). Start-up time is measured in bench/; what is built, and why:
//   synconf.js              src/cli/bin.ts, CommonJS (package.json here says so): it prints the top-level help
//                           (help.json) and loads the command line (cli.cjs) for anything else. As CommonJS,
//                           Node starts it without setting up its ES module loader (~5 ms of every start).
//   package.json            {"type": "commonjs"}, for synconf.js (the package's own says "module").
//   help.json               the top-level help (`synconf --help`) as yargs lays it out, per wrap width, written
//                           here by the command just built, so that --help need not load yargs.
//   cli.cjs                 src/cli/main.ts, the command line (yargs, the command definitions, the lab and agents
//                           commands), one CommonJS file that src/cli/load-engine.ts loads through V8's code cache;
//   engine.cjs              src/engine.ts, what the commands run (runner, validators, reports, ...), one
//                           CommonJS file that src/cli/load-engine.ts loads through V8's code cache, when a
//                           command's handler imports it (--version and --help of a command do not);
//   load-worker.cjs         src/scenario/load-worker.ts: a scenario file of a megabyte or more loads in a worker
//                           thread, so that a signal is heard while it loads;
//   cli.cjs.cache,          written here after a replay of the bundled recordings, so that a command does
//   engine.cjs.cache        not compile again what that replay compiled.
//   parsed-yaml/            the YAML files synconf ships (suites/, expectations/, spec/, bench/) and their values, one
//                           file per text named by its CRC-32, so that a run need not parse them (src/schema/built-yaml.ts).
// src/errors.ts is in cli.cjs only: engine.cjs's require('./errors.cjs') gets the command line's copy (loadBundle's
// `provided`), so that the CLI tells a user's error from a fault of synconf by its class (instanceof), and no start
// resolves, reads and compiles a third file for it (~0.6 ms).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { crc32 } from 'node:zlib';
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { globSync } from 'tinyglobby';
import { fileURLToPath } from 'node:url';
import { lazyStringWidth } from './lazy-string-width-plugin.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const src = join(root, 'src');
const outdir = fileURLToPath(new URL('../dist/bin/', import.meta.url));
const ERRORS = join(src, 'errors.ts');
const ENGINE = join(src, 'engine.ts');
const ENGINE_FILE = join(outdir, 'engine.cjs');
const CLI = join(src, 'cli', 'main.ts');
const CLI_FILE = join(outdir, 'cli.cjs');

/** the source file a relative import names (imports are written with .js, the sources are .ts) */
const target = (args) => resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');

// In the engine, every import of src/errors.ts becomes a require of './errors.cjs', which the command line that loads
// the engine answers with its own copy (loaderOf).
const sharedErrors = {
  name: 'shared-errors',
  setup(b) {
    b.onResolve({ filter: /\/errors\.js$/ }, (args) =>
      target(args) === ERRORS ? { path: './errors.cjs', external: true } : undefined,
    );
  },
};

/** the module that loads the bundle `file` (of dist/bin) through its code cache, exporting `names` of it; a bundle
 * that requires './errors.cjs' (`sharesErrors`) gets the loading bundle's src/errors.ts */
const loaderOf = (file, names, typesFrom, sharesErrors) =>
  [
    "import { fileURLToPath } from 'node:url';",
    "import { loadBundle } from './load-engine.js';",
    ...(sharesErrors ? ["import * as errors from '../errors.js';"] : []),
    `const bundle = loadBundle(fileURLToPath(new URL('./${file}', import.meta.url))${sharesErrors ? ", { './errors.cjs': errors }" : ''});`,
    ...names.map((name) => `export const ${name} = bundle.${name} as typeof import('${typesFrom}').${name};`),
  ].join('\n');

/** a plugin by which an import of the source `source` loads dist/bin/`file` through its code cache instead */
const throughCodeCache = (source, file, names, typesFrom, sharesErrors = false) => ({
  name: `${file}-through-code-cache`,
  setup(b) {
    b.onResolve({ filter: /\.js$/ }, (args) =>
      target(args) === source ? { path: source, namespace: `${file}-loader` } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: `${file}-loader` }, () => ({
      resolveDir: join(src, 'cli'),
      loader: 'ts',
      contents: loaderOf(file, names, typesFrom, sharesErrors),
    }));
  },
});

// In the command line bundle, `import('../engine.js')` gives the exports of engine.cjs, loaded with its cache.
const engineNames = [...readFileSync(ENGINE, 'utf8').matchAll(/^export \{([^}]+)\} from/gm)].flatMap((m) =>
  m[1].split(',').map((name) => name.trim()),
);
const engineThroughCodeCache = throughCodeCache(ENGINE, 'engine.cjs', engineNames, '../engine.js', true);
// In synconf.js, `import('./main.js')` runs cli.cjs, loaded with its cache (main.ts exports nothing).
const cliThroughCodeCache = throughCodeCache(CLI, 'cli.cjs', [], './main.js');

// fdir (tinyglobby's crawler) loads picomatch from node_modules with a require() of its own when its module is
// evaluated, for a glob feature tinyglobby does not use: five files parsed outside the code cache on every run
// that globs (a replay of the bundled suites, ~4% of it). Given the bundle's own picomatch instead, it loads nothing.
const FDIR_REQUIRE = '__require.resolve("picomatch");\n\tpm = __require("picomatch");';
const bundledPicomatchForFdir = {
  name: 'bundled-picomatch-for-fdir',
  setup(b) {
    b.onLoad({ filter: /[/\\]fdir[/\\]dist[/\\]index\.mjs$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes(FDIR_REQUIRE)) {
        console.warn(`bundle: ${args.path} no longer requires picomatch as expected; bundled as it is`);
        return undefined;
      }
      return {
        contents: `import __bundledPicomatch from 'picomatch';\n${text.replace(FDIR_REQUIRE, 'pm = __bundledPicomatch;')}`,
      };
    });
  },
};

// The sources' `import ... from 'js-yaml'` in the engine: the same functions, js-yaml evaluated on first use.
const LAZY_JS_YAML = fileURLToPath(new URL('./lazy-js-yaml.mjs', import.meta.url));
const lazyJsYaml = {
  name: 'lazy-js-yaml',
  setup(b) {
    b.onResolve({ filter: /^js-yaml$/ }, (args) =>
      args.importer === LAZY_JS_YAML ? undefined : { path: LAZY_JS_YAML },
    );
  },
};

// yargs' `import { notStrictEqual, strictEqual } from 'assert'`: the two checks, without loading node:assert.
const YARGS_ASSERT = fileURLToPath(new URL('./yargs-assert.mjs', import.meta.url));
const yargsAssert = {
  name: 'yargs-assert',
  setup(b) {
    b.onResolve({ filter: /^assert$/ }, (args) =>
      /[/\\]node_modules[/\\]yargs[/\\]/.test(args.importer) ? { path: YARGS_ASSERT } : undefined,
    );
  },
};

// SYNCONF_PROFILE_BUILD=1 keeps names and lines, so that a CPU profile (node --cpu-prof) names the functions
// (bench/profile-summary.mjs); the shipped build is minified.
const readable = process.env.SYNCONF_PROFILE_BUILD === '1';
const common = {
  bundle: true,
  minify: !readable,
  keepNames: readable,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
};

// src/report/assets.ts reads the CSS and JS of the HTML pages from src/report/assets/ when run from source; in the
// bundles it is their text (each file's without its final newline, as the module reads it), so dist/ holds them.
const ASSETS = join(src, 'report', 'assets.ts');
const reportAssets = {
  name: 'report-assets',
  setup(b) {
    b.onLoad({ filter: /[\\/]report[\\/]assets\.ts$/ }, (args) => {
      if (args.path !== ASSETS) return undefined;
      const exported = [...readFileSync(ASSETS, 'utf8').matchAll(/^export const (\w+) = asset\('([^']+)'\);$/gm)];
      if (!exported.length) throw new Error(`${ASSETS}: no export of the form "export const NAME = asset('file');"`);
      const text = (file) => readFileSync(join(src, 'report', 'assets', file), 'utf8').replace(/\n$/, '');
      const contents = exported.map(([, name, file]) => `export const ${name} = ${JSON.stringify(text(file))};`);
      return { contents: contents.join('\n'), loader: 'js' };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
// The two CommonJS bundles: src/paths.ts finds the package root from its own location, and yargs its own.
const commonJs = {
  ...common,
  format: 'cjs',
  define: { 'import.meta.url': '__synconfUrl' },
  banner: { js: "var __synconfUrl = require('node:url').pathToFileURL(__filename).href;" },
};
await build({
  ...commonJs,
  entryPoints: [ENGINE],
  outfile: ENGINE_FILE,
  plugins: [sharedErrors, bundledPicomatchForFdir, lazyJsYaml, reportAssets],
});
// A large scenario file loads in a worker thread (src/scenario/load-off-thread.ts), from this file beside the engine;
// it has its own copy of src/errors.ts (its errors come back to the engine as data).
await build({
  ...commonJs,
  entryPoints: [join(src, 'scenario', 'load-worker.ts')],
  outfile: join(outdir, 'load-worker.cjs'),
  plugins: [bundledPicomatchForFdir, lazyJsYaml, reportAssets],
});
await build({
  ...commonJs,
  entryPoints: [CLI],
  outfile: CLI_FILE,
  plugins: [engineThroughCodeCache, lazyStringWidth, yargsAssert, bundledPicomatchForFdir, reportAssets],
});
await build({
  ...commonJs,
  entryPoints: [join(src, 'cli', 'bin.ts')],
  outfile: join(outdir, 'synconf.js'),
  plugins: [cliThroughCodeCache],
});
writeFileSync(join(outdir, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
chmodSync(join(outdir, 'synconf.js'), 0o755);

// The top-level help at the widths most terminals and every pipe get (src/cli/help-width.ts: 100 when stdout is
// not a terminal, at most 110); at any other width `synconf --help` lays it out with yargs as before.
const HELP_WIDTHS = [80, 100, 110];
const helpTexts = Object.fromEntries(
  HELP_WIDTHS.map((width) => {
    const columns = `--import=data:text/javascript,process.stdout.columns=${width}`;
    const r = spawnSync(process.execPath, [columns, join(outdir, 'synconf.js'), '--help'], { encoding: 'utf8' });
    if (r.status !== 0 || !r.stdout.startsWith('synconf: '))
      throw new Error(`bundle: synconf --help at width ${width} ended ${r.status}:\n${r.stdout}${r.stderr}`);
    return [width, r.stdout];
  }),
);
writeFileSync(join(outdir, 'help.json'), JSON.stringify(helpTexts));

// The shipped YAML files, each with its value. A value JSON does not carry unchanged (.inf, .nan) is left to be parsed
// at run time, and so are texts whose CRC-32 (the entry's file name, as src/schema/built-yaml.ts finds it) another text
// has too. A scenario file that the sources' loader accepts, with every check (scripts/loaded-scenarios.ts), has what
// it made of it in its entry too; that part is written after the code cache's replay, which so loads the shipped
// scenarios with every check, as a user's own are loaded, and the cache holds that code too (a replay of a user's
// suites compiled it at every start otherwise: ~10 ms more CPU).
const yamlFiles = globSync(['suites/**/*.yaml', 'expectations/*.yaml', 'spec/*.yaml', 'bench/*.yaml'], { cwd: root });
const textOf = (file) => readFileSync(join(root, file), 'utf8');
const loading = spawnSync(
  process.execPath,
  ['--import', 'tsx', join(root, 'scripts', 'loaded-scenarios.ts'), ...yamlFiles],
  {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  },
);
if (loading.status !== 0)
  throw new Error(`bundle: loading the shipped scenarios ended ${loading.status}:\n${loading.stderr}`);
const loaded = new Map(JSON.parse(loading.stdout).map(([file, scenario]) => [textOf(file), scenario]));
const entries = new Map(); // by file name: a text and its value; undefined for a name two texts have
for (const text of new Set(yamlFiles.map(textOf))) {
  const value = loadYaml(text, { schema: CORE_SCHEMA });
  const json = JSON.stringify(value);
  const name = `${crc32(text).toString(16).padStart(8, '0')}.json`;
  const kept = json !== undefined && isDeepStrictEqual(JSON.parse(json), value);
  entries.set(name, kept && !entries.has(name) ? { text, value } : undefined);
}
mkdirSync(join(outdir, 'parsed-yaml'));
/** the entries, with what the loader made of each scenario or without */
function writeEntries(withScenarios) {
  for (const [name, entry] of entries) {
    if (entry === undefined) continue;
    const scenario = withScenarios ? scenarioEntry(entry.text, entry.value) : {};
    writeFileSync(join(outdir, 'parsed-yaml', name), JSON.stringify({ ...entry, ...scenario }));
  }
}
writeEntries(false);

/** the `scenario` member of a text's entry: its step lines, citations, and steps when their tables made them other than written */
function scenarioEntry(text, value) {
  const { scenario, stepLines, cited } = loaded.get(text) ?? {};
  if (!stepLines) return {};
  return { scenario: { stepLines, cited, ...(isDeepStrictEqual(scenario, value) ? {} : { expanded: scenario }) } };
}

// The code cache: what a replay of the bundled recordings compiles (validators, YAML, reports, ...).
const reports = mkdtempSync(join(tmpdir(), 'synconf-bundle-'));
const replay = spawnSync(process.execPath, [join(outdir, 'synconf.js'), 'replay', '--report-dir', reports], {
  env: { ...process.env, SYNCONF_WRITE_CODE_CACHE: [CLI_FILE, ENGINE_FILE].join(delimiter) },
  encoding: 'utf8',
});
rmSync(reports, { recursive: true, force: true });
for (const file of [CLI_FILE, ENGINE_FILE])
  if (!existsSync(`${file}.cache`))
    throw new Error(`bundle: no code cache written for ${file} (the replay ended ${replay.status}):\n${replay.stderr}`);
writeEntries(true);
