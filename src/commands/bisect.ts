// `synconf bisect --check ID | --scenario ID | --cause "RULE METHOD /path [/pointer]" [--from OLD --to NEW]`: the release
// that changed a check's verdict, a scenario's verdict, or brought a cause of drift (bisect/subject.ts); without ends,
// between the neighbouring installed releases of the default set (the matrix's columns) that differ in it. Each release
// probed is installed on demand (agents install: Debian or a build from the Go module proxy) unless --installed-only,
// and runs only the scenarios the thing needs in a lab, with no known deviations applied (they follow lines, the
// change may not); its report goes to --report-dir/<version>/. The search is bisect/search.ts.
import { join, resolve } from 'node:path';
import semver from 'semver';
import { agentPath, DEFAULT_VERSIONS, installedAgents } from '../agents/index.js';
import { installAgents } from '../agents/install.js';
import { findRelease, releaseTable, unobtainable } from '../agents/releases.js';
import { bisect as searchReleases, endsAmong, type BisectOutcome, type Probe } from '../bisect/search.js';
import { causeIn, subjectOf, verdictIn, type Subject } from '../bisect/subject.js';
import { EXCHANGES_DIR } from '../changes/exchanges.js';
import type { Report } from '../schema/generated/types.js';
import { selectScenarios } from '../scenario/select.js';
import { EXIT, UsageError } from '../errors.js';
import { makeOutputDir } from '../output-dir.js';
import { printable } from '../printable.js';
import { servedVersion } from '../session/served-version.js';
import { runMatrix } from '../session/matrix-run.js';
import { processSignals } from './terminal/interrupt.js';

export interface BisectOptions {
  /** <scenario>/<step>/<check>, as a report or the matrix names it */
  check?: string;
  /** a scenario id: its verdict */
  scenario?: string;
  /** a cause as drift prints it: RULE METHOD /path [/pointer] */
  cause?: string;
  /** the ends; neither: where the installed releases of the default set differ */
  from?: string;
  to?: string;
  installedOnly?: boolean;
  reportDir: string;
  timeout: number;
  json?: boolean;
}

const say = (line: string) => console.error(`synconf bisect: ${line}`);

/** a release's run of the subject's scenarios: its report and exchanges, or why there is none */
type Ran = { report: Report | undefined; exchanges: string } | { hole: string };

/** the subject's scenarios run on one release (installed first when it is not) */
async function runRelease(version: string, subject: Subject, o: BisectOptions): Promise<Ran> {
  if (!installedAgents().some((a) => a.version === version)) {
    if (o.installedOnly) return { hole: 'not installed (--installed-only)' };
    say(`${version}: installing`);
    const { failed } = await installAgents([version], { log: (l) => say(l), servedVersion });
    if (failed.length > 0) return { hole: `not installed: ${failed[0].error.message}` };
  }
  say(`${version}: running ${subject.scenarios.join(', ')}`);
  const result = await runMatrix(
    {
      agents: [{ name: version, version, binary: agentPath(version) }],
      jobs: 1,
      only: subject.scenarios,
      reportDir: resolve(o.reportDir),
      expectations: false,
      failOn: ['fail'],
      requestTimeoutMs: o.timeout * 1000,
    },
    { listener: { say: (line) => console.error(line) }, signals: processSignals },
  );
  return { report: result.reports[0], exchanges: join(result.dirs[0], EXCHANGES_DIR) };
}

/** each release run once, whatever asks for it (the ends from the installed releases, then the search) */
function releaseRuns(subject: Subject, o: BisectOptions) {
  const runs = new Map<string, Promise<Ran>>();
  const run = (v: string) => runs.get(v) ?? runs.set(v, runRelease(v, subject, o)).get(v)!;
  /** what `version` shows of the subject; a cause, compared with `older`'s exchanges */
  return async (version: string, older: string): Promise<Probe> => {
    const [ran, old] = [await run(version), await run(older)];
    if ('hole' in ran) return ran;
    if (subject.kind !== 'cause') return verdictIn(subject, ran.report);
    if ('hole' in old) return { hole: `${older}, compared with, cannot be told: ${old.hole}` };
    return causeIn(subject, ran.report, old.exchanges, ran.exchanges);
  };
}

/** no --from/--to: the neighbouring installed releases of the default set (what the matrix runs) where it changed */
async function defaultEnds(shows: (v: string, older: string) => Promise<Probe>): Promise<[string, string] | string> {
  const versions = installedAgents()
    .map((a) => a.version)
    .filter((v) => DEFAULT_VERSIONS.includes(v))
    .sort(semver.compare);
  say(`no --from/--to: the ends are where the installed releases of the default set differ (${versions.join(', ')})`);
  const told = async (v: string) => {
    const p = await shows(v, v);
    say(`${v}: ${'behaviour' in p ? p.behaviour : `cannot tell (${p.hole})`}`);
    return 'behaviour' in p;
  };
  const changed = async (older: string, newer: string) => {
    const [a, b] = [await shows(older, older), await shows(newer, older)];
    if (!('behaviour' in a) || !('behaviour' in b)) return false;
    return b.behaviour !== a.behaviour;
  };
  return endsAmong(versions, told, changed);
}

/** a release the table says cannot be had, unless it is installed all the same */
function knownHole(version: string, o: BisectOptions): string | undefined {
  if (installedAgents().some((a) => a.version === version)) return undefined;
  const release = findRelease(version);
  const why = release ? unobtainable(release) : undefined;
  return why ?? (o.installedOnly ? 'not installed (--installed-only)' : undefined);
}

/** the answer in one line, and the tags to hand to `git bisect` */
export function answerLines(outcome: BisectOutcome, check: string): string[] {
  const a = outcome.answer;
  if (a.kind === 'cannot-bisect') return [`cannot bisect ${check}: ${a.why}`];
  if (a.kind === 'found')
    return [
      `${check}: first in ${a.first} (last before: ${a.lastBefore})`,
      `upstream: git bisect start v${a.first} v${a.lastBefore}`,
    ];
  return [
    `${check}: cannot tell which release: between ${a.after} and ${a.before}; ${a.holes.map((h) => `${h.version} ${h.why}`).join('; ')}`,
    `upstream: git bisect start v${a.before} v${a.after}`,
  ];
}

export async function bisect(o: BisectOptions): Promise<void> {
  if ((o.from === undefined) !== (o.to === undefined))
    throw new UsageError('--from and --to: give both ends, or neither (the installed releases where it changed)');
  for (const [option, v] of [
    ['--from', o.from],
    ['--to', o.to],
  ] as const)
    if (v !== undefined && semver.valid(v.replace(/^v/, '')) === null)
      throw new UsageError(`${option} ${v}: not a release version (like 1.29.5)`);
  const subject = subjectOf(o, (await selectScenarios(undefined, undefined)).scenarios);
  makeOutputDir(o.reportDir, '--report-dir');
  const shows = releaseRuns(subject, o);
  const ends = o.from && o.to ? [o.from.replace(/^v/, ''), o.to.replace(/^v/, '')] : await defaultEnds(shows);
  const outcome: BisectOutcome =
    typeof ends === 'string'
      ? { answer: { kind: 'cannot-bisect', why: ends }, probes: [] }
      : await searchReleases({
          from: ends[0],
          to: ends[1],
          releases: releaseTable().releases.map((r) => r.version),
          knownHole: (v) => knownHole(v, o),
          probe: async (v) => {
            const p = await shows(v, ends[0]); // a cause: the drift from the old end's exchanges
            if ('behaviour' in p) say(`${v}: ${p.behaviour}`);
            return p;
          },
        });
  if (o.json) console.log(JSON.stringify({ [subject.kind]: subject.id, ...outcome }, null, 2));
  else for (const line of answerLines(outcome, subject.id)) console.log(printable(line));
  process.exitCode = outcome.answer.kind === 'found' ? EXIT.ok : EXIT.usage;
}
