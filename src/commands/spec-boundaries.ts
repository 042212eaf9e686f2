// `synconf spec --boundaries`: each version statement of the spec ("added in 1.18.0") told by the two releases that
// straddle it (agents/straddle.ts). Where both are installed, only the statement's scenarios run on them (a lab each,
// no known deviations applied: what the agent does) and the matrix's boundary reader gives the verdict, naming them.
// Releases not installed are built only with --install, never silently. Reports go to --report-dir/<before>-<at>/.
import { join, resolve } from 'node:path';
import { agentPath, installedAgents } from '../agents/index.js';
import { installAgents } from '../agents/install.js';
import { releaseTable } from '../agents/releases.js';
import { passedWords, straddle } from '../agents/straddle.js';
import { EXIT } from '../errors.js';
import { makeOutputDir } from '../output-dir.js';
import { printableLine } from '../printable.js';
import { loadStatements, type Statement } from '../schema/statements.js';
import { selectScenarios } from '../scenario/select.js';
import { citedStatements, type LoadedScenario } from '../scenario/load.js';
import type { ReleaseStraddle, SpecBoundaryRow } from '../schema/generated/types.js';
import { servedVersion } from '../session/served-version.js';
import { runMatrix } from '../session/matrix-run.js';
import { processSignals } from './terminal/interrupt.js';

export interface SpecBoundaryOptions {
  install?: boolean;
  json?: boolean;
  reportDir: string;
  timeout: number;
}

const say = (line: string) => console.error(`synconf spec --boundaries: ${printableLine(line)}`);

/** a version statement with the boundary it takes (its own, or the one all it restates share) */
interface Planned {
  s: Statement;
  ids: string[];
  version?: string;
  holds?: 'from' | 'before';
  notCheckable?: string;
}

/** the boundary a restating statement takes: the one all it restates share (none when they differ) */
function boundaryOf(s: Statement, restated: Statement[]): Statement['boundary'] {
  const bounds = [s, ...restated].map((r) => r.boundary).filter((b) => b !== undefined);
  return bounds.every((b) => b.version === bounds[0].version && b.holds === bounds[0].holds) ? bounds[0] : undefined;
}

/** the version statements of the index, each with its boundary and whether it can be checked at all */
function plan(statements: Statement[]): Planned[] {
  const byId = new Map(statements.map((s) => [s.id, s]));
  return statements
    .filter((s) => s.kind === 'version')
    .map((s) => {
      const restated = (s.sameAs ?? []).map((id) => byId.get(id)!);
      const boundary = boundaryOf(s, restated);
      const allRestated = restated.length > 0 && restated.every((r) => r.notCheckable);
      const notCheckable = s.notCheckable ?? (allRestated ? restated[0].notCheckable : undefined);
      return { s, ids: [s.id, ...(s.sameAs ?? [])], version: boundary?.version, holds: boundary?.holds, notCheckable };
    });
}

/** the scenarios that can show a statement: those citing it (or what it restates) or calling its endpoint */
function scenariosFor(p: Planned, statements: Statement[], scenarios: LoadedScenario[]): string[] {
  const endpoints = new Set(
    statements.filter((s) => p.ids.includes(s.id) && s.boundary?.endpoint).map((s) => s.boundary!.endpoint!),
  );
  const cites = (l: LoadedScenario) => citedStatements(l.scenario).some(([, id]) => p.ids.includes(id));
  return scenarios.filter((l) => cites(l) || l.scenario.spec.some((e) => endpoints.has(e))).map((l) => l.scenario.id);
}

/** the straddling releases in words: "straddled by 1.17.0 and 1.18.0", or bracketed and what was passed over */
function straddleWords(st: ReleaseStraddle): string {
  if (!st.bracketed) return `straddled by ${st.before} and ${st.at}`;
  const passed = passedWords(st.passed);
  return `bracketed by ${st.before} and ${st.at}${passed ? ` (${passed})` : ''}`;
}

/** installs the straddling releases not installed yet (--install); why each that failed did, by version */
async function installStraddling(straddles: (ReleaseStraddle | undefined)[]): Promise<Map<string, string>> {
  const have = new Set(installedVersions());
  const wanted = [...new Set(straddles.flatMap((st) => (st?.before && st.at ? [st.before, st.at] : [])))];
  const missing = wanted.filter((v) => !have.has(v));
  const failures = new Map<string, string>();
  if (!missing.length) return failures;
  say(`installing ${missing.join(', ')}`);
  const { failed } = await installAgents(missing, { log: say, servedVersion });
  for (const f of failed) for (const v of f.versions) failures.set(v, f.error.message);
  return failures;
}

const SAYS = { agrees: 'as the spec says', disagrees: 'not as the spec says', 'cannot tell': 'cannot tell' } as const;

/** runs the scenarios of the statements a pair of installed releases straddles; their rows, by statement id */
async function runPair(
  pair: [string, string],
  todo: Todo[],
  o: SpecBoundaryOptions,
): Promise<Map<string, SpecBoundaryRow>> {
  const reportDir = join(resolve(o.reportDir), pair.join('-'));
  say(`${pair.join(' and ')}: running ${[...new Set(todo.flatMap((t) => t.scenarios))].join(', ')}`);
  const result = await runMatrix(
    {
      agents: pair.map((version) => ({ name: version, version, binary: agentPath(version) })),
      jobs: 2,
      only: [...new Set(todo.flatMap((t) => t.scenarios))],
      reportDir,
      expectations: false,
      failOn: ['fail'],
      requestTimeoutMs: o.timeout * 1000,
    },
    { listener: { say: (line) => console.error(line) }, signals: processSignals },
  );
  const m = result.matrix;
  const rows = new Map<string, SpecBoundaryRow>();
  for (const { p, st } of todo) {
    const b = m.boundaries?.find((r) => r.statement === p.s.id);
    if (!b) continue;
    const cells = m.order.map((i) => ({ version: m.columns[i].label, ...b.cells[i] }));
    const seen = cells.map((c) => `${c.observed} on ${c.version} (${c.by})`).join(', ');
    const verdict = b.verdict === 'agrees' ? SAYS.agrees : `${SAYS[b.verdict]} (${b.why})`;
    rows.set(p.s.id, {
      ...head(p, st),
      state: b.verdict,
      why: `${straddleWords(st)}: ${seen} — ${verdict}`,
      cells,
      reportDir,
    });
  }
  return rows;
}

/** the members every row has: the statement, the spec's version and side, and its straddling releases */
function head(p: Planned, st?: ReleaseStraddle) {
  return {
    statement: p.s.id,
    quote: p.s.quote,
    version: p.version ?? null,
    holds: p.holds ?? null,
    ...(st ? { straddle: st } : {}),
  };
}

type Todo = { p: Planned; st: ReleaseStraddle; scenarios: string[] };

/** a row that runs nothing: not checkable, no version, no release on a side, no scenario, or not installed */
function rowWithoutRun(t: Partial<Todo> & { p: Planned }, have: Set<string>, failures: Map<string, string>) {
  const { p, st, scenarios = [] } = t;
  if (p.notCheckable) return { ...head(p, st), state: 'not checkable' as const, why: p.notCheckable };
  if (!st) return { ...head(p), state: 'cannot tell' as const, why: 'the spec names no single version' };
  if (st.none) return { ...head(p, st), state: 'cannot tell' as const, why: st.none };
  if (!scenarios.length) return { ...head(p, st), state: 'cannot tell' as const, why: 'no scenario checks it' };
  const missing = [st.before!, st.at!].filter((v) => !have.has(v));
  if (!missing.length) return undefined;
  const failed = missing.filter((v) => failures.has(v));
  if (failed.length)
    return {
      ...head(p, st),
      state: 'cannot tell' as const,
      why: `${straddleWords(st)}; ${failed.map((v) => `${v} not installed: ${failures.get(v)}`).join('; ')}`,
    };
  return {
    ...head(p, st),
    state: 'not installed' as const,
    why: `${straddleWords(st)}; ${missing.join(' and ')} not installed: synconf spec --boundaries --install (or synconf agents install ${missing.join(' ')}) builds them`,
  };
}

export async function specBoundaries(o: SpecBoundaryOptions): Promise<void> {
  const statements = await loadStatements();
  const planned = plan(statements);
  const table = releaseTable();
  const straddleOf = (p: Planned) =>
    p.version && !p.notCheckable ? straddle(p.version, table, installedVersions()) : undefined;
  const failures = o.install ? await installStraddling(planned.map(straddleOf)) : new Map<string, string>();
  makeOutputDir(o.reportDir, '--report-dir');
  const { scenarios } = await selectScenarios(undefined, undefined);
  const have = new Set(installedVersions());
  const todos = planned.map((p) => ({ p, st: straddleOf(p), scenarios: scenariosFor(p, statements, scenarios) }));
  const rows = todos.map((t) => rowWithoutRun(t, have, failures));
  // the statements both of whose straddling releases are installed, grouped by the pair: one matrix a pair
  const pairs = new Map<string, Todo[]>();
  todos.forEach((t, i) => {
    if (rows[i] || !t.st) return;
    const key = `${t.st.before} ${t.st.at}`;
    pairs.set(key, [...(pairs.get(key) ?? []), t as Todo]);
  });
  const ran = new Map<string, SpecBoundaryRow>();
  for (const [key, todo] of pairs)
    for (const [id, row] of await runPair(key.split(' ') as [string, string], todo, o)) ran.set(id, row);
  const noVerdict = (t: (typeof todos)[number]) => ({
    ...head(t.p, t.st),
    state: 'cannot tell' as const,
    why: 'the run gave no verdict on it',
  });
  const all = todos.map((t, i) => rows[i] ?? ran.get(t.p.s.id) ?? noVerdict(t));
  print(all, o.json);
  process.exitCode = all.some((r) => r.state === 'disagrees') ? EXIT.nonConforming : EXIT.ok;
}

const installedVersions = () => installedAgents().map((a) => a.version);

function print(rows: SpecBoundaryRow[], json?: boolean): void {
  if (json) return void process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  const spec = (r: SpecBoundaryRow) =>
    r.version ? `${r.holds === 'before' ? 'before' : 'from'} ${r.version}` : 'no version';
  for (const r of rows) console.log(printableLine(`${r.statement} (spec: ${spec(r)}): ${r.state}: ${r.why}`));
  const count = (state: SpecBoundaryRow['state']) => rows.filter((r) => r.state === state).length;
  const states = ['agrees', 'disagrees', 'cannot tell', 'not installed', 'not checkable'] as const;
  console.log(`${rows.length} version statements: ${states.map((s) => `${count(s)} ${s}`).join(', ')}`);
}
