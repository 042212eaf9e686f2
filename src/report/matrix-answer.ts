// The release answer of a version matrix, the same wherever it is asked (matrix live or replayed, report merge): per
// pair of adjacent versions what the newer does to a client of the older (breaks, may affect, compatible, cannot
// tell), the gate's verdict over the pairs, and the terminal summary that ends with the exit code and why. Pure:
// a matrix in, lines and an exit code out; commands/ prints them and exits.
import type { Matrix, MatrixPair } from '../schema/generated/types.js';
import { EXIT } from '../errors.js';
import type { ChangeFailOn } from '../verdict/change-levels.js';
import { causeId, failing, gateLine, namedMembers } from './causes-text.js';
import { checksLine, listedNote, pairChecksLine, pairName, topCauses } from './matrix-causes-text.js';
import type { MatrixCause } from '../schema/generated/types.js';
import { boundaryGate, boundaryLines } from './matrix-boundaries.js';
import { isSignalExit } from '../verdict/verdicts.js';
import { runStatus } from '../verdict/verdicts.js';
import { plural } from '../plural.js';

/** the answer of a pair in words: "BREAKS clients of 1.19.2" */
export function answerWords(m: Matrix, p: MatrixPair): string {
  const older = m.columns[p.from].label;
  if (p.answer === 'breaks') return `BREAKS clients of ${older}`;
  if (p.answer === 'may-affect') return `may affect clients of ${older}`;
  if (p.answer === 'compatible') return `compatible with clients of ${older}`;
  return 'CANNOT TELL';
}

/** one line a pair: its answer, the causes by level (or why it cannot tell), the checks that changed */
export function pairAnswerLine(m: Matrix, p: MatrixPair): string {
  const c = p.counts;
  const causes =
    p.answer === 'cannot-tell'
      ? `: ${p.reason}`
      : ` (${c.breaking} breaking, ${c.risky} risky, ${c.compatible} compatible, ${c.accepted} accepted causes)`;
  return `${pairName(m, p)}: ${answerWords(m, p)}${causes}; checks changed: ${pairChecksLine(p)}`;
}

/** what the user asked the matrix to gate on: a change level (--fail-on breaking|risky|compatible|any), boundary */
export interface GateAsk {
  changes?: ChangeFailOn;
  boundary?: boolean;
}

/** the gate's verdict: its exit code (0 passes, 1 tripped, 2 cannot tell), one line why, and the lines naming causes */
export interface GateOutcome {
  code: number;
  why: string;
  lines: string[];
}

/** the change gate over every pair: tripped by a cause at or above the level; a pair it cannot tell makes it exit 2 */
function changeGate(m: Matrix, failOn: ChangeFailOn): GateOutcome {
  const pairs = m.pairs ?? [];
  const unknown = pairs.filter((p) => p.answer === 'cannot-tell');
  const tripped = pairs.map((p) => ({
    p,
    causes: failing(
      p.causes.map((c) => c.cause),
      failOn,
    ),
  }));
  const lines = tripped.filter((t) => t.causes.length).map((t) => `${pairName(m, t.p)}: ${gateLine(failOn, t.causes)}`);
  const count = tripped.reduce((n, t) => n + t.causes.length, 0);
  if (unknown.length)
    return {
      code: EXIT.usage,
      why: `--fail-on ${failOn} cannot be answered for ${unknown.map((p) => pairName(m, p)).join(', ')}: ${unknown.map((p) => p.reason).join('; ')}`,
      lines,
    };
  if (count)
    return {
      code: EXIT.nonConforming,
      why: `--fail-on ${failOn} tripped by ${plural(count, 'cause')} (${tripped
        .filter((t) => t.causes.length)
        .map((t) => `${pairName(m, t.p)}: ${t.causes.length}`)
        .join(', ')})`,
      lines,
    };
  return {
    code: EXIT.ok,
    why: `--fail-on ${failOn}: no cause ${failOn === 'any' ? '' : `at or above ${failOn} `}in any pair`,
    lines,
  };
}

/** the gates asked for, combined: the worst code, each one's why */
export function matrixGates(m: Matrix, ask: GateAsk): GateOutcome | undefined {
  const outcomes: GateOutcome[] = [];
  if (ask.changes) outcomes.push(changeGate(m, ask.changes));
  if (ask.boundary) {
    const b = boundaryGate(m);
    outcomes.push({ code: b.tripped ? EXIT.nonConforming : EXIT.ok, why: b.lines[0], lines: b.lines.slice(1) });
  }
  if (!outcomes.length) return undefined;
  return {
    code: Math.max(...outcomes.map((o) => o.code)),
    why: outcomes.map((o) => o.why).join('; '),
    lines: outcomes.flatMap((o) => o.lines),
  };
}

/** breaking causes shown per pair on the terminal (matrix.md and matrix.html list them all) */
const TOP_BREAKING = 4;

/** a cause in one short line: its level, RULE@ENDPOINT where, what changed, the checks it explains, listed or not */
function topCauseLine(m: Matrix, p: MatrixPair, c: MatrixCause): string {
  const { members, moreMembers } = c.cause;
  const change = members ? `${c.cause.change}: ${namedMembers(members, moreMembers)}` : c.cause.change;
  const listed = listedNote(m, p, c);
  return `  ${c.cause.level} ${causeId(c.cause)}: ${change}; ${checksLine(c)}${listed ? `; ${listed}` : ''}`;
}

/** pairs that read alike but for their versions' names fold into the first line when there are this many */
const FOLD_PAIRS_AT = 3;

/** a pair's lines with its two columns' labels taken out (longest first: one label may hold the other) */
function pairKind(m: Matrix, p: MatrixPair, lines: string[]): string {
  const labels = [m.columns[p.from].label, m.columns[p.to].label].sort((a, b) => b.length - a.length);
  return labels.reduce((text, label) => text.split(label).join('\u0000'), lines.join('\n'));
}

/**
 * the answer per pair, its top breaking causes one line each. Pairs alike (60 copies of one run: 59 pairs that
 * cannot tell for the same reason) are one line: the first pair's, then how many more and the first few of them.
 */
export function pairAnswerLines(m: Matrix): string[] {
  const blocks = (m.pairs ?? []).map((p) => {
    const top = topCauses(p, TOP_BREAKING).filter((c) => c.cause.level === 'breaking');
    const more = p.counts.breaking - top.length;
    const lines = [
      pairAnswerLine(m, p),
      ...top.map((c) => topCauseLine(m, p, c)),
      ...(more > 0 ? [`  …and ${plural(more, 'more breaking cause')} (matrix.md)`] : []),
    ];
    return { p, lines, kind: pairKind(m, p, lines) };
  });
  const byKind = new Map<string, typeof blocks>();
  for (const b of blocks) byKind.set(b.kind, [...(byKind.get(b.kind) ?? []), b]);
  return blocks.flatMap((b) => {
    const alike = byKind.get(b.kind)!;
    if (alike.length < FOLD_PAIRS_AT) return b.lines;
    if (alike[0] !== b) return [];
    const others = alike.slice(1).map((x) => pairName(m, x.p));
    const named =
      others.length > 3 ? `${others.slice(0, 3).join(', ')} and ${others.length - 3} more` : others.join(', ');
    const [first, ...rest] = b.lines;
    return [`${first} (and alike for ${plural(others.length, 'more pair')}: ${named}; matrix.md lists each)`, ...rest];
  });
}

/** the conformance of the versions: the worst exit code of their runs, in words */
const conformance = (code: number) =>
  `${code === EXIT.ok ? 'every version conforms' : code === EXIT.nonConforming ? 'a version does not conform' : isSignalExit(code) ? 'interrupted' : 'a version had a harness error'} (worst exit ${code})`;

/** the last line: the exit code the process returns and why, conformance and the gate named apart */
export function exitLine(command: string, conformanceCode: number, gate: GateOutcome | undefined): string {
  const code = Math.max(conformanceCode, gate?.code ?? EXIT.ok);
  return `${command}: exit ${code}: ${conformance(conformanceCode)}; ${gate ? `gate: ${gate.why}` : 'no gate asked (--fail-on breaking to gate on the changes)'}`;
}

/** the summary after the progress: answers per pair, the gate's causes, boundaries, versions, where, the exit line */
export function matrixSummary(
  m: Matrix,
  opts: { command: string; conformance: number; gate?: GateOutcome; where: string[] },
): string[] {
  const [boundaries] = boundaryLines(m);
  return [
    '',
    `version matrix: ${m.changed} of ${m.rows.length} checks changed across ${plural(m.columns.length, 'version')}`,
    ...pairAnswerLines(m),
    ...(boundaries ? [boundaries] : []),
    ...(opts.gate?.lines ?? []),
    ...m.order.map((i) => {
      const c = m.columns[i];
      const t = c.totals;
      return `  ${c.label}: ${runStatus(c.exitCode)} (exit ${c.exitCode}): ${t.pass} pass, ${t.fail} fail, ${t['expected-fail']} expected fail, ${t['unexpected-pass']} unexpected pass, ${t.skip} skip`;
    }),
    ...opts.where,
    exitLine(opts.command, opts.conformance, opts.gate),
  ];
}
