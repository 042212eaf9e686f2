// The second round of hostile input (issue 30), one row each, against the BUILT command (dist/bin/synconf.js;
// SYNCONF_TEST_BIN names another build) from a scratch folder of its own: given argv, environment and files, the exit
// code, one line of stderr matching the message (and at most `lines` lines), and the files written or not. Rows by
// cause: (1) a repeated option, or a value that gates, judged by one rule; (2) a scenario's operands judged at load,
// `validate scenario` and `replay` in the same words; (4/5) bounds on aliases, tables, bodies and output; (10) files
// recognised before use. No broken input may end 0 or 1, none 3; each row is killed 5 s after it starts (a hang) or
// once it holds more than 500 MB (RSS_LIMIT): the time and memory bounds are the test's own, not timing assertions.
// Each row is classed good, muddled (right code, message unclear) or wrong; the counts by cause print at the end.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from '../src/paths.js';
import { cliAsync } from './support/cli.js';
import { assertExitCodes, judgeRow, runRow, Tally } from './support/rows.js';
import { totalsOf } from '../src/verdict/totals.js';
import type { HarEntry, Report } from '../src/schema/generated/types.js';
import { makeTemp, removeTemp } from './support/temp.js';

const REC = join(ROOT, 'recordings', 'syncthing-1.19.2');
const REC_NEW = join(ROOT, 'recordings', 'syncthing-1.29.5');
const HAR = readFileSync(join(REC, 'system-ping.har'), 'utf8');
const RUN_HAR = readFileSync(join(REC, '_run.har'), 'utf8');
const REPORT = readFileSync(join(ROOT, 'tests', 'fixtures', 'reports', 'pass.json'), 'utf8');
const HEAD = 'id: system-ping\ntitle: t\nspec: [GET /rest/system/ping]\n';
const PING = '    request: { method: GET, path: /rest/system/ping }\n';
/** a scenario whose one step pings, with `expect` (a YAML flow mapping) and more members of the step */
const pinging = (expect: string, more = '') => `${HEAD}steps:\n  - name: ping\n${PING}    expect: ${expect}\n${more}`;
/** a scenario whose one step pings with more members of its request (a YAML flow mapping's members) */
const requesting = (members: string) =>
  `${HEAD}steps:\n  - name: ping\n    request: { method: GET, path: /rest/system/ping, ${members} }\n    expect: { status: 200 }\n`;
/** the scenarios of the bundled suite: one a file */
const SUITE_SIZE = readdirSync(join(ROOT, 'suites'), { recursive: true }).filter((f) =>
  String(f).endsWith('.yaml'),
).length;
/** the report fixture with its first `n` scenarios only, its totals left as they were (a file cut by hand) */
const cutReport = (n: number) => {
  const r = JSON.parse(REPORT) as { scenarios: unknown[] };
  return JSON.stringify({ ...r, scenarios: r.scenarios.slice(0, n) });
};
/** the report fixture with one passing check made a failure, its totals made to agree, its exit code and verdict
 * left saying it conforms (a file edited by hand) */
const flippedReport = () => {
  const r = JSON.parse(REPORT) as Report;
  const check = r.scenarios.flatMap((s) => s.checks).find((c) => c.verdict === 'pass')!;
  check.verdict = 'fail';
  r.totals = totalsOf(r.scenarios);
  return JSON.stringify(r);
};
/** a session of one ping with a query no recording holds (as a client adding ?x=1 sends it) */
const queriedPing = () => {
  const har = JSON.parse(HAR) as { log: { entries: HarEntry[] } };
  const ping = har.log.entries.find((e) => e.response.status === 200)!;
  ping.request.url += '?x=1';
  ping.request.queryString = [{ name: 'x', value: '1' }];
  return JSON.stringify({ ...har, log: { ...har.log, entries: [ping] } });
};
const FOREIGN_HAR = '{"log": {"version": "1.2", "creator": {"name": "Firefox", "version": "120"}, "entries": []}}';

/** no row may take longer, or hold more memory (bytes of resident memory, polled) */
const HANG_MS = 5_000;
const RSS_LIMIT = 500 * 1024 * 1024;

type Cause = '1 repeated options and gates' | '2 operands at load' | '4/5 bounds' | '10 files recognised';
type Files = Record<string, string | Buffer | (() => string)>;
interface Row {
  name: string;
  cause: Cause;
  /** argv; $REC, $REC_NEW (the bundled recordings), $SHARD1, $SHARD2 (reports of replay --shard i/2) */
  argv: string[];
  env?: Record<string, string>;
  files?: Files;
  code: number;
  /** one line of stderr matches it */
  message: RegExp;
  /** how many lines stderr may have (default 1), and stdout (default: any) */
  lines?: number;
  stdoutLines?: number;
  /** a line of stdout matches it */
  stdoutMatch?: RegExp;
  /** paths that must exist afterwards, and paths that must not */
  writes?: string[];
  writesNot?: string[];
  /** files that must exist afterwards and hold at most these bytes */
  bounded?: Record<string, number>;
  /** the input is not broken (a warning, a run): only such a row may expect exit 0 or 1 */
  valid?: true;
}

const C1: Cause = '1 repeated options and gates';
const C2: Cause = '2 operands at load';
const C4: Cause = '4/5 bounds';
const C10: Cause = '10 files recognised';

const twice = (option: string, values = '') =>
  new RegExp(`^synconf: --${option} given twice${values ? ` \\(${values}\\)` : ''}: give it once$`);

// (1) a repeated option: a list takes each value, any other is a usage error naming it (never joined, never the last)
const repeated: Row[] = [
  [
    'replay --report-dir a --report-dir b',
    ['replay', '--report-dir', 'a', '--report-dir', 'b'],
    twice('report-dir', 'a, b'),
  ],
  [
    'replay --reportDir a --report-dir b',
    ['replay', '--reportDir', 'a', '--report-dir', 'b'],
    twice('report-dir', 'a, b'),
  ],
  ['replay --strict --strict', ['replay', '--strict', '--strict'], twice('strict')],
  ['replay --no-strict --strict', ['replay', '--no-strict', '--strict'], twice('strict')],
  ['replay --timeout 1 --timeout=2', ['replay', '--timeout', '1', '--timeout=2'], twice('timeout', '1, 2')],
  ['replay --baseline a --baseline b', ['replay', '--baseline', 'a', '--baseline', 'b'], twice('baseline', 'a, b')],
  [
    'replay --expectations a --expectations b',
    ['replay', '--expectations', 'a', '--expectations', 'b'],
    twice('expectations', 'a, b'),
  ],
  [
    'replay --no-expectations --expectations a',
    ['replay', '--no-expectations', '--expectations', 'a'],
    twice('expectations'),
  ],
  [
    'replay --agent-version twice',
    ['replay', '--agent-version', '1.19.2', '--agent-version', '1.29.5'],
    twice('agent-version', '1.19.2, 1.29.5'),
  ],
  ['replay --verbose --verbose', ['replay', '--verbose', '--verbose'], twice('verbose')],
  [
    'replay --shard 1/2 --shard 2/2',
    ['replay', '--shard', '1/2', '--shard', '2/2'],
    /^synconf: --shard given twice \(1\/2, 2\/2\): a run is one shard$/,
  ],
  [
    'run --agent twice',
    ['run', '--agent', 'http://127.0.0.1:1', '--agent', 'http://127.0.0.1:2'],
    twice('agent', 'http://127.0.0.1:1, http://127.0.0.1:2'),
  ],
  [
    'run --api-key twice',
    ['run', '--agent', 'http://127.0.0.1:1', '--api-key', 'aaaaaaaaaaaaaaaa', '--api-key', 'bbbbbbbbbbbbbbbb'],
    /^synconf: --api-key given twice/,
  ],
  [
    'run --syncthing twice',
    ['run', '--syncthing', '1.19.2', '--syncthing', '1.29.5'],
    /^synconf: --syncthing given twice \(1\.19\.2, 1\.29\.5\): one lab runs one Syncthing/,
  ],
  ['run --repeat twice', ['run', '--repeat', '2', '--repeat', '3'], twice('repeat', '2, 3')],
  ['run --record twice', ['run', '--record', 'a', '--record', 'b'], twice('record', 'a, b')],
  [
    'run --record-mode twice',
    ['run', '--record-mode', 'all', '--record-mode', 'once'],
    twice('record-mode', 'all, once'),
  ],
  ['run --lab --lab', ['run', '--lab', '--lab'], twice('lab')],
  [
    'drift --fail-on breaking --fail-on any',
    ['drift', '$REC', '$REC_NEW', '--fail-on', 'breaking', '--fail-on', 'any'],
    twice('fail-on', 'breaking, any'),
  ],
  [
    'drift --ignore-file twice',
    ['drift', '$REC', '$REC_NEW', '--ignore-file', 'a', '--ignore-file', 'b'],
    twice('ignore-file', 'a, b'),
  ],
  ['drift --json --json', ['drift', '$REC', '$REC_NEW', '--json', '--json'], twice('json')],
  [
    'drift --report-dir twice',
    ['drift', '$REC', '$REC_NEW', '--report-dir', 'a', '--report-dir', 'b'],
    twice('report-dir', 'a, b'),
  ],
  ['matrix --jobs twice', ['matrix', '--replay', '--jobs', '1', '--jobs', '2'], twice('jobs', '1, 2')],
  [
    'matrix --report-dir twice',
    ['matrix', '--replay', '--report-dir', 'a', '--report-dir', 'b'],
    twice('report-dir', 'a, b'),
  ],
  ['report merge --out twice', ['report', 'merge', 'r.json', '--out', 'a', '--out', 'b'], twice('out', 'a, b')],
  ['report render --out twice', ['report', 'render', 'r.json', '--out', 'a', '--out', 'b'], twice('out', 'a, b')],
  ['serve --port 1 -p 2', ['serve', '$REC', '--port', '1', '-p', '2'], twice('port', '1, 2')],
  ['serve --host twice', ['serve', '$REC', '--host', '127.0.0.1', '--host', '::1'], twice('host', '127.0.0.1, ::1')],
  ['serve --log twice', ['serve', '$REC', '--log', 'a', '--log', 'b'], twice('log', 'a, b')],
  [
    'validate --agent-version twice',
    ['validate', 'scenario', 's.yaml', '--agent-version', '1.19.2', '--agent-version', '1.29.5'],
    twice('agent-version', '1.19.2, 1.29.5'),
  ],
  ['lab up --instances 1 -n 2', ['lab', 'up', '--instances', '1', '-n', '2'], twice('instances', '1, 2')],
  ['lab down --dir twice', ['lab', 'down', '--dir', 'a', '--dir', 'b'], twice('dir', 'a, b')],
  ['mutate --min-score twice', ['mutate', '--min-score', '10', '--min-score', '20'], twice('min-score', '10, 20')],
  ['mutate --from twice', ['mutate', '--from', 'checks', '--from', 'spec'], twice('from', 'checks, spec')],
  ['spec --json --json', ['spec', '--json', '--json'], twice('json')],
  ['agents install --force --force', ['agents', 'install', '--force', '--force'], twice('force')],
].map(([name, argv, message]) => ({
  name: name as string,
  cause: C1,
  argv: argv as string[],
  files: { 'r.json': REPORT, 's.yaml': pinging('{ status: 200 }') },
  code: 2,
  message: message as RegExp,
  writesNot: ['a', 'b', 'out', 'reports'],
}));

const gates: Row[] = [
  {
    name: 'a list given twice is a list: --only a --only b',
    cause: C1,
    argv: ['replay', '--only', 'system-ping', '--only', 'system-status', '--report-dir', 'out'],
    code: 0,
    valid: true,
    message: /^$/,
    writes: ['out/report.json'],
  },
  ...(['/nonexistent/syncthing', '9.9.9'] as const).map((value) => ({
    name: `SYNCONF_SYNCTHING=${value} run: as --syncthing ${value}, before any work`,
    cause: C1,
    argv: ['run', '--only', 'system-ping', '--report-dir', 'out'],
    env: { SYNCONF_SYNCTHING: value },
    code: 2,
    message: /^synconf: .*\(from SYNCONF_SYNCTHING\)/,
    writesNot: ['out'],
  })),
  {
    name: 'drift of a folder holding one HAR saved by a browser, --fail-on breaking',
    cause: C1,
    files: { 'browser/x.har': FOREIGN_HAR },
    argv: ['drift', '$REC', 'browser', '--fail-on', 'breaking'],
    code: 2,
    message:
      /^synconf: recordings folder browser holds no synconf cassette: cassette browser\/x\.har: this is a HAR file not recorded by synconf/,
  },
  {
    name: 'drift from a folder holding one browser HAR',
    cause: C1,
    files: { 'browser/system-ping.har': FOREIGN_HAR },
    argv: ['drift', 'browser', '$REC', '--fail-on', 'any'],
    code: 2,
    message: /^synconf: recordings folder browser holds no synconf cassette/,
  },
  {
    name: 'drift of a folder with a cassette and a browser HAR: the HAR named, exit 2',
    cause: C1,
    files: { 'mixed/system-ping.har': HAR, 'mixed/saved.har': FOREIGN_HAR },
    argv: ['drift', '$REC', 'mixed', '--fail-on', 'breaking'],
    code: 2,
    message: /^synconf drift: cassette mixed\/saved\.har: this is a HAR file not recorded by synconf/,
    lines: 2,
  },
  // a session of no exchange the spec describes answered "0 causes" / "score n/a", exit 0
  ...(
    [
      ['drift --against', ['drift', '--against', '$REC_NEW', 'browser.har', '--fail-on', 'breaking']],
      ['mutate --proxy-session', ['mutate', '--proxy-session', 'browser.har', '--report-dir', 'm']],
    ] as const
  ).map(([command, argv]): Row => ({
    name: `${command} of a session with no exchange of the spec`,
    cause: C1,
    files: { 'browser.har': FOREIGN_HAR },
    argv: [...argv],
    code: 2,
    message: /^synconf: browser\.har: the session holds no exchange the spec describes \(0 in all\)/,
  })),
  {
    // a call the recordings hold no answer to was "breaking: endpoint-removed GET /rest/system/ping (404)"
    name: "drift --against recordings that hold no answer to the client's call: cannot tell",
    cause: C1,
    files: { 'q.har': queriedPing },
    argv: ['drift', '--against', '$REC_NEW', 'q.har', '--fail-on', 'breaking'],
    code: 2,
    message: /^synconf: cannot tell: \S+ holds no recorded answer to any of the client's 1 exchange\(s\)/,
  },
  {
    name: 'report merge of a shard whose scenario list was emptied',
    cause: C1,
    files: {
      'emptied.json': () =>
        edited('$SHARD2', (r) =>
          Object.assign(r, { scenarios: [], totals: totalsOf([]) }, { shard: { ...r.shard, scenarios: [] } }),
        ),
    },
    argv: ['report', 'merge', '$SHARD1', 'emptied.json', '--out', 'm'],
    code: 2,
    message:
      /^synconf: the shards of plan [0-9a-f]{12} for 1\.19\.2 hold \d+ distinct of \d+ listed scenarios, their plan 2\d/,
    writesNot: ['m/matrix.json'],
  },
  {
    name: 'report merge of a shard whose results were emptied: the shard did not finish',
    cause: C1,
    files: {
      'results.json': () => edited('$SHARD2', (r) => Object.assign(r, { scenarios: [], totals: totalsOf([]) })),
    },
    argv: ['report', 'merge', '$SHARD1', 'results.json', '--out', 'm'],
    code: 2,
    message:
      /^synconf: shard 2\/2 of plan [0-9a-f]{12} for 1\.19\.2 did not finish: \d+ of its \d+ scenarios did not run/,
  },
  {
    name: 'report merge of a shard whose scenario list was cut',
    cause: C1,
    files: {
      'cut.json': () =>
        edited('$SHARD2', (r) => Object.assign(r, { shard: { ...r.shard, scenarios: r.shard.scenarios.slice(0, 2) } })),
    },
    argv: ['report', 'merge', '$SHARD1', 'cut.json', '--out', 'm'],
    code: 2,
    message: /^synconf: the shards of plan [0-9a-f]{12} for 1\.19\.2 hold \d+ distinct/,
    writesNot: ['m/matrix.json'],
  },
  {
    name: 'report merge of a whole run whose scenarios were emptied, totals left: cannot tell',
    cause: C1,
    files: { 'emptied.json': () => JSON.stringify({ ...JSON.parse(REPORT), scenarios: [] }) },
    argv: ['report', 'merge', 'emptied.json', '--out', 'm'],
    code: 2,
    message:
      /^synconf: emptied\.json: cannot tell what this run found: its totals count 6 scenarios and 15 checks, its scenarios list 0 and 0; missing: 6 scenarios, 15 checks, 14 pass, 1 expected-fail; /,
    writesNot: ['m/matrix.json'],
  },
  {
    name: 'report merge of a whole run whose scenarios were cut, totals left: cannot tell',
    cause: C1,
    files: { 'cut.json': () => cutReport(2) },
    argv: ['report', 'merge', 'cut.json', '--out', 'm'],
    code: 2,
    message:
      /^synconf: cut\.json: cannot tell what this run found: its totals count 6 scenarios and \d+ checks, its scenarios list 2 and \d+; missing: 4 scenarios, /,
    writesNot: ['m/matrix.json'],
  },
  {
    name: 'validate report of a run whose scenarios were cut, totals left: cannot tell',
    cause: C1,
    files: { 'cut.json': () => cutReport(2) },
    argv: ['validate', 'report', 'cut.json'],
    code: 2,
    message: /^synconf: cut\.json: cannot tell what this run found: .*; missing: 4 scenarios, /,
  },
  ...(
    [
      ['validate report', ['validate', 'report', 'flipped.json']],
      ['report merge', ['report', 'merge', 'flipped.json', '--out', 'm']],
      ['report render', ['report', 'render', 'flipped.json', '--out', 'm']],
    ] as const
  ).map(([command, argv]): Row => ({
    // it merged as "conforms (exit 0): … 1 fail", and rendered a summary headed "conforms" listing the failure
    name: `${command} of a run with a check flipped to fail, its exit code left 0: cannot tell`,
    cause: C1,
    files: { 'flipped.json': flippedReport },
    argv: [...argv],
    code: 2,
    message:
      /^synconf: flipped\.json: cannot tell what this run found: its exit code 0 says it conforms, yet check \S+ is fail \(failing on: /,
  })),
  {
    // a cut baseline turned the checks it lost into "new checks" and gated on what was left
    name: 'replay --baseline of a run whose scenarios were cut, totals left: cannot tell',
    cause: C1,
    files: { 'cut.json': () => cutReport(2) },
    argv: ['replay', '--only', 'system-ping', '--baseline', 'cut.json', '--report-dir', 'out'],
    code: 2,
    message: /^synconf: cut\.json: cannot tell what this run found: .*; missing: 4 scenarios, /,
  },
  {
    name: 'report merge of a shard whose scenarios were cut, totals left: cannot tell, naming them',
    cause: C1,
    files: { 'cut.json': () => edited('$SHARD2', (r) => Object.assign(r, { scenarios: r.scenarios.slice(0, 1) })) },
    argv: ['report', 'merge', '$SHARD1', 'cut.json', '--out', 'm'],
    code: 2,
    message:
      /^synconf: cut\.json: cannot tell what this run found: .*; missing: \d+ scenarios \(of its shard: [\w-]+, [\w-]+, [\w-]+ and \d+ more\), /,
    writesNot: ['m/matrix.json'],
  },
  ...(
    [
      ['another synconf version', (r) => Object.assign(r, { synconf: { version: '9.9.9' } }), 'synconf version \\S+'],
      [
        'another suite',
        (r) => Object.assign(r, { shard: { ...r.shard, suite: '0123456789ab' } }),
        'suite [0-9a-f]{12}',
      ],
      [
        'another statement index',
        (r) => Object.assign(r, { shard: { ...r.shard, statementIndex: '0123456789ab' } }),
        'statement index [0-9a-f]{12}',
      ],
      // the merged report takes its verdict settings from one shard: shards judged otherwise are not one run
      [
        'another --fail-on',
        (r) => Object.assign(r, { run: { ...r.run, failOn: ['fail', 'skip'] } }),
        '--fail-on [a-z,-]+',
      ],
      [
        'another --strict',
        (r) => Object.assign(r, { run: { ...r.run, strict: !r.run.strict } }),
        '--strict (true|false)',
      ],
      [
        'other known deviations',
        (r) => Object.assign(r, { run: { ...r.run, expectations: 'mine.yaml', expectationsHash: '0123456789ab' } }),
        'known deviations \\S+ \\([0-9a-f]{12}\\)',
      ],
    ] as [string, (r: ShardReport) => unknown, string][]
  ).map(([what, edit, differs]): Row => ({
    name: `report merge of a shard made by ${what}: refused, naming both files and the difference`,
    cause: C1,
    files: { 'other.json': () => edited('$SHARD2', edit) },
    argv: ['report', 'merge', '$SHARD1', 'other.json', '--out', 'm'],
    code: 2,
    message: new RegExp(
      `^synconf: the shards of 1\\.19\\.2 were not made alike: ${differs} \\(\\S+shard-1/report\\.json\\) vs .+? \\(other\\.json\\): merge the shards of one run`,
    ),
    writesNot: ['m/matrix.json'],
  })),
  {
    name: 'report merge of a shard of an older synconf (no suite, no index) beside a newer one: cannot tell',
    cause: C1,
    files: {
      'older.json': () =>
        edited('$SHARD2', (r) =>
          Object.assign(r, { shard: { ...r.shard, suite: undefined, statementIndex: undefined } }),
        ),
    },
    argv: ['report', 'merge', '$SHARD1', 'older.json', '--out', 'm'],
    code: 2,
    message:
      /^synconf: the shards of 1\.19\.2 were not made alike: suite [0-9a-f]{12} \(\S+\) vs none recorded \(older\.json\); statement index .* \(a shard that records none was written by an older synconf, or stopped before it applied any: cannot tell\)/,
    writesNot: ['m/matrix.json'],
  },
  {
    name: 'report merge of 60 copies of a shard: one line, the first few named',
    cause: C4,
    files: Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [`s${i}.json`, () => readFileSync(fill('$SHARD1'), 'utf8')]),
    ),
    argv: ['report', 'merge', ...Array.from({ length: 60 }, (_, i) => `s${i}.json`), '$SHARD2', '--out', 'm'],
    code: 2,
    message:
      /^synconf: shard 1\/2 of plan [0-9a-f]{12} for 1\.19\.2 is given 60 times: s0\.json, s1\.json, s2\.json and 57 more$/,
    writesNot: ['m/matrix.json'],
  },
  ...(
    [
      ['replay --shard 40/40', ['replay', '--shard', '40/40', '--report-dir', 'out']],
      [
        'matrix --replay --shard 30/30',
        ['matrix', '--replay', '--syncthing', '1.19.2', '--shard', '30/30', '--report-dir', 'out'],
      ],
    ] as [string, string[]][]
  ).map(([what, argv]): Row => ({
    name: `${what} of the ${SUITE_SIZE} scenarios: a shard of nothing is refused, not a green run of 0 checks`,
    cause: C1,
    argv,
    code: 2,
    message: new RegExp(
      `^synconf: --shard (40/40|30/30): shard \\d+ holds no scenario: the selection has ${SUITE_SIZE} scenarios, so only shards 1 to ${SUITE_SIZE} of \\d+ hold one`,
    ),
    writesNot: ['out/report.json', 'out/matrix.json'],
  })),
  {
    name: "report merge of a shard listing another shard's scenarios",
    cause: C1,
    files: {
      'dup.json': () =>
        edited('$SHARD2', (r) =>
          Object.assign(r, {
            shard: {
              ...r.shard,
              scenarios: (JSON.parse(readFileSync(fill('$SHARD1'), 'utf8')) as ShardReport).shard.scenarios,
            },
          }),
        ),
    },
    argv: ['report', 'merge', '$SHARD1', 'dup.json', '--out', 'm'],
    code: 2,
    message: /^synconf: the shards of plan [0-9a-f]{12} for 1\.19\.2 hold \d+ distinct of \d+ listed/,
    writesNot: ['m/matrix.json'],
  },
];

// (2) every operand of a check, judged when the file loads: validate and replay refuse it in the same words, exit 2
const OPERANDS: [string, string, RegExp][] = [
  // a scenario that checks nothing ran green: "CONFORMS: 1 scenario, 0 checks"
  ['no step at all', `${HEAD}steps: []\n`, /s\.yaml:4: no step checks anything/],
  ['a request expecting nothing', `${HEAD}steps:\n  - name: ping\n${PING}`, /s\.yaml:5: no step checks anything/],
  // replay said "not a version" without a line, after validate had called the file valid
  [
    'a scenario since that is no version',
    `id: system-ping\ntitle: t\nspec: [GET /rest/system/ping]\nsince: banana\nsteps:\n  - name: ping\n${PING}    expect: { status: 200 }\n`,
    /s\.yaml:4: \/since: must match .*, got "banana"$/,
  ],
  [
    'a step since that is no version',
    pinging('{ status: 200 }', '    since: banana\n'),
    /s\.yaml:8: step "ping": .*since: must match/,
  ],
  // the agent was blamed: "media type application/json, expected not a media type"
  [
    'a mediaType that is none',
    pinging('{ status: 200, mediaType: "not a media type" }'),
    /s\.yaml:7: step "ping": .*mediaType: must match .*, got "not a media type"$/,
  ],
  [
    'notBefore "yesterday"',
    pinging('{ assert: [{ path: /ping, notBefore: yesterday }] }'),
    /s\.yaml:7: step "ping": notBefore: "yesterday" is not an RFC 3339 timestamp$/,
  ],
  [
    'notBefore a date without time',
    pinging('{ assert: [{ path: /ping, notBefore: "2024-01-01" }] }'),
    /notBefore: "2024-01-01" is not an RFC 3339 timestamp$/,
  ],
  [
    'isCountOf "not a list"',
    pinging('{ assert: [{ path: /ping, isCountOf: "not a list" }] }'),
    /step "ping": isCountOf: "not a list" is not an array or object/,
  ],
  ['isCountOf 3', pinging('{ assert: [{ path: /ping, isCountOf: 3 }] }'), /isCountOf: 3 is not an array or object/],
  [
    'isCountOf a partial template',
    pinging('{ assert: [{ path: /ping, isCountOf: "x{{tmp}}" }] }'),
    /isCountOf: "x\{\{tmp\}\}" is not an array or object/,
  ],
  [
    'subsetOf 42',
    pinging('{ assert: [{ path: /ping, subsetOf: 42 }] }'),
    /step "ping": subsetOf: 42 is not an array or object/,
  ],
  [
    'subsetOf null',
    pinging('{ assert: [{ path: /ping, subsetOf: null }] }'),
    /subsetOf: null is not an array or object/,
  ],
  [
    'an assertion with no operator',
    pinging('{ assert: [{ path: /ping }] }'),
    /\/steps\/0\/expect\/assert\/0: must NOT have fewer than 2 properties|an assertion needs an operator/,
  ],
  [
    'an assertion with a name and no operator',
    pinging('{ assert: [{ path: /ping, name: x }] }'),
    /step "ping": an assertion needs an operator: one of exists, equals/,
  ],
  [
    'a where assertion with no operator',
    pinging('{ assert: [{ path: "", isCountOf: [], where: [{ path: /a, name: n }] }] }'),
    /an assertion needs an operator/,
  ],
  [
    'where without isCountOf',
    pinging('{ assert: [{ path: /ping, equals: 1, where: [{ path: /a, exists: true }] }] }'),
    /assert\/0\/where: "where" needs "isCountOf" beside it$/,
  ],
  [
    'except without unchangedFrom',
    pinging('{ assert: [{ path: /ping, equals: 1, except: [/a] }] }'),
    /assert\/0\/except: "except" needs "unchangedFrom" beside it$/,
  ],
  ['status 999', pinging('{ status: 999 }'), /\/steps\/0\/expect\/status: must be <= 599 \(got 999\)$/],
  ['status 99', pinging('{ status: 99 }'), /\/steps\/0\/expect\/status: must be >= 100 \(got 99\)$/],
  [
    'status [200, 1000]',
    pinging('{ status: [200, 1000] }'),
    /\/steps\/0\/expect\/status\/1: must be <= 599 \(got 1000\)$/,
  ],
  [
    'a header value with CR/LF',
    `${HEAD}steps:\n  - name: ping\n    request: { method: GET, path: /rest/system/ping, headers: { X-A: "a\\r\\nb" } }\n`,
    /\/request\/headers\/X-A: must match \^\[\^\\r\\n\]\*\$, got "a\\r\\nb"$/,
  ],
  [
    'a header value with LF',
    `${HEAD}steps:\n  - name: ping\n    request: { method: GET, path: /rest/system/ping, headers: { X-A: "a\\nb" } }\n`,
    /\/request\/headers\/X-A: must match/,
  ],
  [
    'a header value with NUL',
    requesting('headers: { X-A: "a\\0b" }'),
    /s\.yaml:6: step "ping": header X-A: "a\\u0000b" holds U\+0000: a header value is Latin-1 text without control/,
  ],
  ['a header value with DEL', requesting('headers: { X-A: "a\\x7Fb" }'), /header X-A: "a\\x7fb" holds U\+007F/], // printed escaped
  ['a header value beyond Latin-1', requesting('headers: { X-A: "5 €" }'), /header X-A: "5 €" holds U\+20AC/],
  [
    'a header value with NUL beside a template',
    requesting('headers: { X-A: "{{tmp}}\\0" }'),
    /header X-A: "\{\{tmp\}\}\\u0000" holds U\+0000/,
  ],
  [
    'a header name with a space',
    requesting('headers: { "X A": v }'),
    /s\.yaml:6: step "ping": header name "X A" is not an HTTP token/,
  ],
  ['a header name with a colon', requesting('headers: { "X:A": v }'), /header name "X:A" is not an HTTP token/],
  ['a header name beyond ASCII', requesting('headers: { "é": v }'), /header name "é" is not an HTTP token/],
  ['an empty header name', requesting('headers: { "": v }'), /header name "" is not an HTTP token/],
  [
    'a header name with a space beside a template',
    requesting('headers: { "X {{tmp}}": v }'),
    /header name "X \{\{tmp\}\}" is not an HTTP token/,
  ],
  [
    'notBefore "yesterday {{tmp}}"',
    pinging('{ assert: [{ path: /ping, notBefore: "yesterday {{tmp}}" }] }'),
    /s\.yaml:7: step "ping": notBefore: "yesterday \{\{tmp\}\}" is not an RFC 3339 timestamp, whatever its templates hold$/,
  ],
  [
    'notBefore "{{tmp}} ago"',
    pinging('{ assert: [{ path: /ping, notBefore: "{{tmp}} ago" }] }'),
    /notBefore: "\{\{tmp\}\} ago" is not an RFC 3339 timestamp, whatever/,
  ],
  [
    'notBefore with an offset without its colon',
    pinging('{ assert: [{ path: /ping, notBefore: "{{tmp}}T00:00:00+0200" }] }'),
    /notBefore: "\{\{tmp\}\}T00:00:00\+0200" is not an RFC 3339 timestamp, whatever/,
  ],
  [
    'an unclosed {{ in a path',
    `${HEAD}steps:\n  - name: ping\n    request: { method: GET, path: "/rest/system/ping?x={{tmp" }\n`,
    /"\/rest\/system\/ping\?x=\{\{tmp": "\{\{" opens no template/,
  ],
  [
    'an unclosed {{ in an assertion value',
    pinging('{ assert: [{ path: /ping, equals: "{{pong" }] }'),
    /"\{\{pong": "\{\{" opens no template/,
  ],
  [
    'a {{ with a space in the name',
    pinging('{ assert: [{ path: /ping, equals: "{{a b}}" }] }'),
    /"\{\{" opens no template/,
  ],
  [
    'a template in vars',
    `vars: { a: "{{b}}" }\n${HEAD}steps:\n  - name: ping\n${PING}`,
    /vars\.a: "\{\{b\}\}" holds a template, but vars are constants/,
  ],
  [
    'a template deep in vars',
    `vars: { a: { b: ["{{tmp}}"] } }\n${HEAD}steps:\n  - name: ping\n${PING}`,
    /vars\.a: "\{\{tmp\}\}" holds a template/,
  ],
  [
    'a capture into {{tmp}}',
    pinging('{ status: 200 }', '    capture: { tmp: /ping }\n'),
    /capture "tmp" would hide the run variable \{\{tmp\}\}/,
  ],
  [
    'a capture into {{agent}}',
    pinging('{ status: 200 }', '    capture: { agent: /ping }\n'),
    /capture "agent" would hide the run variables \{\{agent\.\*\}\}/,
  ],
  [
    'a capture into a var',
    `vars: { v: 1 }\n${pinging('{ status: 200 }', '    capture: { v: /ping }\n')}`,
    /capture "v" would hide the run variable \{\{v\}\}/,
  ],
  [
    'a catastrophic regex in assert matches',
    pinging('{ assert: [{ path: /ping, matches: "^(a+)+$" }] }'),
    /"\(a\+\)\+" repeats a group that repeats or holds alternatives/,
  ],
  [
    'a catastrophic regex in text matches',
    pinging('{ text: { matches: "^(\\\\w+\\\\s?)*$" } }'),
    /repeats a group that repeats or holds alternatives/,
  ],
  [
    'a catastrophic regex in every',
    pinging('{ assert: [{ path: "", every: { matches: "(a|a)*$" } }] }'),
    /"\(a\|a\)\*" repeats a group/,
  ],
  [
    'a catastrophic regex in a where',
    pinging('{ assert: [{ path: "", isCountOf: [], where: [{ path: /a, matches: "((ab)*)+$" }] }] }'),
    /repeats a group that repeats/,
  ],
  [
    'a catastrophic regex inside a lookahead',
    pinging('{ text: { matches: "^(?=(x+x+)+y)" } }'),
    /repeats a group that repeats/,
  ],
  [
    'a group that repeats, repeated 10 times',
    pinging('{ assert: [{ path: /ping, matches: "^(a+){10}$" }] }'),
    /"\(a\+\)\{10\}" repeats a group that repeats/,
  ],
  [
    'a regex that is none',
    pinging('{ assert: [{ path: /ping, matches: "(" }] }'),
    /matches: must be a valid regex, got "\("$/,
  ],
  [
    'a regex of 2000 characters',
    pinging(`{ assert: [{ path: /ping, matches: "${'a'.repeat(2000)}" }] }`),
    /a pattern of 2000 characters is too long \(at most 1000\)$/,
  ],
];
/** `replay --suite` of one scenario file: exit 2, its line, and the verdict line of the run */
const replaySuiteRow = (name: string, scenario: string, message: RegExp): Row => ({
  name: `replay --suite: ${name}`,
  cause: C2,
  files: { 's.yaml': scenario },
  argv: ['replay', '--suite', 's.yaml', '--report-dir', 'out'],
  code: 2,
  message,
  lines: 2,
});
const operands: Row[] = OPERANDS.flatMap(([name, scenario, message]) => [
  {
    name: `validate scenario: ${name}`,
    cause: C2,
    files: { 's.yaml': scenario },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message,
  },
  replaySuiteRow(name, scenario, message),
]);
const operandsValid: Row[] = [
  [
    'isCountOf a {{capture}}',
    pinging(
      '{ status: 200 }',
      '    capture: { all: "" }\n  - name: again\n    request: { method: GET, path: /rest/system/ping }\n    expect: { assert: [{ path: "", isCountOf: "{{all}}" }] }\n',
    ),
  ],
  [
    'notBefore a timestamp with an offset',
    pinging('{ assert: [{ path: /ping, notBefore: "2024-01-01T00:00:00.123456789+02:00" }] }'),
  ],
  ['a lookahead the suites use', pinging(`{ text: { matches: '^(?![\\s\\S]*"apiKey")' } }`)],
  [
    'an IPv4 address pattern (a group repeated 3 times)',
    pinging(`{ assert: [{ path: /ping, matches: '^(\\d+\\.){3}\\d+$' }] }`),
  ],
  ['a header value in Latin-1, with a tab', requesting('headers: { X-A: "café\\tau lait" }')],
  ['a header name and value that are templates', requesting('headers: { "{{tmp}}": "{{tmp}}", "X-{{tmp}}": v }')],
  [
    'notBefore a template for the date',
    pinging('{ assert: [{ path: /ping, notBefore: "{{tmp}}T00:00:00.5+02:00" }] }'),
  ],
  ['notBefore a template for the time', pinging('{ assert: [{ path: /ping, notBefore: "2024-01-01T{{tmp}}" }] }')],
  [
    'where with isCountOf, except with unchangedFrom',
    pinging(
      '{ assert: [{ path: "", isCountOf: [], where: [{ path: /a, exists: true }] }, { path: "", unchangedFrom: {}, except: [/ping] }] }',
    ),
  ],
].map(([name, scenario]) => ({
  name: `validate scenario: ${name} is valid`,
  cause: C2,
  files: { 's.yaml': scenario },
  argv: ['validate', 'scenario', 's.yaml'],
  code: 0,
  valid: true as const,
  message: /^$/,
}));

// (2) a header that is a template, known when its step runs: filled in with what no HTTP client sends, the scenario
// stops there, the scenario's fault (exit 2) in replay as live (where Node's http would throw), never a green run
const headerAtRun = (vars: string, headers: string) => `vars: { ${vars} }\n${requesting(`headers: { ${headers} }`)}`;
const AT_RUN: [string, string, RegExp][] = [
  [
    'a header value whose template gives NUL',
    headerAtRun('v: "a\\0b"', 'X-A: "{{v}}"'),
    /^synconf: s\.yaml: system-ping: step "ping": once its templates are filled in, header X-A: "a\\u0000b" holds U\+0000/,
  ],
  [
    'a header value whose template gives €',
    headerAtRun('v: "5 €"', 'X-A: "x{{v}}"'),
    /step "ping": once its templates are filled in, header X-A: "x5 €" holds U\+20AC/,
  ],
  [
    'a header name whose template gives a space',
    headerAtRun('h: "X A"', '"{{h}}": v'),
    /step "ping": once its templates are filled in, header name "X A" is not an HTTP token/,
  ],
];
const operandsAtRun: Row[] = AT_RUN.map(([name, scenario, message]) => ({
  ...replaySuiteRow(name, scenario, message),
  writes: ['out/report.json'],
}));

// (4/5) bounds, refused in one line before the work starts
/** a YAML alias bomb: ten levels of ten aliases each, some ten billion values, in under 400 bytes */
const BOMB = Array.from({ length: 10 }, (_, i) =>
  i === 0
    ? 'a0: &a0 [x,x,x,x,x,x,x,x,x,x]'
    : `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(',')}]`,
).join('\n');
const indented = (text: string, by: string) => text.replace(/^/gm, by);
/** a cassette of system-ping whose JSON answers are `body` */
const withBody = (body: string) => {
  const har = JSON.parse(HAR) as { log: { entries: { response: { content: { text?: string } } }[] } };
  for (const e of har.log.entries) if (e.response.content.text?.startsWith('{')) e.response.content.text = body;
  return JSON.stringify(har);
};
/** a cassette of system-ping whose JSON answers have `n` more members */
const manyMembers = (n: number) =>
  withBody(JSON.stringify({ ping: 'pong', ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, i])) }));
const table = (rows: number, path: (i: number) => string) =>
  `${HEAD}steps:\n  - name: q\n    expect: { status: 200 }\n    each:\n${Array.from({ length: rows }, (_, i) => `      - { name: r${i}, request: { method: GET, path: "${path(i)}" } }`).join('\n')}\n`;

const bounds: Row[] = [
  {
    name: 'a YAML alias bomb as --ignore-file',
    cause: C4,
    files: { 'bomb.yaml': `${BOMB}\naccepted: []\n` },
    argv: ['drift', '$REC', '$REC_NEW', '--ignore-file', 'bomb.yaml'],
    code: 2,
    message: /^synconf: --ignore-file bomb\.yaml: its YAML aliases stand for more than 100,000 mappings and lists/,
  },
  {
    name: "a YAML alias bomb in a scenario's vars: validate",
    cause: C4,
    files: { 's.yaml': `${HEAD}vars:\n${indented(BOMB, '  ')}\nsteps:\n  - name: ping\n${PING}` },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message: /^synconf: s\.yaml: its YAML aliases stand for more than 100,000/,
  },
  {
    name: "a YAML alias bomb in a scenario's vars: replay",
    cause: C4,
    files: { 's.yaml': `${HEAD}vars:\n${indented(BOMB, '  ')}\nsteps:\n  - name: ping\n${PING}` },
    argv: ['replay', '--suite', 's.yaml', '--report-dir', 'out'],
    code: 2,
    lines: 2,
    message: /^synconf: s\.yaml: its YAML aliases stand for more than 100,000/,
  },
  {
    name: 'a YAML alias bomb in a request body',
    cause: C4,
    files: {
      's.yaml': `${HEAD}x:\n${indented(BOMB, '  ')}\nsteps:\n  - name: ping\n    request: { method: POST, path: /rest/system/ping, json: *a9 }\n`,
    },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message: /its YAML aliases stand for more than 100,000/,
  },
  {
    name: 'a YAML alias bomb in an expectations file',
    cause: C4,
    files: { 'e.yaml': `${BOMB}\nagent: syncthing\nversions: ">=1.0.0"\ndescription: d\ndeviations: []\n` },
    argv: ['validate', 'expectations', 'e.yaml'],
    code: 2,
    message: /expectations file e\.yaml: its YAML aliases stand for more than 100,000/,
  },
  {
    name: 'a YAML alias bomb in --expectations of a replay',
    cause: C4,
    files: { 'e.yaml': `${BOMB}\nagent: syncthing\nversions: ">=1.0.0"\ndescription: d\ndeviations: []\n` },
    argv: ['replay', '--only', 'system-ping', '--expectations', 'e.yaml', '--report-dir', 'out'],
    code: 2,
    lines: 3,
    message: /expectations file e\.yaml: its YAML aliases stand for more than 100,000/,
  },
  {
    name: 'a YAML scenario nested 5000 deep',
    cause: C4,
    files: { 's.yaml': `${HEAD}x: ${'['.repeat(5000)}${']'.repeat(5000)}\n` },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message: /s\.yaml:\d+: not valid YAML: nesting exceeded maxDepth/,
  },
  {
    name: 'an each: table of 1001 rows',
    cause: C4,
    files: { 's.yaml': table(1001, () => '/rest/system/ping') },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message: /s\.yaml:\d+: step "q": \/steps\/0\/each: must NOT have more than 1000 items/,
  },
  {
    name: 'an each: table of 5000 rows, replayed',
    cause: C4,
    files: { 's.yaml': table(5000, (i) => `/rest/system/ping?x=${i}`) },
    argv: ['replay', '--suite', 's.yaml', '--report-dir', 'out'],
    code: 2,
    lines: 2,
    message: /\/steps\/0\/each: must NOT have more than 1000 items/,
  },
  {
    name: 'a 300-row table whose rows miss only by a query value: folded, report within bounds',
    cause: C4,
    files: { 's.yaml': table(300, (i) => `/rest/system/ping?x=${i}`) },
    argv: ['replay', '--suite', 's.yaml', '--report-dir', 'out'],
    code: 2,
    lines: 5,
    stdoutLines: 10,
    message: /^synconf: … and 29\d more like it$/,
    writes: ['out/report.json'],
  },
  {
    // each failing check had its own line on the terminal: 20,000 assertions printed 20,000 lines
    name: 'a step of 500 failing assertions: 20 lines on the terminal, the rest counted',
    cause: C4,
    files: {
      's.yaml': pinging(
        `{ status: 200, assert: [${Array.from({ length: 500 }, (_, i) => `{ path: /ping, equals: nope${i} }`).join(', ')}] }`,
      ),
    },
    argv: ['replay', '--suite', 's.yaml', '--report-dir', 'out'],
    code: 1,
    valid: true,
    message: /^$/, // nothing on stderr
    stdoutLines: 26,
    stdoutMatch: /^ {6}… and 480 more failing checks of system-ping \(the report lists them\)$/m,
    writes: ['out/report.json'],
  },
  {
    name: 'a cassette body nested 200,000 deep: replay',
    cause: C4,
    files: { 'rec/_run.har': RUN_HAR, 'rec/system-ping.har': withBody(`${'['.repeat(200_000)}${']'.repeat(200_000)}`) },
    argv: ['replay', 'rec', '--only', 'system-ping', '--report-dir', 'out'],
    code: 2,
    lines: 3,
    message:
      /cassette rec\/system-ping\.har: entry \d+ \(\w+ \S+\): its response body is nested deeper than 1000 levels/,
  },
  {
    name: 'a cassette body nested 200,000 deep: drift',
    cause: C4,
    files: { 'rec/system-ping.har': withBody(`${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}`) },
    argv: ['drift', '$REC', 'rec'],
    code: 2,
    lines: 2,
    message: /cassette rec\/system-ping\.har: entry \d+ .*nested deeper than 1000 levels/,
  },
  {
    name: 'a cassette body nested 200,000 deep: serve',
    cause: C4,
    files: { 'rec/_run.har': RUN_HAR, 'rec/system-ping.har': withBody(`${'['.repeat(200_000)}${']'.repeat(200_000)}`) },
    argv: ['validate', 'cassette', 'rec/system-ping.har'],
    code: 2,
    message: /nested deeper than 1000 levels/,
  },
  {
    name: 'a cassette body of 150,000 members',
    cause: C4,
    files: { 'rec/_run.har': RUN_HAR, 'rec/system-ping.har': manyMembers(150_000) },
    argv: ['replay', 'rec', '--only', 'system-ping', '--report-dir', 'out'],
    code: 2,
    lines: 3,
    message: /its response body is an object or array of more than 100,000 members/,
  },
  {
    name: 'drift of answers with 5000 new members: linear, one line per cause',
    cause: C4,
    valid: true,
    files: { 'old/system-ping.har': HAR, 'new/system-ping.har': manyMembers(5000) },
    argv: ['drift', 'old', 'new'],
    code: 1, // a difference found
    stdoutLines: 12,
    message: /^$/,
  },
  {
    name: 'an answer of 5000 undocumented members: 100 listed per endpoint, the rest counted, reports small',
    cause: C4,
    valid: true,
    files: { 'rec/_run.har': RUN_HAR, 'rec/system-ping.har': manyMembers(5000) },
    argv: ['replay', 'rec', '--only', 'system-ping', '--report-dir', 'out'],
    code: 0,
    stdoutLines: 4,
    message: /^$/,
    bounded: {
      'out/report.json': 1_000_000,
      'out/report.html': 1_000_000,
      'out/junit.xml': 1_000_000,
      'out/summary.md': 65_536,
    },
  },
  {
    name: 'report merge of 60 copies of a run warns once',
    cause: C4,
    valid: true,
    files: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`r${i}.json`, REPORT])),
    argv: ['report', 'merge', ...Array.from({ length: 60 }, (_, i) => `r${i}.json`), '--out', 'm'],
    code: 0,
    message:
      /^synconf: warning: r1\.json, r2\.json, r3\.json and 56 more \(59 files\) are the same run as r0\.json \(given twice\?\)$/,
    writes: ['m/matrix.json'],
  },
  {
    name: 'report merge of 60 copies of a run: the 59 pairs that cannot tell alike are one line',
    cause: C4,
    valid: true,
    files: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`r${i}.json`, REPORT])),
    argv: ['report', 'merge', ...Array.from({ length: 60 }, (_, i) => `r${i}.json`), '--out', 'm'],
    code: 0,
    message: /^synconf: warning: .* are the same run as r0\.json/,
    // the matrix line, one pair line, the boundaries, 60 versions, where, the exit line (59 pair lines before)
    stdoutLines: 68,
    stdoutMatch:
      /^r0\.json → r1\.json: CANNOT TELL: .* \(and alike for 58 more pairs: r1\.json → r2\.json, r2\.json → r3\.json, r3\.json → r4\.json and 55 more; matrix\.md lists each\)$/m,
  },
];

// (10) every file recognised by kind and version before it is used, refused in one line naming what it is
const LAB = { dir: '/tmp/x', ownsDir: false, startedAt: '2026-01-01T00:00:00Z' };
const INSTANCE = {
  name: 'agent',
  url: 'http://127.0.0.1:1',
  apiKey: 'k',
  deviceId: 'd',
  syncAddress: 's',
  home: 'h',
  dataDir: 'd',
  logFile: 'l',
  binary: 'b',
  version: 'v',
};
const labDown = (name: string, json: string, message: RegExp): Row => ({
  name: `lab down: ${name}`,
  cause: C10,
  files: { 'lab/lab.json': json },
  argv: ['lab', 'down', '--dir', 'lab'],
  code: 2,
  message,
});
const otherFormat = REPORT.replace('"synconf-report/1"', '"synconf-report/2"');
const formatSays =
  /r\.json: this is a synconf-report\/2 document, a format synconf \S+ does not read \(it reads synconf-report\/1; made by another synconf\?\)$/;
const files: Row[] = [
  labDown(
    'a lab.json of other members',
    '{"x": 1}',
    /^synconf: lab\/lab\.json: not a lab state file \(synconf lab up writes one\): \/dir: required property "dir" is missing$/,
  ),
  labDown(
    'a lab.json that is not JSON',
    'not json',
    /^synconf: lab\/lab\.json:1:1: not JSON \(unexpected "n"\): not a lab state file/,
  ),
  labDown('an empty lab.json', '', /^synconf: lab\/lab\.json: the file is empty \(0 bytes\): not a lab state file/),
  labDown(
    'a lab.json of null',
    'null',
    /^synconf: lab\/lab\.json: not a lab state file \(synconf lab up writes one\): holds no document/,
  ),
  labDown(
    'a lab.json that is a report',
    REPORT,
    /^synconf: lab\/lab\.json: not a lab state file \(synconf lab up writes one\): this is a report, not a lab state file \(lab\.json\)$/,
  ),
  labDown(
    'a lab.json whose instances are null',
    JSON.stringify({ ...LAB, instances: null }),
    /\/instances: must be array, got null$/,
  ),
  labDown(
    'a lab.json with pid 1',
    JSON.stringify({ ...LAB, instances: [{ ...INSTANCE, pid: 1 }] }),
    /\/instances\/0\/pid: must be >= 2 \(got 1\)$/,
  ),
  labDown(
    'a lab.json with pid 0',
    JSON.stringify({ ...LAB, instances: [{ ...INSTANCE, pid: 0 }] }),
    /\/instances\/0\/pid: must be >= 2 \(got 0\)$/,
  ),
  labDown(
    'a lab.json with a negative pid',
    JSON.stringify({ ...LAB, instances: [{ ...INSTANCE, pid: -1 }] }),
    /\/instances\/0\/pid: must be >= 2/,
  ),
  {
    name: 'report render: a report of another format',
    cause: C10,
    files: { 'r.json': otherFormat },
    argv: ['report', 'render', 'r.json', '--out', 'out'],
    code: 2,
    message: formatSays,
    writesNot: ['out'],
  },
  {
    name: 'report merge: a report of another format',
    cause: C10,
    files: { 'r.json': otherFormat },
    argv: ['report', 'merge', 'r.json', '--out', 'out'],
    code: 2,
    message: formatSays,
    writesNot: ['out/matrix.json'],
  },
  {
    name: 'validate report: a report of another format',
    cause: C10,
    files: { 'r.json': otherFormat },
    argv: ['validate', 'report', 'r.json'],
    code: 2,
    message: formatSays,
  },
  {
    name: 'replay --baseline: a report of another format',
    cause: C10,
    files: { 'r.json': otherFormat },
    argv: ['replay', '--only', 'system-ping', '--baseline', 'r.json', '--report-dir', 'out'],
    code: 2,
    message: formatSays,
  },
  {
    name: 'report render: a matrix of another format',
    cause: C10,
    files: { 'r.json': '{"format": "synconf-matrix/9", "columns": []}' },
    argv: ['report', 'render', 'r.json', '--out', 'out'],
    code: 2,
    message:
      /r\.json: this is a synconf-matrix\/9 document, a format synconf \S+ does not read \(it reads synconf-report\/1/,
  },
  {
    name: 'report render: a report whose agent is null',
    cause: C10,
    files: { 'r.json': REPORT.replace(/"agent": \{[^}]*\}/, '"agent": null') },
    argv: ['report', 'render', 'r.json', '--out', 'out'],
    code: 2,
    message: /\/agent: must be object, got null$/,
  },
  {
    name: 'report render: null',
    cause: C10,
    files: { 'r.json': 'null' },
    argv: ['report', 'render', 'r.json', '--out', 'out'],
    code: 2,
    message: /r\.json: holds no document|r\.json: this is a null/,
  },
  {
    name: 'an empty ignore file',
    cause: C10,
    files: { 'i.yaml': '' },
    argv: ['drift', '$REC', '$REC_NEW', '--ignore-file', 'i.yaml'],
    code: 2,
    message: /^synconf: --ignore-file i\.yaml: the file is empty \(0 bytes\)$/,
  },
  {
    name: 'an ignore file that is not UTF-8',
    cause: C10,
    files: { 'i.yaml': Buffer.from([0x61, 0x63, 0x63, 0x65, 0x70, 0x74, 0x65, 0x64, 0x3a, 0x20, 0xff, 0x0a]) },
    argv: ['drift', '$REC', '$REC_NEW', '--ignore-file', 'i.yaml'],
    code: 2,
    message: /^synconf: --ignore-file i\.yaml:1:11: invalid UTF-8 \(byte 0xff\)$/,
  },
  {
    name: 'an ignore file that is a folder',
    cause: C10,
    files: { 'i.yaml/x': 'x' },
    argv: ['drift', '$REC', '$REC_NEW', '--ignore-file', 'i.yaml'],
    code: 2,
    message: /^synconf: cannot read --ignore-file i\.yaml: a folder, not a file$/,
  },
  {
    name: 'an ignore file of comments only',
    cause: C10,
    files: { 'i.yaml': '# nothing yet\n' },
    argv: ['drift', '$REC', '$REC_NEW', '--ignore-file', 'i.yaml'],
    code: 2,
    message: /^synconf: --ignore-file i\.yaml: holds no document/,
  },
  {
    name: 'an ignore file of null',
    cause: C10,
    files: { 'i.yaml': 'null\n' },
    argv: ['drift', '$REC', '$REC_NEW', '--ignore-file', 'i.yaml'],
    code: 2,
    message: /^synconf: --ignore-file i\.yaml: holds no document/,
  },
  {
    name: 'an ignore file whose accepted is null',
    cause: C10,
    files: { 'i.yaml': 'accepted: null\n' },
    argv: ['drift', '$REC', '$REC_NEW', '--ignore-file', 'i.yaml'],
    code: 2,
    message: /^synconf: --ignore-file i\.yaml:1: \/accepted: must be array, got null$/,
  },
  {
    name: 'an ignore file that is a scenario',
    cause: C10,
    files: { 'i.yaml': pinging('{ status: 200 }') },
    argv: ['drift', '$REC', '$REC_NEW', '--ignore-file', 'i.yaml'],
    code: 2,
    message: /^synconf: --ignore-file i\.yaml: this is a scenario, not a drift ignore file$/,
  },
  {
    name: 'an ignore file that is a report',
    cause: C10,
    files: { 'i.yaml': REPORT },
    argv: ['matrix', '--replay', '--only', 'system-ping', '--ignore-file', 'i.yaml', '--report-dir', 'out'],
    code: 2,
    message: /--ignore-file i\.yaml: this is a report, not a drift ignore file$/,
  },
  {
    name: 'an expectations file whose deviations are null',
    cause: C10,
    files: { 'e.yaml': 'agent: syncthing\nversions: ">=1.0.0"\ndescription: d\ndeviations: null\n' },
    argv: ['validate', 'expectations', 'e.yaml'],
    code: 2,
    message: /deviations: must be array, got null$/,
  },
  {
    name: 'a scenario whose steps are null',
    cause: C10,
    files: { 's.yaml': `${HEAD}steps: null\n` },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message: /s\.yaml:4: \/steps: must be array, got null$/,
  },
];

const rows: Row[] = [...repeated, ...gates, ...operands, ...operandsValid, ...operandsAtRun, ...bounds, ...files];

test('no broken input may end 0 or 1, none 3: only a row of valid input expects 0 or 1', () => {
  assertExitCodes(rows);
  assert.equal(new Set(rows.map((r) => r.name)).size, rows.length, 'row names are unique');
});

let scratchRoot: string;
const shards: Record<string, string> = {};
interface ShardReport {
  scenarios: unknown[];
  shard: { scenarios: string[] };
  run: { strict?: boolean };
}

const fill = (word: string) =>
  word
    .replaceAll('$REC_NEW', REC_NEW)
    .replaceAll('$REC', REC)
    .replaceAll('$SHARD1', shards.$SHARD1 ?? '$SHARD1')
    .replaceAll('$SHARD2', shards.$SHARD2 ?? '$SHARD2');

/** a shard's report.json, edited */
const edited = (which: string, edit: (r: ShardReport) => unknown) =>
  JSON.stringify(edit(JSON.parse(readFileSync(fill(which), 'utf8')) as ShardReport));

describe('hostile input, second round, against the built command', () => {
  const tally = new Tally();
  before(async () => {
    scratchRoot = makeTemp('hostile-input');
    for (const i of [1, 2]) {
      const dir = join(scratchRoot, `shard-${i}`);
      const r = await cliAsync(['replay', '--shard', `${i}/2`, '--report-dir', dir], {
        cwd: scratchRoot,
        timeout: 120_000,
      });
      assert.equal(r.code, 0, r.out);
      shards[`$SHARD${i}`] = join(dir, 'report.json');
    }
  });
  after(() => {
    removeTemp(scratchRoot);
    tally.print((cause) => `hostile-input (${cause})`);
  });

  let n = 0;
  for (const row of rows)
    test(`(${row.cause.split(' ')[0]}) ${row.name}`, { timeout: 30_000 }, async () => {
      const scratch = join(scratchRoot, `row-${n++}`);
      mkdirSync(scratch);
      for (const [name, bytes] of Object.entries(row.files ?? {})) {
        mkdirSync(dirname(join(scratch, name)), { recursive: true });
        writeFileSync(join(scratch, name), typeof bytes === 'function' ? bytes() : bytes);
      }
      const run = { argv: row.argv.map(fill), cwd: scratch, env: row.env, hangMs: HANG_MS, rssLimit: RSS_LIMIT };
      const fault = judgeRow({ ...row, lines: row.lines ?? 1 }, await runRow(run), scratch, run);
      tally.add(row.cause, fault);
      if (fault) assert.fail(`[${fault.kind}] ${fault.why}\nscratch: ${readdirSync(scratch).join(', ')}`);
    });
});
