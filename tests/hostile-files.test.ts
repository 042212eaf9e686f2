// Hostile files against the built command, from a scratch folder: every file kind synconf reads (scenario,
// expectations, cassette, report) given empty, truncated, of the wrong kind, with bad UTF-8, UTF-16, a byte order
// mark, a template that names nothing, a typo in a key. Each row: the files, the arguments, the exit code, the
// first line of stderr, and the files written or not. No broken input may end as exit 0, 1 or 3, or hang (each row
// is killed 5 s after it starts: HANG_MS). Each row is classed good, muddled or wrong (as the issue counts them; the
// counts are printed at the end). SYNCONF_TEST_BIN runs the table against another build (to count an older one's).
import { test, describe, after } from 'node:test';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from '../src/paths.js';
import { withTemp } from './support/temp.js';
import { assertExitCodes, judgeRow, runRow, Tally } from './support/rows.js';

const RECORDED = join(ROOT, 'recordings', 'syncthing-1.19.2');

// Files of every kind, valid
const HAR = readFileSync(join(RECORDED, 'system-ping.har'), 'utf8');
const RUN_HAR = readFileSync(join(RECORDED, '_run.har'), 'utf8');
const REPORT = readFileSync(join(ROOT, 'tests', 'fixtures', 'reports', 'pass.json'), 'utf8');
const HEAD = 'id: system-ping\ntitle: t\nspec: [GET /rest/system/ping]\n';
const PING = '    request: { method: GET, path: /rest/system/ping }\n';
const SCENARIO = `${HEAD}steps:\n  - name: ping\n${PING}    expect: { status: 200, schema: ping }\n`;
const EXPECTATIONS =
  'agent: syncthing\nversions: ">=1.0.0"\ndescription: d\ndeviations:\n  - { check: a/b/c, observed: o, reason: r }\n';
const MATRIX = '{"format": "synconf-matrix/1", "columns": [], "order": [], "rows": [], "changed": 0, "classes": {}}';
const MUTATION = '{"format": "synconf-mutation/1", "totals": {}}';
const HISTORY = '{"format": "synconf-history/1", "mode": "live", "releases": [], "columns": [], "changes": []}';
const DRIFT = '{"from": "a", "to": "b", "causes": [], "counts": {}}';
const FOREIGN_HAR = '{"log": {"version": "1.2", "creator": {"name": "Firefox", "version": "120"}, "entries": []}}';
const IGNORE = 'accepted: []\n';
const UTF16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SCENARIO, 'utf16le')]);
const BOM = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SCENARIO)]);
/** `text` with the byte 0xff in place of its first "§" */
const badByte = (text: string) => {
  const [before, after] = text.split('§');
  return Buffer.concat([Buffer.from(before), Buffer.from([0xff]), Buffer.from(after)]);
};

type Bytes = string | Buffer;
interface Row {
  name: string;
  files: Record<string, Bytes>;
  argv: string[];
  code: number;
  /** the first line of stderr */
  message: RegExp;
  /** what stdout holds, when it matters */
  stdout?: RegExp;
  /** paths that must exist afterwards, and paths that must not */
  writes?: string[];
  writesNot?: string[];
  /** the input is not broken (a byte order mark, a warning): only such a row may expect exit 0 or 1 */
  valid?: true;
  /** paths made FIFOs with no writer (a read of one blocks for ever, deaf to Ctrl-C) */
  fifos?: string[];
  /** symbolic links made after the files: path → what it points at (relative to the link's folder) */
  links?: Record<string, string>;
}

/** no row may take longer: a command still running 5 s after it started hangs (it is killed, and the row fails) */
const HANG_MS = 5_000;

const replayDir = (har: Bytes): Record<string, Bytes> => ({ 'rec/_run.har': RUN_HAR, 'rec/system-ping.har': har });
const REPLAY_PING = ['replay', 'rec', '--only', 'system-ping', '--report-dir', 'out'];

// The wrong kind given where each kind belongs: what the file is, what was expected, in one line.
const KINDS: [string, string, string, Bytes, RegExp][] = [
  ['cassette', 'a HAR cassette', 'x.har', HAR, /this is a HAR cassette/],
  ['report', 'a report', 'x.json', REPORT, /this is a report/],
  ['scenario', 'a scenario', 'x.yaml', SCENARIO, /this is a scenario( \(YAML\))?/],
  [
    'expectations',
    'an expectations file',
    'x.yaml',
    EXPECTATIONS,
    /this is an expectations file \(known deviations\)( \(YAML\))?/,
  ],
  ['matrix', 'a matrix', 'x.json', MATRIX, /this is a matrix \(report merge\)/],
  ['mutation', 'a mutation report', 'x.json', MUTATION, /this is a mutation report/],
  ['drift', 'drift causes', 'x.json', DRIFT, /this is a drift causes file \(drift --json\)/],
  ['history', 'a history page', 'x.json', HISTORY, /this is a history page \(synconf history\)/],
  ['foreign-har', 'a HAR from elsewhere', 'x.har', FOREIGN_HAR, /this is a HAR file not recorded by synconf/],
  ['ignore', 'a drift ignore file', 'x.yaml', IGNORE, /this is a drift ignore file( \(YAML\))?/],
];
const TARGETS: [string, (file: string) => string[], string][] = [
  ['validate scenario', (f) => ['validate', 'scenario', f], 'scenario'],
  ['validate expectations', (f) => ['validate', 'expectations', f], 'expectations'],
  ['validate report', (f) => ['validate', 'report', f], 'report'],
  ['report render', (f) => ['report', 'render', f, '--out', 'out'], 'report'],
  ['replay --baseline', (f) => ['replay', '--baseline', f, '--only', 'system-ping', '--report-dir', 'out'], 'report'],
];
const wrongKinds: Row[] = TARGETS.flatMap(([command, argv, want]) =>
  KINDS.filter(([kind]) => kind !== want).map(([, what, file, bytes, says]) => ({
    name: `${command}: ${what}`,
    files: { [file]: bytes },
    argv: argv(file),
    code: 2,
    message: new RegExp(`${file.replace('.', '\\.')}: ${says.source}, not an? ${want}`),
    writesNot: command.startsWith('replay') ? [] : ['out'],
  })),
);

// A recordings folder that does not exist, or is a file: one line, in the same words, from every command taking one.
const RECORDINGS_TAKERS: [string, (dir: string) => string[]][] = [
  ['replay', (d) => ['replay', d, '--only', 'system-ping', '--report-dir', 'out']],
  ['mutate', (d) => ['mutate', d, '--only', 'system-ping', '--report-dir', 'out']],
  ['serve', (d) => ['serve', d, '--port', '0']],
  ['drift', (d) => ['drift', d, 'rec']],
  ['matrix --recordings', (d) => ['matrix', '--recordings', d, '--only', 'system-ping', '--report-dir', 'out']],
];
const badRecordings: Row[] = RECORDINGS_TAKERS.flatMap(([command, argv]) => [
  {
    name: `${command}: a recordings folder that does not exist`,
    files: replayDir(HAR),
    argv: argv('nope'),
    code: 2,
    message: /^synconf: recordings folder \S*nope does not exist$/,
  },
  {
    name: `${command}: a recordings folder that is a file`,
    files: { ...replayDir(HAR), 'f.txt': 'x' },
    argv: argv('f.txt'),
    code: 2,
    message: /^synconf: recordings folder \S*f\.txt is a file, not a folder of \.har cassettes$/,
  },
]);
// What replays a folder needs its recorded run (_run.har), said in one line with how to record one.
const notReplayable: Row[] = RECORDINGS_TAKERS.filter(([command]) => !['serve', 'drift'].includes(command)).map(
  ([command, argv]) => ({
    name: `${command}: a recordings folder without its recorded run`,
    files: { 'norun/system-ping.har': HAR },
    argv: argv('norun'),
    code: 2,
    message:
      /^synconf: recordings folder \S*norun holds no recorded run \(_run\.har; record one with `synconf run --record \S*norun`\)$/,
  }),
);

// A file that is a FIFO nobody writes to (or a device): refused in one line, never a read that blocks for ever
const NOT_REGULAR: [string, string[], string][] = [
  ['validate scenario', ['validate', 'scenario', 'f.yaml'], 'f.yaml'],
  ['validate report', ['validate', 'report', 'f.json'], 'f.json'],
  ['report render', ['report', 'render', 'f.json', '--out', 'out'], 'f.json'],
  ['report merge', ['report', 'merge', 'f.json', '--out', 'out'], 'f.json'],
  ['replay --suite', ['replay', '--suite', 'f.yaml', '--report-dir', 'out'], 'f.yaml'],
  [
    'replay --expectations',
    ['replay', '--only', 'system-ping', '--expectations', 'f.yaml', '--report-dir', 'out'],
    'f.yaml',
  ],
  ['replay --baseline', ['replay', '--only', 'system-ping', '--baseline', 'f.json', '--report-dir', 'out'], 'f.json'],
  ['drift --ignore-file', ['drift', 'rec', 'rec', '--ignore-file', 'f.yaml'], 'f.yaml'],
  ['replay of a cassette', ['replay', 'rec', '--only', 'system-ping', '--report-dir', 'out'], 'rec/system-ping.har'],
];
const notRegular: Row[] = NOT_REGULAR.map(([command, argv, fifo]) => ({
  name: `${command}: a FIFO nobody writes to`,
  files: { 'rec/_run.har': RUN_HAR, ...(fifo.startsWith('rec/') ? {} : { 'rec/system-ping.har': HAR }) },
  fifos: [fifo],
  argv,
  code: 2,
  // validate says "not a file" before it reads; every reader, "not a regular file"
  message: new RegExp(`${fifo.replace('.', '\\.')}"?: (cannot read: )?not a (regular )?file`),
}));

// A known-deviations file whose versions range does not hold the agent's version: applying it would pass this
// version's own failures as another's known ones. Refused in one line, wherever the version is known (a run's report
// still written); a file whose range holds any version applies.
const REC_1_29 = join(ROOT, 'recordings', 'syncthing-1.29.5');
const OF_1_12 = join(ROOT, 'expectations', 'syncthing-1.12.yaml');
const NOT_FOR_1_29 =
  /^(\[1\.29\.5\] )?synconf: expectations file expectations\/syncthing-1\.12\.yaml is for versions ">=1\.12\.0 <1\.13\.0", not the agent's v1\.29\.5: give the file for 1\.29\.5 \(without --expectations, expectations\/syncthing-1\.29\.yaml applies\), or --no-expectations to apply none$/;
const otherVersion: Row[] = [
  ...(
    [
      ['replay', ['replay', REC_1_29], ['out/report.json']],
      ['matrix --recordings', ['matrix', '--recordings', REC_1_29], ['out/1.29.5/report.json']],
      ['mutate', ['mutate', REC_1_29], []],
    ] as const
  ).map(([command, argv, writes]) => ({
    name: `${command} --expectations of 1.12.x for recordings of 1.29.5`,
    files: { 's.yaml': SCENARIO },
    argv: [...argv, '--suite', 's.yaml', '--expectations', OF_1_12, '--report-dir', 'out'],
    code: 2,
    message: NOT_FOR_1_29,
    writes: [...writes],
  })),
  {
    name: 'replay --expectations of versions "*" applies to any version',
    files: { 's.yaml': SCENARIO, 'e.yaml': EXPECTATIONS.replace('">=1.0.0"', '"*"') },
    argv: ['replay', '--suite', 's.yaml', '--expectations', 'e.yaml', '--report-dir', 'out'],
    code: 0,
    valid: true,
    message: /^$/,
    stdout: /CONFORMS: 1 scenario/,
  },
];

// A suite folder reached again through a symbolic link holds the same files: each loads once (under the path through
// the fewest links), never "duplicate scenario id", and a link back up (a loop) is walked once, not for ever.
const once = { code: 0, valid: true as const, message: /^$/, stdout: /CONFORMS: 1 scenario,/ };
const suiteLinks: Row[] = [
  {
    name: 'replay --suite: a link back up to the suite (a loop)',
    files: { 's/ping.yaml': SCENARIO },
    links: { 's/a/loop': '..' },
    argv: ['replay', '--suite', 's', '--report-dir', 'out'],
    ...once,
  },
  {
    name: "replay --suite: a link two folders up (a loop through the suite's parent)",
    files: { 's/a/b/ping.yaml': SCENARIO },
    links: { 's/a/b/up': '../..' },
    argv: ['replay', '--suite', 's', '--report-dir', 'out'],
    ...once,
  },
  {
    name: 'replay --suite: a folder linked under another name',
    files: { 's/x/ping.yaml': SCENARIO },
    links: { 's/y': 'x' },
    argv: ['replay', '--suite', 's', '--report-dir', 'out'],
    ...once,
  },
  {
    name: 'replay --suite: a scenario file linked under another name',
    files: { 's/ping.yaml': SCENARIO },
    links: { 's/alias.yaml': 'ping.yaml' },
    argv: ['replay', '--suite', 's', '--report-dir', 'out'],
    ...once,
  },
  {
    name: 'replay --suite: a suite given twice, once through a link',
    files: { 's/ping.yaml': SCENARIO },
    links: { t: 's' },
    argv: ['replay', '--suite', 's', '--suite', 't', '--report-dir', 'out'],
    ...once,
  },
  // a *.yaml entry that cannot be read as a file is reported as any unreadable scenario file, never dropped unsaid
  ...(
    [
      [
        'a link to a file that does not exist',
        's',
        { 's/gone.yaml': 'nowhere.yaml' },
        /gone\.yaml: cannot read: a symbolic link to nowhere\.yaml, which does not exist/,
      ],
      [
        'two links to each other (a loop)',
        's',
        { 's/a.yaml': 'b.yaml', 's/b.yaml': 'a.yaml' },
        /a\.yaml: cannot read: a symbolic link loop/,
      ],
      [
        'a link to a link to nothing',
        's',
        { 's/c.yaml': 'd.yaml', 's/d.yaml': 'no/where.yaml' },
        /c\.yaml: cannot read: a symbolic link to d\.yaml, which leads to no\/where\.yaml, which does not exist/,
      ],
      [
        'a glob matching a link to nothing',
        's/*.yaml',
        { 's/gone.yaml': 'nowhere.yaml' },
        /gone\.yaml: cannot read: a symbolic link to nowhere\.yaml, which does not exist/,
      ],
    ] as const
  ).map(([what, suite, links, message]) => ({
    name: `replay --suite: ${what}`,
    files: { 's/ping.yaml': SCENARIO },
    links,
    argv: ['replay', '--suite', suite, '--report-dir', 'out'],
    code: 2,
    message: new RegExp(`^synconf: s/${message.source}$`),
    writes: ['out/report.json'],
  })),
  {
    name: 'replay --suite: a link to nothing not named *.yaml is no scenario file',
    files: { 's/ping.yaml': SCENARIO },
    links: { 's/notes.txt': 'nowhere.txt', 's/gone': 'nowhere' },
    argv: ['replay', '--suite', 's', '--report-dir', 'out'],
    ...once,
  },
  {
    name: 'replay --suite: two real files of one id are still two',
    files: { 's/ping.yaml': SCENARIO, 's/x/copy.yaml': SCENARIO },
    links: { 's/y': 'x' },
    argv: ['replay', '--suite', 's', '--report-dir', 'out'],
    code: 2,
    message: /^synconf: s\/x\/copy\.yaml: scenario id "system-ping" is also used by s\/ping\.yaml$/,
  },
];

const rows: Row[] = [
  // templates that name nothing (issue 22, 2)
  ...(['validate scenario', 'replay'] as const).map((command) => ({
    name: `${command}: a template naming no capture, with the closest name`,
    files: {
      's.yaml': `${HEAD}steps:\n  - name: a\n${PING}    capture: { myid: /ping }\n  - name: b\n    request: { method: GET, path: "/rest/x/{{myId}}" }\n`,
    },
    argv:
      command === 'replay'
        ? ['replay', '--suite', 's.yaml', '--report-dir', 'out']
        : ['validate', 'scenario', 's.yaml'],
    code: 2,
    message:
      /^synconf: s\.yaml:9: template \{\{myId\}\} names no capture of an earlier step \(did you mean \{\{myid\}\}\?\)$/,
  })),
  {
    name: 'a template naming a capture of a later step',
    files: {
      's.yaml': `${HEAD}steps:\n  - name: a\n    request: { method: GET, path: "/rest/x/{{v}}" }\n  - name: b\n${PING}    capture: { v: /ping }\n`,
    },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message:
      /s\.yaml:6: template \{\{v\}\} names no capture of an earlier step \(step "b" captures it, after this one\)/,
  },
  {
    name: 'a template of the peer without needs: [peer]',
    files: {
      's.yaml': `${HEAD}steps:\n  - name: a\n    request: { method: GET, path: "/rest/x/{{peer.deviceId}}" }\n`,
    },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message: /s\.yaml:6: template \{\{peer\.deviceId\}\} needs a peer/,
  },
  {
    name: 'a misspelt run variable',
    files: {
      's.yaml': `${HEAD}steps:\n  - name: a\n    request: { method: GET, path: "/rest/x/{{agent.deviceID}}" }\n`,
    },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message:
      /template \{\{agent\.deviceID\}\} names no capture of an earlier step \(did you mean \{\{agent\.deviceId\}\}\?\)/,
  },
  {
    name: 'a template in an assertion value',
    files: {
      's.yaml': `${HEAD}steps:\n  - name: a\n${PING}    expect: { assert: [{ path: /ping, equals: "{{pong}}" }] }\n`,
    },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message: /s\.yaml:7: template \{\{pong\}\} names no capture/,
  },
  // strict UTF-8 (issue 22, 3)
  ...(
    [
      ['validate scenario', ['validate', 'scenario', 's.yaml']],
      ['replay --suite', ['replay', '--suite', 's.yaml', '--report-dir', 'out']],
    ] as const
  ).map(([command, argv]) => ({
    name: `${command}: a bad byte in an assertion value`,
    files: {
      's.yaml': badByte(
        `${HEAD}steps:\n  - name: a\n${PING}    expect: { assert: [{ path: /ping, equals: "p§ng" }] }\n`,
      ),
    },
    argv: [...argv],
    code: 2,
    message: /s\.yaml:7:49: invalid UTF-8 \(byte 0xff\)/,
  })),
  {
    name: 'validate expectations: a bad byte in a reason',
    files: { 'e.yaml': badByte(EXPECTATIONS.replace('reason: r', 'reason: r§')) },
    argv: ['validate', 'expectations', 'e.yaml'],
    code: 2,
    message: /e\.yaml:5:43: invalid UTF-8 \(byte 0xff\)/,
  },
  {
    name: 'replay --expectations: a bad byte',
    files: { 'e.yaml': badByte(EXPECTATIONS.replace('description: d', 'description: §')) },
    argv: ['replay', '--expectations', 'e.yaml', '--only', 'system-ping', '--report-dir', 'out'],
    code: 2,
    message: /e\.yaml:3:14: invalid UTF-8 \(byte 0xff\)/,
  },
  {
    name: 'validate cassette: a bad byte in a body',
    files: { 'system-ping.har': badByte(HAR.replace('pong', 'p§ng')) },
    argv: ['validate', 'cassette', 'system-ping.har'],
    code: 2,
    message: /system-ping\.har:\d+:\d+: invalid UTF-8 \(byte 0xff\)/,
  },
  {
    name: 'replay: a bad byte in a cassette',
    files: replayDir(badByte(HAR.replace('pong', 'p§ng'))),
    argv: REPLAY_PING,
    code: 2,
    message: /system-ping\.har:\d+:\d+: invalid UTF-8 \(byte 0xff\)/,
  },
  {
    name: 'validate report: a bad byte',
    files: { 'r.json': badByte(REPORT.replace('"synconf-report/1"', '"synconf-report/1§"')) },
    argv: ['validate', 'report', 'r.json'],
    code: 2,
    message: /r\.json:2:\d+: invalid UTF-8 \(byte 0xff\)/,
  },
  {
    name: 'a scenario in UTF-16',
    files: { 's.yaml': UTF16 },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message: /s\.yaml:1:1: invalid UTF-8 \(byte 0xff\); the file is UTF-16/,
  },
  {
    name: 'a scenario in Latin-1',
    files: { 's.yaml': Buffer.from(SCENARIO.replace('title: t', 'title: caf\u00e9'), 'latin1') },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message: /s\.yaml:2:11: invalid UTF-8 \(byte 0xe9\)/,
  },
  {
    name: 'a truncated multi-byte character',
    files: { 's.yaml': Buffer.concat([Buffer.from(SCENARIO), Buffer.from([0xe2, 0x82])]) },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message: /s\.yaml:8:1: invalid UTF-8 \(byte 0xe2\)/,
  },
  {
    name: 'a scenario with a byte order mark is read',
    files: { 's.yaml': BOM },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 0,
    valid: true,
    message: /^$/,
  },
  // validate refuses what replay refuses, with the same words and exit code (issue 22, 3)
  {
    name: 'validate cassette: a truncated file',
    files: { 'system-ping.har': HAR.slice(0, 200) },
    argv: ['validate', 'cassette', 'system-ping.har'],
    code: 2,
    message: /cassette system-ping\.har:\d+:\d+: not JSON \(.*truncated\?\)/,
  },
  {
    name: 'replay: a truncated cassette',
    files: replayDir(HAR.slice(0, 200)),
    argv: REPLAY_PING,
    code: 2,
    message: /cassette rec\/system-ping\.har:\d+:\d+: not JSON \(.*truncated\?\)/,
    writes: ['out/report.json'],
  },
  // a versions range the matching cannot parse would hold no version: the file would apply to nothing, unsaid
  ...(
    [
      [
        'validate expectations',
        'banana',
        /e\.yaml:2: \/versions: "banana" is not a version range \(Invalid comparator: banana;/,
      ],
      [
        'validate expectations',
        '">=1.2.3 <"',
        /e\.yaml:2: \/versions: ">=1\.2\.3 <" is not a version range \(Invalid comparator: <;/,
      ],
      [
        'replay --expectations',
        'banana',
        /e\.yaml:2: \/versions: "banana" is not a version range \(Invalid comparator: banana;/,
      ],
    ] as const
  ).map(([command, versions, message]) => ({
    name: `${command}: versions ${versions}, not a version range`,
    files: { 'e.yaml': EXPECTATIONS.replace('">=1.0.0"', versions) },
    argv: command.startsWith('validate')
      ? ['validate', 'expectations', 'e.yaml']
      : ['replay', '--expectations', 'e.yaml', '--only', 'system-ping', '--report-dir', 'out'],
    code: 2,
    message: new RegExp(`^synconf: expectations file ${message.source}`),
  })),
  {
    name: 'validate expectations: an unknown key, with the closest',
    files: { 'e.yaml': EXPECTATIONS.replace('versions:', 'version:') },
    argv: ['validate', 'expectations', 'e.yaml'],
    code: 2,
    message: /e\.yaml: \/version: unknown property "version" \(did you mean "versions"\?\)/,
  },
  // empty, blank, not a mapping, not JSON
  ...(
    [
      ['validate scenario', ['validate', 'scenario', 'f.yaml']],
      ['validate expectations', ['validate', 'expectations', 'f.yaml']],
      ['validate report', ['validate', 'report', 'f.yaml']],
      ['validate config', ['validate', 'config', 'f.yaml']],
      ['replay --suite', ['replay', '--suite', 'f.yaml', '--report-dir', 'out']],
      ['report render', ['report', 'render', 'f.yaml', '--out', 'out']],
    ] as const
  ).map(([command, argv]) => ({
    name: `${command}: a 0-byte file`,
    files: { 'f.yaml': '' },
    argv: [...argv],
    code: 2,
    message: /f\.yaml"?: the file is empty \(0 bytes\)/,
    writesNot: command === 'replay --suite' ? [] : ['out'],
  })),
  {
    name: 'validate cassette: a 0-byte file',
    files: { 'system-ping.har': '' },
    argv: ['validate', 'cassette', 'system-ping.har'],
    code: 2,
    message: /system-ping\.har: the file is empty \(0 bytes\)/,
  },
  {
    name: 'a scenario of comments only',
    files: { 's.yaml': '# to do\n\n' },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message: /s\.yaml: holds no document \(blank, comments only, or null\)/,
  },
  {
    name: 'a scenario that is a list',
    files: { 's.yaml': '- id: x\n' },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message: /s\.yaml: this is an array, not a scenario/,
  },
  {
    name: 'expectations that are plain text',
    files: { 'e.yaml': 'just some words\n' },
    argv: ['validate', 'expectations', 'e.yaml'],
    code: 2,
    message: /e\.yaml: this is a string, not an expectations file/,
  },
  {
    name: 'a report that is not JSON names line and column, without its text',
    files: { 'r.json': '{\n  "format": "synconf-report/1",\n  oops\n}\n' },
    argv: ['validate', 'report', 'r.json'],
    code: 2,
    message: /^synconf: r\.json:3:3: not JSON \(unexpected "o"\)$/,
  },
  {
    name: 'a resource document that is not JSON names line and column',
    files: { 'c.json': '{"version": 37,, "folders": []}' },
    argv: ['validate', 'config', 'c.json'],
    code: 2,
    message: /^synconf: "c\.json":1:16: not JSON \(unexpected ","\)$/,
  },
  {
    name: 'a report truncated',
    files: { 'r.json': REPORT.slice(0, 300) },
    argv: ['report', 'render', 'r.json', '--out', 'out'],
    code: 2,
    message: /r\.json:\d+:\d+: not JSON \(.*truncated\?\)/,
    writesNot: ['out'],
  },
  {
    name: 'a report nested too deep to parse is input, not a crash',
    files: { 'r.json': '['.repeat(200_000) },
    argv: ['validate', 'report', 'r.json'],
    code: 2,
    message: /r\.json:1:200001: not JSON \(unexpected end of file, truncated\?\)/,
  },
  {
    name: 'a report given as a folder',
    files: { 'd/x': '' },
    argv: ['report', 'render', 'd', '--out', 'out'],
    code: 2,
    message: /cannot read d: a folder, not a file/,
    writesNot: ['out'],
  },
  {
    name: 'report merge: a HAR among the reports',
    files: { 'r.json': REPORT, 'x.har': HAR },
    argv: ['report', 'merge', 'r.json', 'x.har', '--out', 'out'],
    code: 2,
    message: /^synconf: x\.har: this is a HAR cassette, not a report$/,
  },
  {
    name: 'a cassette that is a HAR from a browser',
    files: replayDir(FOREIGN_HAR),
    argv: REPLAY_PING,
    code: 2,
    message: /this is a HAR file not recorded by synconf, not a HAR cassette: synconf replays the HAR files it records/,
  },
  {
    name: 'a cassette that is a scenario (YAML)',
    files: { 'system-ping.har': SCENARIO },
    argv: ['validate', 'cassette', 'system-ping.har'],
    code: 2,
    message: /system-ping\.har: this is a scenario \(YAML\), not a HAR cassette/,
  },
  {
    name: 'validate <resource>: a synconf report given as a config',
    files: { 'r.json': REPORT },
    argv: ['validate', 'config', 'r.json'],
    code: 2,
    message: /"r\.json": this is a report, not a config document/,
  },
  // did you mean (issue 22, kind detection and names)
  {
    name: 'a misspelt key of a scenario',
    files: { 's.yaml': SCENARIO.replace('status: 200', 'statsu: 200') },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message:
      /s\.yaml:7: step "ping": \/steps\/0\/expect\/statsu: unknown property "statsu" \(did you mean "status"\?\)/,
  },
  {
    name: 'a misspelt schema name',
    files: { 's.yaml': SCENARIO.replace('schema: ping', 'schema: pnig') },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message: /unknown schema "pnig" \(did you mean "ping"\?\)/,
  },
  {
    name: 'a misspelt endpoint key',
    files: { 's.yaml': SCENARIO.replace('spec: [GET /rest/system/ping]', 'spec: [GET /rest/sytem/ping]') },
    argv: ['validate', 'scenario', 's.yaml'],
    code: 2,
    message: /"GET \/rest\/sytem\/ping" is not an endpoint of the spec \(did you mean "GET \/rest\/system\/ping"\?\)/,
  },
  {
    name: 'a misspelt validate kind',
    files: { 's.yaml': SCENARIO },
    argv: ['validate', 'scenaro', 's.yaml'],
    code: 2,
    message: /unknown resource "scenaro" \(did you mean "scenario"\?\)/,
  },
  // muddled themes (issue 22): said in one line
  {
    name: 'a 100 kB --only pattern is a usage error that does not echo it',
    files: {},
    argv: ['replay', '--only', 'a'.repeat(100_000), '--report-dir', 'out'],
    code: 2,
    message: /^synconf: --only: a pattern of 100000 characters is too long \(at most 200\)$/,
  },
  {
    name: 'recordings of 1.19.2 replayed as 1.12.1 say so',
    files: {},
    argv: ['replay', '--agent-version', '1.12.1', '--only', 'system-ping', '--report-dir', 'out'],
    code: 2,
    message: /--agent-version 1\.12\.1: the recordings in .*syncthing-1\.19\.2 are of v1\.19\.2/,
  },
  {
    name: 'report merge of the same report twice warns',
    files: { 'r.json': REPORT },
    argv: ['report', 'merge', 'r.json', 'r.json', '--out', 'out'],
    code: 0,
    valid: true,
    message: /^synconf: warning: r\.json is the same run as r\.json \(given twice\?\)$/,
    writes: ['out/matrix.json'],
  },
  {
    name: 'drift A A warns',
    files: replayDir(HAR),
    argv: ['drift', 'rec', 'rec'],
    code: 0,
    valid: true,
    message: /^synconf drift: warning: rec and rec are the same folder: there can be no drift$/,
  },
  {
    name: 'completion --help prints its help, not the script',
    files: {},
    argv: ['completion', '--help'],
    code: 0,
    valid: true,
    message: /^$/,
    stdout: /^synconf completion\n[^]*Exit codes/,
  },
  ...otherVersion,
  ...suiteLinks,
  ...wrongKinds,
  ...notRegular,
  ...badRecordings,
  ...notReplayable,
];

test('no broken input may end 0 or 1, none 3: only a row of valid input expects 0 or 1', () => assertExitCodes(rows));

describe('hostile files against the built command', () => {
  const tally = new Tally();
  after(() => tally.print(() => 'hostile-files'));
  for (const row of rows)
    test(row.name, { timeout: 15_000 }, () =>
      withTemp('hostile', async (scratch) => {
        for (const [name, bytes] of Object.entries(row.files)) {
          mkdirSync(dirname(join(scratch, name)), { recursive: true });
          writeFileSync(join(scratch, name), bytes);
        }
        for (const fifo of row.fifos ?? []) execFileSync('mkfifo', [join(scratch, fifo)]);
        for (const [link, to] of Object.entries(row.links ?? {})) {
          mkdirSync(dirname(join(scratch, link)), { recursive: true });
          symlinkSync(to, join(scratch, link));
        }
        const run = { argv: row.argv, cwd: scratch, hangMs: HANG_MS };
        const fault = judgeRow(
          { ...row, messageIn: 'first', stdoutMatch: row.stdout },
          await runRow(run),
          scratch,
          run,
        );
        tally.add('', fault);
        if (fault) assert.fail(`[${fault.kind}] ${fault.why}`);
      }),
    );
});
