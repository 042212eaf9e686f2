// The `synconf` command as users run it: one esbuild bundle with lazily loaded chunks in
// dist/bin/. Loading a few bundled files instead of hundreds of modules is most of synconf's
// start-up time (see bench/). The sources stay the TypeScript in src/ (tests run them with tsx).
import { build } from 'esbuild';
import { rmSync, chmodSync } from 'node:fs';

const outdir = new URL('../dist/bin/', import.meta.url).pathname;

// yargs' help layout measures text with string-width, whose module body costs ~20 ms of every start (an
// Intl.Segmenter and a /^\p{RGI_Emoji}$/v regexp, in three copies). Only --help measures text: the bundle
// gets one copy, evaluated on its first call (scripts/lazy-string-width.mjs).
const LAZY_STRING_WIDTH = new URL('./lazy-string-width.mjs', import.meta.url).pathname;
const lazyStringWidth = {
  name: 'lazy-string-width',
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, (args) =>
      args.importer === LAZY_STRING_WIDTH ? undefined : { path: LAZY_STRING_WIDTH },
    );
  },
};
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { synconf: new URL('../src/cli/main.ts', import.meta.url).pathname },
  outdir,
  bundle: true,
  splitting: true,
  minify: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // CommonJS dependencies (ajv's runtime, yaml) call require(): give the ES module bundle one.
  banner: {
    js: "import { createRequire as __synconfRequire } from 'node:module'; const require = __synconfRequire(import.meta.url);",
  },
  logLevel: 'warning',
  plugins: [lazyStringWidth],
});
chmodSync(`${outdir}/synconf.js`, 0o755);
