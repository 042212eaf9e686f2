// Options several commands share, and the coercions that turn a bad value into a usage error naming
// its option. Lists are a repeated flag or comma-separated values (`--only a --only b`, `--only a,b`),
// never variadic options: those would swallow a positional argument that follows them.
import type { Argv } from 'yargs';
import { UsageError } from '../errors.js';
import { DEFAULT_REPORT_DIR } from '../paths.js';
import { isVersion } from '../schema/version.js';
import { DEFAULT_FAIL_ON, failOnChoices } from '../verdict/verdicts.js';

/** `--x a --x b,c` → ['a', 'b', 'c'] */
export function list(value: unknown): string[] {
  return ([] as unknown[])
    .concat(value ?? [])
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/**
 * The number an option's value writes in decimal digits (with a fraction after a point where `fraction`), else
 * undefined: every number option is read here. Number() takes JavaScript's other spellings too, each a typo or a
 * surprise on a command line: `--port 0x50` served on port 80, and 1e3, " 5", "5.", "+5" and 0b1 were numbers.
 */
export function decimal(value: unknown, fraction = false): number | undefined {
  const text = typeof value === 'string' ? value : '';
  return (fraction ? /^\d+(\.\d+)?$/ : /^\d+$/).test(text) ? Number(text) : undefined;
}

/** a whole number from `min` to `max`, named by its option in the error */
export function wholeNumber(option: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: unknown): number => {
    const n = decimal(value);
    if (n === undefined || n < min)
      throw new UsageError(`--${option} "${value}" is not a whole number ≥ ${min} in decimal digits`);
    if (n > max) throw new UsageError(`--${option} "${value}" is too large: at most ${max}`);
    return n;
  };
}

/** a day: timers take at most 2^31 ms (~24.8 days), a longer one fires at once */
const DAY_S = 86_400;

/** the most shards a plan may have (docs/ci.md) */
export const MAX_SHARDS = 1000;

/** --shard i/n: whole numbers, 1 ≤ i ≤ n ≤ MAX_SHARDS; given twice is a mistake, not "the last one wins" */
export function shard(value: unknown): { index: number; count: number } | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw new UsageError(`--shard given twice (${value.join(', ')}): a run is one shard`);
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(String(value));
  const [index, count] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
  if (!m || index < 1 || count < 1 || index > count)
    throw new UsageError(`--shard "${value}" is not i/n with whole numbers 1 ≤ i ≤ n (e.g. --shard 2/3)`);
  // a plan holds every shard: a count beyond any suite's size is a typo, refused before the work starts
  if (count > MAX_SHARDS) throw new UsageError(`--shard "${value}": at most ${MAX_SHARDS} shards`);
  return { index, count };
}

/** --shard of the commands that run scenarios (run, replay, matrix) */
export const SHARD = {
  type: 'string',
  coerce: shard,
  describe:
    "run shard i of n (e.g. 2/3): the selected scenarios split into n by their recorded durations, the same split on every machine; merge the shards' report.json with `synconf report merge`. A shard that holds no scenario (i greater than the number selected) is refused, exit 2: nothing run is not a pass; the merge does not need it",
} as const;

/** an option that takes one value: given twice is a mistake, not "the last one wins" nor the two joined */
export function once(option: string) {
  return (value: unknown): string | undefined => {
    if (Array.isArray(value)) throw new UsageError(`--${option} given twice (${value.join(', ')}): give it once`);
    return value === undefined ? undefined : String(value);
  };
}

/** --syncthing of a single lab: given twice is a mistake (the matrix runs several versions), not "the last one wins" */
export function oneSyncthing(value: unknown): string | undefined {
  if (Array.isArray(value))
    throw new UsageError(
      `--syncthing given twice (${value.join(', ')}): one lab runs one Syncthing; \`synconf matrix --syncthing A --syncthing B\` runs several`,
    );
  return value === undefined ? undefined : String(value);
}

/** an agent version such as 1.19.2 (v1.19.2-ds1 is one too) */
export function version(option: string) {
  return (value: unknown): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !isVersion(value))
      throw new UsageError(`--${option} "${value}" is not a version (expected e.g. 1.19.2)`);
    return value;
  };
}

/** which scenarios: --suite and --only, as every command that runs scenarios takes them */
export function scenarioOptions<T>(y: Argv<T>, onlyVerb = 'run') {
  return y
    .option('suite', {
      type: 'string',
      coerce: list,
      describe: 'scenario files, folders or globs; repeat or comma-separate (default: every suites/**/*.yaml)',
    })
    .option('only', {
      type: 'string',
      coerce: list,
      describe: `${onlyVerb} only these scenario ids (globs allowed, e.g. "pending-*"); repeat or comma-separate`,
    });
}

/** the scenario selection, agent version, request timeout and time bounds: every running command (run, replay, drift) */
export function selectionOptions<T>(y: Argv<T>) {
  return boundOptions(
    scenarioOptions(y)
      .option('agent-version', {
        type: 'string',
        coerce: version('agent-version'),
        describe: 'use this agent version for version gates and schema overlays instead of the one the agent reports',
      })
      .option('timeout', TIMEOUT),
  );
}

/** --scenario-timeout and --run-timeout: every command that runs scenarios (run, replay, drift, matrix); `run` says
 * what one run is (matrix: each version's) */
export function boundOptions<T>(y: Argv<T>, run = 'the whole run') {
  return y
    .option('scenario-timeout', {
      type: 'string',
      coerce: wholeNumber('scenario-timeout', 1, DAY_S),
      default: '600',
      defaultDescription: '600',
      describe:
        'seconds a scenario may take; past them it stops where it is, keeping its checks, with a harness error (exit 2)',
    })
    .option('run-timeout', {
      type: 'string',
      coerce: wholeNumber('run-timeout', 1, 7 * DAY_S),
      default: '3600',
      defaultDescription: '3600',
      describe: `seconds ${run} may take; past them it stops as on Ctrl-C and writes the report of what ran (exit 2)`,
    });
}

/** --timeout of every command that sends requests (run, replay, drift, matrix) */
export const TIMEOUT = {
  type: 'string',
  coerce: wholeNumber('timeout', 1, DAY_S),
  default: '10',
  defaultDescription: '10',
  describe: 'seconds a single request may take (GET /rest/svc/report takes over 1 s on 1.19.2)',
} as const;

/** --syncthing of a command that starts one lab (run, drift, lab up); `more` says what else it does there */
export const syncthingOption = (more = '') => ({
  type: 'string' as const,
  coerce: oneSyncthing,
  describe: `a VERSION installed by \`synconf agents install\` (e.g. 1.29.5) or a PATH to a binary (default $SYNCONF_SYNCTHING, else \`syncthing\` on PATH, else the newest installed agent)${more}`,
});

/** the verdict options of the commands that write a report (run, replay) */
export function reportOptions<T>(y: Argv<T>) {
  return y
    .option('report-dir', {
      type: 'string',
      default: DEFAULT_REPORT_DIR,
      describe: 'where report.json, junit.xml, report.html and summary.md are written',
    })
    .option('expectations', {
      type: 'string',
      describe:
        'known-deviations file to apply (default: the expectations/*.yaml whose version range holds the agent version); --no-expectations applies none: every deviation fails',
    })
    .option('fail-on', {
      type: 'string',
      coerce: list,
      choices: failOnChoices(),
      default: DEFAULT_FAIL_ON.join(','),
      describe:
        'what makes the exit code 1: verdicts; new-failure, a problem the --baseline did not have (alone: gate on regressions only); flaky, a verdict that varied under --repeat. Repeat or comma-separate',
    })
    .option('baseline', {
      type: 'string',
      describe:
        'a previous report.json: every check is classified new failure, fixed, still failing, new check or gone, in every report format',
    })
    .option('strict', { type: 'boolean', describe: STRICT });
}

/** --strict of the commands that judge responses (run, replay, matrix) */
export const STRICT =
  'an undocumented member of a response (one its schema does not name) fails the check of its exchange; without --strict each is a note in the reports';

/** --agent-ca: what an https:// agent's certificate is verified against, instead of Node's trusted roots */
export const AGENT_CA = {
  type: 'string',
  coerce: once('agent-ca'),
  describe:
    "a PEM file trusted for an https:// agent instead of the system's roots: the agent's own certificate (https-cert.pem in its home; pinned, its host name not checked) or the CA that signed it",
} as const;

/** how to reach a live agent (run, drift) */
export function targetOptions<T>(y: Argv<T>) {
  return y
    .option('agent', {
      type: 'string',
      conflicts: 'lab',
      describe:
        'URL of an agent already running on this machine, e.g. http://127.0.0.1:8384, or https:// when its GUI speaks TLS (needs --api-key)',
    })
    .option('agent-ca', AGENT_CA)
    .option('api-key', {
      type: 'string',
      default: process.env.SYNCONF_API_KEY,
      defaultDescription: '$SYNCONF_API_KEY',
      describe: 'the API key of --agent',
    })
    .option('lab', {
      type: 'boolean',
      describe: 'start the agent (and a peer) with the lab; the default without --agent',
    })
    .option('syncthing', syncthingOption(': the Syncthing the lab starts; implies --lab unless --agent is given'))
    .option('allow-destructive', {
      type: 'boolean',
      implies: 'agent',
      describe: 'let scenarios shut down an agent synconf did not start',
    });
}

/** the exit codes of a running command, for its --help */
export const runExitCodes = (inputs: string) =>
  `Exit codes: 0 every check conforms (or is a known deviation), 1 a check does not conform (see --fail-on), 2 usage or input error (${inputs}), or a run stopped by its time bound or by an agent that stopped answering, 3 a fault of synconf itself, 128 + n stopped by signal n (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP; the report of what ran is written).`;
