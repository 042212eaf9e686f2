// `synconf mutate --proxy-session`: how sensitive the proxy's checks are on one client's traffic. Each statement of
// the spec's index is broken in the session's recorded answers by the same targets the suite's spec mutants use
// (spec-targets.ts), and the whole session is judged again by the proxy's checks: the statement is caught when a
// check fails that did not on the session as recorded. The judge is handed in (commands/ gives the proxy's own):
// mutate/ and proxy/ are features that do not import each other.
import type { CheckResult, HarEntry, MutantResult, StatementScore } from '../schema/generated/types.js';
import { loadStatements, type Statement } from '../schema/statements.js';
import { nextTurn } from '../turns.js';
import {
  describeTarget,
  replacementsIn,
  statementMutant,
  statementTargets,
  statementTotals,
  type Entry,
} from './spec-mutants.js';
import type { Outcome } from './engine.js';
import { endpointOf } from './mutants.js';

/** every check the proxy makes of a whole session (none folded), known deviations applied */
export type SessionJudge = (entries: HarEntry[]) => CheckResult[];

export interface ProxySessionInput {
  /** the session's exchanges, as its HAR keeps them */
  entries: HarEntry[];
  /** the HAR file, as the report names it */
  file: string;
  agentVersion: string | null;
  judge: SessionJudge;
  /** the entries whose answer the judge does not judge (the proxy cut it, answered itself, or saw it dropped) */
  unjudged?: (e: HarEntry) => boolean;
  signal?: AbortSignal;
}

export interface ProxyScore {
  statements: StatementScore;
  results: MutantResult[];
  /** the proxy's violations on the session as recorded: they stay (a mutant is caught by a new one) */
  violations: string[];
}

const FAILING = new Set<CheckResult['verdict']>(['fail', 'unexpected-pass']);

/** what a check reports: a check that already failed on the session reports a mutant by saying something else */
const said = (c: CheckResult | undefined) =>
  c && JSON.stringify([c.verdict, c.message, c.schemaErrors?.map((e) => `${e.pointer} ${e.rule}`)]);

/**
 * Caught by a check that fails anew, or that failed already (the proxy reported the session as recorded) and now
 * reports something else; masked when one that already fails as a known deviation of the agent fails otherwise.
 */
function outcomeOf(before: Map<string, CheckResult>, after: CheckResult[]): Outcome {
  const killedBy = after
    .filter((c) => FAILING.has(c.verdict) && said(before.get(c.id)) !== said(c))
    .map((c) => ({ check: c.id, message: c.message }));
  if (killedBy.length) return { outcome: 'killed', killedBy };
  const seen = after.find((c) => c.verdict === 'expected-fail' && before.get(c.id)?.message !== c.message);
  if (seen)
    return {
      outcome: 'equivalent',
      equivalentBecause: `masked: ${seen.id} sees the change but already fails on this agent, a known deviation (${seen.deviation?.file ?? 'expectations'})`,
    };
  return { outcome: 'survived' };
}

/** one statement broken in the whole session and judged again */
function scoreStatement(
  s: Statement,
  input: ProxySessionInput,
  before: Map<string, CheckResult>,
): { entry: Entry; result?: MutantResult } {
  const found = statementTargets(s, input.agentVersion);
  if ('entry' in found) return found;
  const base = { id: s.id, kind: s.kind, line: s.line };
  const replace = replacementsIn(input.entries, found.targets);
  // an answer the judge does not judge cannot catch a mutant: broken there, the statement would read as survived
  for (const i of replace.keys()) if (input.unjudged?.(input.entries[i])) replace.delete(i);
  if (!replace.size) {
    const reason = `the session holds no answer it changes: ${found.targets.map(describeTarget).join('; ')}`;
    return { entry: { ...base, outcome: 'no operator', reason } };
  }
  const outcome = outcomeOf(before, input.judge(input.entries.map((e, i) => replace.get(i) ?? e)));
  const changed = [...replace.keys()].sort((a, b) => a - b).map((i) => input.entries[i]);
  const place = {
    scenario: '_run',
    file: input.file,
    entry: changed[0],
    scenarios: [...new Set(changed.map(endpointOf))],
  };
  const result = statementMutant(s, found.targets, place, outcome);
  const state = outcome.outcome === 'killed' ? 'caught' : outcome.outcome === 'equivalent' ? 'masked' : 'survived';
  const reason = outcome.equivalentBecause ? { reason: outcome.equivalentBecause } : {};
  return { entry: { ...base, outcome: state, mutants: [result.id], ...reason }, result };
}

/** every statement of the index broken in the session in turn, one turn of the event loop apart (Ctrl-C stops) */
export async function scoreProxySession(input: ProxySessionInput): Promise<ProxyScore> {
  const baseline = input.judge(input.entries);
  const before = new Map(baseline.map((c) => [c.id, c]));
  const entries: Entry[] = [];
  const results: MutantResult[] = [];
  for (const s of await loadStatements()) {
    await nextTurn();
    if (input.signal?.aborted) break;
    const { entry, result } = scoreStatement(s, input, before);
    entries.push(entry);
    if (result) results.push(result);
  }
  const violations = baseline.filter((c) => FAILING.has(c.verdict)).map((c) => `${c.id}: ${c.message}`);
  return { statements: { totals: statementTotals(entries), entries }, results, violations };
}
