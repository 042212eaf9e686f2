// `synconf run`: run the scenarios against a live agent (a lab by default) and write the reports.
import type { CommandModule, Argv } from 'yargs';
import { UsageError } from './exit.js';
import type { MakeTarget } from './execute-run.js';
import { DEFAULT_REPORT_DIR } from '../paths.js';

export interface CommonRunArgs {
  suite?: string[];
  only?: string[];
  'report-dir': string;
  'agent-version'?: string;
  expectations?: string;
  'no-expectations'?: boolean;
  'fail-on': string[];
  timeout: number;
}

const VERDICTS = ['fail', 'unexpected-pass', 'expected-fail', 'skip'];

/** options every running command shares (run, replay, drift) */
export function commonRunOptions<T>(y: Argv<T>) {
  return y
    .option('suite', { type: 'string', array: true, describe: 'scenario files, folders or globs (default: every suites/**/*.yaml)' })
    .option('only', { type: 'string', array: true, describe: 'run only these scenario ids (globs allowed, e.g. "pending-*")' })
    .option('report-dir', { type: 'string', default: DEFAULT_REPORT_DIR, describe: 'where report.json, junit.xml, report.html and summary.md are written' })
    .option('agent-version', { type: 'string', describe: 'use this agent version for version gates and schema overlays instead of the one the agent reports' })
    .option('expectations', { type: 'string', describe: 'known-deviations file to apply (default: the expectations/*.yaml whose version range holds the agent version)' })
    .option('no-expectations', { type: 'boolean', describe: 'apply no known deviations: every deviation fails' })
    .option('fail-on', { type: 'string', array: true, choices: VERDICTS, default: ['fail', 'unexpected-pass'], describe: 'verdicts that make the exit code 1' })
    .option('timeout', { type: 'number', default: 10, describe: 'seconds a single request may take (GET /rest/svc/report takes over 1 s on 1.19.2)' });
}

/** how to reach a live agent: --agent/--api-key, or the lab */
export interface TargetArgs { agent?: string; 'api-key'?: string; lab?: boolean; 'allow-destructive': boolean; }

export function targetOptions<T>(y: Argv<T>) {
  return y
    .option('agent', { type: 'string', describe: 'URL of an agent already running on this machine, e.g. http://127.0.0.1:8384 (needs --api-key)' })
    .option('api-key', { type: 'string', describe: 'the API key of --agent (or set SYNCONF_API_KEY)' })
    .option('lab', { type: 'boolean', describe: 'start the agent (and a peer) with the lab; the default without --agent' })
    .option('allow-destructive', { type: 'boolean', default: false, describe: 'let scenarios shut down an agent synconf did not start' })
    .conflicts('agent', 'lab');
}

/** the MakeTarget of a live run, from the target options */
export function liveTargetMaker(args: TargetArgs): MakeTarget {
  return async (needsPeer, wrap) => {
    const { labTarget, agentTarget } = await import('../runner/targets.js');
    const allowDestructive = args['allow-destructive'];
    if (args.agent) {
      const key = args['api-key'] ?? process.env.SYNCONF_API_KEY;
      if (!key) throw new UsageError('--agent needs --api-key (or SYNCONF_API_KEY)');
      return agentTarget(args.agent, key, { needsPeer, allowDestructive, wrap });
    }
    if (!args.lab && !wrap) {
      // No agent named and none to start: show the bundled recordings rather than nothing, and say so.
      const { resolveBinary, LabError } = await import('../lab/lab.js');
      const missing = await resolveBinary().then(() => undefined, (e: Error) => (e instanceof LabError ? e.message : undefined));
      if (missing) {
        const { replayTarget } = await import('../runner/replay-target.js');
        const { DEFAULT_RECORDINGS } = await import('./replay.js');
        console.error(`synconf: no agent to run against (${missing})
synconf: REPLAYING the bundled recordings ${DEFAULT_RECORDINGS.replace(/.*\/recordings\//, 'recordings/')} instead; the report says mode "replay". Give --lab to insist on a live agent.`);
        return replayTarget(DEFAULT_RECORDINGS);
      }
    }
    return labTarget({ needsPeer, allowDestructive, wrap });
  };
}

interface RunArgs extends CommonRunArgs, TargetArgs {
  record?: string;
  'record-mode': string;
  redact?: string[];
}

export const runCommand: CommandModule<object, RunArgs> = {
  command: 'run',
  describe: 'Run the conformance scenarios against a live agent (by default a lab agent synconf starts) and write the reports',
  builder: (y) =>
    targetOptions(commonRunOptions(y))
      .option('record', { type: 'string', describe: 'record one HAR cassette per scenario into this folder' })
      .option('record-mode', { type: 'string', choices: ['all', 'once', 'new'], default: 'all', describe: 'all: re-record every scenario; once: only scenarios without a cassette; new: keep recorded exchanges, add missing ones' })
      .option('redact', { type: 'string', array: true, describe: 'extra redaction rules for recordings: header:<name>, json:<pointer> or re:<regexp>' })
      .example('$0 run', 'start a lab agent and run every scenario')
      .example('$0 run --agent http://127.0.0.1:8384 --api-key $KEY', 'run against an agent started by someone else')
      .example('$0 run --record recordings/syncthing-1.19.2', 'run against a lab agent and record cassettes'),
  handler: async (args) => {
    const { executeRun } = await import('./execute-run.js');
    const record = args.record ? { dir: args.record, mode: args['record-mode'] as 'all' | 'once' | 'new', redact: args.redact ?? [] } : undefined;
    process.exitCode = await executeRun(args, liveTargetMaker(args), record);
  },
};
