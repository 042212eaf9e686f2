// `npm run gen:rules-doc`: writes docs/change-rules.md from rules/change-rules.yaml (one section per rule).
// With --check it writes nothing and exits 1 when the committed file is stale.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadRules, rulesDoc } from '../src/changes/rules.js';
import { ROOT } from '../src/paths.js';

const file = join(ROOT, 'docs', 'change-rules.md');
const text = rulesDoc(loadRules());
if (process.argv.includes('--check')) {
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
    console.error('docs/change-rules.md is stale: run `npm run gen:rules-doc` and commit it.');
    process.exit(1);
  }
  console.log('docs/change-rules.md is up to date');
} else {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  console.log(`wrote docs/change-rules.md (${loadRules().length} rules)`);
}
