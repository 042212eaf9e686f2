// `synconf drift [DIR]` / `synconf drift DIR-A DIR-B`: compare recordings by shape — a fresh recording of a
// live agent with a folder, or two folders offline.
import type { CommandModule } from 'yargs';
import { list, once, selectionOptions, targetOptions } from './options.js';
import { UsageError } from '../errors.js';
import type { DriftOptions } from '../commands/drift.js';
import { changeFailOnChoices } from '../verdict/change-levels.js';

/** options drift cannot honour, more than two folders, and live options beside two folders: said, not ignored */
function checkDriftArgs(argv: Record<string, unknown>): true {
  for (const o of ['report-dir', 'expectations'])
    if (argv[o] !== undefined)
      throw new UsageError(
        `drift does not take --${o}: it writes no report and judges no verdicts, it compares the shapes of the answers (its gate is --fail-on breaking|risky|compatible|any)`,
      );
  const dirs = (argv.dirs as string[] | undefined) ?? [];
  if (argv.against !== undefined) {
    if (dirs.length !== 1)
      throw new UsageError(
        `drift --against compares one client session (a proxy report folder or its HAR) with another agent; got ${dirs.length ? dirs.join(' ') : 'none'}`,
      );
    const live = ['lab', 'agent', 'syncthing', 'keep', 'allow-destructive', 'agent-version', 'only', 'suite'].find(
      (o) => argv[o] !== undefined,
    );
    if (live)
      throw new UsageError(`drift SESSION --against AGENT replays the client's own requests: --${live} does not apply`);
  }
  if (argv['allow-writes'] !== undefined && argv.against === undefined)
    throw new UsageError(
      "drift --allow-writes lets a client session's writes reach the agent of --against URL: give it with SESSION --against URL",
    );
  if (argv.contract !== undefined && argv.against === undefined)
    throw new UsageError(
      "drift --contract keeps a client session's drift to what its contract names: give it with SESSION --against",
    );
  if (dirs.length > 2)
    throw new UsageError(`drift compares two recordings folders; got ${dirs.length}: ${dirs.join(' ')}`);
  if (dirs.length === 2) {
    const live = ['lab', 'agent', 'syncthing', 'keep', 'allow-destructive', 'agent-version'].find(
      (o) => argv[o] !== undefined,
    );
    if (live) throw new UsageError(`drift DIR-A DIR-B compares two recordings offline: --${live} does not apply`);
  }
  return true;
}

/** --keep: a live drift's temporary folder, which a run that does not reach the comparison keeps anyway */
const KEEP = {
  type: 'boolean',
  describe:
    'keep the fresh recording (its folder is printed); the report of a run that does not reach the comparison is kept without it',
} as const;

/** --against: the client's session asked again of another agent (commands/drift-against.ts) */
const AGAINST = {
  type: 'string',
  coerce: once('against'),
  describe:
    "with one SESSION (a report folder of `synconf proxy`, or a HAR file): ask the client's own requests again of this agent (VERSION: a lab of that installed version; URL: a running agent, with --api-key; RECORDINGS: a recordings folder) and keep to the causes that touch the client's footprint",
} as const;

/** --allow-writes: the client's writes asked of an agent synconf did not start (commands/drift-against.ts) */
const ALLOW_WRITES = {
  type: 'boolean',
  describe:
    "with --against URL: ask the client's writes too (configuration, folders, devices, pauses, ignores, errors) of that agent, which synconf did not start; without it they are listed as not asked again, and the answers after the first of them as cannot tell. Shutdown, restart, reset, upgrade and whole-configuration writes are never asked",
} as const;

/** --contract: what a client session's drift is kept to */
const CONTRACT = {
  type: 'string',
  coerce: once('contract'),
  describe:
    'with --against: judge only what this client contract names (synconf contract; an endpoint removed or a status changed on an endpoint the client called always counts)',
} as const;

export const driftCommand: CommandModule = {
  command: 'drift [dirs..]',
  describe:
    "Compare two recordings by shape (status, media type, fields and their types, values against the spec's patterns and formats, event types), grouped by cause and classified by what a client of the older version feels (breaking, risky, compatible; rules/change-rules.yaml): two folders offline, or one folder against a fresh recording of a live agent; exit 0 nothing to gate, 1 a cause at or above --fail-on (default: any cause), 2 input error",
  builder: (y) =>
    targetOptions(selectionOptions(y))
      .positional('dirs', {
        type: 'string',
        describe:
          'DIR-A DIR-B: two recordings folders, compared offline (A the older); or one folder to compare a fresh live recording with (default: the bundled recordings)',
      })
      .option('keep', KEEP)
      .options({ against: AGAINST, contract: CONTRACT, 'allow-writes': ALLOW_WRITES })
      .option('fail-on', {
        type: 'string',
        coerce: once('fail-on'),
        choices: changeFailOnChoices(),
        describe:
          'exit 1 when a cause not accepted is at or above this level (breaking: a correct client of the older version can fail; risky: it may; compatible or any: every cause); default any',
      })
      .option('ignore', {
        type: 'string',
        coerce: list,
        describe:
          'accept a reviewed change: RULE@METHOD /path [/pointer], e.g. "response-value-format-changed@GET /rest/system/browse"; repeat or comma-separate; the cause is still listed, as accepted',
      })
      .option('ignore-file', {
        type: 'string',
        describe:
          'a YAML file of accepted changes, each with rule, endpoint, optional pointer and its reason (schemas/drift-ignore.schema.json)',
      })
      .option('differences', {
        type: 'boolean',
        describe: 'also list every difference, per scenario (the evidence the causes fold)',
      })
      .option('json', {
        type: 'boolean',
        describe: 'print the causes as JSON (schemas/drift-causes.schema.json) and nothing else on stdout',
      })
      // Options of run/replay that drift cannot honour: said so, rather than accepted and ignored.
      .option('report-dir', { type: 'string', hidden: true })
      .option('expectations', { type: 'string', hidden: true })
      .check(checkDriftArgs)
      .example(
        'synconf drift recordings/syncthing-1.19.2 recordings/syncthing-1.29.5',
        'offline: what changed between two versions',
      )
      .example(
        'synconf drift recordings/syncthing-1.19.2 recordings/syncthing-1.29.5 --fail-on breaking',
        'the release gate: exit 1 when 1.29.5 breaks clients of 1.19.2, naming the causes',
      )
      .example(
        'synconf drift A B --fail-on breaking --ignore "response-value-format-changed@GET /rest/system/browse"',
        'the same, with a reviewed change accepted (still listed, as accepted)',
      )
      .example('synconf drift --lab', 'a fresh lab agent against the bundled 1.19.2 recordings')
      .example('synconf drift --agent URL --api-key KEY DIR', 'what changed in the agent running here')
      .example(
        'synconf drift reports/proxy --against 2.1.2 --fail-on breaking',
        'does 2.1.2 break the client of this proxy session (only what its footprint touches)',
      )
      .epilogue(
        "drift writes no report and judges no verdicts: it compares shapes (so it has no --report-dir or --expectations). Each cause is one line: level, rule id, endpoints, pointer, what changed, the rule's summary, how many differences it folds (docs/change-rules.md).\nExit codes: 0 no cause at or above --fail-on that is not accepted (without --fail-on: no cause, or all accepted), 1 such a cause (listed), 2 usage or input error (an unreadable cassette or ignore file, an unknown rule, an agent that cannot be reached), or --against cannot tell whether the gate trips (the causes that would trip it came only after a request that changes the agent's state and was not asked again), 3 a fault of synconf itself.",
      ),
  handler: async (argv) => {
    const { drift } = await import('../engine.js');
    await drift(argv as unknown as DriftOptions & { dirs?: string[] });
  },
};
