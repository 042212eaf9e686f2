// The built command's layout (scripts/bundle.mjs): the engine is one CommonJS file loaded through the code
// cache the build wrote (src/cli/load-engine.ts), a run loads a handful of files, and without a usable cache
// (none, a damaged one, one made for another engine) the engine is compiled from source and works the same. A bug
// inside the engine is reported by the built command as a fault of synconf (exit 3), not as a user's error.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { ROOT } from '../src/paths.js';

const BIN_DIR = join(ROOT, 'dist', 'bin');
const ENGINE = join(BIN_DIR, 'engine.cjs');

/** the files a module of dist/bin imports statically, itself included */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const m of readFileSync(join(BIN_DIR, file), 'utf8').matchAll(/(?:from|import)\s*"\.\/([^"]+)"/g))
    staticClosure(m[1], seen);
  return seen;
}

describe('the built command', () => {
  const copies: string[] = [];
  after(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  test('the build wrote a code cache for engine.cjs that fits it, and V8 accepts it', () => {
    const source = readFileSync(ENGINE);
    const cache = readFileSync(`${ENGINE}.cache`);
    assert.equal(cache.readUInt32BE(0), crc32(source), 'made for this engine.cjs');
    assert.equal(cache.readUInt32BE(4), crc32(cache.subarray(8)), 'intact');
    const script = new Script(Module.wrap(source.toString('utf8')), {
      filename: ENGINE,
      cachedData: cache.subarray(8),
    });
    assert.equal(script.cachedDataRejected, false);
  });

  test('a run loads the command line and the engine from a handful of files', () => {
    // synconf.js imports its chunks statically; `run` then imports the chunk that loads engine.cjs.
    const loader = readFileSync(join(BIN_DIR, 'synconf.js'), 'utf8').match(/import\("\.\/(engine-[^"]+)"\)/);
    assert.ok(loader, 'synconf.js imports the engine lazily');
    const files = new Set([...staticClosure('synconf.js'), ...staticClosure(loader[1])]);
    assert.ok(files.size <= 6, `${files.size} files: ${[...files].join(', ')}`);
    assert.match(readFileSync(join(BIN_DIR, loader[1]), 'utf8'), /engine\.cjs/);
  });

  // Each changes the copy's engine.cjs.cache, or its engine.cjs: the engine must then run its own source.
  const damages: [string, (bin: string) => void][] = [
    ['without a code cache', (bin) => rmSync(join(bin, 'engine.cjs.cache'))],
    [
      'with a damaged code cache',
      (bin) => {
        const cache = readFileSync(join(bin, 'engine.cjs.cache'));
        for (const at of [108, 5008, 50_008]) cache[at] ^= 0xff;
        writeFileSync(join(bin, 'engine.cjs.cache'), cache);
      },
    ],
    // V8 checks only the length of the source a cache was made for: without the CRC-32 of the engine in the
    // cache file, this engine would run the cached code of the old one (and print CONFORMS).
    [
      'with the code cache of another engine.cjs of the same length',
      (bin) => {
        const engine = readFileSync(join(bin, 'engine.cjs'), 'utf8');
        writeFileSync(join(bin, 'engine.cjs'), engine.replaceAll('"CONFORMS"', '"CONFORMZ"'));
      },
    ],
  ];
  /** `replay --only system-ping` by a copy of dist/bin changed by `change`, and the folder of its reports */
  function replayWithCopy(change: (bin: string) => void) {
    // A copy inside the package, so that it finds synconf's files (src/paths.ts walks up to package.json).
    const copy = mkdtempSync(join(ROOT, 'dist', 'bundle-test-'));
    const reports = mkdtempSync(join(tmpdir(), 'synconf-bundle-'));
    copies.push(copy, reports);
    cpSync(BIN_DIR, join(copy, 'bin'), { recursive: true });
    change(join(copy, 'bin'));
    const r = spawnSync(
      process.execPath,
      [join(copy, 'bin', 'synconf.js'), 'replay', '--only', 'system-ping', '--report-dir', reports],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    return { ...r, reports };
  }

  for (const [what, damage] of damages)
    test(`${what}, the engine is compiled from its source and the command works`, () => {
      const r = replayWithCopy(damage);
      assert.equal(r.signal, null, r.stderr);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, what.includes('another') ? /CONFORMZ: 1 scenario/ : /CONFORMS: 1 scenario, \d+ checks/);
    });

  test('a bug inside the engine is exit 3: one line naming the log file with the stack, and the report says 3', () => {
    const r = replayWithCopy((bin) => {
      const engine = readFileSync(join(bin, 'engine.cjs'), 'utf8');
      const at = '{peer:"not recorded"'; // the capabilities of the replay target, made when the run starts
      assert.ok(engine.includes(at));
      writeFileSync(join(bin, 'engine.cjs'), engine.replace(at, '{peer:(()=>{throw new TypeError("injected")})()'));
    });
    assert.equal(r.status, 3, r.stdout + r.stderr);
    assert.match(r.stderr, /^synconf: internal error \(a bug in synconf [^)]+\): injected$/m);
    const log = /please report this bug with (\S+synconf-error-\d+\.log)/.exec(r.stderr)?.[1];
    assert.ok(log, r.stderr);
    copies.push(log);
    assert.match(readFileSync(log, 'utf8'), /TypeError: injected\n\s+at /);
    assert.doesNotMatch(r.stdout + r.stderr, /\n\s+at .*[:(]\d+/, 'no stack trace on the terminal');
    assert.equal(JSON.parse(readFileSync(join(r.reports, 'report.json'), 'utf8')).exitCode, 3);
  });
});
