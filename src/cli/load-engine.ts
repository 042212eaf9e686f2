// How the built command loads its two CommonJS bundles through V8's code cache: scripts/bundle.mjs builds the
// command line (src/cli/main.ts: yargs and the command definitions) as dist/bin/cli.cjs and the engine (src/engine.ts)
// as dist/bin/engine.cjs, and `npm run build` writes the code cache of each (cli.cjs.cache, engine.cjs.cache) after a
// replay of the bundled recordings. Loading them through their caches spares every command parsing ~1.5 MB of
// JavaScript and compiling, again, yargs, the validators, the YAML parser and the report writers it uses (~15 ms of
// the engine, ~5 ms of the command line, whose ES module chunk was compiled at every start: bench/README.md).
// Node 22 caches every module so (module.enableCompileCache); Node 20 only offers vm.Script's cachedData, hence this
// module. Under tsx (the tests) the sources are imported themselves and this module is not used.
//
// V8 checks that a cache was made by the same V8 and flags, but of the source only its length, and a
// damaged cache can crash the process. So the cache file starts with the CRC-32 of the engine it was made
// for and that of the V8 data; a cache that does not match both is ignored, and the engine is compiled
// from source, as `require` would.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { delimiter, dirname } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';

const HEADER = 8;

/** the V8 data of `cacheFile` when it was made for `source` and is intact */
function readCache(cacheFile: string, source: Buffer): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(cacheFile);
  } catch {
    return undefined; // no cache: compiled from source
  }
  const data = file.subarray(HEADER);
  const intact = file.length > HEADER && file.readUInt32BE(0) === crc32(source) && file.readUInt32BE(4) === crc32(data);
  return intact ? data : undefined;
}

function writeCache(cacheFile: string, source: Buffer, data: Buffer): void {
  const header = Buffer.alloc(HEADER);
  header.writeUInt32BE(crc32(source), 0);
  header.writeUInt32BE(crc32(data), 4);
  writeFileSync(`${cacheFile}.tmp`, Buffer.concat([header, data]));
  renameSync(`${cacheFile}.tmp`, cacheFile);
}

/**
 * the exports of the CommonJS file `file` (a bundle), compiled with its code cache (`<file>.cache`) when that fits;
 * its require() of a name in `provided` gets that module (the loading bundle's own copy) instead of a file
 */
export function loadBundle(file: string, provided: Record<string, unknown> = {}): Record<string, unknown> {
  const source = readFileSync(file);
  const cacheFile = `${file}.cache`;
  const script = new Script(Module.wrap(source.toString('utf8')), {
    filename: file,
    cachedData: readCache(cacheFile, source),
  });
  const module = { exports: {} as Record<string, unknown> };
  const requireFile = createRequire(file);
  const require = Object.assign(
    (id: string) => (Object.hasOwn(provided, id) ? provided[id] : requireFile(id)),
    requireFile,
  );
  script.runInThisContext()(module.exports, require, module, file, dirname(file));
  // Set by scripts/bundle.mjs only (the bundles, separated by the path delimiter): the cache is written when the
  // process ends, so that it holds the code that this process compiled, not only the file's top level.
  if (process.env.SYNCONF_WRITE_CODE_CACHE?.split(delimiter).includes(file))
    process.once('exit', () => writeCache(cacheFile, source, script.createCachedData()));
  return module.exports;
}
