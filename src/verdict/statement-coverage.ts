// Statement coverage of a run: for each statement of the spec's index (spec/statements.yaml), what the checks that
// cite it found. A check proves a statement when it passes (an unexpected pass too: the statement held), shows a
// known deviation when it fails as listed in expectations/, and fails it otherwise; a skipped check proves nothing.
// A statement that restates others (`sameAs`) takes the state of those. Pure: statements and results in.
import type {
  CheckResult,
  ScenarioResult,
  Statement,
  StatementCounts,
  StatementCoverage,
  StatementState,
  Verdict,
} from '../schema/generated/types.js';

type Entry = StatementCoverage['statements'][number];

/** how many passing checks an entry lists beside every failing or deviating one (the rest are counted) */
const PASSING_SHOWN = 3;

const STATE_OF: Record<Verdict, StatementState | null> = {
  pass: 'passed',
  'unexpected-pass': 'passed',
  'expected-fail': 'deviating',
  fail: 'failing',
  skip: null,
};

/** the order in which a state needs attention: a restating statement takes the first of its statements' states */
const ATTENTION: StatementState[] = ['failing', 'deviating', 'not checked', 'passed', 'not checkable'];
const first = (states: StatementState[]) => ATTENTION.find((s) => states.includes(s)) ?? 'not checked';

interface Citations {
  ran: { id: string; state: StatementState }[];
  skipped: string[];
}

/** what a check that cites statement `id` found of it: a failing check proves those of its statements it does not break */
export function citationState(check: CheckResult, id: string): StatementState | null {
  const broken = !check.breaks || check.breaks.includes(id);
  return broken ? STATE_OF[check.verdict] : check.verdict === 'skip' ? null : 'passed';
}

function citationsOf(results: ScenarioResult[]): Map<string, Citations> {
  const out = new Map<string, Citations>();
  for (const scenario of results)
    for (const check of scenario.checks)
      for (const id of check.statements ?? []) {
        const c = out.get(id) ?? { ran: [], skipped: [] };
        out.set(id, c);
        const state = citationState(check, id);
        if (state) c.ran.push({ id: check.id, state });
        else if (check.skipReason) c.skipped.push(check.skipReason);
      }
  return out;
}

function ownEntry(s: Statement, c: Citations | undefined): Entry {
  const base = { id: s.id, kind: s.kind };
  if (c?.ran.length) {
    const state = first(c.ran.map((r) => r.state));
    const shown = [
      ...c.ran.filter((r) => r.state !== 'passed'),
      ...c.ran.filter((r) => r.state === 'passed').slice(0, PASSING_SHOWN),
    ];
    return { ...base, state, checks: shown.map((r) => r.id), checkCount: c.ran.length };
  }
  if (s.notCheckable) return { ...base, state: 'not checkable', reason: s.notCheckable };
  const skipped = c?.skipped[0];
  return { ...base, state: 'not checked', ...(skipped ? { reason: `skipped: ${skipped}` } : {}) };
}

export function emptyCounts(): StatementCounts {
  return { checked: 0, passed: 0, deviating: 0, failing: 0, 'not checked': 0, 'not checkable': 0 };
}

function count(into: StatementCounts, state: StatementState): void {
  into[state]++;
  if (state === 'passed' || state === 'deviating' || state === 'failing') into.checked++;
}

/** the coverage of `statements` by the checks of `results` */
export function statementCoverage(statements: Statement[], results: ScenarioResult[]): StatementCoverage {
  const citations = citationsOf(results);
  const own = new Map(statements.map((s) => [s.id, ownEntry(s, citations.get(s.id))]));
  const entries = statements.map((s): Entry => {
    const mine = own.get(s.id)!;
    if (!s.sameAs || mine.checkCount) return mine;
    const restated = s.sameAs.map((id) => own.get(id)!);
    const state = first(restated.map((e) => e.state));
    return { id: s.id, kind: s.kind, state, reason: `restates ${s.sameAs.join(', ')}` };
  });
  const counts = emptyCounts();
  const byKind: Record<string, StatementCounts> = {};
  for (const e of entries) {
    count(counts, e.state);
    count((byKind[e.kind] ??= emptyCounts()), e.state);
  }
  return { index: statements.length, counts, byKind, statements: entries };
}
