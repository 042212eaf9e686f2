// The `synconf` command as users run it: one esbuild bundle with lazily loaded chunks in
// dist/bin/. Loading a few bundled files instead of hundreds of modules is most of synconf's
// start-up time (see bench/). The sources stay the TypeScript in src/ (tests run them with tsx).
import { build } from 'esbuild';
import { rmSync, chmodSync } from 'node:fs';
import { lazyStringWidth } from './lazy-string-width-plugin.mjs';

const outdir = new URL('../dist/bin/', import.meta.url).pathname;

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
