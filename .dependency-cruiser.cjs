// The layers of src/ (docs/architecture.md), held by dependency-cruiser in `npm run build` (npm run lint:deps):
// every import — static, dynamic, type-only, re-export — points down. One rule per layer says what that layer may
// not import; each import that breaks the picture matches exactly one rule, whose name says which.
//
//   8 cli/                     yargs command definitions only
//   7 commands/ (+ engine.ts)  entry points: print, exit codes, signals (commands/terminal/: the printers, the interrupt);
//                              no entry point imports another's
//   6 session/                 a run from its options to its written report folder: prints nothing, handles no signal
//   5 matrix/ mutate/ serve/ proxy/ bisect/ history/   features, none imports another
//   4 runner/ report/ changes/ report never imports runner or matrix; changes/ compares two versions' recordings
//   3 scenario/ transport/ lab/ agents/
//   2 verdict/
//   1 schema/
//   0 errors.ts json.ts paths.ts output-dir.ts text-file.ts did-you-mean.ts bounded-exec.ts regex-safety.ts
//     printable.ts plural.ts turns.ts agent-https.ts
//
// An exception names its file in `from.pathNot` with the reason beside it. Keep them few: an exception is a
// place where the picture is not yet true.

/** layer 0: below everything */
const BASE =
  '^src/(errors|json|paths|output-dir|text-file|did-you-mean|bounded-exec|regex-safety|printable|plural|turns|agent-https)\\.ts$';
const LAYER3 = '^src/(scenario|transport|lab|agents)/';
const FEATURES = '^src/(matrix|mutate|serve|proxy|bisect|history)/';
/** every layer but cli may be imported from below cli only by what lies above it: cli has its own rule */
const CLI = '^src/cli/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'layer-0-node-only',
      comment:
        'errors.ts, json.ts, paths.ts, output-dir.ts, text-file.ts, did-you-mean.ts and bounded-exec.ts lie below every layer: they import node modules (and errors.ts) only',
      severity: 'error',
      from: { path: BASE },
      // output-dir.ts throws the InputError of errors.ts (a bad output folder is the user's input, exit 2)
      to: { path: '^src/', pathNot: [CLI, '^src/errors\\.ts$'] },
    },
    {
      name: 'layer-1-schema',
      comment: 'schema/ (schemas, ajv, version overlays, endpoint keys) imports only layer 0',
      severity: 'error',
      from: { path: '^src/schema/' },
      to: { path: '^src/', pathNot: ['^src/schema/', BASE, CLI] },
    },
    {
      name: 'layer-2-verdict',
      comment: 'verdict/ (the verdict vocabulary) imports only the generated schema types and layer 0',
      severity: 'error',
      from: { path: '^src/verdict/' },
      to: { path: '^src/', pathNot: ['^src/verdict/', '^src/schema/generated/', BASE, CLI] },
    },
    {
      name: 'layer-3-scenario-transport-lab-agents',
      comment: 'scenario/, transport/, lab/ and agents/ import schema/ and layer 0 (and not each other)',
      severity: 'error',
      from: {
        path: LAYER3,
        pathNot: [
          // The lab starts an installed agent version: agents/ resolves a version (1.29.5) to its binary in the
          // agents cache. Both are layer 3; the lab is the one user of that lookup.
          '^src/lab/lab\\.ts$',
        ],
      },
      to: { path: '^src/', pathNot: ['^src/$1/', '^src/schema/', BASE, CLI] },
    },
    {
      name: 'layer-3-lab-agents',
      comment: 'the exception above, kept as narrow as it is: lab/lab.ts may import agents/, nothing else of layer 3',
      severity: 'error',
      from: { path: '^src/lab/lab\\.ts$' },
      to: { path: '^src/', pathNot: ['^src/lab/', '^src/agents/', '^src/schema/', BASE, CLI] },
    },
    {
      name: 'layer-4-runner',
      comment: "runner/ imports layer 3, verdict/ and below: not report/ (writing is the commands' job)",
      severity: 'error',
      from: { path: '^src/runner/' },
      to: { path: '^src/', pathNot: ['^src/runner/', LAYER3, '^src/verdict/', '^src/schema/', BASE, CLI] },
    },
    {
      name: 'layer-4-report',
      comment:
        'report/ holds pure writers (a view in, text out): it never imports runner/ or matrix/; the verdict words come from verdict/',
      severity: 'error',
      from: { path: '^src/report/' },
      to: { path: '^src/', pathNot: ['^src/report/', LAYER3, '^src/verdict/', '^src/schema/', BASE, CLI] },
    },
    {
      name: 'layer-4-changes',
      comment:
        "changes/ (two versions' recordings compared, the differences folded into causes classified by the change rules) imports layer 3, verdict/ and below: commands/drift.ts and matrix/ both use it",
      severity: 'error',
      from: { path: '^src/changes/' },
      to: { path: '^src/', pathNot: ['^src/changes/', LAYER3, '^src/verdict/', '^src/schema/', BASE, CLI] },
    },
    {
      name: 'layer-5-features',
      comment:
        'matrix/, mutate/, serve/, proxy/, bisect/ and history/ import runner/, report/, changes/ and below, never each other (what two need lies below both)',
      severity: 'error',
      from: { path: FEATURES },
      to: {
        path: '^src/',
        pathNot: ['^src/$1/', '^src/(runner|report|changes)/', LAYER3, '^src/verdict/', '^src/schema/', BASE, CLI],
      },
    },
    {
      name: 'layer-6-session',
      comment:
        'session/ (what every command that runs scenarios shares: a run set up, run, torn down, its report folder written) imports the features and below, never commands/ (it prints nothing, sets no exit code, handles no signal: it hands that up)',
      severity: 'error',
      from: { path: '^src/session/' },
      to: {
        path: '^src/',
        pathNot: [
          '^src/session/',
          FEATURES,
          '^src/(runner|report|changes)/',
          LAYER3,
          '^src/verdict/',
          '^src/schema/',
          BASE,
          CLI,
        ],
      },
    },
    {
      name: 'layer-7-commands',
      comment: 'commands/ imports everything below it, not the engine barrel that re-exports it',
      severity: 'error',
      from: { path: '^src/commands/' },
      to: { path: '^src/engine\\.ts$' },
    },
    {
      name: 'layer-7-one-entry-point',
      comment:
        "a command's entry point imports no other command's: what two commands share lies in session/ (or is a printer of commands/terminal/); a command may reach only its own variant, named <command>-<variant>.ts (drift.ts → drift-against.ts, spec.ts → spec-boundaries.ts)",
      severity: 'error',
      from: { path: '^src/commands/([^/]+)\\.ts$' },
      to: { path: '^src/commands/[^/]+\\.ts$', pathNot: ['^src/commands/$1-[^/]+\\.ts$'] },
    },
    {
      name: 'layer-7-engine',
      comment:
        'src/engine.ts, the lazy barrel of the CLI (scripts/bundle.mjs), re-exports the entry points of commands/ only',
      severity: 'error',
      from: { path: '^src/engine\\.ts$' },
      to: { path: '^src/', pathNot: ['^src/commands/', CLI] },
    },
    {
      name: 'layer-8-cli',
      comment:
        'cli/ (yargs command definitions) imports commands/ (through engine.ts), verdict/, errors, paths and the version helpers',
      severity: 'error',
      from: {
        path: '^src/cli/',
        pathNot: [
          // --operators lists its choices in --help: the operator names of schemas/mutation-report.schema.json,
          // read by this one small module (node:fs only), so that the help shows them without loading mutate/.
          '^src/cli/mutate\\.ts$',
        ],
      },
      to: {
        path: '^src/',
        pathNot: [CLI, '^src/engine\\.ts$', '^src/commands/', '^src/verdict/', BASE, '^src/schema/version\\.ts$'],
      },
    },
    {
      name: 'layer-8-cli-mutate',
      comment: 'the exception above, kept as narrow as it is: cli/mutate.ts may import mutate/operators.ts only',
      severity: 'error',
      from: { path: '^src/cli/mutate\\.ts$' },
      to: {
        path: '^src/',
        pathNot: [
          CLI,
          '^src/engine\\.ts$',
          '^src/commands/',
          '^src/verdict/',
          BASE,
          '^src/schema/version\\.ts$',
          '^src/mutate/operators\\.ts$',
        ],
      },
    },
    {
      name: 'layer-8-cli-lazy',
      comment:
        'the CLI loads what a command runs only when it runs (--help and --version stay light): engine.ts and commands/ by import(), or as types',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: ['^src/engine\\.ts$', '^src/commands/'], dynamic: false, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'nothing-below-cli-imports-cli',
      comment: 'cli/ is thin wiring on top: nothing under src/ imports from it',
      severity: 'error',
      from: { path: '^src/', pathNot: [CLI] },
      to: { path: CLI },
    },
    {
      name: 'runner-not-replay-internals',
      comment:
        'the runner does not know which transport it has: only its replay target, the one place that builds a replay, imports transport/replay.ts',
      severity: 'error',
      from: { path: '^src/runner/', pathNot: ['^src/runner/replay-target\\.ts$'] },
      to: { path: '^src/transport/replay\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    // type-only imports count: a type is an import of the module's meaning
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
