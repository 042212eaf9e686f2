// The exit codes and the usage error live in the error model below every layer (src/errors.ts).
export { EXIT, UsageError } from '../errors.js';
