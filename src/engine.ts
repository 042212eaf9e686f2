// What synconf's commands run, in one module: the handlers in src/cli/ import it when a command runs
// (`await import('../engine.js')`), never at start-up, so that --help and --version stay light.
//
// The built command has it as one file, dist/bin/engine.cjs, loaded through V8's code cache (scripts/bundle.mjs,
// src/cli/load-engine.ts): what every command needs (runner, validators, report writers) is parsed and compiled
// at build time, not at each start (bench/README.md). Inside the engine, modules import each other statically;
// what stays lazy is evaluated only when used: the lab and the agent installation (execa, apt), the located-YAML
// parser of error messages, globbing, and the validators of synconf's output documents.
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
