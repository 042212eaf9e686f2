// What synconf's commands run, in one module: the entry points of src/commands/, which the handlers in src/cli/
// import when a command runs (`await import('../engine.js')`), never at start-up, so that --help and --version stay
// light. (lab and agents are not here: their handlers import src/commands/lab.ts and agents.ts, chunks of their own.)
//
// The built command has it as one file, dist/bin/engine.cjs, loaded through V8's code cache (scripts/bundle.mjs,
// src/cli/load-engine.ts): what every command needs (runner, validators, report writers) is parsed and compiled
// at build time, not at each start (bench/README.md). Inside the engine, modules import each other statically;
// what stays lazy is evaluated only when used: the lab and the agent installation (execa, apt), globbing, and the
// validators of synconf's output documents.
export { run, replay } from './commands/run.js';
export { matrix } from './commands/matrix.js';
export { drift } from './commands/drift.js';
export { validateFile } from './commands/validate.js';
export { reportMerge, reportRender } from './commands/report.js';
export { mutateCommand } from './commands/mutate.js';
export { serve } from './commands/serve.js';
export { proxy } from './commands/proxy.js';
export { contract } from './commands/contract.js';
export { spec } from './commands/spec.js';
export { bisect } from './commands/bisect.js';
export { history } from './commands/history.js';
