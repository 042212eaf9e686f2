// The statement index (spec/statements.yaml) against its schema and against the spec text, both ways:
// * the index loads: valid against schemas/statement-index.schema.json, ids unique, sameAs naming statements;
//   each rule is shown to catch a broken index, naming the file and line;
// * every quote stands on its line under its section, and every table row and every sentence of the covered
//   sections (all but "…: not shown.") is claimed by a statement, clause by clause (", ", "; ", cells);
// * spec edits (a row removed, moved or added, a sentence reworded, a heading renamed) are named, by statement id
//   or by spec line: the agreement check is run on edited copies of the spec.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  loadStatements,
  PUBLISHED_SPEC_FILE,
  SPEC_FILE,
  STATEMENTS_FILE,
  statementKinds,
  type Statement,
} from '../src/schema/statements.js';
import { parseSpec, disagreements } from '../src/schema/spec-text.js';
import { loadDocumentValidators, validate } from '../src/schema/registry.js';
import { load as loadYaml, CORE_SCHEMA } from 'js-yaml';
import { makeTemp, removeTemp } from './support/temp.js';

let statements: Statement[];
let specText: string;
let work: string;
before(async () => {
  statements = await loadStatements();
  specText = readFileSync(SPEC_FILE, 'utf8');
  work = makeTemp('statements');
});
after(() => removeTemp(work));

const byId = (id: string) => {
  const s = statements.find((x) => x.id === id);
  assert.ok(s, `no statement ${id}`);
  return s;
};

describe('the spec text inside the project', () => {
  test('spec/rest-api-subset.md is the published spec beside the project, where it is published', (t) => {
    if (!existsSync(PUBLISHED_SPEC_FILE)) return t.skip(`no published spec at ${PUBLISHED_SPEC_FILE} to compare with`);
    assert.equal(specText, readFileSync(PUBLISHED_SPEC_FILE, 'utf8'), 'copy the published spec into spec/');
  });
});

describe('the statement index', () => {
  test('loads: valid against its schema, ids unique, every sameAs names a statement', async () => {
    assert.ok(statements.length > 300, `only ${statements.length} statements`);
    // a run takes the shipped index as the build parsed it, without the schema check: this test is that check
    await loadDocumentValidators();
    const shipped = loadYaml(readFileSync(STATEMENTS_FILE, 'utf8'), { schema: CORE_SCHEMA });
    assert.deepEqual(validate('statement-index', shipped), []);
    assert.equal(new Set(statements.map((s) => s.id)).size, statements.length);
    const kinds = new Set(statements.map((s) => s.kind));
    assert.deepEqual([...kinds].sort(), [...statementKinds()].sort(), 'every kind of the schema is used');
  });

  test('every reason for "not checkable" is one a reviewer accepts, not a missing check', () => {
    const weak = statements.filter(
      (s) => s.notCheckable && /implemented|todo|later|not yet|no time/i.test(s.notCheckable),
    );
    assert.deepEqual(
      weak.map((s) => s.id),
      [],
    );
  });

  // [what is wrong, the first statement entry of a one-statement index file, the message]
  const good = `  - id: ping.post.pong\n    kind: value\n    section: [Endpoints]\n    line: 3\n    quote: "pong"\n`;
  const broken: [string, string, RegExp][] = [
    ['a malformed id', good.replace('ping.post.pong', 'Ping'), /bad\.yaml:2: \/statements\/0\/id: must match/],
    [
      'an unknown kind',
      good.replace('kind: value', 'kind: meaning'),
      /bad\.yaml:2: \/statements\/0\/kind: must be one of/,
    ],
    ['no quote', good.replace(/ {4}quote.*\n/, ''), /bad\.yaml:2: \/statements\/0\/quote: required property/],
    ['an unknown member', good + '    checkable: true\n', /bad\.yaml:2: \/statements\/0\/checkable: unknown property/],
    ['a repeated id', good + good, /bad\.yaml:7: statement "ping\.post\.pong": duplicate id \(entry 1 has it too\)/],
    [
      'sameAs naming no statement',
      good + '    sameAs: [ping.get.pong]\n',
      /bad\.yaml:2: statement "ping\.post\.pong": sameAs "ping\.get\.pong" names no statement/,
    ],
    [
      'sameAs and notCheckable together',
      good + '    sameAs: [a.b]\n    notCheckable: "a reason long enough to pass"\n',
      /bad\.yaml:2: \/statements\/0: must NOT be valid/,
    ],
    ['not YAML', good + '  - id: [\n', /bad\.yaml:\d+: not valid YAML/],
  ];
  for (const [what, entries, message] of broken)
    test(`an index with ${what} is refused, naming file and line`, async () => {
      const dir = join(work, what.replace(/\W+/g, '-'));
      mkdirSync(dir);
      const file = join(dir, 'bad.yaml');
      writeFileSync(file, `statements:\n${entries}`);
      await assert.rejects(loadStatements(file), (e: Error) => {
        assert.match(e.message, message);
        assert.equal(e.name, 'InputError');
        return true;
      });
    });
});

describe('the statement index against the spec text', () => {
  test(`agrees with ${STATEMENTS_FILE.split('/').slice(-2).join('/')} both ways`, () => {
    assert.deepEqual(disagreements(statements, parseSpec(specText)), []);
  });

  // A spec edit: the lines of the spec in, the edited lines out.
  type Edit = (lines: string[]) => string[];
  const lineOf = (id: string) => byId(id).line;
  const facilities = () => specText.split('\n')[lineOf('debug.facility.versioner') - 1];
  const headingLine = (title: string) => specText.split('\n').findIndex((l) => l.startsWith(`### ${title}`)) + 1;
  const without =
    (n: number): Edit =>
    (lines) =>
      lines.filter((_, i) => i !== n - 1);
  const moved =
    (from: number, to: number): Edit =>
    (lines) => {
      const out = lines.filter((_, i) => i !== from - 1);
      out.splice(to - 1, 0, lines[from - 1]);
      return out;
    };
  const replaced =
    (n: number, from: string, to: string): Edit =>
    (lines) =>
      lines.map((l, i) => (i === n - 1 ? l.replace(from, to) : l));
  const appended =
    (line: string): Edit =>
    (lines) => [...lines.slice(0, -1), line, ...lines.slice(-1)];

  // [spec edit, (line numbers computed from the index) → messages the check must give (among others)]
  const edits: [string, () => Edit, () => string[]][] = [
    [
      'a table row removed',
      () => without(lineOf('status.tilde.home')),
      () => [
        `status.tilde.type: quote "| tilde | string (path of the home directory) |" is not on line ${lineOf('status.tilde.type')} (no longer in the spec)`,
        `status.tilde.home: quote "path of the home directory" is not on line ${lineOf('status.tilde.home')} (no longer in the spec)`,
      ],
    ],
    [
      'a table row moved down one line',
      () => moved(lineOf('status.tilde.home'), lineOf('status.uptime.type')),
      () => [
        `status.tilde.home: quote "path of the home directory" is not on line ${lineOf('status.tilde.home')} (found on line ${lineOf('status.uptime.type')})`,
        `status.uptime.type: quote "| uptime | integer |" is not on line ${lineOf('status.uptime.type')} (found on line ${lineOf('status.tilde.home')})`,
      ],
    ],
    [
      'a table row moved to another table',
      () => moved(lineOf('config.folder.maxConcurrentWrites.default'), lineOf('config.device.name.type')),
      () => [
        `config.folder.maxConcurrentWrites.default: quote "maxConcurrentWrites | integer | 16" is not on line ${lineOf('config.folder.maxConcurrentWrites.default')} (found on line ${lineOf('config.device.name.type')})`,
        `line ${lineOf('config.device.name.type')} (Resources and their fields › Configuration object (returned by GET /rest/system/config) › Device): no statement claims "| maxConcurrentWrites | integer | 16 |"`,
      ],
    ],
    [
      'a table row added',
      () => (lines) => {
        const n = lineOf('status.uptime.type');
        return [...lines.slice(0, n), '| umask | string |', ...lines.slice(n)];
      },
      () => [
        `line ${lineOf('status.uptime.type') + 1} (Resources and their fields › System status object (GET /rest/system/status)): no statement claims "| umask | string |"`,
      ],
    ],
    [
      'a sentence reworded',
      () => replaced(lineOf('restart.immediate'), 'restarts immediately', 'restarts after a while'),
      () => [
        `restart.immediate: quote "The process restarts immediately." is not on line ${lineOf('restart.immediate')} (no longer in the spec)`,
        `line ${lineOf('restart.immediate')} (Endpoints › POST /rest/system/restart): no statement claims "The process restarts after a while."`,
      ],
    ],
    [
      'an item added to a list inside a sentence',
      () => replaced(lineOf('debug.facility.versioner'), 'versioner (', 'watcher (filesystem watching), versioner ('),
      () => [
        `line ${lineOf('debug.facility.versioner')} (Resources and their fields › Debug facilities object (GET /rest/system/debug)): no statement claims "watcher (filesystem watching)" (in ${JSON.stringify(facilities().replace('versioner (', 'watcher (filesystem watching), versioner ('))})`,
      ],
    ],
    [
      'a sentence added to a list',
      () => appended('- GET /rest/system/upgrade added in 0.10.0.'),
      () => [
        `line ${specText.split('\n').length} (Versioning): no statement claims "GET /rest/system/upgrade added in 0.10.0."`,
      ],
    ],
    [
      'a heading renamed',
      () => replaced(headingLine('System status object'), 'System status object', 'Status object'),
      () => [
        `status.tilde.home: section is "Resources and their fields › System status object (GET /rest/system/status)", but line ${lineOf('status.tilde.home')} is under "Resources and their fields › Status object (GET /rest/system/status)"`,
      ],
    ],
  ];
  for (const [what, edit, expected] of edits)
    test(`${what}: the check names it`, () => {
      const lines = specText.split('\n');
      const edited = edit()(lines);
      assert.notDeepEqual(edited, lines, 'the edit changes the spec');
      const found = disagreements(statements, parseSpec(edited.join('\n')));
      for (const message of expected())
        assert.ok(found.includes(message), `missing: ${message}\namong:\n${found.slice(0, 8).join('\n')}`);
    });

  test('a "not shown" sentence needs no statement', () => {
    const lines = specText.split('\n');
    const edited = appended('- Retry behaviour: not shown.')(lines);
    assert.deepEqual(disagreements(statements, parseSpec(edited.join('\n'))), []);
  });
});
