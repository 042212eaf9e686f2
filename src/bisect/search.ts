// `synconf bisect`: the release that made a change, between two releases whose behaviour differs, as `git bisect run`
// finds a commit: the ends are checked first, then the releases between are probed, middle first; a release that
// cannot be had (not served by the Go module proxy, not buildable, an install or a run that failed) is a hole,
// skipped as `git bisect run` skips exit 125. The answer is one release when the last release showing the old
// behaviour and the first showing the new are neighbours in the release table, else the range and its holes.
// Pure: the caller gives how a release is probed (installed on demand and run).
import semver from 'semver';
import type { BisectAnswerResult, BisectProbeResult } from '../schema/generated/types.js';

/** what a release showed: a behaviour (a check's verdict), or why it could not tell */
export type Probe = { behaviour: string } | { hole: string };

export type BisectProbe = BisectProbeResult;
export type BisectAnswer = BisectAnswerResult;

export interface BisectOutcome {
  answer: BisectAnswer;
  /** every release probed, in the order asked */
  probes: BisectProbe[];
}

export interface BisectSearch {
  /** the release showing the old behaviour, and the one showing the new */
  from: string;
  to: string;
  /** every release known, oldest first (the release table) */
  releases: string[];
  /** a release known to be a hole without asking (not served, not buildable), and why */
  knownHole: (version: string) => string | undefined;
  probe: (version: string) => Promise<Probe>;
}

const said = (p: Probe) => ('behaviour' in p ? p.behaviour : `cannot tell (${p.hole})`);

/** the ends: both can be told, and differ; else why the search cannot start */
async function checkEnds(s: BisectSearch, probes: BisectProbe[]): Promise<string | [string, string]> {
  if (!semver.lt(s.from, s.to)) return `${s.from} is not older than ${s.to}`;
  const ends: Probe[] = [];
  for (const v of [s.from, s.to]) {
    const p = await s.probe(v);
    probes.push({ version: v, ...p });
    ends.push(p);
  }
  const [old, neu] = ends;
  if (!('behaviour' in old) || !('behaviour' in neu))
    return `an end cannot be told: ${s.from} ${said(old)}, ${s.to} ${said(neu)}`;
  if (old.behaviour === neu.behaviour)
    return `${s.from} and ${s.to} both show ${old.behaviour}: no change between them`;
  return [old.behaviour, neu.behaviour];
}

/** the releases strictly between a and b */
const between = (releases: string[], a: string, b: string) =>
  releases.filter((v) => semver.gt(v, a) && semver.lt(v, b));

export async function bisect(s: BisectSearch): Promise<BisectOutcome> {
  const probes: BisectProbe[] = [];
  const ends = await checkEnds(s, probes);
  if (typeof ends === 'string') return { answer: { kind: 'cannot-bisect', why: ends }, probes };
  const [oldBehaviour, newBehaviour] = ends;
  const holes = new Map<string, string>();
  let [lo, hi] = [s.from, s.to];
  for (;;) {
    const open = between(s.releases, lo, hi).filter((v) => !holes.has(v));
    const known = open.filter((v) => s.knownHole(v));
    for (const v of known) holes.set(v, s.knownHole(v)!);
    const left = open.filter((v) => !holes.has(v));
    if (left.length === 0) break;
    const pick = left[Math.floor((left.length - 1) / 2)];
    const p = await s.probe(pick);
    probes.push({ version: pick, ...p });
    if (!('behaviour' in p)) holes.set(pick, p.hole);
    else if (p.behaviour === oldBehaviour) lo = pick;
    else if (p.behaviour === newBehaviour) hi = pick;
    else {
      const why = `${pick} shows ${p.behaviour}, neither ${oldBehaviour} (as ${lo}) nor ${newBehaviour} (as ${hi})`;
      return { answer: { kind: 'cannot-bisect', why }, probes };
    }
  }
  const gap = between(s.releases, lo, hi).map((v) => ({ version: v, why: holes.get(v)! }));
  const answer: BisectAnswer =
    gap.length === 0
      ? { kind: 'found', first: hi, lastBefore: lo }
      : { kind: 'range', after: lo, before: hi, holes: gap };
  return { answer, probes };
}

/**
 * The ends when none are given: the two neighbouring releases of `versions` (oldest first, those a matrix runs)
 * between which the thing changed, releases that cannot be told skipped; or why there are none to take (no change,
 * or more than one: the user names the ends then).
 */
export async function endsAmong(
  versions: string[],
  told: (version: string) => Promise<boolean>,
  changed: (older: string, newer: string) => Promise<boolean>,
): Promise<[string, string] | string> {
  const seen: string[] = [];
  for (const v of versions) if (await told(v)) seen.push(v);
  const changes: [string, string][] = [];
  for (let i = 1; i < seen.length; i++) if (await changed(seen[i - 1], seen[i])) changes.push([seen[i - 1], seen[i]]);
  const pairs = changes.map(([a, b]) => `${a} → ${b}`).join(', ');
  if (changes.length === 1) return changes[0];
  if (changes.length > 1) return `it changed more than once among ${seen.join(', ')} (${pairs}): name --from and --to`;
  return `no change among ${seen.length ? seen.join(', ') : 'no release that could be told'}${seen.length < versions.length ? ` (of ${versions.join(', ')})` : ''}: name --from and --to`;
}
