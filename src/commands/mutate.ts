// `synconf mutate [DIR]`: the mutation run of src/mutate/ (recordings, or a fault injector in front of a lab agent
// with --live), a line per scenario as it ends, the reports written, the score printed; the exit code the gate's.
import type { MutantResult } from '../schema/generated/types.js';
import { DEFAULT_RECORDINGS } from '../paths.js';
import { mutate } from '../mutate/mutate.js';
import { mutationText } from '../mutate/render.js';
import { writeMutationReports } from './write-reports.js';

/** the options of `synconf mutate`, as the command line gives them */
export interface MutateCommandOptions {
  dir?: string;
  suite?: string[];
  only?: string[];
  expectations?: string | boolean;
  minScore?: number;
  reportDir: string;
  live?: boolean;
  operators: MutantResult['operator'][];
  syncthing?: string;
}

export async function mutateCommand(opts: MutateCommandOptions): Promise<void> {
  const report = await mutate({
    dir: opts.dir ?? DEFAULT_RECORDINGS,
    suites: opts.suite,
    only: opts.only,
    expectations:
      opts.expectations === false ? false : typeof opts.expectations === 'string' ? opts.expectations : undefined,
    minScore: opts.minScore,
    ...(opts.live ? { live: { operators: opts.operators, binary: opts.syncthing } } : {}),
    onScenario: (id, results) => {
      const n = (o: string) => results.filter((r) => r.outcome === o).length;
      process.stderr.write(
        `${id}: ${results.length} mutants, ${n('killed')} killed, ${n('survived')} survived, ${n('equivalent')} equivalent\n`,
      );
    },
  });
  const paths = await writeMutationReports(report, opts.reportDir);
  console.log(mutationText(report));
  console.log(`reports: ${paths.join(', ')}`);
  process.exitCode = report.exitCode;
}
