// Why a check's verdict moved between two agent versions. Each step from an older column to the next newer one
// where the check's verdict differs is classified:
//   version change — an endpoint, step or field behind the check is gated by `since`/`deprecated` at a version
//                    between the two (or one side ran it as a version gate: absent endpoint, step too new);
//   regression     — conforms on the older (pass, or an unexpected pass), deviates on the newer (fail);
//   listed regression — the same, but the newer version's deviation is listed as a known deviation (reviewed:
//                    counted apart from the regressions, and the note says so);
//   fixed          — the reverse;
//   known          — deviates on both and is listed as a known deviation on both; what deviates changed (the
//                    verdicts differ, or both are expected failures with different listed errors);
//   other          — anything else (skipped on one side for a missing capability, deviates on both but listed
//                    on one side only), with a note saying what.
// The row takes the most urgent class of its steps; regressions come first.
import type { CheckResult, ScenarioResult, Verdict, ChangeClass, MatrixChange } from '../schema/generated/types.js';
import { CHANGE_CLASSES, conforms, deviates } from '../verdict/change-class.js';
import { releaseOf } from '../schema/version.js';
import gt from 'semver/functions/gt.js';
import lte from 'semver/functions/lte.js';
import type { Gate, GateIndex } from './gates.js';
import { normalKey } from '../schema/normal-key.js';
import { unescapePointer } from '../json.js';

/** one cell of the matrix with what classification needs */
export interface Cell {
  verdict: Verdict;
  kind: CheckResult['kind'];
  listed: boolean;
  /** the schema errors the check found, "<pointer> <rule>" */
  errors: string[];
  scenarioMode: ScenarioResult['mode'];
  skipReason?: string;
}

export type Change = MatrixChange;

/** a pointer without the parts that change from run to run (addresses, device IDs, paths as keys) */
function stablePointer(pointer: string): string {
  return (
    pointer
      .split('/')
      .slice(1)
      .map((seg) => `/${/^\d+$/.test(seg) ? '*' : normalKey(unescapePointer(seg))}`)
      .join('') || '/'
  );
}

export function cellOf(c: CheckResult, s: ScenarioResult): Cell {
  return {
    verdict: c.verdict,
    kind: c.kind,
    listed: c.deviation !== undefined,
    errors: [...new Set((c.schemaErrors ?? []).map((e) => `${stablePointer(e.pointer)} ${e.rule}`))],
    scenarioMode: s.mode,
    ...(c.skipReason ? { skipReason: c.skipReason } : {}),
  };
}

/** the segment names of a JSON pointer (array indexes left out) */
const namesIn = (pointer: string) => pointer.split('/').filter((seg) => seg && !/^(\d+|\*)$/.test(seg));

/**
 * what a schema error says is wrong, without where: "<field> <rule>" ("flags required"). Where can change from run to
 * run (a file entry in the progress or in the queued list), what deviates does not.
 */
const deviationsOf = (c: Cell) =>
  [...new Set(c.errors.map((e) => `${namesIn(e.split(' ')[0]).at(-1) ?? '/'} ${e.split(' ')[1]}`))].sort();

/** a gate whose since or deprecated version lies after `older` and at or before `newer` */
function gateBetween(gates: readonly Gate[], older: string, newer: string, a: Cell, b: Cell): Gate | undefined {
  const errorNames = new Set([...a.errors, ...b.errors].flatMap((e) => namesIn(e.split(' ')[0])));
  const inRange = (v: string | undefined) => v !== undefined && gt(releaseOf(v), older) && lte(releaseOf(v), newer);
  return gates.find(
    (g) => (inRange(g.since) || inRange(g.deprecated)) && (g.field === undefined || errorNames.has(g.field)),
  );
}

const gateNote = (g: Gate) =>
  `${g.what}: ${[g.since && `since ${g.since}`, g.deprecated && `deprecated in ${g.deprecated}`].filter(Boolean).join(', ')}`;

const VERSION_SKIP = /predates|version/i;

function classifyStep(
  a: Cell,
  b: Cell,
  olderName: string,
  newerName: string,
  older: string | null,
  newer: string | null,
  gates: readonly Gate[],
): { class: ChangeClass; note: string } {
  const gate = older && newer ? gateBetween(gates, older, newer, a, b) : undefined;
  if (gate) return { class: 'version-change', note: gateNote(gate) };
  const gated = [a, b].find(
    (c) =>
      c.kind === 'version-gate' ||
      c.scenarioMode === 'absent' ||
      (c.verdict === 'skip' && VERSION_SKIP.test(c.skipReason ?? '')),
  );
  if (gated)
    return {
      class: 'version-change',
      note: `${gated === a ? olderName : newerName} ${gated.scenarioMode === 'absent' ? 'predates the endpoint (absent mode)' : `ran it as a version gate${gated.skipReason ? `: ${gated.skipReason}` : ''}`}`,
    };
  if (conforms(a.verdict) && deviates(b.verdict))
    return b.listed
      ? {
          class: 'listed-regression',
          note: `conforms on ${olderName}, deviates on ${newerName} as a known deviation of ${newerName} lists`,
        }
      : { class: 'regression', note: `conforms on ${olderName}, deviates on ${newerName}` };
  if (deviates(a.verdict) && conforms(b.verdict))
    return {
      class: 'fixed',
      note: `deviates on ${olderName}, conforms on ${newerName}${b.listed ? ` (still listed for ${newerName}: remove the entry)` : ''}`,
    };
  if (deviates(a.verdict) && deviates(b.verdict) && a.listed && b.listed) {
    const [da, db] = [deviationsOf(a), deviationsOf(b)];
    const gone = da.filter((e) => !db.includes(e));
    const added = db.filter((e) => !da.includes(e));
    const what = [added.length && `newly ${added.join(', ')}`, gone.length && `no longer ${gone.join(', ')}`]
      .filter(Boolean)
      .join('; ');
    return { class: 'known', note: `listed as a known deviation on both${what ? `; ${what}` : ''}` };
  }
  if (deviates(a.verdict) && deviates(b.verdict))
    return { class: 'other', note: `deviates on both; listed only for ${a.listed ? olderName : newerName}` };
  if (conforms(a.verdict) && conforms(b.verdict))
    return { class: 'other', note: `conforms on both; listed only for ${a.listed ? olderName : newerName}` };
  const skipped = a.verdict === 'skip' ? a : b;
  return {
    class: 'other',
    note: `skipped on ${skipped === a ? olderName : newerName}${skipped.skipReason ? `: ${skipped.skipReason}` : ''}`,
  };
}

/** both cells are expected failures, but the listed errors differ */
const knownShift = (a: Cell, b: Cell) =>
  a.verdict === 'expected-fail' &&
  b.verdict === 'expected-fail' &&
  deviationsOf(a).join('\n') !== deviationsOf(b).join('\n');

/**
 * The changes of one row. `order` lists column indexes from the oldest version to the newest; `names` and
 * `versions` are per column (versions as plain releases, null when unknown). A missing cell is no verdict: it is
 * skipped over, unless a version gate lies between it and its neighbour (the check exists only from, or until,
 * that version: a version change).
 */
export function classifyRow(
  checkId: string,
  cells: (Cell | null)[],
  order: number[],
  names: string[],
  versions: (string | null)[],
  gates: GateIndex,
): Change[] {
  const changes: Change[] = [];
  const present = order.filter((i) => cells[i] !== null);
  for (let k = 1; k < present.length; k++) {
    const [i, j] = [present[k - 1], present[k]];
    const a = cells[i]!;
    const b = cells[j]!;
    if (a.verdict === b.verdict && !knownShift(a, b)) continue;
    changes.push({
      from: i,
      to: j,
      ...classifyStep(a, b, names[i], names[j], versions[i], versions[j], gates(checkId)),
    });
  }
  for (let k = 1; k < order.length; k++) {
    const [i, j] = [order[k - 1], order[k]];
    const [a, b] = [cells[i], cells[j]];
    if ((a === null) === (b === null) || !versions[i] || !versions[j]) continue;
    const only = (a ?? b)!;
    const gate = gateBetween(gates(checkId), versions[i]!, versions[j]!, only, only);
    if (gate)
      changes.push({
        from: i,
        to: j,
        class: 'version-change',
        note: `${a ? `not run on ${names[j]}` : `not run on ${names[i]}`}; ${gateNote(gate)}`,
      });
  }
  return changes.sort((x, y) => order.indexOf(x.from) - order.indexOf(y.from));
}

/** the most urgent class among a row's changes (null when it has none) */
export function rowClass(changes: Change[]): ChangeClass | null {
  let best: number | null = null;
  for (const c of changes) best = Math.min(best ?? Infinity, CHANGE_CLASSES.indexOf(c.class));
  return best === null ? null : CHANGE_CLASSES[best];
}

/** a column order from the oldest agent version to the newest (unknown versions keep their place at the end) */
export function versionOrder(versions: (string | null)[]): number[] {
  const idx = versions.map((_, i) => i);
  return idx.sort((x, y) => {
    const [a, b] = [versions[x], versions[y]];
    if (a && b) return gt(a, b) ? 1 : gt(b, a) ? -1 : x - y;
    return a ? -1 : b ? 1 : x - y;
  });
}
