// What synconf's commands run, in one module: the handlers in src/cli/ load it when a command runs
// (`await import('../engine.js')`), never at start-up, so --help and --version stay light.
//
// One module rather than one lazy import per command because of how the bundle is cut: esbuild
// (scripts/bundle.mjs) gives every set of lazily imported modules that reach a module a chunk file
// of its own. With a dozen lazy imports sharing the runner, a run loaded some 30 small files, and
// Node spends ~0.3 ms resolving and linking each (bench/README.md). Inside the engine, modules import
// each other statically; what stays lazy has no other part of the engine below it: the lab and the
// agent installation (execa, apt), the located-YAML parser of error messages, and globbing.
export { executeRun } from './runner/execute.js';
export { liveTargetMaker } from './runner/live-target.js';
export { replayTarget } from './runner/replay-target.js';
export { chooseAgents } from './matrix/agents.js';
export { runMatrix, defaultJobs } from './matrix/run.js';
export { matrixProgress } from './matrix/progress.js';
export { prepareDir } from './report/prepare-dir.js';
export { printFolderDrift } from './drift/folders.js';
export { driftRun } from './drift/live.js';
export { runServe } from './serve/run-serve.js';
export { newestRecordings } from './serve/recordings.js';
export { lintFile } from './lint/lint.js';
export { validateDocument } from './schema/validate-document.js';
export { reportMerge, reportRender } from './report/commands.js';
export { mutate } from './mutate/mutate.js';
export { writeMutationReports } from './mutate/write.js';
export { mutationText } from './mutate/render.js';
