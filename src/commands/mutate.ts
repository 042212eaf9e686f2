// `synconf mutate [DIR]`: the mutation run of src/mutate/ (recordings, or a fault injector in front of a lab agent
// with --live), a line per scenario as it ends, the reports written, the score printed; the exit code the gate's.
import type { MutantResult, MutationReport } from '../schema/generated/types.js';
import { DEFAULT_RECORDINGS } from '../paths.js';
import { interruptedAfterEnd, mutate, type DerivedFrom } from '../mutate/mutate.js';
import { mutationText } from '../mutate/render.js';
import { writeMutationReports, settled, reportsLine, WriteAbandoned } from '../session/write-reports.js';
import { DEFAULT_OPERATORS } from '../mutate/operators.js';
import { makeOutputDir, usableTempDir } from '../output-dir.js';
import { reapLeftovers } from '../session/targets.js';
import { checkSyncthing } from '../session/versions.js';
import { onInterrupt } from './terminal/interrupt.js';
import { exitCodeOfSignal, UsageError } from '../errors.js';
import { mutateProxySession } from '../session/proxy-mutants.js';
import { printableLine } from '../printable.js';

/** the options of `synconf mutate`, as the command line gives them */
export interface MutateCommandOptions {
  dir?: string;
  suite?: string[];
  only?: string[];
  expectations?: string | boolean;
  minScore?: number;
  reportDir: string;
  live?: boolean;
  operators?: MutantResult['operator'][];
  syncthing?: string;
  from?: DerivedFrom;
  proxySession?: string;
}

/** --proxy-session judges a client's session, not the suite's scenarios: what only makes sense for those is refused */
function checkSessionOptions(opts: MutateCommandOptions): void {
  const given = Object.entries({
    '[dir]': opts.dir,
    '--suite': opts.suite,
    '--only': opts.only,
    '--live': opts.live,
    '--operators': opts.operators,
    '--syncthing': opts.syncthing,
    '--from checks': opts.from === 'checks' || undefined,
    '--from both': opts.from === 'both' || undefined,
  }).find(([, v]) => v !== undefined && v !== false);
  if (given)
    throw new UsageError(
      `${given[0]} with --proxy-session: the session's statements are judged by the proxy's checks (spec mutants only), not by the suite's scenarios`,
    );
}

export async function mutateCommand(opts: MutateCommandOptions): Promise<void> {
  if (opts.proxySession !== undefined) checkSessionOptions(opts);
  if (opts.live && opts.from && opts.from !== 'checks')
    throw new UsageError(
      `--from ${opts.from} with --live: the fault injector runs check-derived operators only (--from checks, the --operators)`,
    );
  if (opts.live) {
    usableTempDir(); // lab homes go there
    reapLeftovers(console.error);
  }
  if (opts.live) await checkSyncthing(opts.syncthing);
  makeOutputDir(opts.reportDir, '--report-dir'); // a bad folder is one line now, not after the whole run
  // Ctrl-C: the mutants under way end, the report holds the scenarios done (exit 130); a second one ends at once
  const interrupt = onInterrupt({
    line: { command: 'synconf mutate', doing: 'stopping; the report of the scenarios done so far is written' },
  });
  // listening until the reports are written: a second Ctrl-C then still ends with 130, not killed by the signal
  // (the lab's own handler is gone once it has stopped the lab)
  try {
    const expectations =
      opts.expectations === false ? false : typeof opts.expectations === 'string' ? opts.expectations : undefined;
    const report = opts.proxySession
      ? await mutateProxySession({
          session: opts.proxySession,
          expectations,
          minScore: opts.minScore,
          signal: interrupt.abort,
          say: (line) => console.error(line),
        })
      : await suiteMutation(opts, expectations, interrupt.abort);
    // a signal that came once the mutants had run wins too: the report says INTERRUPTED, the process 128 + n; a
    // signal that lands while the verdict's report is written leaves the folder as it was
    const signal = await interrupt.heard();
    const ended = !signal || /INTERRUPTED/.test(report.verdict);
    const final = ended ? report : interruptedAfterEnd(report, exitCodeOfSignal(signal));
    const written = await settled(
      writeMutationReports(final, opts.reportDir, signal ? undefined : interrupt.abort),
    ).catch((e: unknown) => {
      if (e instanceof WriteAbandoned) return console.error(`synconf mutate: ${printableLine(e.message)}`);
      throw e;
    });
    if (written) {
      console.log(mutationText(final));
      console.log(reportsLine(written.paths));
      if (written.unwritable) throw written.unwritable;
      if (!signal) interrupt.afterReport((s) => markInterrupted(report, s, opts.reportDir), MARKED);
    }
    process.exitCode = interrupt.exitCode(report.exitCode);
  } finally {
    interrupt.off();
  }
}

const MARKED = 'the report written is marked interrupted';

/** the report of a mutation run that ended, in place, rewritten once a signal came after it (whole or not at all) */
async function markInterrupted(report: MutationReport, signal: NodeJS.Signals, dir: string): Promise<void> {
  try {
    await writeMutationReports(interruptedAfterEnd(report, exitCodeOfSignal(signal)), dir);
  } catch (e) {
    console.error(`synconf mutate: ${dir} could not be marked interrupted: ${(e as Error).message}`);
  }
}

/** the suite's mutants over recordings (or --live), a line per scenario as it ends */
function suiteMutation(opts: MutateCommandOptions, expectations: string | false | undefined, signal: AbortSignal) {
  return mutate({
    dir: opts.dir ?? DEFAULT_RECORDINGS,
    suites: opts.suite,
    only: opts.only,
    expectations,
    minScore: opts.minScore,
    from: opts.from,
    ...(opts.live ? { live: { operators: opts.operators ?? DEFAULT_OPERATORS, binary: opts.syncthing } } : {}),
    onScenario: (id, results) => {
      const n = (o: string) => results.filter((r) => r.outcome === o).length;
      process.stderr.write(
        `${printableLine(id)}: ${results.length} mutants, ${n('killed')} killed, ${n('survived')} survived, ${n('equivalent')} equivalent\n`,
      );
    },
    onLive: (mutants, scenarios) =>
      console.error(
        `synconf mutate: live: ${mutants} mutants of ${scenarios} scenarios, one run each against the lab agent (Ctrl-C stops)`,
      ),
    signal,
  });
}
