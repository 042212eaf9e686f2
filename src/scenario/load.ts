// Reading scenario files: YAML → validated Scenario, or a ScenarioError that names the file,
// the line and the cause. Nothing runs until every selected file has loaded.
import { relative, resolve } from 'node:path';
import { YAMLException } from 'js-yaml';
import type { Scenario, Step } from '../schema/generated/types.js';
import { validate, listResources } from '../schema/registry.js';
import { kindProblem } from '../schema/file-kind.js';
import { ROOT } from '../paths.js';
import { InputError } from '../errors.js';
import { didYouMean } from '../did-you-mean.js';
import { readTextFile, TextFileError } from '../text-file.js';
import { listItemLines, rowLines } from './list-lines.js';
import { checkTemplateNames } from './template-names.js';
import { checkOperands } from './operands.js';
import { checkHeaders } from './headers.js';
import { loadLocated, YamlTooLargeError, type LocatedYaml } from './located-yaml.js';
import { expandTables } from './each.js';
import { loadStatements, unknownStatement, type Statement } from '../schema/statements.js';
import { builtEntry, type BuiltEntry } from '../schema/built-yaml.js';

export interface LoadedScenario {
  scenario: Scenario;
  /** the file as people read it: relative to the package for its own suites, else as given */
  file: string;
  /** the file to read again (absolute: `file` may be relative to the package or to the working folder) */
  path: string;
  /** the line of each step in the file, by step name (reports point CI annotations at it) */
  stepLines: Record<string, number>;
}

export class ScenarioError extends InputError {
  override name = 'ScenarioError';
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly cause_: string,
    readonly step?: string,
    readonly pointer?: string,
    readonly column?: number,
  ) {
    super(`${file}${line ? `:${line}${column ? `:${column}` : ''}` : ''}: ${step ? `step "${step}": ` : ''}${cause_}`);
  }
}

const STEP_KINDS = ['request', 'file', 'openEvents', 'expectEvent', 'sleep', 'each (a table of steps)'];

function stepNameAt(doc: unknown, pointer: string): string | undefined {
  const m = /^\/(setup|steps|cleanup)\/(\d+)(?:\/each\/(\d+))?/.exec(pointer);
  if (!m) return undefined;
  const step = (doc as Record<string, Step[] | undefined>)[m[1]]?.[Number(m[2])];
  return m[3] === undefined ? step?.name : (step?.each?.[Number(m[3])]?.name ?? step?.name);
}

/** the 1-based line where each step starts, by step name (from the text alone unless steps come from tables) */
function stepLinesOf(
  lines: string[],
  s: Scenario,
  lineOf?: (phase: string, index: number) => number | undefined,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const phase of ['setup', 'steps', 'cleanup'] as const) {
    const items = lineOf ? [] : listItemLines(lines, phase);
    (s[phase] ?? []).forEach((step, i) => {
      const line = lineOf ? lineOf(phase, i) : items[i];
      if (line) out[step.name] = line;
    });
  }
  return out;
}

/**
 * The line of each step of a scenario with step tables: a row's line read from the text (rowLines), as a plain step's
 * (listItemLines); a second parse of the file for its positions (`lineAt`) only where the text does not say it plainly
 * (a flow list of rows, rows not counted as the value has them). That parse was ~7% of a replay (bench/README.md).
 */
function tableStepLine(
  lines: string[],
  data: unknown,
  stepSource: (phase: string, i: number) => string,
  parsed: LocatedYaml,
) {
  const items = new Map<string, number[]>();
  const itemLines = (phase: string) => items.get(phase) ?? items.set(phase, listItemLines(lines, phase)).get(phase)!;
  const tables = new Map<number, number[] | undefined>(); // the row lines of each table step, by the step's line
  const rowsOf = (step: number) =>
    tables.has(step) ? tables.get(step) : tables.set(step, rowLines(lines, step)).get(step);
  return (phase: string, i: number): number | undefined => {
    const source = stepSource(phase, i);
    const m = /^\/\w+\/(\d+)(?:\/each\/(\d+))?$/.exec(source);
    const step = m ? itemLines(phase)[Number(m[1])] : undefined;
    if (!m || step === undefined) return parsed.lineAt(source);
    if (m[2] === undefined) return step;
    const rows = rowsOf(step);
    const written = (data as Record<string, { each?: unknown[] }[]>)[phase]?.[Number(m[1])]?.each;
    return rows && rows.length === written?.length ? rows[Number(m[2])] : parsed.lineAt(source);
  };
}

/** the file as people read it (relative to the package for its own suites, else as given), and its absolute path */
function whereIs(path: string, given: string): Pick<LoadedScenario, 'file' | 'path'> {
  const inPackage = relative(ROOT, path);
  return { file: inPackage.startsWith('..') ? given : inPackage, path: resolve(path) };
}

/** the first schema error of a scenario as one ScenarioError at its line, if it has any */
function schemaErrors(data: unknown, file: string, lineAt: (pointer: string) => number | undefined): void {
  const errors = validate('scenario', data);
  if (!errors.length) return;
  // A step with none (or two) of the step kinds produces one error per oneOf branch; say it once.
  const oneOf = errors.find(
    (e) => e.rule === 'oneOf' && /^\/(setup|steps|cleanup)\/\d+(\/each\/\d+)?$/.test(e.pointer),
  );
  const found =
    oneOf ??
    errors.find(
      (e) =>
        e.rule !== 'oneOf' &&
        (!/\/(request|file|openEvents|expectEvent|sleep|each)$/.test(e.pointer) || e.rule !== 'required'),
    ) ??
    errors[0];
  // of a value's alternatives, the one that reached deepest says what is wrong: status [200, 1000] is a list whose
  // second item is no status, not "must be integer"
  const first = oneOf
    ? found
    : (errors.find((e) => e.rule !== 'oneOf' && e.pointer.startsWith(`${found.pointer}/`)) ?? found);
  // A value with alternatives (status: a number or a list) fails each of them: say them together.
  const types = errors
    .filter((e) => e.pointer === first.pointer && e.rule === 'type')
    .map((e) => /^must be (\S+), (got .*)$/.exec(e.message))
    .filter((m) => m !== null);
  const message = oneOf
    ? `a step needs exactly one of ${STEP_KINDS.join(', ')}`
    : types.length > 1
      ? `${first.pointer}: must be ${types.map((m) => m[1]).join(' or ')}, ${types[0][2]}`
      : `${first.pointer || '/'}: ${first.message}`;
  throw new ScenarioError(file, lineAt(first.pointer), message, stepNameAt(data, first.pointer));
}

export async function loadScenario(path: string, endpointIds?: Set<string>): Promise<LoadedScenario> {
  const rel = relative(process.cwd(), path);
  const file = rel && !rel.startsWith('..') ? rel : path;
  let text: string;
  try {
    text = readTextFile(path, file);
  } catch (e) {
    if (!(e instanceof TextFileError)) throw e;
    throw new ScenarioError(file, e.line, e.reason, undefined, undefined, e.column);
  }
  const built = builtEntry(text);
  const { scenario, stepLines } = built?.scenario
    ? await loadedAtBuild(text, file, built.value, built.scenario, endpointIds)
    : await checkAll(text, file, endpointIds);
  return { scenario, ...whereIs(path, file), stepLines };
}

/** a scenario file's text, with every check: its YAML, its kind, its schema, its step tables, its consistency */
async function checkAll(text: string, file: string, endpointIds: Set<string> | undefined) {
  let parsed: LocatedYaml;
  try {
    parsed = loadLocated(text, file);
  } catch (e) {
    if (e instanceof YamlTooLargeError) throw new ScenarioError(file, undefined, e.message);
    if (!(e instanceof YAMLException)) throw e;
    throw new ScenarioError(file, e.mark ? e.mark.line + 1 : undefined, `not valid YAML: ${e.reason}`);
  }
  const data = parsed.data;
  const wrongKind = kindProblem(data, 'scenario');
  if (wrongKind) throw new ScenarioError(file, undefined, wrongKind);
  // a step table is checked as written (its rows are steps), then as the steps it stands for
  schemaErrors(data, file, (pointer) => parsed.lineAt(pointer));
  const tables = expandTables(data);
  const sourceLine = (pointer: string) => parsed.lineAt(tables.source(pointer));
  if (tables.data !== data) schemaErrors(tables.data, file, sourceLine);
  const scenario = tables.data as Scenario;
  try {
    checkConsistency(
      scenario,
      endpointIds,
      (pointer, message, step) => new ScenarioError(file, undefined, message, step, pointer),
    );
  } catch (e) {
    if (!(e instanceof ScenarioError) || e.pointer === undefined) throw e;
    throw new ScenarioError(file, sourceLine(e.pointer), e.cause_, e.step);
  }
  await checkCitations(data, file, parsed);
  const lines = text.split('\n');
  return {
    scenario,
    stepLines:
      tables.data === data
        ? stepLinesOf(lines, scenario)
        : stepLinesOf(lines, scenario, tableStepLine(lines, data, tables.stepSource, parsed)),
  };
}

/**
 * A shipped scenario file as the build loaded it: scripts/bundle.mjs loads every shipped YAML file with loadScenario
 * and keeps, for exactly the text of each one that passed, its step lines, citations and expanded steps
 * (src/schema/built-yaml.ts: an entry is taken only for the very text it was made from). The checks that depend on
 * the text alone (its YAML, kind, schema, step tables, step names, cursors and templates) passed then, by the code of
 * this same build, and are not run again (they were about two thirds of loading the bundled suites). Those that
 * depend on other files of the package still run: the spec's endpoints and the statement index. A file edited since
 * the build has no entry, and gets every check.
 */
async function loadedAtBuild(
  text: string,
  file: string,
  data: unknown,
  built: NonNullable<BuiltEntry['scenario']>,
  endpointIds: Set<string> | undefined,
) {
  const parsed = loadLocated(text, file, data);
  const scenario = (built.expanded ?? data) as Scenario;
  checkSpecIds(scenario, endpointIds, (pointer, message) => new ScenarioError(file, parsed.lineAt(pointer), message));
  await checkCitations(data, file, parsed, built.cited);
  return { scenario, stepLines: built.stepLines };
}

/** the ids of an index's statements, made once per index (loadStatements reads each index once) */
const statementIds = new WeakMap<Statement[], Set<string>>();

/** every id the scenario cites must be a statement of the index: else a ScenarioError at its line */
async function checkCitations(
  data: unknown,
  file: string,
  parsed: LocatedYaml,
  cited = citedStatements(data),
): Promise<void> {
  const statements = await loadStatements();
  const ids =
    statementIds.get(statements) ?? statementIds.set(statements, new Set(statements.map((s) => s.id))).get(statements)!;
  for (const [pointer, id] of cited) {
    const problem = ids.has(id) ? undefined : unknownStatement(id, statements);
    if (problem) throw new ScenarioError(file, parsed.lineAt(pointer), problem, stepNameAt(data, pointer));
  }
}

/** every statement id the scenario cites (`statements:` of an assertion, an expect or an expectEvent), by pointer */
export function citedStatements(node: unknown, pointer = '', out: [string, string][] = []): [string, string][] {
  if (Array.isArray(node)) node.forEach((item, i) => citedStatements(item, `${pointer}/${i}`, out));
  else if (node !== null && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if (key === 'request' || key === 'vars') continue; // request bodies and vars are data sent to the agent, not citations
      if (key === 'statements' && Array.isArray(value))
        value.forEach((id, i) => out.push([`${pointer}/statements/${i}`, String(id)]));
      else citedStatements(value, `${pointer}/${key}`, out);
    }
  return out;
}

/** every endpoint the scenario names in `spec:` is one of the spec's (when the caller gives them) */
function checkSpecIds(
  s: Scenario,
  endpointIds: Set<string> | undefined,
  fail: (pointer: string, message: string) => Error,
) {
  if (endpointIds)
    s.spec.forEach((id, i) => {
      if (!endpointIds.has(id))
        throw fail(
          `/spec/${i}`,
          `"${id}" is not an endpoint of the spec${didYouMean(id, endpointIds) || ' (see schemas/endpoints.json)'}`,
        );
    });
}

/** a scenario none of whose steps expects anything ran as a green scenario of 0 checks: nothing checked is no pass */
function checkChecksSomething(s: Scenario, fail: (pointer: string, message: string) => Error): void {
  if (!(s.steps ?? []).some((step) => step.expect || step.expectEvent))
    throw fail('/steps', 'no step checks anything (none has expect or expectEvent): a scenario must check something');
}

/** Rules the schema cannot say: unique step names, cursors opened before use, known endpoints. */
function checkConsistency(
  s: Scenario,
  endpointIds: Set<string> | undefined,
  fail: (pointer: string, message: string, step?: string) => Error,
): void {
  checkSpecIds(s, endpointIds, fail);
  const names = new Set<string>();
  const cursors = new Set<string>();
  const resources = listResources();
  for (const phase of ['setup', 'steps', 'cleanup'] as const) {
    (s[phase] ?? []).forEach((step, i) => {
      const at = `/${phase}/${i}`;
      if (names.has(step.name))
        throw fail(`${at}/name`, `step name "${step.name}" is used twice in this scenario`, step.name);
      names.add(step.name);
      if (step.each) throw fail(`${at}/each`, 'a row of a step table cannot be a table itself', step.name);
      if (step.openEvents) cursors.add(step.openEvents.cursor);
      if (step.expectEvent && !cursors.has(step.expectEvent.cursor))
        throw fail(
          `${at}/expectEvent/cursor`,
          `event cursor "${step.expectEvent.cursor}" is not opened by an earlier openEvents step`,
          step.name,
        );
      if ((step.expect || step.capture || step.wait) && !step.request)
        throw fail(at, 'expect, capture and wait belong to a request step', step.name);
      if (step.agent === 'peer' && !s.needs?.includes('peer'))
        throw fail(`${at}/agent`, 'a step on the peer needs `needs: [peer]`', step.name);
      if (step.file && !s.needs?.includes('files'))
        throw fail(`${at}/file`, 'a file step needs `needs: [files]`', step.name);
      checkHeaders(step, at, (pointer, message) => fail(pointer, message, step.name));
      for (const [pointer, resource] of [
        [`${at}/expect/schema`, step.expect?.schema],
        [`${at}/expectEvent/schema`, step.expectEvent?.schema],
      ] as const) {
        if (resource !== undefined && !resources.includes(resource))
          throw fail(
            pointer,
            `unknown schema "${resource}"${didYouMean(resource, resources) || `; known resources: ${resources.join(', ')}`}`,
            step.name,
          );
      }
    });
  }
  checkTemplateNames(s, (pointer, message) => fail(pointer, message));
  checkOperands(s, fail);
  checkChecksSomething(s, fail); // last: what a step says wrong is said first
}
