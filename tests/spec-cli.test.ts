// `synconf spec`: the statement index listed as text and JSON, filtered by kind; a bad kind is one line, exit 2;
// the listing takes more columns (coverage per agent version) from the same rows.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { cli } from './support/cli.js';
import { loadStatements, type Statement } from '../src/schema/statements.js';
import { statementRows, statementsText, type StatementRow } from '../src/report/statements.js';

let statements: Statement[];
before(async () => {
  statements = await loadStatements();
});

describe('synconf spec', () => {
  test('lists every statement: id, kind, section, checkable or why not; then the counts', () => {
    const r = cli(['spec']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.match(lines[0], /^ID +KIND +SECTION +CHECKABLE$/);
    const rows = lines.slice(1, lines.indexOf(''));
    assert.deepEqual(
      rows.map((l) => l.split(/\s+/)[0]),
      statements.map((s) => s.id),
    );
    assert.match(r.stdout, /^status\.tilde\.home +value +System status object \(GET \/rest\/system\/… +yes$/m);
    assert.match(r.stdout, /^db-status\.cost +value +GET \/rest\/db\/status +no: a cost statement without a bound/m);
    assert.match(r.stdout, /^versioning\.notes\.debug +version +Versioning +as debug\.since$/m);
    const checkable = statements.filter((s) => !s.notCheckable && !s.sameAs).length;
    const not = statements.filter((s) => s.notCheckable).length;
    assert.match(
      r.stdout,
      new RegExp(
        `^${statements.length} statements: ${checkable} checkable, ${not} not checkable, \\d+ restating others$`,
        'm',
      ),
    );
    assert.match(
      r.stdout,
      /^not checkable, by reason:\n(.*\n)* +2 {2}a cost statement without a bound.*\n +localchanged\.cost, db-status\.cost$/m,
    );
  });

  // [--kind, the kinds listed]
  const filters: [string, string[]][] = [
    ['auth', ['auth']],
    ['auth,error', ['auth', 'error']],
    ['cross-field', ['cross-field']],
  ];
  for (const [kind, kinds] of filters)
    test(`--kind ${kind} --json: exactly the statements of those kinds, as JSON rows`, () => {
      const r = cli(['spec', '--kind', kind, '--json']);
      assert.equal(r.code, 0, r.stderr);
      const rows = JSON.parse(r.stdout) as StatementRow[];
      assert.deepEqual(
        rows.map((row) => row.id),
        statements.filter((s) => kinds.includes(s.kind)).map((s) => s.id),
      );
      for (const row of rows)
        assert.deepEqual(Object.keys(row).slice(0, 5), ['id', 'kind', 'section', 'line', 'checkable']);
    });

  test('--kind meaning: one line naming it and the known kinds, exit 2', () => {
    const r = cli(['spec', '--kind', 'value,meaning']);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      'synconf: --kind "meaning" is not a statement kind (known: shape, value, cross-field, cross-endpoint, effect, error, auth, version)\n',
    );
  });

  test('the listing takes coverage columns from the same rows ("-" where a row has none)', () => {
    const rows = statementRows(statements.filter((s) => s.id.startsWith('ping.')));
    rows.find((row) => row.id === 'ping.post.pong')!.coverage = { '1.19.2': 'passed', '1.29.5': 'deviating' };
    const text = statementsText(rows, ['1.19.2', '1.29.5']);
    assert.match(text, /^ID +KIND +SECTION +1\.19\.2 +1\.29\.5 +CHECKABLE$/m);
    assert.match(text, /^ping\.post\.pong +value +POST \/rest\/system\/ping +passed +deviating +yes$/m);
    assert.match(text, /^ping\.get\.exists +shape +POST \/rest\/system\/ping +- +- +yes$/m);
  });
});
