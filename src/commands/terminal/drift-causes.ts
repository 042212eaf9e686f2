// What drift prints of a comparison (`synconf drift`, `drift --against`): the causes the differences fold into, one
// line each, breaking first (with --differences also every difference per scenario), the counts and the --fail-on
// gate; or the causes as JSON (--json). Returns the exit code.
import { EXIT } from '../../errors.js';
import type { Comparison } from '../../changes/compare-recordings.js';
import { foldMembers } from '../../changes/causes.js';
import { accept, type Acceptance } from '../../changes/accept.js';
import { causeLine, causesJson, countLine, countsOf, failing, gateLine } from '../../report/causes-text.js';
import type { ChangeFailOn } from '../../verdict/change-levels.js';
import type { ChangeCause, DriftCauses } from '../../schema/generated/types.js';
import { printableLine } from '../../printable.js';
import { plural } from '../../plural.js';

/** how the causes are shown and gated */
export interface CauseOptions {
  /** also every difference, per scenario (the evidence folded into the causes) */
  differences?: boolean;
  /** the causes as a JSON document (schemas/drift-causes.schema.json) on stdout, nothing else */
  json?: boolean;
  failOn?: ChangeFailOn;
  /** RULE@METHOD /path [/pointer], accepted on the command line */
  ignore?: string[];
  ignoreFile?: string;
}

/** the differences of one scenario, as printed */
const scenarioDrift = (scenario: string, lines: string[]) =>
  lines.length
    ? `${printableLine(scenario)}:\n${lines.map((l) => `  ${printableLine(l)}`).join('\n')}`
    : `${printableLine(scenario)}: no difference`;

/** the causes of the answers drift --against cannot tell the version by (after a state change not asked again, on a
 * starting state not set up, of the recordings' state model): "cannot tell" */
export interface LaterCauses {
  /** what those answers are: the request not asked again, METHOD /path (#step); the starting state; the model's */
  after: string;
  /** why their causes cannot tell, as the line says it */
  why: string;
  comparison: Comparison;
}

/** what a cause is of, one key per endpoint and place: a cause of several endpoints is known by each of them */
const placesOf = (c: ChangeCause) =>
  c.endpoints.flatMap((e) => (c.at?.length ? c.at : [c.pointer ?? '']).map((p) => `${c.rule} ${e} ${p}`));

/** the causes found only after the parting request: each may follow from it, not from the version */
function uncertainOf(later: LaterCauses, known: ChangeCause[], accepted: Acceptance[]): DriftCauses['uncertain'] {
  const seen = new Set(known.flatMap(placesOf));
  const causes = foldMembers(accept(later.comparison.causes, accepted).causes).filter(
    (c) => !placesOf(c).some((k) => seen.has(k)),
  );
  return { after: later.after, causes, counts: countsOf(causes) };
}

function printUncertain(u: NonNullable<DriftCauses['uncertain']>, why: string): void {
  if (!u.causes.length) return;
  console.log(`cannot tell: ${countLine(u.counts)}; ${why}`);
  for (const c of u.causes) console.log(`  ${printableLine(causeLine(c))}`);
}

/** prints the causes of a drift (or its JSON), the counts and the gate; returns the exit code */
export function printCauses(
  { drift: found, causes: all }: Comparison,
  from: string,
  to: string,
  opts: CauseOptions,
  accepted: Acceptance[],
  later?: LaterCauses,
  unconfirmedOf?: (causes: ChangeCause[]) => number,
): number {
  const { causes: each, unused } = accept(all, accepted);
  const causes = foldMembers(each);
  const unconfirmed = unconfirmedOf?.(causes.filter((c) => !c.accepted));
  const failOn = opts.failOn ?? 'any';
  const tripped = failing(causes, failOn);
  const uncertain = later && uncertainOf(later, causes, accepted);
  // the gate is not tripped by what is known, but would be by what cannot be told: no answer (exit 2)
  const untold = !tripped.length && uncertain ? failing(uncertain.causes, failOn) : [];
  for (const p of found.problems) console.error(`synconf drift: ${printableLine(p)}`);
  // An entry that accepts nothing is stale (the change is gone, or it was mistyped): said, not an error.
  for (const u of unused)
    console.error(
      `synconf drift: ${u.by} accepts no cause${u.by.startsWith('--ignore') ? '' : ` (${u.rule}@${u.endpoint}${u.pointer ? ` ${u.pointer}` : ''})`}`,
    );
  const doc: DriftCauses = {
    from,
    to,
    ...(opts.failOn ? { failOn: opts.failOn } : {}),
    causes,
    counts: countsOf(causes),
    ...(unconfirmed === undefined ? {} : { unconfirmed }),
    ...(found.problems.length ? { problems: found.problems } : {}),
    ...(uncertain ? { uncertain } : {}),
  };
  if (opts.json) process.stdout.write(causesJson(doc));
  else {
    if (opts.differences) for (const s of found.scenarios) console.log(scenarioDrift(s.scenario, s.lines));
    for (const c of causes) console.log(printableLine(causeLine(c)));
    const changed = found.scenarios.filter((s) => s.lines.length).length;
    console.log(
      `${plural(found.differences, 'difference')} in ${plural(changed, 'scenario')}${found.problems.length ? `, ${plural(found.problems.length, 'unreadable cassette')}` : ''}`,
    );
    console.log(countLine(doc.counts));
    if (unconfirmed)
      console.log(
        `${plural(unconfirmed, 'cause')} of these ${unconfirmed === 1 ? 'is' : 'are'} at members the client received that no contract has confirmed it reads (synconf contract, then drift --contract FILE)`,
      );
    if (uncertain) printUncertain(uncertain, later!.why);
    if (opts.failOn) console.log(gateLine(failOn, tripped));
    if (untold.length)
      console.log(
        `cannot tell whether the gate trips: ${plural(untold.length, 'cause')} it would count came only from ${uncertain!.after} (exit 2)`,
      );
  }
  if (found.problems.length || untold.length) return EXIT.usage;
  return tripped.length ? EXIT.nonConforming : EXIT.ok;
}
