// node:test reporter that ends the output with the line CI reads: "N passed, N failed".
// Counts leaf tests only (suites are containers), skipped and todo tests are reported separately. Before that line it
// lists the ten test files that took longest (each file's own time, from its start to its end), so that the cost of
// the suite stays visible where it is paid.
const SLOWEST = 10;

export default async function* summaryReporter(source) {
  let passed = 0,
    failed = 0,
    skipped = 0;
  /** milliseconds by test file: the runner completes each file as a test named by its path */
  const fileMs = new Map();
  for await (const event of source) {
    if (event.type === 'test:complete' && event.data.file && event.data.name === event.data.file)
      fileMs.set(event.data.file, event.data.details?.duration_ms ?? 0);
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.details?.type === 'suite') continue;
    if (event.data.skip || event.data.todo) {
      skipped++;
      continue;
    }
    if (event.type === 'test:pass') passed++;
    else failed++;
  }
  yield slowestFiles(fileMs);
  yield `\n${skipped ? `${skipped} skipped\n` : ''}${passed} passed, ${failed} failed\n`;
}

/** the slowest files, one a line: seconds and the file's path relative to the working folder */
function slowestFiles(fileMs) {
  if (fileMs.size === 0) return '';
  const total = [...fileMs.values()].reduce((a, b) => a + b, 0);
  const rows = [...fileMs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, SLOWEST)
    .map(([file, ms]) => `${(ms / 1000).toFixed(1).padStart(8)} s  ${relative(file)}`);
  return `\nslowest test files (of ${fileMs.size}, ${(total / 1000).toFixed(0)} s in all):\n${rows.join('\n')}\n`;
}

const relative = (file) => (file.startsWith(process.cwd() + '/') ? file.slice(process.cwd().length + 1) : file);
