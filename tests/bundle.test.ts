// The built command's layout (scripts/bundle.mjs): the command line and the engine are CommonJS files loaded through
// the code caches the build wrote (src/cli/load-engine.ts), a run loads a handful of files, and without a usable cache
// (none, a damaged one, one made for another engine) the bundle is compiled from source and works the same. A bug
// inside the engine is reported by the built command as a fault of synconf (exit 3), not as a user's error.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { globSync } from 'tinyglobby';
import { ROOT } from '../src/paths.js';
import { EXIT } from '../src/errors.js';
import { builtEntryName } from '../src/schema/built-yaml.js';
import { cli } from './support/cli.js';
import { makeTemp } from './support/temp.js';

const BIN_DIR = join(ROOT, 'dist', 'bin');

describe('the built command', () => {
  const copies: string[] = [];
  after(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  for (const bundle of ['cli.cjs', 'engine.cjs'])
    test(`the build wrote a code cache for ${bundle} that fits it, and V8 accepts it`, () => {
      const file = join(BIN_DIR, bundle);
      const source = readFileSync(file);
      const cache = readFileSync(`${file}.cache`);
      assert.equal(cache.readUInt32BE(0), crc32(source), `made for this ${bundle}`);
      assert.equal(cache.readUInt32BE(4), crc32(cache.subarray(8)), 'intact');
      const script = new Script(Module.wrap(source.toString('utf8')), {
        filename: file,
        cachedData: cache.subarray(8),
      });
      assert.equal(script.cachedDataRejected, false);
    });

  test('a run loads the command line and the engine from a handful of files', () => {
    // synconf.js (src/cli/bin.ts) is CommonJS, as dist/bin/package.json says (Node then starts without its ES module
    // loader); it loads cli.cjs (src/cli/main.ts) through its code cache, and a command's handler engine.cjs, which
    // takes the error classes of cli.cjs (no errors.cjs to load: a user's error is told from a fault by its class).
    assert.deepEqual(JSON.parse(readFileSync(join(BIN_DIR, 'package.json'), 'utf8')), { type: 'commonjs' });
    const entry = readFileSync(join(BIN_DIR, 'synconf.js'), 'utf8');
    assert.doesNotMatch(entry, /^\s*import\b|\bexport\b/m, 'synconf.js is no ES module');
    assert.match(entry, /cli\.cjs/);
    assert.match(readFileSync(join(BIN_DIR, 'cli.cjs'), 'utf8'), /engine\.cjs/);
    // load-worker.cjs runs only in the worker thread of a scenario file of a megabyte or more
    const code = readdirSync(BIN_DIR).filter((f) => /\.(c?js)$/.test(f));
    assert.deepEqual(code.sort(), ['cli.cjs', 'engine.cjs', 'load-worker.cjs', 'synconf.js']);
    assert.match(readFileSync(join(BIN_DIR, 'engine.cjs'), 'utf8'), /load-worker\.cjs/);
    // --help alone: the entry, not yargs
    assert.ok(!entry.includes('yargs'), 'synconf.js holds no yargs');
  });

  // The built --help is a text laid out at build time (dist/bin/help.json): it must be what yargs lays out from
  // the sources, at each width the build laid out; at another width yargs lays it out itself.
  /** `synconf ARGS` with stdout `width` columns wide, by the sources (tsx) or by `bin` (a dist/bin folder) */
  function atWidth(width: number, args: string[], bin?: string) {
    const env = {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=data:text/javascript,process.stdout.columns=${width}`,
      LC_ALL: 'en_US.UTF-8', // the built command speaks English whatever the locale; yargs from the sources follows it
    };
    return (bin ? cli(args, { env, bin: join(bin, 'synconf.js') }) : cli(args, { env, source: true })).stdout;
  }

  test('synconf --help (and -h) of the built command is what yargs lays out from the sources, at every width', () => {
    const widths = Object.keys(JSON.parse(readFileSync(join(BIN_DIR, 'help.json'), 'utf8'))).map(Number);
    assert.ok(widths.includes(100), `the width of a pipe is laid out: ${widths.join(', ')}`);
    for (const width of [...widths, 95]) {
      const want = atWidth(width, ['--help']);
      assert.match(want, /^synconf: conformance test harness/);
      assert.equal(atWidth(width, ['--help'], BIN_DIR), want, `--help at width ${width}`);
      assert.equal(atWidth(width, ['-h'], BIN_DIR), want, `-h at width ${width}`);
    }
  });

  test('the top-level help fits every width it was laid out for, and lists every exit code', () => {
    const texts = JSON.parse(readFileSync(join(BIN_DIR, 'help.json'), 'utf8')) as Record<string, string>;
    for (const [width, text] of Object.entries(texts)) {
      const long = text.split('\n').filter((line) => line.length > Number(width));
      assert.deepEqual(long, [], `lines wider than ${width} columns`);
      const codes = text.slice(text.indexOf('Exit codes:\n') + 12, text.indexOf('`synconf <command> --help`'));
      // each line a code or the continuation of one, aligned under its text: none re-wrapped by yargs
      const misaligned = codes.split('\n').filter((line) => line && !/^ {2}\d+ +\S|^ {7}\S/.test(line));
      assert.deepEqual(misaligned, [], `the exit codes at width ${width} are laid out as written`);
      const listed = codes.match(/^ {2}\d+ /gm) ?? [];
      assert.deepEqual(listed.map(Number), Object.values(EXIT), `the exit codes at width ${width}`);
    }
  });

  test('a stale help.json is caught by that comparison; a width it lacks goes to yargs', () => {
    const copy = mkdtempSync(join(ROOT, 'dist', 'bundle-test-'));
    copies.push(copy);
    cpSync(BIN_DIR, join(copy, 'bin'), { recursive: true });
    const helpFile = join(copy, 'bin', 'help.json');
    const texts = JSON.parse(readFileSync(helpFile, 'utf8')) as Record<string, string>;
    for (const width of Object.keys(texts)) texts[width] = texts[width].replace('Run the scenarios', 'Run scenarios');
    writeFileSync(helpFile, JSON.stringify(texts));
    assert.notEqual(atWidth(100, ['--help'], join(copy, 'bin')), atWidth(100, ['--help']), 'stale text shown');
    assert.equal(atWidth(95, ['--help'], join(copy, 'bin')), atWidth(95, ['--help']));
  });

  test('a replay of the bundled suites loads no file from node_modules (every package is in the bundle)', () => {
    // fdir's own require of picomatch was one (scripts/bundle.mjs gives it the bundled picomatch)
    const loaded = (bin: string) => {
      const report = makeTemp('bundle');
      copies.push(report);
      // the CommonJS modules the process loaded, printed as it ends (the built command imports no ES module file)
      const print = encodeURIComponent(
        'import m from "node:module"; process.on("exit", () => console.log(JSON.stringify(Object.keys(m._cache))))',
      );
      const r = cli(['replay', '--report-dir', report], {
        bin: join(bin, 'synconf.js'),
        env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=data:text/javascript,${print}` },
      });
      return (JSON.parse(r.stdout.trim().split('\n').at(-1)!) as string[]).filter((f) => f.includes('node_modules'));
    };
    assert.deepEqual(loaded(BIN_DIR), []);
    // the check catches it: a copy whose engine requires picomatch from node_modules when it is evaluated
    const copy = mkdtempSync(join(ROOT, 'dist', 'bundle-test-'));
    copies.push(copy);
    cpSync(BIN_DIR, join(copy, 'bin'), { recursive: true });
    rmSync(join(copy, 'bin', 'engine.cjs.cache'));
    const engine = readFileSync(join(copy, 'bin', 'engine.cjs'), 'utf8');
    writeFileSync(
      join(copy, 'bin', 'engine.cjs'),
      engine.replace('"use strict";', '"use strict";require("picomatch");'),
    );
    assert.ok(loaded(join(copy, 'bin')).some((f) => /node_modules\/picomatch\//.test(f)));
  });

  // Each changes a copy's code cache of a bundle, or the bundle: the bundle must then run its own source.
  const damages: [string, (bin: string) => void][] = ['cli.cjs', 'engine.cjs'].flatMap(
    (bundle): [string, (bin: string) => void][] => [
      [`${bundle} without a code cache`, (bin) => rmSync(join(bin, `${bundle}.cache`))],
      [
        `${bundle} with a damaged code cache`,
        (bin) => {
          const cache = readFileSync(join(bin, `${bundle}.cache`));
          for (const at of [108, 5008, 50_008]) cache[at] ^= 0xff;
          writeFileSync(join(bin, `${bundle}.cache`), cache);
        },
      ],
    ],
  );
  // V8 checks only the length of the source a cache was made for: without the CRC-32 of the engine in the
  // cache file, this engine would run the cached code of the old one (and print CONFORMS).
  damages.push([
    'engine.cjs with the code cache of another engine.cjs of the same length',
    (bin) => {
      const engine = readFileSync(join(bin, 'engine.cjs'), 'utf8');
      writeFileSync(join(bin, 'engine.cjs'), engine.replaceAll('"CONFORMS"', '"CONFORMZ"'));
    },
  ]);
  /** `replay --only system-ping` by a copy of dist/bin changed by `change`, and the folder of its reports */
  function replayWithCopy(change: (bin: string) => void) {
    // A copy inside the package, so that it finds synconf's files (src/paths.ts walks up to package.json).
    const copy = mkdtempSync(join(ROOT, 'dist', 'bundle-test-'));
    const reports = makeTemp('bundle');
    copies.push(copy, reports);
    cpSync(BIN_DIR, join(copy, 'bin'), { recursive: true });
    change(join(copy, 'bin'));
    const r = cli(['replay', '--only', 'system-ping', '--report-dir', reports], {
      bin: join(copy, 'bin', 'synconf.js'),
      timeout: 60_000,
    });
    return { ...r, reports };
  }

  for (const [what, damage] of damages)
    test(`${what}: the bundle is compiled from its source and the command works`, () => {
      const r = replayWithCopy(damage);
      assert.equal(r.signal, null, r.stderr);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, what.includes('another') ? /CONFORMZ: 1 scenario/ : /CONFORMS: 1 scenario, \d+ checks/);
    });

  // dist/bin/parsed-yaml/: the shipped YAML files and their values, parsed by the build (src/schema/built-yaml.ts),
  // one file per text named by its CRC-32.
  const shippedYaml = () =>
    globSync(['suites/**/*.yaml', 'expectations/*.yaml', 'spec/*.yaml', 'bench/*.yaml'], { cwd: ROOT }).map((f) =>
      readFileSync(join(ROOT, f), 'utf8'),
    );
  type Entry = { text: string; value: unknown };
  const readParsedYaml = (bin: string) =>
    readdirSync(join(bin, 'parsed-yaml')).map((name): [string, Entry] => [
      name,
      JSON.parse(readFileSync(join(bin, 'parsed-yaml', name), 'utf8')) as Entry,
    ]);
  /** the entries whose value is not what js-yaml makes of their text, or whose name is not their text's CRC-32 */
  const wrongEntries = (entries: [string, Entry][]) =>
    entries.filter(
      ([name, { text, value }]) =>
        name !== builtEntryName(text) || !isDeepStrictEqual(value, loadYaml(text, { schema: CORE_SCHEMA })),
    );

  test('parsed-yaml/ holds every shipped YAML file, each with the value js-yaml makes of it, named by its CRC-32', () => {
    const entries = readParsedYaml(BIN_DIR);
    assert.deepEqual(entries.map(([, { text }]) => text).sort(), [...new Set(shippedYaml())].sort());
    assert.deepEqual(wrongEntries(entries), []);
    // the check catches a wrong value, and an entry under another text's name
    const planted = entries.map(([name, entry], i): [string, Entry] => [
      name,
      i === 3 ? { ...entry, value: { ...(entry.value as object), x: 1 } } : entry,
    ]);
    assert.equal(wrongEntries(planted).length, 1);
    assert.equal(wrongEntries([[entries[0][0], entries[1][1]]]).length, 1);
  });

  test('the built command takes a value from parsed-yaml/ for exactly its text, else parses the file', () => {
    const ping = readFileSync(join(ROOT, 'suites', 'system', 'ping.yaml'), 'utf8');
    // the entry found by ping's CRC-32 holds `text` and ping's value with this title
    const titled = (text: string, title: string) => (bin: string) => {
      const file = join(bin, 'parsed-yaml', builtEntryName(ping));
      const entry = JSON.parse(readFileSync(file, 'utf8')) as Entry;
      assert.equal(entry.text, ping);
      writeFileSync(file, JSON.stringify({ text, value: { ...(entry.value as object), title } }));
    };
    const title = (r: { reports: string }) =>
      JSON.parse(readFileSync(join(r.reports, 'report.json'), 'utf8')).scenarios[0].title;
    assert.equal(title(replayWithCopy(titled(ping, 'from the build'))), 'from the build');
    assert.notEqual(title(replayWithCopy(titled(`${ping}\n`, 'from the build'))), 'from the build');
  });

  // A shipped scenario file's entry also holds what the build's loader made of it, with every check: the built command
  // takes it for exactly that text, and runs again only the checks that depend on other files (src/scenario/load.ts).
  // An edited copy has no entry and gets every check: refused as the sources refuse it, with its line.
  const edits: [string, string, string, RegExp][] = [
    ['system/browse.yaml', '"{{tmp}}/browse/beta/inner"', '"{{tmpp}}/browse/beta/inner"', /:17: template \{\{tmpp\}\}/],
    ['auth/wrong-key.yaml', '{ name: system-debug,', '{ name: system-status,', /:\d+: step "system-status": .* twice/],
    [
      'auth/wrong-key.yaml',
      'path: /rest/system/debug, auth: wrong',
      'path: /rest/system/debug, auth: wrnog',
      /auth: must be/,
    ],
  ];
  for (const [suite, from, to, error] of edits)
    test(`an edited copy of suites/${suite} (${to}) is refused by the built command as by the sources`, () => {
      const dir = makeTemp('bundle');
      copies.push(dir);
      const shipped = readFileSync(join(ROOT, 'suites', suite), 'utf8');
      assert.ok(shipped.includes(from), from);
      const file = join(dir, 'edited.yaml');
      writeFileSync(file, shipped.replace(from, to));
      const replay = (opts: { source?: boolean; bin?: string }) =>
        cli(['replay', '--suite', file, '--report-dir', join(dir, 'reports')], opts);
      const built = replay({});
      assert.equal(built.code, 2, built.out);
      const line = built.stderr.split('\n').find((l) => l.startsWith(`synconf: ${file}:`));
      assert.match(line ?? built.stderr, error);
      assert.ok(replay({ source: true }).stderr.split('\n').includes(line!), 'the sources say the same');
      // the check catches it: a build whose entry for the shipped text were taken for the edited one runs it
      const entryOf = (bin: string) => join(bin, 'parsed-yaml', builtEntryName(shipped));
      const copy = join(mkdtempSync(join(ROOT, 'dist', 'bundle-test-')), 'bin'); // inside the package, to find its files
      copies.push(dirname(copy));
      cpSync(BIN_DIR, copy, { recursive: true });
      const entry = JSON.parse(readFileSync(entryOf(copy), 'utf8')) as Entry;
      writeFileSync(
        join(copy, 'parsed-yaml', builtEntryName(shipped.replace(from, to))),
        JSON.stringify({ ...entry, text: shipped.replace(from, to) }),
      );
      assert.equal(replay({ bin: join(copy, 'synconf.js') }).code, 0);
    });

  test('a shipped scenario taken from the build still has its citations checked against the statement index', () => {
    // ping's entry as if its text cited ping.get.exits where it cites ping.get.exists (line 18): refused at that line
    const ping = readFileSync(join(ROOT, 'suites', 'system', 'ping.yaml'), 'utf8');
    const r = replayWithCopy((bin) => {
      const file = join(bin, 'parsed-yaml', builtEntryName(ping));
      const entry = JSON.parse(readFileSync(file, 'utf8')) as Entry & { scenario: { cited: [string, string][] } };
      const cited = entry.scenario.cited.find(([, id]) => id === 'ping.get.exists');
      assert.deepEqual(cited, ['/steps/1/expect/statements/0', 'ping.get.exists']);
      cited![1] = 'ping.get.exits';
      writeFileSync(file, JSON.stringify(entry));
    });
    assert.equal(r.code, 2, r.out);
    assert.match(r.stderr, /suites\/system\/ping\.yaml:18: step "get-ping": .*ping\.get\.exits/);
  });

  test('a bug inside the engine is exit 3: one line naming the log file with the stack, and the report says 3', () => {
    const r = replayWithCopy((bin) => {
      const engine = readFileSync(join(bin, 'engine.cjs'), 'utf8');
      const at = '{peer:"not recorded"'; // the capabilities of the replay target, made when the run starts
      assert.ok(engine.includes(at));
      writeFileSync(join(bin, 'engine.cjs'), engine.replace(at, '{peer:(()=>{throw new TypeError("injected")})()'));
    });
    assert.equal(r.code, 3, r.stdout + r.stderr);
    assert.match(r.stderr, /^synconf: internal error \(a bug in synconf [^)]+\): injected$/m);
    const log = /please report this bug with (\S+synconf-error-\d+\.log)/.exec(r.stderr)?.[1];
    assert.ok(log, r.stderr);
    copies.push(log);
    assert.match(readFileSync(log, 'utf8'), /TypeError: injected\n\s+at /);
    assert.equal(statSync(log).mode & 0o777, 0o600, 'the log is readable by its owner only');
    assert.doesNotMatch(r.stdout + r.stderr, /\n\s+at .*[:(]\d+/, 'no stack trace on the terminal');
    assert.equal(JSON.parse(readFileSync(join(r.reports, 'report.json'), 'utf8')).exitCode, 3);
  });
});
