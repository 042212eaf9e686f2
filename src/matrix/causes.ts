// The changes between each pair of adjacent versions of a matrix, grouped by cause and classified by what a client
// of the older version feels: the same causes and change rules as `synconf drift` (src/changes/), from the two
// versions' recordings, each cause with the changed checks it explains folded inside. A changed check is explained
// by a cause that shows in its step's exchanges (the most urgent one); a changed check no recorded difference
// explains (or a pair without recordings) is a cause of its own, classified by what its verdict says.
import type {
  ChangeCause,
  ChangeClass,
  Matrix,
  MatrixCause,
  MatrixCauseCheck,
  MatrixPair,
} from '../schema/generated/types.js';
import { compareRecordings, compareSteps } from '../changes/compare-recordings.js';
import { byUrgency, foldMembers } from '../changes/causes.js';
import { ruleOf } from '../changes/rules.js';
import { checkFinding, explainsChecks, fitsOf } from '../changes/finders.js';
import { accept, type Acceptance } from '../changes/accept.js';
import type { RunExchanges } from '../changes/exchanges.js';
import { CHANGE_CLASSES } from '../verdict/change-class.js';
import { countsOf } from '../report/causes-text.js';

/** "<target> <step>: ..." of a difference line: the step, which a check id names too */
const stepOfEvidence = (difference: string) => /^\S+ ([^:]+):/.exec(difference)?.[1];

/** "<scenario>/<step>/<check>" */
const scenarioStep = (checkId: string) => checkId.split('/').slice(0, 2).join('/');

/** the member names a cause is about: the members it added, the last names of its pointers */
const namesOf = (c: ChangeCause) =>
  new Set([
    ...(c.members ?? []),
    ...[c.pointer, ...(c.at ?? [])].map((p) =>
      p
        .split('/')
        .filter((n) => n !== '*')
        .at(-1),
    ),
  ]);

/** the cause of a check among those of its step: one about a member its schema errors name, else one whose rule fits
 * its class (the `fits` of the change-rule table, changes/finders.ts), else the most urgent */
function fitting(candidates: MatrixCause[], cls: ChangeClass, errorNames: string[]): MatrixCause {
  const named = candidates.find((c) => errorNames.some((n) => namesOf(c.cause).has(n)));
  return named ?? candidates.find((c) => fitsOf(c.cause.rule) === cls) ?? candidates[0];
}

/** the names a check id mentions after its step ("assert:/defaults/folder/id equals", "capture:defaults") */
const checkNamesOf = (checkId: string) =>
  checkId
    .split('/')
    .slice(2)
    .join('/')
    .split(/[/:\s]+/)
    .filter((n) => n.length > 1);

/** the names in the pointers of schema errors ("<pointer> <rule>"), array items left out */
const errorNamesOf = (errors: string[]) =>
  errors.flatMap((e) => e.split(' ')[0].split('/')).filter((n) => n && n !== '*' && !/^\d+$/.test(n));

/**
 * A cause made of one changed check no recorded difference of its step explains: listed under its own rule
 * (check-changed-unexplained), its verdicts the evidence; its endpoint unknown to the report
 */
function checkCause(check: MatrixCauseCheck, scenario: string): ChangeCause {
  const found = checkFinding(check);
  const rule = ruleOf(found.rule);
  return {
    rule: rule.id,
    level: rule.level,
    summary: rule.summary,
    endpoints: [found.endpoint],
    pointer: found.pointer,
    change: found.change,
    occurrences: 1,
    scenarios: [scenario],
    evidence: [{ scenario, difference: `${check.id}: ${check.note}` }],
  };
}

/** the changed checks between columns `from` and `to`, with their scenario */
function changedChecks(m: Matrix, from: number, to: number): { check: MatrixCauseCheck; scenario: string }[] {
  return m.rows.flatMap((r) =>
    r.changes
      .filter((c) => c.from === from && c.to === to)
      .map((c) => ({ check: { id: r.id, class: c.class, note: c.note }, scenario: r.scenario })),
  );
}

/** what the newer version of a pair does to a client of the older one, from its causes not accepted */
function answerOf(causes: MatrixCause[]): MatrixPair['answer'] {
  const open = causes.filter((c) => !c.cause.accepted).map((c) => c.cause.level);
  return open.includes('breaking') ? 'breaks' : open.includes('risky') ? 'may-affect' : 'compatible';
}

/** a pair whose exchanges are missing on a side: no cause is made up from the changed checks alone */
function cannotTell(m: Matrix, [from, to]: [number, number], reason: string): MatrixPair {
  const checks = changedChecks(m, from, to);
  return {
    from,
    to,
    answer: 'cannot-tell',
    reason,
    causes: [],
    counts: countsOf([]),
    checks: Object.fromEntries(
      CHANGE_CLASSES.map((k) => [k, checks.filter((c) => c.check.class === k).length]),
    ) as MatrixPair['checks'],
  };
}

/** the causes between two columns: recorded causes with the checks they explain, then the checks nothing explains */
function pairOf(m: Matrix, [from, to]: [number, number], recorded: ChangeCause[], opts: PairOptions): MatrixPair {
  const accepted = opts.accepted ?? [];
  const causes: MatrixCause[] = foldMembers(accept(recorded, accepted).causes).map((cause) => ({ cause, checks: [] }));
  // where each cause shows: "<scenario>/<step>", most urgent cause first (causes are sorted so)
  const byStep = new Map<string, MatrixCause[]>();
  for (const c of causes.filter((x) => explainsChecks(x.cause.rule)))
    for (const e of c.cause.evidence) {
      const key = `${e.scenario}/${stepOfEvidence(e.difference)}`;
      const here = byStep.get(key) ?? byStep.set(key, []).get(key)!;
      if (!here.includes(c)) here.push(c);
    }
  const unexplained: MatrixCause[] = [];
  const checks = changedChecks(m, from, to);
  for (const { check, scenario } of checks) {
    const candidates = byStep.get(scenarioStep(check.id));
    const errors = [...(opts.errorsOf?.(check.id, from) ?? []), ...(opts.errorsOf?.(check.id, to) ?? [])];
    const named = [...errorNamesOf(errors), ...checkNamesOf(check.id)];
    const home = candidates && fitting(candidates, check.class, named);
    if (home) home.checks.push(check);
    else {
      const [cause] = accept([checkCause(check, scenario)], accepted).causes;
      unexplained.push({ cause, checks: [check] });
    }
  }
  const all = [...causes, ...unexplained].sort((x, y) => byUrgency(x.cause, y.cause));
  return {
    from,
    to,
    answer: answerOf(all),
    causes: all,
    counts: countsOf(all.map((c) => c.cause)),
    checks: Object.fromEntries(
      CHANGE_CLASSES.map((k) => [k, checks.filter((c) => c.check.class === k).length]),
    ) as MatrixPair['checks'],
  };
}

export interface PairOptions {
  /** reviewed causes (--ignore, --ignore-file): listed as accepted */
  accepted?: Acceptance[];
  /** the schema errors of a check in a column, "<pointer> <rule>": they name the member a cause must be about */
  errorsOf?: (checkId: string, column: number) => string[];
  /** the recorded causes of a pair: `compare` finds them; a caller that keeps them (history) may answer instead */
  recordedCauses?: (from: number, to: number, compare: () => ChangeCause[]) => ChangeCause[];
}

/** why a pair cannot be classified: the columns without exchanges, each with its reason */
function missingOf(m: Matrix, columns: number[], exchanges: RunExchanges[]): string | undefined {
  const missing = columns.flatMap((i) => {
    const x = exchanges[i];
    return 'missing' in x ? [`no exchanges to compare for ${m.columns[i].label} (${x.missing})`] : [];
  });
  return missing.length ? missing.join('; ') : undefined;
}

/**
 * The pairs of adjacent versions (in `m.order`, columns without a version left out) with their causes, from the
 * exchanges of each column (`exchanges[i]`); a pair with a column whose exchanges are missing cannot be told. It
 * yields as it compares, where a paced caller may take a turn (a merge of many versions compares for seconds).
 */
export function* pairSteps(
  m: Matrix,
  exchanges: RunExchanges[],
  opts: PairOptions = {},
): Generator<void, MatrixPair[]> {
  const versioned = m.order.filter((i) => m.columns[i].version !== null);
  // the scenarios the matrix ran (--only, --suite), and the agent's identification every run makes
  const ran = new Set([...m.rows.map((r) => r.scenario), '_run']);
  const pairs: MatrixPair[] = [];
  for (let k = 1; k < versioned.length; k++) {
    const [from, to] = [versioned[k - 1], versioned[k]];
    const [a, b] = [exchanges[from], exchanges[to]];
    const missing = missingOf(m, [from, to], exchanges);
    if (missing || !('dir' in a) || !('dir' in b)) pairs.push(cannotTell(m, [from, to], missing ?? ''));
    else {
      const only = (id: string) => ran.has(id);
      // a caller that keeps the causes (history) compares in one piece; else a pair compares piece by piece
      const recorded = opts.recordedCauses
        ? opts.recordedCauses(from, to, () => compareRecordings(a.dir, b.dir, only).causes)
        : (yield* compareSteps(a.dir, b.dir, only)).causes;
      pairs.push(pairOf(m, [from, to], recorded, opts));
      yield;
    }
  }
  return pairs;
}
