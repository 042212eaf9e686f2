// `synconf run`: run the scenarios against a live agent (a lab by default) and write the reports.
import { Option, type Command } from 'commander';
import { UsageError } from './exit.js';
import type { MakeTarget } from './execute-run.js';
import { DEFAULT_REPORT_DIR } from '../paths.js';
import { oneSyncthing, wholeNumber } from './lab.js';

/** options every running command shares (run, replay, drift) */
export interface CommonRunOptions {
  suite?: string[];
  only?: string[];
  reportDir: string;
  agentVersion?: string;
  /** a file, false for --no-expectations, undefined to pick by agent version */
  expectations?: string | false;
  failOn: string[];
  timeout: number;
}

const VERDICTS = ['fail', 'unexpected-pass', 'expected-fail', 'skip'];

export function commonRunOptions(c: Command): Command {
  return c
    .option('--suite <paths...>', 'scenario files, folders or globs (default: every suites/**/*.yaml)')
    .option('--only <ids...>', 'run only these scenario ids (globs allowed, e.g. "pending-*")')
    .option('--report-dir <dir>', 'where report.json, junit.xml, report.html and summary.md are written', DEFAULT_REPORT_DIR)
    .option('--agent-version <version>', 'use this agent version for version gates and schema overlays instead of the one the agent reports')
    .option('--expectations <file>', 'known-deviations file to apply (default: the expectations/*.yaml whose version range holds the agent version)')
    .option('--no-expectations', 'apply no known deviations: every deviation fails')
    .addOption(new Option('--fail-on <verdicts...>', 'verdicts that make the exit code 1').choices(VERDICTS).default(['fail', 'unexpected-pass']))
    .option('--timeout <seconds>', 'seconds a single request may take (GET /rest/svc/report takes over 1 s on 1.19.2)', wholeNumber(1), 10);
}

/** how to reach a live agent: --agent/--api-key, or the lab */
export interface TargetOptions { agent?: string; apiKey?: string; lab?: boolean; allowDestructive?: boolean; syncthing?: string; }

export function targetOptions(c: Command): Command {
  return c
    .addOption(new Option('--agent <url>', 'URL of an agent already running on this machine, e.g. http://127.0.0.1:8384 (needs --api-key)').conflicts('lab'))
    .addOption(new Option('--api-key <key>', 'the API key of --agent').env('SYNCONF_API_KEY'))
    .option('--lab', 'start the agent (and a peer) with the lab; the default without --agent')
    .option('--syncthing <version|path>', 'the Syncthing the lab starts: a VERSION installed by `synconf agents install` (e.g. 1.12.1) or a PATH to a binary (default $SYNCONF_SYNCTHING, else `syncthing` on PATH, else the newest installed agent); implies --lab unless --agent is given', oneSyncthing)
    .option('--allow-destructive', 'let scenarios shut down an agent synconf did not start');
}

/** the MakeTarget of a live run, from the target options */
export function liveTargetMaker(opts: TargetOptions): MakeTarget {
  return async (needsPeer, wrap) => {
    const { labTarget, agentTarget } = await import('../runner/targets.js');
    const allowDestructive = opts.allowDestructive ?? false;
    const syncthing = opts.syncthing;
    if (opts.agent) {
      if (!opts.apiKey) throw new UsageError('--agent needs --api-key (or SYNCONF_API_KEY)');
      return agentTarget(opts.agent, opts.apiKey, { needsPeer, allowDestructive, wrap, binary: syncthing });
    }
    if (!opts.lab && !wrap && !syncthing) {
      // No agent named and none to start: show the bundled recordings rather than nothing, and say so.
      const { resolveBinary, LabError } = await import('../lab/lab.js');
      const missing = await resolveBinary().then(() => undefined, (e: Error) => (e instanceof LabError ? e.message : undefined));
      if (missing) {
        const { replayTarget } = await import('../runner/replay-target.js');
        const { DEFAULT_RECORDINGS } = await import('./replay.js');
        console.error(`synconf: no agent to run against (${missing})\nsynconf: REPLAYING the bundled recordings ${DEFAULT_RECORDINGS.replace(/.*\/recordings\//, 'recordings/')} instead; the report says mode "replay". Give --lab to insist on a live agent.`);
        return replayTarget(DEFAULT_RECORDINGS);
      }
    }
    return labTarget({ needsPeer, allowDestructive, wrap, binary: syncthing });
  };
}

interface RunOptions extends CommonRunOptions, TargetOptions { record?: string; recordMode: 'all' | 'once' | 'new'; redact?: string[]; }

export function registerRun(program: Command): void {
  const run = program
    .command('run')
    .description('Run the conformance scenarios against a live agent (by default a lab agent synconf starts) and write the reports');
  targetOptions(commonRunOptions(run))
    .option('--record <dir>', 'record one HAR cassette per scenario into this folder')
    .addOption(new Option('--record-mode <mode>', 'all: re-record every scenario; once: only scenarios without a cassette; new: keep recorded exchanges, add missing ones').choices(['all', 'once', 'new']).default('all'))
    .option('--redact <rules...>', 'extra redaction rules for recordings: header:<name>, json:<pointer> or re:<regexp>')
    .addHelpText('after', `
Examples:
  synconf run                                               start a lab agent and run every scenario
  synconf run --syncthing 1.12.1                            a lab of Syncthing 1.12.1 (synconf agents install 1.12.1)
  synconf run --syncthing ./syncthing                       a lab of the binary you built
  synconf run --agent http://127.0.0.1:8384 --api-key $KEY  an agent started by someone else
  synconf run --record recordings/syncthing-1.19.2          run against a lab agent and record cassettes`)
    .action(async (opts: RunOptions) => {
      const { executeRun } = await import('./execute-run.js');
      const record = opts.record ? { dir: opts.record, mode: opts.recordMode, redact: opts.redact ?? [] } : undefined;
      process.exitCode = await executeRun(opts, liveTargetMaker(opts), record);
    });
}
