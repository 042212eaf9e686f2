// The releases that straddle a version the spec names ("added in 1.18.0"): the newest release before it and the first
// at or after it that synconf can have (served by the Go module proxy and buildable, or installed). Where the exact
// neighbours cannot be had, the nearest that can bracket it, and the ones passed over say why; where no release on a
// side can be had (the table starts at 1.1.4: nothing before 0.12.0), that side says why. Pure: a table in.
import semver from 'semver';
import { unobtainable, type ReleaseTable } from './releases.js';
import type { ReleaseStraddle } from '../schema/generated/types.js';

/** walks one side, nearest first: the first release that can be had, and those passed over */
function nearest(side: string[], canHave: (v: string) => string | undefined) {
  const passed: ReleaseStraddle['passed'] = [];
  for (const version of side) {
    const why = canHave(version);
    if (!why) return { found: version, passed };
    passed.push({ version, why });
  }
  return { found: undefined, passed };
}

/**
 * The straddling releases of `version` in the table. `installed` releases can always be had (a build put in the cache
 * by hand, or one the table says is not served any more).
 */
export function straddle(version: string, table: ReleaseTable, installed: string[] = []): ReleaseStraddle {
  const all = table.releases.map((r) => r.version);
  const why = (v: string) =>
    installed.includes(v)
      ? undefined
      : unobtainable(
          table.releases.find((r) => r.version === v)!,
          table,
        );
  const earlier = all.filter((v) => semver.lt(v, version)).reverse();
  const later = all.filter((v) => semver.gte(v, version));
  const before = nearest(earlier, why);
  const at = nearest(later, why);
  const passed = [...before.passed, ...at.passed];
  const bracketed = passed.length > 0 || later[0] !== version;
  const nones = [
    !earlier.length && `no release before ${version} in the release table (its oldest is ${all[0]})`,
    earlier.length && !before.found && `no release before ${version} synconf can have: ${passedWords(before.passed)}`,
    !later.length && `no release from ${version} on in the release table (its newest is ${all.at(-1)})`,
    later.length && !at.found && `no release from ${version} on synconf can have: ${passedWords(at.passed)}`,
  ].filter((n): n is string => typeof n === 'string' && n.length > 0);
  return {
    ...(before.found ? { before: before.found } : {}),
    ...(at.found ? { at: at.found } : {}),
    passed,
    bracketed,
    ...(nones.length ? { none: nones.join('; ') } : {}),
  };
}

/** releases passed over in words, those with the same reason together: "1.16.0 and 1.16.1 not served (…)" */
export function passedWords(passed: ReleaseStraddle['passed']): string {
  const byWhy = new Map<string, string[]>();
  for (const p of passed) byWhy.set(p.why, [...(byWhy.get(p.why) ?? []), p.version]);
  const names = (vs: string[]) => (vs.length > 1 ? `${vs.slice(0, -1).join(', ')} and ${vs.at(-1)}` : vs[0]);
  return [...byWhy].map(([why, vs]) => `${names(vs)} ${why}`).join('; ');
}
