// `synconf spec`: the statement index of the spec (spec/statements.yaml), listed: id, kind, section, and whether the
// tested agents can decide each statement (if not, why). --kind filters; --json prints the rows as JSON.
import { EXIT, UsageError } from '../errors.js';
import { loadStatements, statementKinds } from '../schema/statements.js';
import { statementRows, statementsText } from '../report/statements.js';

export interface SpecOptions {
  kind?: string[];
  json?: boolean;
}

export async function spec(opts: SpecOptions): Promise<void> {
  const kinds: string[] = statementKinds();
  const wanted = opts.kind ?? [];
  for (const kind of wanted)
    if (!kinds.includes(kind))
      throw new UsageError(`--kind "${kind}" is not a statement kind (known: ${kinds.join(', ')})`);
  const rows = statementRows(await loadStatements()).filter((r) => wanted.length === 0 || wanted.includes(r.kind));
  process.stdout.write(opts.json ? `${JSON.stringify(rows, null, 2)}\n` : statementsText(rows));
  process.exitCode = EXIT.ok;
}
