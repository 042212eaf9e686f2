// Spec-derived mutants: for each statement of the index, its targets (spec-targets.ts) applied to the recordings of
// every scenario that holds an answer they change, as an agent breaking the statement would break it everywhere.
// The mutant is killed when a check of any of those scenarios fails that did not without it, so the score reads
// "statements whose violation the suite catches", whichever checks exist.
import type { HarEntry, MutantResult, ScenarioResult, StatementScore } from '../schema/generated/types.js';
import type { LoadedScenario } from '../scenario/load.js';
import type { Statement } from '../schema/statements.js';
import type { MutationEngine, Outcome } from './engine.js';
import type { Mutant } from './mutants.js';
import { endpointOf } from './mutants.js';
import { applyTarget, type SpecTarget } from './spec-operators.js';
import { targetsOf } from './spec-targets.js';
import { nextTurn } from '../turns.js';

export type Entry = StatementScore['entries'][number];

/** a scenario as the spec mutants need it: its loaded form, its unmutated replay, its recorded entries */
export interface Replayed {
  loaded: LoadedScenario;
  baseline: ScenarioResult;
  entries: HarEntry[];
}

/** the targets composed on one scenario's entries (each applied to what the previous ones left) */
export function replacementsIn(entries: HarEntry[], targets: SpecTarget[]): Map<number, HarEntry> {
  const out = new Map<number, HarEntry>();
  for (const t of targets) {
    const current = entries.map((e, i) => out.get(i) ?? e);
    for (const [i, e] of applyTarget(current, t)) out.set(i, e);
  }
  return out;
}

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v)?.slice(0, 40));
export function describeTarget(t: SpecTarget): string {
  const where = `${t.endpoints.join(', ')}${t.at !== undefined ? ` at "${t.at}"` : ''}`;
  const extra = [
    t.value !== undefined ? `value ${show(t.value)}` : '',
    t.event ? `event ${t.event}` : '',
    t.query ? `requests ${Object.entries(t.query).map(([k, has]) => `${has ? 'with' : 'without'} ${k}`)}` : '',
    t.statuses ? `answers ${t.statuses.join('/')}` : '',
  ].filter(Boolean);
  return `${t.operator} on ${where}${extra.length ? ` (${extra.join(', ')})` : ''}`;
}

/** the checks of a baseline that cite a statement */
const citing = (r: ScenarioResult, id: string) => r.checks.filter((c) => c.statements?.includes(id)).map((c) => c.id);

interface Part {
  scenario: Replayed;
  replace: Map<number, HarEntry>;
}

/** where a statement's mutant changed answers: the scenario and file, its first changed entry, every scenario changed */
export interface MutantPlace {
  scenario: string;
  file: string;
  entry: HarEntry;
  scenarios: string[];
}

/** the mutant of one statement as the report lists it */
export function statementMutant(s: Statement, targets: SpecTarget[], at: MutantPlace, outcome: Outcome): MutantResult {
  return {
    id: `spec:${s.id}`,
    scenario: at.scenario,
    file: at.file,
    step: at.entry._step,
    endpoint: endpointOf(at.entry),
    operator: targets[0].operator,
    target: targets.map(describeTarget).join('; '),
    ...(targets[0].at ? { pointer: targets[0].at } : {}),
    description: `breaks ${s.id} (spec line ${s.line}): ${s.note ?? s.quote}`,
    statement: s.id,
    specLine: s.line,
    scenarios: at.scenarios,
    ...outcome,
  };
}

/** the mutant of one statement, from the outcome of its parts (the part that killed it, or the first) */
function resultOf(s: Statement, targets: SpecTarget[], parts: Part[], outcome: Outcome): MutantResult {
  const first = outcome.outcome === 'killed' ? parts.at(-1)! : parts[0];
  return statementMutant(
    s,
    targets,
    {
      scenario: first.scenario.loaded.scenario.id,
      file: first.scenario.loaded.file,
      entry: first.scenario.entries[Math.min(...first.replace.keys())],
      scenarios: parts.map((p) => p.scenario.loaded.scenario.id),
    },
    outcome,
  );
}

/**
 * The scenarios in turn (those whose checks cite the statement first, where a kill is likeliest), each with the
 * targets applied to its recordings (worked out only when its turn comes: most statements stop at the first),
 * replayed until one kills the mutant; masked when a check that sees it already fails as a known deviation.
 */
async function runParts(
  engine: MutationEngine,
  s: Statement,
  scenarios: Replayed[],
  targets: SpecTarget[],
): Promise<{ outcome: Outcome; parts: Part[] }> {
  const cites = (r: Replayed) => (citing(r.baseline, s.id).length ? 0 : 1);
  let masked: Outcome | undefined;
  const parts: Part[] = [];
  for (const scenario of [...scenarios].sort((a, b) => cites(a) - cites(b))) {
    const replace = replacementsIn(scenario.entries, targets);
    if (!replace.size) continue;
    parts.push({ scenario, replace });
    await nextTurn();
    const { loaded, baseline } = scenario;
    const mutant = { id: `spec:${s.id}`, replace, aims: citing(baseline, s.id), maskedWhenSeen: true } as Mutant;
    const outcome = await engine.run(loaded, baseline, mutant);
    if (outcome.outcome === 'killed') return { outcome, parts };
    if (outcome.outcome === 'equivalent') masked ??= outcome;
  }
  return { outcome: masked ?? { outcome: 'survived' }, parts };
}

const nothing = (targets: SpecTarget[]) =>
  `the recordings hold no answer it changes: ${targets.map(describeTarget).join('; ')}`;

/**
 * Why nothing changed when the member a target names is missing from the agent's answers: masked when a check that
 * already fails on this agent (a known deviation) names that member, e.g. "/discoveryEnabled required".
 */
function missingMember(targets: SpecTarget[], scenarios: Replayed[]): string | undefined {
  const members = targets.flatMap((t) => (t.at ? [t.at.split('/').pop()!] : [])).filter((m) => m && m !== '*');
  for (const member of new Set(members))
    for (const { baseline } of scenarios) {
      const names = (c: ScenarioResult['checks'][number]) =>
        [c.message, ...(c.schemaErrors ?? []).map((e) => `${e.pointer} ${e.rule}`)].join('\n');
      const seen = baseline.checks.find(
        (c) => c.verdict === 'expected-fail' && new RegExp(`/${member}\\b(?! *[:=])`).test(names(c)),
      );
      if (seen)
        return `masked: the agent's answers lack ${member}, and ${seen.id} already fails on it, a known deviation (${seen.deviation?.file ?? 'expectations'})`;
    }
  return undefined;
}

/** the targets that break a statement, or its entry in the statement score when none is to run */
export function statementTargets(
  s: Statement,
  agentVersion: string | null,
): { targets: SpecTarget[] } | { entry: Entry } {
  const base = { id: s.id, kind: s.kind, line: s.line };
  if (s.notCheckable) return { entry: { ...base, outcome: 'not checkable', reason: s.notCheckable } };
  if (s.sameAs) return { entry: { ...base, outcome: 'restates', reason: `restates ${s.sameAs.join(', ')}` } };
  const found = targetsOf(s, agentVersion);
  if ('none' in found) return { entry: { ...base, outcome: 'no operator', reason: found.none } };
  return found;
}

/** one statement: its entry in the statement score and, when an operator applies, its mutant */
export async function mutateStatement(
  engine: MutationEngine,
  s: Statement,
  scenarios: Replayed[],
  agentVersion: string | null,
): Promise<{ entry: Entry; result?: MutantResult }> {
  const base = { id: s.id, kind: s.kind, line: s.line };
  const found = statementTargets(s, agentVersion);
  if ('entry' in found) return found;
  const { outcome, parts } = await runParts(engine, s, scenarios, found.targets);
  if (!parts.length) {
    const masked = missingMember(found.targets, scenarios);
    return { entry: { ...base, outcome: masked ? 'masked' : 'no operator', reason: masked ?? nothing(found.targets) } };
  }
  const result = resultOf(s, found.targets, parts, outcome);
  const state = outcome.outcome === 'killed' ? 'caught' : outcome.outcome === 'equivalent' ? 'masked' : 'survived';
  return {
    entry: {
      ...base,
      outcome: state,
      mutants: [result.id],
      ...(outcome.equivalentBecause ? { reason: outcome.equivalentBecause } : {}),
    },
    result,
  };
}

/** the statement score of the entries: caught / (caught + survived) */
export function statementTotals(entries: Entry[]): StatementScore['totals'] {
  const n = (o: Entry['outcome']) => entries.filter((e) => e.outcome === o).length;
  const caught = n('caught');
  const survived = n('survived');
  return {
    statements: entries.length,
    caught,
    survived,
    masked: n('masked'),
    noOperator: n('no operator'),
    notCheckable: n('not checkable'),
    restating: n('restates'),
    score: caught + survived ? Math.round((caught / (caught + survived)) * 10000) / 10000 : null,
  };
}
