// The words of a release history (synconf history), the same in the terminal, history.md and history.html: each
// change as "in RELEASE (after OLDER): ANSWER", the holes between two columns in one phrase, and the terminal's
// answer-first summary that ends with the exit code. Pure: a history in, lines out.
import type { History, HistoryChange } from '../schema/generated/types.js';
import { plural } from '../plural.js';

/** what the newer release does to a client of the older, in words (as the matrix says it) */
export function changeAnswer(c: HistoryChange): string {
  if (c.answer === 'breaks') return `BREAKS clients of ${c.from}`;
  if (c.answer === 'may-affect') return `may affect clients of ${c.from}`;
  if (c.answer === 'compatible') return `compatible with clients of ${c.from}`;
  return `CANNOT TELL${c.reason ? ` (${c.reason})` : ''}`;
}

/** "in 1.30.0 (after 1.29.5)" */
export const changeWhere = (c: HistoryChange) => `in ${c.to} (after ${c.from})`;

/** the causes by level and the checks that changed: "2 breaking, 1 risky, 0 compatible causes; 12 checks changed" */
export function changeCounts(c: HistoryChange): string {
  const k = c.counts;
  return `${k.breaking} breaking, ${k.risky} risky, ${k.compatible} compatible causes${k.accepted ? ` (${k.accepted} accepted)` : ''}; ${plural(c.checks, 'check')} changed`;
}

/** one line a change: where, its answer, its counts */
export const changeLine = (c: HistoryChange) => `${changeWhere(c)}: ${changeAnswer(c)}: ${changeCounts(c)}`;

/** the holes between two neighbouring columns in one phrase: "1.13.0 – 1.19.1 (23 releases not run)" */
export function holesPhrase(holes: { version: string }[]): string {
  if (holes.length === 0) return '';
  const range = holes.length === 1 ? holes[0].version : `${holes[0].version} – ${holes.at(-1)!.version}`;
  return `${range} (${plural(holes.length, 'release')} not run)`;
}

/** the holes of each gap between columns, oldest first: what the grid shows between two columns */
export function gapsOf(h: History): { version: string; why?: string }[][] {
  const gaps: { version: string; why?: string }[][] = h.columns.map(() => []);
  let column = -1;
  for (const r of h.releases) {
    if (r.state !== 'hole') column = r.column!;
    else if (column >= 0) gaps[column + 1]?.push(r);
  }
  return gaps;
}

/** the headline: how many releases ran, from which to which, how many holes, how many changes */
export function historyHeadline(h: History): string {
  const cached = h.columns.filter((c) => c.cached).length;
  const holes = h.releases.filter((r) => r.state === 'hole').length;
  const ran = `${plural(h.columns.length, 'release')} (${h.columns.length - cached} run, ${cached} cached)`;
  const span = h.columns.length ? `${h.columns[0].version} → ${h.columns.at(-1)!.version}` : 'none';
  return `${span}: ${ran}, ${plural(holes, 'release')} between not run; ${plural(h.changes.length, 'change')}`;
}

/** the causes shown per change in the terminal */
const TERMINAL_CAUSES = 2;

/** the terminal's answer: the headline, each change with its top causes and its bisect hint, then the rest */
export function historySummary(h: History, tail: string[]): string[] {
  return [
    '',
    `release history ${historyHeadline(h)}`,
    ...h.changes.flatMap((c) => [
      changeLine(c),
      ...c.causes
        .slice(0, TERMINAL_CAUSES)
        .map((x) => `  ${x.line}${x.listed ? ` (listed known deviation of ${c.to})` : ''}`),
      ...(c.causes.length + c.moreCauses > TERMINAL_CAUSES
        ? [`  …and ${plural(c.causes.length + c.moreCauses - TERMINAL_CAUSES, 'more cause')} (history.md)`]
        : []),
      `  where: ${c.bisect.text}`,
      ...(c.bisect.command ? [`  ${c.bisect.command}`] : []),
    ]),
    ...(h.changes.length ? [] : ['no change between neighbouring releases']),
    ...tail,
  ];
}
