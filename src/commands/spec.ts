// `synconf spec`: the statement index of the spec (spec/statements.yaml), listed: id, kind, section, and whether the
// tested agents can decide each statement (if not, why). --kind filters; --coverage adds a column per report (what
// that run proved of each statement); --json prints the rows as JSON. --boundaries: each version statement told by the
// releases that straddle it (spec-boundaries.ts).
import { EXIT, UsageError } from '../errors.js';
import { didYouMean } from '../did-you-mean.js';
import { loadStatements, statementKinds, type Statement } from '../schema/statements.js';
import { coverageLine, statementRows, statementsText, type StatementRow } from '../report/statements.js';
import { readReport } from '../report/load.js';
import { statementCoverage } from '../verdict/statement-coverage.js';
import { printableLine } from '../printable.js';
import { specBoundaries } from './spec-boundaries.js';

export interface SpecOptions {
  kind?: string[];
  coverage?: string[];
  json?: boolean;
  /** each version statement told by the releases that straddle it (spec-boundaries.ts) */
  boundaries?: boolean;
  install?: boolean;
  reportDir?: string;
  timeout?: number;
}

/** one column per report, named by its agent version (the file when two share one or it has none) */
async function coverageColumns(files: string[], statements: Statement[]) {
  const columns: { name: string; states: Map<string, string>; line: string }[] = [];
  for (const file of files) {
    const report = await readReport(file);
    // a report written before statement coverage existed is covered from its checks now
    const cov = report.statementCoverage ?? statementCoverage(statements, report.scenarios);
    const version = report.agent.version;
    const name = version && !columns.some((c) => c.name === version) ? version : file;
    columns.push({
      name: printableLine(name),
      states: new Map(cov.statements.map((s) => [s.id, s.state])),
      line: printableLine(coverageLine(cov)),
    });
  }
  return columns;
}

export async function spec(opts: SpecOptions): Promise<void> {
  if (opts.install && !opts.boundaries)
    throw new UsageError('--install builds the releases of --boundaries: give both');
  if (opts.boundaries) {
    const other = opts.kind ? '--kind' : opts.coverage ? '--coverage' : undefined;
    if (other) throw new UsageError(`--boundaries lists every version statement: it takes no ${other}`);
    return specBoundaries({
      install: opts.install,
      json: opts.json,
      reportDir: opts.reportDir ?? 'reports/boundaries',
      timeout: opts.timeout ?? 10,
    });
  }
  const kinds: string[] = statementKinds();
  const wanted = opts.kind ?? [];
  for (const kind of wanted)
    if (!kinds.includes(kind))
      throw new UsageError(
        `--kind "${kind}" is not a statement kind${didYouMean(kind, kinds) || ` (known: ${kinds.join(', ')})`}`,
      );
  const statements = await loadStatements();
  const columns = await coverageColumns(opts.coverage ?? [], statements);
  const rows: StatementRow[] = statementRows(statements)
    .filter((r) => wanted.length === 0 || wanted.includes(r.kind))
    .map((r) =>
      columns.length
        ? { ...r, coverage: Object.fromEntries(columns.map((c) => [c.name, c.states.get(r.id) ?? '-'])) }
        : r,
    );
  const names = columns.map((c) => c.name);
  const totals = columns.map((c) => `${c.name}: ${c.line}\n`);
  process.stdout.write(
    opts.json
      ? `${JSON.stringify(rows, null, 2)}\n`
      : statementsText(rows, names) + (totals.length ? `\n${totals.join('')}` : ''),
  );
  process.exitCode = EXIT.ok;
}
