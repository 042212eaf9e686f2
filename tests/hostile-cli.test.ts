// Hostile inputs a CI script gets wrong (issue 22), one row each, against the BUILT command (dist/bin/synconf.js;
// SYNCONF_TEST_BIN names another build) from a scratch folder of its own: given argv, environment and the files a
// setup leaves there, the exit code, one line of stderr matching the message, and the files written or not. No row
// may end 0 or 1 on a broken input, 3 (a fault of synconf) or hang: each is killed 20 s after it starts, or after its
// signal is sent (HANG_MS).
// Each row is classed as the issue counts them: good, muddled (right code, message unclear or several lines) or
// wrong (wrong exit code, a hang, a report lost or written where it must not be); the classes are printed at the end.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/paths.js';
import type { Report } from '../src/schema/generated/types.js';
import {
  assertExitCodes,
  judgeRow,
  runRow,
  Tally,
  type RowFault,
  type RowResult,
  type RowRun,
} from './support/rows.js';
import { makeTemp, removeTemp } from './support/temp.js';
import { hang, json, startFakeAgent, FAKE_API_KEY, type FakeAgent } from './support/fake-agent.js';

const REC = join(ROOT, 'recordings', 'syncthing-1.19.2');
const PING = join(ROOT, 'suites', 'system', 'ping.yaml');

interface Row {
  /** argv; $ROOT, $REC, $PING, $BIG (a suite of many scenarios), $BIGREC (its recordings), $FAKE (an agent URL) */
  argv: string[];
  env?: Record<string, string>;
  code: number;
  /** one line of stderr matches it */
  message: RegExp;
  /** how many lines stderr may have (default 1) */
  lines?: number;
  /** files (relative to the scratch folder) that must exist afterwards */
  written?: string[];
  /** when true, the scratch folder must be left as the setup left it */
  nothing?: boolean;
  /** files or folders the setup makes in the scratch folder (a name ending in / is a folder) */
  setup?: string[];
  /** sends SIGINT (or `signal`) once the output so far matches, or once the fake agent was asked (twice: two at once) */
  interrupt?: { after: RegExp | 'the agent was asked'; twice?: boolean; signal?: NodeJS.Signals };
  /** the input is not broken (a run from a scratch folder, a warning): only such a row may expect exit 0 or 1 */
  valid?: true;
}

/** no row may take longer: a command still running 20 s after it started, or after the row's signal was sent, hangs
 * (it is killed, and the row is wrong). A guard against hangs only, never a speed bound: offline test files run two at
 * a time on two cores, where a start-up can take seconds; how soon a signal is acted on is bench/signal-latency.mjs's */
const HANG_MS = 20_000;

const need = (option: string, got = '(none|"")') => new RegExp(`^synconf: ${option}: needs a value \\(got ${got}`);
const bad = (option: string) => new RegExp(`^synconf: ${option} .*(not a|too large|is not one of|only works with)`);
/** the one line of a number option given other than in decimal digits */
const digitsOnly = (option: string, value: string) =>
  new RegExp(
    `^synconf: ${option} ${JSON.stringify(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a whole number ≥ \\d+ in decimal digits$`,
  );

const ROWS: Record<string, Row> = {
  // 1. an option without a value, or "" (the CI shape: --report-dir "$OUT" with OUT unset)
  'replay --report-dir (no value)': {
    argv: ['replay', '--report-dir'],
    code: 2,
    message: need('--report-dir'),
    nothing: true,
  },
  'replay --report-dir ""': {
    argv: ['replay', '--report-dir', ''],
    code: 2,
    message: need('--report-dir'),
    nothing: true,
  },
  'replay --report-dir=': { argv: ['replay', '--report-dir='], code: 2, message: need('--report-dir'), nothing: true },
  'replay --reportDir (camelCase, no value)': {
    argv: ['replay', '--reportDir'],
    code: 2,
    message: need('--report-dir'),
    nothing: true,
  },
  'replay --only (no value)': { argv: ['replay', '--only'], code: 2, message: need('--only'), nothing: true },
  'replay --only ""': { argv: ['replay', '--only', ''], code: 2, message: need('--only'), nothing: true },
  'replay --only " "': { argv: ['replay', '--only', ' '], code: 2, message: need('--only', '" "'), nothing: true },
  'replay --suite (no value)': { argv: ['replay', '--suite'], code: 2, message: need('--suite'), nothing: true },
  'replay --timeout (no value)': { argv: ['replay', '--timeout'], code: 2, message: need('--timeout'), nothing: true },
  'replay --expectations ""': {
    argv: ['replay', '--expectations', ''],
    code: 2,
    message: need('--expectations'),
    nothing: true,
  },
  'replay --expectations (no value, then --only)': {
    argv: ['replay', '--expectations', '--only', 'system-ping'],
    code: 2,
    message: need('--expectations', 'none: --only follows it'),
    nothing: true,
  },
  // a list of commas is no list: it was taken as no filter, and every scenario ran (exit 0)
  'replay --only ",,"': { argv: ['replay', '--only', ',,'], code: 2, message: need('--only', '",,"'), nothing: true },
  'replay --suite ", "': {
    argv: ['replay', '--suite', ', '],
    code: 2,
    message: need('--suite', '", "'),
    nothing: true,
  },
  'drift --ignore ","': {
    argv: ['drift', 'a', 'b', '--ignore', ','],
    code: 2,
    message: need('--ignore', '","'),
    nothing: true,
  },
  'replay --baseline ""': { argv: ['replay', '--baseline', ''], code: 2, message: need('--baseline'), nothing: true },
  'replay --fail-on ""': { argv: ['replay', '--fail-on', ''], code: 2, message: need('--fail-on'), nothing: true },
  'replay --agent-version ""': {
    argv: ['replay', '--agent-version', ''],
    code: 2,
    message: need('--agent-version'),
    nothing: true,
  },
  'replay "" (the recordings folder)': {
    argv: ['replay', ''],
    code: 2,
    message: /^synconf: <dir>: needs a value/,
    nothing: true,
  },
  'report merge R --out (no value)': {
    argv: ['report', 'merge', 'r.json', '--out'],
    code: 2,
    message: need('--out'),
    nothing: true,
  },
  'report render R --out ""': {
    argv: ['report', 'render', 'r.json', '--out', ''],
    code: 2,
    message: need('--out'),
    nothing: true,
  },
  'run --report-dir "" --agent URL': {
    argv: ['run', '--agent', '$FAKE', '--report-dir', ''],
    code: 2,
    message: need('--report-dir'),
    nothing: true,
  },
  'run --agent ""': { argv: ['run', '--agent', ''], code: 2, message: need('--agent'), nothing: true },
  'run --api-key "" --agent URL': {
    argv: ['run', '--agent', '$FAKE', '--api-key', ''],
    code: 2,
    message: need('--api-key'),
    nothing: true,
  },
  'run --record "" --agent URL': {
    argv: ['run', '--agent', '$FAKE', '--record', ''],
    code: 2,
    message: need('--record'),
    nothing: true,
  },
  'matrix --replay --report-dir ""': {
    argv: ['matrix', '--replay', '--report-dir', ''],
    code: 2,
    message: need('--report-dir'),
    nothing: true,
  },
  'matrix --syncthing ""': {
    argv: ['matrix', '--syncthing', ''],
    code: 2,
    message: need('--syncthing'),
    nothing: true,
  },
  'mutate --report-dir ""': {
    argv: ['mutate', '--report-dir', ''],
    code: 2,
    message: need('--report-dir'),
    nothing: true,
  },
  'serve --log ""': { argv: ['serve', '--port', '0', '--log', ''], code: 2, message: need('--log'), nothing: true },
  'serve -p (no value)': { argv: ['serve', '-p'], code: 2, message: need('--port'), nothing: true },
  'drift --ignore (no value)': {
    argv: ['drift', '$REC', '$REC', '--ignore'],
    code: 2,
    message: need('--ignore'),
    nothing: true,
  },
  'drift --ignore-file ""': {
    argv: ['drift', '$REC', '$REC', '--ignore-file', ''],
    code: 2,
    message: need('--ignore-file'),
    nothing: true,
  },
  // an option that takes one value, given twice: never joined, never "the last one wins"
  'drift --fail-on breaking --fail-on any': {
    argv: ['drift', '$REC', '$REC', '--fail-on', 'breaking', '--fail-on', 'any'],
    code: 2,
    message: /^synconf: --fail-on given twice \(breaking, any\): give it once$/,
    nothing: true,
  },
  'matrix --fail-on breaking,any': {
    argv: ['matrix', '--replay', '--fail-on', 'breaking,any', '--report-dir', 'm'],
    code: 2,
    message: /^synconf: --fail-on takes one change level, got breaking and any/,
    nothing: true,
  },
  'report merge --fail-on risky --fail-on breaking': {
    argv: ['report', 'merge', '$ROOT/tests/fixtures/reports/pass.json', '--fail-on', 'risky', '--fail-on', 'breaking'],
    code: 2,
    message: /^synconf: --fail-on takes one change level, got risky and breaking/,
    nothing: true,
  },
  'validate config ""': {
    argv: ['validate', 'config', ''],
    code: 2,
    message: /^synconf: <file>: needs a value/,
    nothing: true,
  },
  'lab up --dir ""': { argv: ['lab', 'up', '--dir', ''], code: 2, message: need('--dir'), nothing: true },
  'spec --kind ""': { argv: ['spec', '--kind', ''], code: 2, message: need('--kind'), nothing: true },
  'agents install ""': {
    argv: ['agents', 'install', ''],
    code: 2,
    message: /^synconf: <versions>: needs a value/,
    nothing: true,
  },
  'replay --verbose --report-dir (no value at the end)': {
    argv: ['replay', '--verbose', '--report-dir'],
    code: 2,
    message: need('--report-dir'),
    nothing: true,
  },

  // 4. output locations proven before the work, a late failure keeps the rest
  'replay --report-dir under /proc': {
    argv: ['replay', '--report-dir', '/proc/synconf-x/r'],
    code: 2,
    message: /^synconf: --report-dir .*\/proc/,
    nothing: true,
  },
  'replay --report-dir naming a file': {
    argv: ['replay', '--report-dir', 'taken'],
    setup: ['taken'],
    code: 2,
    message: /^synconf: --report-dir taken: .*file, not a folder/,
    nothing: true,
  },
  'replay: report.html is a folder (a late write fails)': {
    argv: ['replay', '--only', 'system-ping', '--report-dir', 'r'],
    setup: ['r/report.html/'],
    code: 2,
    message: /^synconf: cannot write .*r\/report\.html \(EISDIR\); the other report files are written$/,
    lines: 2, // the verdict line, then this
    written: ['r/report.json', 'r/junit.xml', 'r/summary.md'],
  },
  'mutate --report-dir under /proc (before the mutation run)': {
    argv: ['mutate', '--report-dir', '/proc/synconf-x/m'],
    code: 2,
    message: /^synconf: --report-dir .*\/proc/,
    nothing: true,
  },
  'mutate: mutation.json is a folder': {
    argv: ['mutate', '--only', 'system-ping', '--report-dir', 'm'],
    setup: ['m/mutation.json/'],
    code: 2,
    message: /^synconf: cannot write .*m\/mutation\.json \(EISDIR\)/,
    lines: 2,
    written: ['m/mutation.html', 'm/mutation.md'],
  },
  'serve --log naming a folder': {
    argv: ['serve', '--port', '0', '--log', 'logs'],
    setup: ['logs/'],
    code: 2,
    message: /^synconf: --log logs: cannot write the request log \(EISDIR\)/,
  },
  'serve --log under /proc': {
    argv: ['serve', '--port', '0', '--log', '/proc/synconf-x/l.har'],
    code: 2,
    message: /--log.*\/proc/,
    nothing: true,
  },
  'matrix --replay --report-dir under /proc': {
    argv: ['matrix', '--replay', '--report-dir', '/proc/synconf-x/m'],
    code: 2,
    message: /^synconf: --report-dir .*\/proc/,
    nothing: true,
  },
  'report render --out under /proc': {
    argv: ['report', 'render', '$ROOT/tests/fixtures/reports/pass.json', '--out', '/proc/synconf-x/r'],
    code: 2,
    message: /\/proc\/synconf-x/,
    nothing: true,
  },
  'agents install with SYNCONF_AGENTS_DIR under /proc': {
    argv: ['agents', 'install', '1.19.2'],
    env: { SYNCONF_AGENTS_DIR: '/proc/synconf-x/agents' },
    code: 2,
    message: /SYNCONF_AGENTS_DIR.*\/proc/,
    nothing: true,
  },

  // 6. every command from a folder of its own (paths: the user's against it, the package's against the package)
  'replay from a scratch folder': {
    argv: ['replay', '--only', 'system-ping'],
    code: 0,
    valid: true,
    message: /^$/, // the verdict is on stdout
    written: ['reports/latest/report.json'],
  },
  'matrix --replay from a scratch folder': {
    argv: ['matrix', '--replay', '--only', 'system-ping', '--syncthing', '1.19.2'],
    code: 0,
    valid: true,
    message: /.*/,
    lines: 20,
    written: ['reports/matrix/matrix.json'],
  },
  'mutate from a scratch folder': {
    argv: ['mutate', '--only', 'system-ping'],
    code: 0,
    valid: true,
    message: /^system-ping: \d+ mutants/,
    written: ['reports/mutation/mutation.json'],
  },
  'validate scenario from a scratch folder': {
    argv: ['validate', 'scenario', '$PING'],
    code: 0,
    valid: true,
    message: /^$/,
    lines: 1,
    nothing: true,
  },
  'drift A B from a scratch folder': {
    argv: ['drift', '$REC', '$REC'],
    code: 0,
    valid: true,
    message: /.*/,
    lines: 5,
    nothing: true,
  },
  'spec from a scratch folder': {
    argv: ['spec', '--kind', 'effect'],
    code: 0,
    valid: true,
    message: /^$/,
    nothing: true,
  },
  'agents list from a scratch folder': { argv: ['agents', 'list'], code: 0, valid: true, message: /^$/, nothing: true },
  'report render from a scratch folder': {
    argv: ['report', 'render', '$ROOT/tests/fixtures/reports/pass.json', '--out', 'r'],
    code: 0,
    valid: true,
    message: /^$/,
    written: ['r/report.html'],
  },

  // 8. Ctrl-C: within the test's timeout, one "interrupted" line, the report of what ran, exit 130
  'replay of a large suite, Ctrl-C': {
    argv: ['replay', '$BIGREC', '--suite', '$BIG', '--report-dir', 'r'],
    interrupt: { after: /\[\s*\d+\/\d+\]/ },
    code: 130,
    message: /^synconf: interrupted \(SIGINT\)/,
    lines: 5,
    written: ['r/report.json'],
  },
  'replay of a large suite, SIGTERM (what kill and CI runners send)': {
    argv: ['replay', '$BIGREC', '--suite', '$BIG', '--report-dir', 'r'],
    interrupt: { after: /\[\s*\d+\/\d+\]/, signal: 'SIGTERM' },
    code: 143, // 128 + 15, as shells report a process SIGTERM stopped
    message: /^synconf: interrupted \(SIGTERM\)/,
    lines: 5,
    written: ['r/report.json'],
  },
  'replay of a large suite, SIGHUP (a closed terminal, a dropped SSH session)': {
    argv: ['replay', '$BIGREC', '--suite', '$BIG', '--report-dir', 'r'],
    interrupt: { after: /\[\s*\d+\/\d+\]/, signal: 'SIGHUP' },
    code: 129, // 128 + 1
    message: /^synconf: interrupted \(SIGHUP\)/,
    lines: 5,
    written: ['r/report.json'],
  },
  'matrix --recordings of a large suite, SIGHUP': {
    argv: ['matrix', '--recordings', '$BIGREC', '--suite', '$BIG', '--report-dir', 'm'],
    interrupt: { after: /./, signal: 'SIGHUP' },
    code: 129,
    message: /^synconf matrix: interrupted \(SIGHUP\)/,
    lines: 8,
    written: ['m/matrix.json'],
  },
  'replay of a large suite, Ctrl-C twice': {
    argv: ['replay', '$BIGREC', '--suite', '$BIG', '--report-dir', 'r'],
    interrupt: { after: /\[\s*\d+\/\d+\]/, twice: true },
    code: 130,
    message: /interrupted|^$/,
    lines: 5,
  },
  'matrix --recordings of a large suite, Ctrl-C': {
    argv: ['matrix', '--recordings', '$BIGREC', '--suite', '$BIG', '--report-dir', 'm'],
    interrupt: { after: /./ },
    code: 130,
    message: /^synconf matrix: interrupted \(SIGINT\)/,
    lines: 8,
    written: ['m/matrix.json'],
  },
  'mutate, Ctrl-C': {
    argv: ['mutate', '--report-dir', 'm'],
    interrupt: { after: /mutants/ },
    code: 130,
    message: /^synconf mutate: interrupted \(SIGINT\)/,
    lines: 30,
    written: ['m/mutation.json'],
  },
  'serve, Ctrl-C': {
    argv: ['serve', '--port', '0', '--log', 'l.har'],
    interrupt: { after: /Stop with Ctrl-C/ },
    code: 130,
    message: /^synconf serve: interrupted \(SIGINT\)/,
    written: ['l.har'],
  },
  'run --agent (a request that hangs), Ctrl-C': {
    argv: ['run', '--agent', '$FAKE', '--suite', '$PING', '--report-dir', 'r', '--timeout', '60'],
    interrupt: { after: 'the agent was asked' },
    code: 130,
    message: /^synconf: interrupted \(SIGINT\)/,
    lines: 5,
    written: ['r/report.json'],
  },

  // numbers mean one thing; options that only work together say so
  'mutate --min-score 2': {
    argv: ['mutate', '--min-score', '2'],
    code: 2,
    message: bad('--min-score "2"'),
    nothing: true,
  },
  'mutate --min-score 95 (a percentage without %)': {
    argv: ['mutate', '--min-score', '95'],
    code: 2,
    message: bad('--min-score "95"'),
    nothing: true,
  },
  'mutate --min-score 150%': {
    argv: ['mutate', '--min-score', '150%'],
    code: 2,
    message: bad('--min-score "150%"'),
    nothing: true,
  },
  'mutate --min-score -0.1': {
    argv: ['mutate', '--min-score', '-0.1'],
    code: 2,
    message: bad('--min-score "-0.1"'),
    nothing: true,
  },
  'mutate --min-score abc': {
    argv: ['mutate', '--min-score', 'abc'],
    code: 2,
    message: bad('--min-score "abc"'),
    nothing: true,
  },
  'replay --timeout 0': { argv: ['replay', '--timeout', '0'], code: 2, message: bad('--timeout "0"'), nothing: true },
  'replay --timeout abc': {
    argv: ['replay', '--timeout', 'abc'],
    code: 2,
    message: bad('--timeout "abc"'),
    nothing: true,
  },
  'replay --timeout 1.5': {
    argv: ['replay', '--timeout', '1.5'],
    code: 2,
    message: bad('--timeout "1.5"'),
    nothing: true,
  },
  'replay --timeout 99999999999': {
    argv: ['replay', '--timeout', '99999999999'],
    code: 2,
    message: bad('--timeout "99999999999"'),
    nothing: true,
  },
  'serve --port 70000': {
    argv: ['serve', '--port', '70000'],
    code: 2,
    message: /^synconf: --port .*(too large|at most 65535)/,
    nothing: true,
  },
  'serve --port -1': { argv: ['serve', '--port', '-1'], code: 2, message: bad('--port "-1"'), nothing: true },
  'matrix --jobs 0': {
    argv: ['matrix', '--replay', '--jobs', '0'],
    code: 2,
    message: bad('--jobs "0"'),
    nothing: true,
  },
  'matrix --jobs 1.5': {
    argv: ['matrix', '--replay', '--jobs', '1.5'],
    code: 2,
    message: bad('--jobs "1.5"'),
    nothing: true,
  },
  'run --repeat 0': {
    argv: ['run', '--agent', '$FAKE', '--repeat', '0'],
    code: 2,
    message: bad('--repeat "0"'),
    nothing: true,
  },
  'lab up -n 0': { argv: ['lab', 'up', '-n', '0'], code: 2, message: bad('--instances "0"'), nothing: true },
  'lab up --ready-timeout 0': {
    argv: ['lab', 'up', '--ready-timeout', '0'],
    code: 2,
    message: bad('--ready-timeout "0"'),
    nothing: true,
  },
  // a number option takes decimal digits only: JavaScript's other spellings were numbers (0x50 served on port 80)
  'serve --port 0x50 (hex)': {
    argv: ['serve', '--port', '0x50', '--log', 'l.har'],
    code: 2,
    message: digitsOnly('--port', '0x50'),
    nothing: true,
  },
  'replay --timeout 0x10 (hex)': {
    argv: ['replay', '--only', 'system-ping', '--timeout', '0x10'],
    code: 2,
    message: digitsOnly('--timeout', '0x10'),
    nothing: true,
  },
  'replay --scenario-timeout 1e3 (an exponent)': {
    argv: ['replay', '--only', 'system-ping', '--scenario-timeout', '1e3'],
    code: 2,
    message: digitsOnly('--scenario-timeout', '1e3'),
    nothing: true,
  },
  'replay --run-timeout " 5" (a blank before it)': {
    argv: ['replay', '--only', 'system-ping', '--run-timeout', ' 5'],
    code: 2,
    message: digitsOnly('--run-timeout', ' 5'),
    nothing: true,
  },
  'run --repeat +2 (a sign)': {
    argv: ['run', '--agent', '$FAKE', '--repeat', '+2'],
    code: 2,
    message: digitsOnly('--repeat', '+2'),
    nothing: true,
  },
  'proxy --count 5. (a point without a fraction)': {
    argv: ['proxy', '--recordings', '$REC', '--count', '5.'],
    code: 2,
    message: digitsOnly('--count', '5.'),
    nothing: true,
  },
  'proxy --until-idle 0x1 (hex)': {
    argv: ['proxy', '--recordings', '$REC', '--until-idle', '0x1'],
    code: 2,
    message: digitsOnly('--until-idle', '0x1'),
    nothing: true,
  },
  'lab up -n 0b1 (binary)': {
    argv: ['lab', 'up', '-n', '0b1', '--syncthing', '1.29'],
    code: 2,
    message: digitsOnly('--instances', '0b1'),
    nothing: true,
  },
  'lab up --ready-timeout 1e4 (an exponent)': {
    argv: ['lab', 'up', '--ready-timeout', '1e4', '--syncthing', '1.29'],
    code: 2,
    message: digitsOnly('--ready-timeout', '1e4'),
    nothing: true,
  },
  'lab up --reconnect-interval 5.0 (a fraction of a whole-number option)': {
    argv: ['lab', 'up', '--reconnect-interval', '5.0', '--syncthing', '1.29'],
    code: 2,
    message: digitsOnly('--reconnect-interval', '5.0'),
    nothing: true,
  },
  'matrix --jobs 0x2 (hex)': {
    argv: ['matrix', '--replay', '--only', 'system-ping', '--syncthing', '1.19.2', '--jobs', '0x2'],
    code: 2,
    message: digitsOnly('--jobs', '0x2'),
    nothing: true,
  },
  'mutate --min-score 0x1 (hex)': {
    argv: ['mutate', '--only', 'system-ping', '--min-score', '0x1'],
    code: 2,
    message: bad('--min-score "0x1"'),
    nothing: true,
  },
  'mutate --min-score 1e-1 (an exponent)': {
    argv: ['mutate', '--only', 'system-ping', '--min-score', '1e-1'],
    code: 2,
    message: bad('--min-score "1e-1"'),
    nothing: true,
  },
  'mutate --min-score " 0.95" (a blank before it)': {
    argv: ['mutate', '--only', 'system-ping', '--min-score', ' 0.95'],
    code: 2,
    message: bad('--min-score " 0\\.95"'),
    nothing: true,
  },
  'mutate --operators without --live': {
    argv: ['mutate', '--operators', 'side-effect'],
    code: 2,
    message: /^synconf: --operators only works with --live/,
    nothing: true,
  },
  'mutate --syncthing without --live': {
    argv: ['mutate', '--syncthing', '1.19.2'],
    code: 2,
    message: /^synconf: --syncthing only works with --live/,
    nothing: true,
  },
  'run --redact without --record': {
    argv: ['run', '--agent', '$FAKE', '--redact', 'header:x-a'],
    code: 2,
    message: /^synconf: --redact only works with --record/,
    nothing: true,
  },
  'run --record --redact with a pattern that backtracks for ever': {
    argv: ['run', '--agent', '$FAKE', '--record', 'rec', '--redact', 're:(a+)+$'],
    code: 2,
    message: /^synconf: --redact re:\(a\+\)\+\$: pattern "\(a\+\)\+\$" can take exponential time: "\(a\+\)\+"/,
  },
  'run --record-mode without --record': {
    argv: ['run', '--agent', '$FAKE', '--record-mode', 'once'],
    code: 2,
    message: /^synconf: --record-mode only works with --record/,
    nothing: true,
  },
  'run --allow-destructive without --agent': {
    argv: ['run', '--allow-destructive'],
    code: 2,
    message: /^synconf: --allow-destructive only works with --agent/,
    nothing: true,
  },
  'replay --fail-on new-failure without --baseline': {
    argv: ['replay', '--fail-on', 'new-failure'],
    code: 2,
    message: /--fail-on new-failure needs --baseline/,
    nothing: true,
  },
  'replay --fail-on nonsense': {
    argv: ['replay', '--fail-on', 'nonsense'],
    code: 2,
    message: /^synconf: --fail-on: .*nonsense/,
    nothing: true,
  },
  'replay --agent-version banana': {
    argv: ['replay', '--agent-version', 'banana'],
    code: 2,
    message: /--agent-version "banana" is not a version/,
    nothing: true,
  },
  'run --repeat 2 --record r': {
    argv: ['run', '--agent', '$FAKE', '--repeat', '2', '--record', 'rec'],
    code: 2,
    message: /--repeat and --record do not go together/,
  },
  'matrix --syncthing A --syncthing "" (one empty of two)': {
    argv: ['matrix', '--replay', '--syncthing', '1.19.2', '--syncthing', ''],
    code: 2,
    message: need('--syncthing'),
    nothing: true,
  },
  // did you mean: an unknown agent version gets the closest known one (installed or installable), one line, exit 2,
  // before any folder is made
  'run --syncthing 1.19 (a partial version)': {
    argv: ['run', '--syncthing', '1.19', '--only', 'system-ping'],
    code: 2,
    message: /^synconf: Syncthing "1\.19" is not a full version \(did you mean 1\.19\.2\?\) \(from --syncthing\)\.$/,
    nothing: true,
  },
  'run --syncthing 1.19.3 (not installed, not known)': {
    argv: ['run', '--syncthing', '1.19.3', '--only', 'system-ping'],
    code: 2,
    message: /^synconf: Syncthing 1\.19\.3 is not installed in .* \(did you mean 1\.19\.2\?\), and synconf knows/,
    nothing: true,
  },
  'run --syncthing v1.2.1': {
    argv: ['run', '--syncthing', 'v1.2.1', '--only', 'system-ping'],
    code: 2,
    message: /^synconf: Syncthing 1\.2\.1 is not installed .* \(did you mean 1\.12\.1\?\)/,
    nothing: true,
  },
  'lab up --syncthing 1.29': {
    argv: ['lab', 'up', '--syncthing', '1.29'],
    code: 2,
    message: /^synconf: Syncthing "1\.29" is not a full version \(did you mean 1\.29\.5\?\)/,
    nothing: true,
  },
  'SYNCONF_SYNCTHING=1.12 lab up': {
    argv: ['lab', 'up'],
    env: { SYNCONF_SYNCTHING: '1.12' },
    code: 2,
    message: /^synconf: Syncthing "1\.12" is not a full version \(did you mean 1\.12\.1\?\) \(from SYNCONF_SYNCTHING\)/,
    nothing: true,
  },
  'drift --syncthing 1.29 (live, one folder)': {
    argv: ['drift', '--syncthing', '1.29', '--only', 'system-ping'],
    code: 2,
    message: /^synconf: Syncthing "1\.29" is not a full version \(did you mean 1\.29\.5\?\)/,
    nothing: true,
  },
  'matrix --syncthing 1.19.3 (live)': {
    argv: ['matrix', '--syncthing', '1.19.3', '--only', 'system-ping'],
    code: 2,
    message: /^synconf: Syncthing 1\.19\.3 is not installed .* \(did you mean 1\.19\.2\?\)/,
    nothing: true,
  },
  'matrix --replay --syncthing 1.19': {
    argv: ['matrix', '--replay', '--syncthing', '1.19', '--only', 'system-ping'],
    code: 2,
    message:
      /^synconf: no recordings of 1\.19 \(did you mean 1\.19\.2\?\) \(found: 1\.12\.1, 1\.19\.2, 1\.29\.5, 1\.30\.0, 2\.1\.0, 2\.1\.2\)$/,
    nothing: true,
  },
  'mutate --live --syncthing 1.29': {
    argv: ['mutate', '--live', '--syncthing', '1.29', '--only', 'system-ping'],
    code: 2,
    message: /^synconf: Syncthing "1\.29" is not a full version \(did you mean 1\.29\.5\?\)/,
    nothing: true,
  },
  'replay --agent-version 1.29': {
    argv: ['replay', '--agent-version', '1.29'],
    code: 2,
    message: /^synconf: --agent-version "1\.29" is not a full version X\.Y\.Z \(did you mean 1\.29\.5\?\)$/,
    nothing: true,
  },
  'run --agent URL --agent-version 1.19': {
    argv: ['run', '--agent', '$FAKE', '--agent-version', '1.19'],
    code: 2,
    message: /^synconf: --agent-version "1\.19" is not a full version X\.Y\.Z \(did you mean 1\.19\.2\?\)$/,
    nothing: true,
  },
  'validate config --agent-version 1.12': {
    argv: ['validate', 'config', 'c.json', '--agent-version', '1.12'],
    setup: ['c.json'],
    code: 2,
    message: /^synconf: --agent-version "1\.12" is not a full version X\.Y\.Z \(did you mean 1\.12\.1\?\)$/,
    nothing: true,
  },
  'agents install 1.2.1': {
    argv: ['agents', 'install', '1.2.1'],
    code: 2,
    message:
      /^synconf: synconf knows no Syncthing release 1\.2\.1 \(did you mean 1\.12\.1\?\): `synconf agents list --all`/,
    nothing: true,
  },
  // a line installs its newest release the Go module proxy serves (1.19 is 1.19.2); a line it serves none of is refused
  'agents install 1.16 (a line the Go module proxy serves no release of)': {
    argv: ['agents', 'install', '1.16'],
    code: 2,
    message: /^synconf: 1\.16: no release of the line can be had \(1\.16\.0 not served by the Go module proxy/,
    nothing: true,
  },
  // did you mean: the other unknown names a user types
  'a misspelt command': {
    argv: ['replya'],
    code: 2,
    message: /^synconf: unknown command "replya" \(did you mean replay\?\); see synconf --help$/,
    nothing: true,
  },
  'a misspelt subcommand': {
    argv: ['agents', 'instal'],
    code: 2,
    message: /^synconf: unknown command "instal" \(did you mean agents install\?\)/,
    nothing: true,
  },
  'a misspelt option': {
    argv: ['replay', '--suit', 'x'],
    code: 2,
    message: /^synconf: unknown option --suit \(did you mean --suite\?\); see synconf replay --help$/,
    nothing: true,
  },
  'a misspelt choice': {
    argv: ['replay', '--fail-on', 'fail,fial'],
    code: 2,
    message: /^synconf: --fail-on: "fial" is not one of fail, .* \(did you mean fail\?\)$/,
    nothing: true,
  },
  'a misspelt operator': {
    argv: ['mutate', '--live', '--operators', 'side-efect'],
    code: 2,
    message: /^synconf: --operators: "side-efect" is not one of .* \(did you mean side-effect\?\)$/,
    nothing: true,
  },
  'a misspelt scenario id': {
    argv: ['replay', '--only', 'system-pign', '--report-dir', 'out'],
    code: 2,
    message: /^synconf: --only: "system-pign" \(did you mean "system-ping"\?\) matches no scenario id$/,
    lines: 2, // and the harness-error verdict line; the report says what did not load
    written: ['out/report.json'],
  },
  'a misspelt statement kind': {
    argv: ['spec', '--kind', 'shap'],
    code: 2,
    message: /^synconf: --kind "shap" is not a statement kind \(did you mean "shape"\?\)$/,
    nothing: true,
  },
  'a misspelt change rule': {
    argv: ['drift', '$REC', '$REC', '--ignore', 'status-chnged@GET /rest/system/ping'],
    code: 2,
    message:
      /^synconf: --ignore "status-chnged@GET \/rest\/system\/ping": unknown rule "status-chnged" \(did you mean "status-changed"\?\)$/,
    nothing: true,
  },
};

const scenarioCount = 800;
let scratchRoot: string;
let big: { suite: string; recordings: string };
let fake: FakeAgent;
const tally = new Tally();

/** a suite of `scenarioCount` copies of system-ping, each with its cassette: a replay that runs for seconds */
async function bigSuite(dir: string) {
  const suite = join(dir, 'suite');
  const recordings = join(dir, 'syncthing-1.19.2');
  await mkdir(suite, { recursive: true });
  await mkdir(recordings, { recursive: true });
  await cp(join(REC, '_run.har'), join(recordings, '_run.har'));
  const yaml = await readFile(PING, 'utf8');
  const har = await readFile(join(REC, 'system-ping.har'), 'utf8');
  for (let i = 0; i < scenarioCount; i++) {
    await writeFile(join(suite, `ping-${i}.yaml`), yaml.replace(/^id: system-ping$/m, `id: ping-${i}`));
    await writeFile(
      join(recordings, `ping-${i}.har`),
      har.replace(/"scenario": *"system-ping"/g, `"scenario": "ping-${i}"`),
    );
  }
  return { suite, recordings };
}

const fill = (word: string) =>
  word
    .replaceAll('$ROOT', ROOT)
    .replaceAll('$BIGREC', big.recordings)
    .replaceAll('$BIG', big.suite)
    .replaceAll('$REC', REC)
    .replaceAll('$PING', PING)
    .replaceAll('$FAKE', `http://127.0.0.1:${fake.port}`);

/** the row's run: its command from the scratch folder, SIGINT (or its signal) sent once the row's state holds, killed
 * HANG_MS after it starts or after the signal */
function rowRun(row: Row, scratch: string): RowRun {
  const asked = fake.requests.length;
  const { after, twice, signal = 'SIGINT' } = row.interrupt ?? { after: /$^/ };
  const ready = (out: string) =>
    after === 'the agent was asked'
      ? fake.requests.slice(asked).some((q) => q.path === '/rest/system/ping')
      : after.test(out);
  return {
    argv: row.argv.map(fill),
    cwd: scratch,
    env: { SYNCONF_API_KEY: FAKE_API_KEY, ...row.env },
    hangMs: HANG_MS,
    signal: row.interrupt && { name: signal, ready, twice, rearm: true },
  };
}

/** what is wrong with the result beyond what every table judges: the files written, and nothing else */
async function judge(row: Row, r: RowResult, scratch: string, before: string[], run: RowRun) {
  const fault = judgeRow({ ...row, lines: row.lines ?? 1 }, r, scratch, run);
  if (fault?.kind === 'wrong') return fault;
  const wrong = (why: string): RowFault => ({ kind: 'wrong', why: `${why}\n${r.out}` });
  for (const file of row.written ?? []) {
    if (!existsSync(join(scratch, file))) return wrong(`${file} not written`);
    // the report of a run a signal stopped states the exit code the process returned (128 + n)
    const report =
      row.interrupt && file.endsWith('/report.json')
        ? (JSON.parse(readFileSync(join(scratch, file), 'utf8')) as Report)
        : undefined;
    if (report && report.exitCode !== r.code)
      return wrong(`${file} says exit ${report.exitCode}, the process ${r.code}`);
  }
  if (row.nothing) {
    const now = await readdir(scratch, { recursive: true });
    if (now.length !== before.length) return wrong(`written: ${now.join(', ')}`);
  }
  return fault;
}

test('no broken input may end 0 or 1, none 3: only a row of valid input expects 0 or 1', () => {
  assertExitCodes(Object.entries(ROWS).map(([name, row]) => ({ ...row, name })));
  assert.ok(Object.values(ROWS).filter((r) => !r.valid).length >= 90);
});

describe('hostile inputs against the built command, each from a scratch folder', () => {
  before(async () => {
    scratchRoot = makeTemp('hostile');
    big = await bigSuite(join(scratchRoot, 'big'));
    fake = await startFakeAgent();
    fake.route('GET /rest/system/ping', hang());
    fake.route('POST /rest/system/ping', hang());
    fake.route('GET /rest/svc/report', json({}));
  });
  after(async () => {
    await fake.close();
    removeTemp(scratchRoot);
    tally.print(() => 'hostile-cli');
  });

  let n = 0;
  for (const [name, row] of Object.entries(ROWS))
    test(name, { timeout: 30_000 }, async () => {
      const scratch = join(scratchRoot, `row-${n++}`);
      await mkdir(scratch);
      for (const item of row.setup ?? [])
        if (item.endsWith('/')) await mkdir(join(scratch, item), { recursive: true });
        else await writeFile(join(scratch, item), 'x');
      const before = await readdir(scratch, { recursive: true });
      const requestsBefore = fake.requests.length;
      const run = rowRun(row, scratch);
      const r = await runRow(run);
      const fault = await judge(row, r, scratch, before, run);
      if (!fault && row.nothing && fake.requests.length !== requestsBefore) {
        tally.add('', { kind: 'wrong', why: '' });
        assert.fail(`[wrong] ${fake.requests.length - requestsBefore} request(s) made`);
      }
      tally.add('', fault);
      if (fault) assert.fail(`[${fault.kind}] ${fault.why}`);
      assert.notEqual(r.code, 3, 'never a fault of synconf');
    });
});
