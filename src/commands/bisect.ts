// `synconf bisect --check ID | --scenario ID | --cause "RULE METHOD /path [/pointer]" --from OLD --to NEW`: the release
// that changed a check's verdict, a scenario's verdict, or brought a cause of drift (bisect/subject.ts). Each release
// probed is installed on demand (agents install: Debian or a build from the Go module proxy) unless --installed-only,
// and runs only the scenarios the thing needs in a lab, with no known deviations applied (they follow lines, the
// change may not); its report goes to --report-dir/<version>/. The search is bisect/search.ts.
import { join, resolve } from 'node:path';
import semver from 'semver';
import { agentPath, installedAgents } from '../agents/index.js';
import { installAgents } from '../agents/install.js';
import { findRelease, releaseTable, unobtainable } from '../agents/releases.js';
import { bisect as searchReleases, type BisectOutcome, type Probe } from '../bisect/search.js';
import { causeIn, subjectOf, verdictIn, type Subject } from '../bisect/subject.js';
import { EXCHANGES_DIR } from '../changes/exchanges.js';
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
  from: string;
  to: string;
  installedOnly?: boolean;
  reportDir: string;
  timeout: number;
  json?: boolean;
}

const say = (line: string) => console.error(`synconf bisect: ${line}`);

/** what one release shows of the subject (installed first when it is not), or why it tells nothing */
async function probeRelease(version: string, subject: Subject, o: BisectOptions, oldEnd: { dir?: string }) {
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
    processSignals,
  );
  const exchanges = join(result.dirs[0], EXCHANGES_DIR);
  // the old end is probed first: its exchanges are what every other release's are compared with
  oldEnd.dir ??= exchanges;
  const probe: Probe =
    subject.kind === 'cause'
      ? causeIn(subject, result.reports[0], oldEnd.dir, exchanges)
      : verdictIn(subject, result.reports[0]);
  if ('behaviour' in probe) say(`${version}: ${probe.behaviour}`);
  return probe;
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
  for (const [option, v] of [
    ['--from', o.from],
    ['--to', o.to],
  ] as const)
    if (semver.valid(v.replace(/^v/, '')) === null)
      throw new UsageError(`${option} ${v}: not a release version (like 1.29.5)`);
  const subject = subjectOf(o, (await selectScenarios(undefined, undefined)).scenarios);
  makeOutputDir(o.reportDir, '--report-dir');
  const oldEnd: { dir?: string } = {};
  const outcome = await searchReleases({
    from: o.from.replace(/^v/, ''),
    to: o.to.replace(/^v/, ''),
    releases: releaseTable().releases.map((r) => r.version),
    knownHole: (v) => knownHole(v, o),
    probe: (v) => probeRelease(v, subject, o, oldEnd),
  });
  if (o.json) console.log(JSON.stringify({ [subject.kind]: subject.id, ...outcome }, null, 2));
  else for (const line of answerLines(outcome, subject.id)) console.log(printable(line));
  process.exitCode = outcome.answer.kind === 'found' ? EXIT.ok : EXIT.usage;
}
