// `synconf matrix`: the suite against several agent versions (live, each in its own lab, or from recordings),
// one report per version and the merged version matrix. The work is src/matrix/; this file is the wiring.
import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { wholeNumber } from './lab.js';

interface MatrixOptions {
  syncthing?: string[];
  replay?: boolean;
  recordings?: string[];
  jobs?: number;
  suite?: string[];
  only?: string[];
  reportDir: string;
  expectations?: string | false;
  failOn: string[];
  timeout: number;
}

const VERDICTS = ['fail', 'unexpected-pass', 'expected-fail', 'skip'];

export function registerMatrix(program: Command): void {
  program
    .command('matrix')
    .description('Run the scenarios against several agent versions, each in its own lab (or replay their recordings), and write one report per version plus the version matrix that classifies every change between versions; exit code: the worst of the versions')
    .option('--syncthing <version-or-path...>', 'agent versions (installed) or syncthing binaries to run; default: every installed agent')
    .option('--replay', 'offline: replay the bundled recordings (recordings/syncthing-*/) instead of starting agents; --syncthing then picks versions')
    .option('--recordings <dirs...>', 'offline: replay these recordings folders (implies --replay)')
    .option('--jobs <n>', 'how many versions run at once (default: the number of cores + 1, at most the number of versions: the labs mostly wait)', wholeNumber(1))
    .option('--suite <paths...>', 'scenario files, folders or globs (default: every suites/**/*.yaml)')
    .option('--only <ids...>', 'run only these scenario ids (globs allowed, e.g. "pending-*")')
    .option('--report-dir <dir>', 'where <version>/ (the four report files of each version) and matrix.json, matrix.html, matrix.md go', 'reports/matrix')
    .option('--expectations <file>', 'one known-deviations file for every version (default: each version its own expectations/*.yaml)')
    .option('--no-expectations', 'apply no known deviations: every deviation fails')
    .addOption(new Option('--fail-on <verdicts...>', 'verdicts that make a version\'s exit code 1').choices(VERDICTS).default(['fail', 'unexpected-pass']))
    .option('--timeout <seconds>', 'seconds a single request may take', wholeNumber(1), 10)
    .addHelpText('after', `
Examples:
  synconf matrix                                          every installed agent, each in its own lab
  synconf matrix --syncthing 1.19.2 --syncthing /opt/st/syncthing --only 'system-*'
  synconf matrix --replay                                 offline, from the bundled recordings
  synconf matrix --recordings recordings/syncthing-1.19.2 my-recordings/syncthing-1.29.5

Exit code: the worst of the versions (0 only when every version conforms or deviates only as listed).`)
    .action(async (opts: MatrixOptions) => {
      const { chooseAgents } = await import('../matrix/agents.js');
      const { runMatrix, defaultJobs } = await import('../matrix/run.js');
      const { matrixProgress } = await import('./matrix-progress.js');
      const { agents, offline, notice } = await chooseAgents({ syncthing: opts.syncthing ?? [], replay: opts.replay ?? false, recordings: opts.recordings ?? [] });
      if (notice) console.error(notice.split('\n').map((l) => `synconf: ${l}`).join('\n'));
      const jobs = opts.jobs ?? defaultJobs(agents.length);
      const out = matrixProgress(agents, jobs, offline);
      const result = await runMatrix({
        agents, jobs, suites: opts.suite, only: opts.only, reportDir: resolve(opts.reportDir),
        expectations: opts.expectations, failOn: opts.failOn as never, requestTimeoutMs: opts.timeout * 1000,
        onVersionStart: out.start, onScenario: out.scenario, onVersionEnd: out.end,
      });
      out.done(result);
      process.exitCode = result.exitCode;
    });
}
