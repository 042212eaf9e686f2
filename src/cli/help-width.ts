// The width yargs lays help out in: the terminal's, at most 110 columns; 100 when stdout is not a terminal.
// One function for both src/cli/main.ts (yargs' wrap) and src/cli/bin.ts, whose laid-out top-level help is
// keyed by this width.
export const helpWidth = (): number => Math.min(110, process.stdout.columns || 100);
