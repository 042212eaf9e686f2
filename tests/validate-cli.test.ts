// `synconf validate` and the generated code: exit codes, messages, and that generated files are
// exactly what `npm run gen` writes from schemas/.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli } from './support/cli.js';
import { ROOT } from '../src/paths.js';
import { loadScenario } from '../src/scenario/load.js';
import { loadExpectations } from '../src/runner/expectations.js';
import { tempFolder } from './support/temp.js';

const FIXTURES = join(ROOT, 'tests', 'fixtures', 'syncthing-1.19.2');
const dir = tempFolder('validate');

describe('synconf validate', () => {
  test('a real GET /rest/system/config body of 1.19.2 is a valid config (exit 0)', () => {
    const r = cli(['validate', 'config', join(FIXTURES, 'config.json')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /valid config/);
  });

  test('a broken config names the pointer and the cause (exit 1)', () => {
    const doc = JSON.parse(readFileSync(join(FIXTURES, 'config.json'), 'utf8'));
    delete doc.folders[0].id;
    doc.options.maxSendKbps = 'fast';
    const file = join(dir(), 'broken.json');
    writeFileSync(file, JSON.stringify(doc));
    const r = cli(['validate', 'config', file]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^\/folders\/0\/id: required property "id" is missing$/m);
    assert.match(r.stdout, /^\/options\/maxSendKbps: must be integer, got string "fast"$/m);
  });

  test('--json prints the errors as data', () => {
    const r = cli(['validate', 'ping', '-', '--json'], { input: '{"ping": 1}' });
    assert.equal(r.code, 1);
    const errors = JSON.parse(r.stdout);
    assert.deepEqual(
      errors.map((e: { pointer: string; rule: string }) => [e.pointer, e.rule]),
      [
        ['/ping', 'type'],
        ['/ping', 'const'],
      ],
    );
    assert.deepEqual(Object.keys(errors[0]).sort(), ['actual', 'expected', 'message', 'pointer', 'resource', 'rule']);
  });

  test('a full HTTP capture is checked by its body', () => {
    const capture = 'HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\n\r\n{"ping": "pong"}\n';
    assert.equal(cli(['validate', 'ping', '-'], { input: capture }).code, 0);
    const broken = cli(['validate', 'ping', '-'], { input: capture.replace('pong', 'pang') });
    assert.equal(broken.code, 1);
    assert.match(broken.stdout, /^\/ping: must be "pong", got "pang"$/m);
  });

  test('--agent-version applies the overlay: lastDialStatus is required from 1.2.0 on', () => {
    const doc = JSON.parse(readFileSync(join(FIXTURES, 'system-status.json'), 'utf8'));
    delete doc.lastDialStatus;
    const file = join(dir(), 'status.json');
    writeFileSync(file, JSON.stringify(doc));
    const older = cli(['validate', 'system-status', file, '--agent-version', '1.1.0', '--json']);
    const newer = cli(['validate', 'system-status', file, '--agent-version', '1.2.0', '--json']);
    assert.ok(!JSON.parse(older.stdout).some((e: { pointer: string }) => e.pointer === '/lastDialStatus'));
    assert.ok(
      JSON.parse(newer.stdout).some(
        (e: { pointer: string; rule: string }) => e.pointer === '/lastDialStatus' && e.rule === 'required',
      ),
    );
  });

  for (const [what, args, input, message] of [
    ['an unknown resource', ['validate', 'nope', '-'], '{}', /unknown resource "nope"; known resources: .*config/],
    [
      'an unreadable file',
      ['validate', 'config', '/nonexistent/x.json'],
      undefined,
      /cannot read "\/nonexistent\/x.json"/,
    ],
    [
      'input that is not JSON',
      ['validate', 'config', '-'],
      'config: yes',
      /standard input:1:1: not JSON \(unexpected "c"\)/,
    ],
    [
      'an HTTP capture whose body is not JSON',
      ['validate', 'config', '-'],
      'HTTP/1.1 403 Forbidden\r\n\r\nCSRF Error\n',
      /the body of the HTTP capture in standard input:1:1: not JSON/,
    ],
    ['a bad --agent-version', ['validate', 'config', '-', '--agent-version', 'soon'], '{}', /"soon" is not a version/],
    ['a missing argument', ['validate', 'config'], undefined, /missing argument <file>/],
  ] as const) {
    test(`${what} is a usage error (exit 2) that says so`, () => {
      const r = cli([...args], { input });
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, message);
    });
  }

  test('every command has --help', () => {
    for (const command of [
      [],
      ['run'],
      ['replay'],
      ['drift'],
      ['validate'],
      ['lab'],
      ['lab', 'up'],
      ['lab', 'down'],
      ['report'],
      ['report', 'merge'],
    ]) {
      const r = cli([...command, '--help']);
      assert.equal(r.code, 0, `${command.join(' ')} --help: ${r.stderr}`);
      assert.match(r.stdout, /Options:/);
    }
  });
});

// A malformed scenario or expectations file: one line naming the file, the line and the cause (what `synconf
// validate` prints and a run refuses). The line of a schema error is that of the offending node, behind comments,
// anchors and empty values; the known deviations give their YAML syntax errors the parser's (line:column).
describe('malformed YAML files: file:line: cause', () => {
  const HEAD = 'id: t\ntitle: t\nspec: [GET /rest/system/ping]\n';
  const PING = '    request: { method: GET, path: /rest/system/ping }\n';
  const rows: [string, 'scenario' | 'expectations', string, string][] = [
    ['a duplicate key', 'scenario', `${HEAD}title: again\nsteps: []\n`, ':4: not valid YAML: duplicated mapping key'],
    [
      'a duplicate key in a step',
      'scenario',
      `${HEAD}steps:\n  - name: p\n${PING}    name: q\n`,
      ':7: not valid YAML: duplicated mapping key',
    ],
    [
      'a tab as indentation',
      'scenario',
      `${HEAD}steps:\n\t- name: p\n`,
      ':5: not valid YAML: tab characters must not be used in indentation',
    ],
    [
      'a flow mapping not closed',
      'scenario',
      `${HEAD}steps:\n  - name: p\n    request: { method: GET, path: /rest/system/ping\n    expect: { status: 200 }\n`,
      ':7: not valid YAML: missed comma between flow collection entries',
    ],
    ['an unknown tag', 'scenario', `${HEAD}steps: !foo []\n`, ':4: not valid YAML: unknown tag !<!foo>'],
    [
      'a missing property of a file that starts with comments',
      'scenario',
      '# a scenario\n\nid: t\nspec: [GET /rest/system/ping]\nsteps: []\n',
      ':3: /title: required property "title" is missing',
    ],
    [
      'a wrong mapping behind a comment',
      'scenario',
      `${HEAD}steps:\n  - name: p\n${PING}    expect:\n      # the status\n      - 200\n`,
      ':9: step "p": /steps/0/expect: must be object, got array [200]',
    ],
    [
      'an empty value',
      'scenario',
      `${HEAD}steps:\n  - name: p\n${PING}    expect:\n  - name: q\n${PING}`,
      ':7: step "p": /steps/0/expect: must be object, got null',
    ],
    [
      'a wrong value in a flow mapping on lines of its own',
      'scenario',
      `${HEAD}steps:\n  - name: p\n${PING}    expect:\n      { schema: ping,\n        status: fine }\n`,
      ':9: step "p": /steps/0/expect/status: must be integer or array, got string "fine"',
    ],
    [
      'a wrong anchored mapping',
      'scenario',
      `${HEAD}steps:\n  - name: p\n${PING}    expect: &e\n      - 200\n`,
      ':8: step "p": /steps/0/expect: must be object, got array [200]',
    ],
    [
      'a duplicate key',
      'expectations',
      'agent: syncthing\nversions: ">=1.0.0"\nagent: x\n',
      ': duplicated mapping key (3:1)',
    ],
    [
      'a tab as indentation',
      'expectations',
      'agent: syncthing\ndeviations:\n\t- check: a\n',
      ': tab characters must not be used in indentation (3:1)',
    ],
  ];
  for (const [i, [given, kind, text, want]] of rows.entries())
    test(`${kind}: ${given}`, async () => {
      const file = join(dir(), `malformed-${i}.yaml`);
      writeFileSync(file, text);
      const load = kind === 'scenario' ? () => loadScenario(file) : async () => loadExpectations(file);
      await assert.rejects(load(), (e: Error) => {
        assert.equal(e.message, `${kind === 'expectations' ? 'expectations file ' : ''}${file}${want}`);
        return true;
      });
    });
});

test('the generated types and validators are what `npm run gen` writes from schemas/ (not stale)', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'gen.ts'), '--check'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
});
