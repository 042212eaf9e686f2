// node:test reporter that ends the output with the line CI reads: "N passed, N failed".
// Counts leaf tests only (suites are containers), skipped and todo tests are reported separately.
export default async function* summaryReporter(source) {
  let passed = 0,
    failed = 0,
    skipped = 0;
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.details?.type === 'suite') continue;
    if (event.data.skip || event.data.todo) {
      skipped++;
      continue;
    }
    if (event.type === 'test:pass') passed++;
    else failed++;
  }
  yield `\n${skipped ? `${skipped} skipped\n` : ''}${passed} passed, ${failed} failed\n`;
}
