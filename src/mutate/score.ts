// The mutation score: killed / (killed + survived). Equivalent mutants (changes the spec allows)
// cannot be killed and do not count; a suite that kills every other mutant scores 1.
import type { MutantResult, Tally } from '../schema/generated/types.js';

export function tally(results: MutantResult[]): Tally {
  const t = { mutants: results.length, killed: 0, survived: 0, equivalent: 0 };
  for (const r of results) t[r.outcome]++;
  const counted = t.killed + t.survived;
  return { ...t, score: counted ? Math.round((t.killed / counted) * 10000) / 10000 : null };
}

/** tallies grouped by a key, in the order the keys first appear */
export function tallyBy<K extends string>(results: MutantResult[], key: (r: MutantResult) => K): [K, Tally][] {
  const groups = new Map<K, MutantResult[]>();
  for (const r of results) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return [...groups].map(([k, rs]) => [k, tally(rs)]);
}

export const percent = (score: number | null) => (score === null ? 'n/a' : `${(score * 100).toFixed(1)}%`);
