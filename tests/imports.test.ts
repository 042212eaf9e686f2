// The layers of src/ stay apart: nothing below src/cli/ imports from it (the CLI is thin wiring on top), and
// the runner does not import replay internals (it does not know which transport it has; only its replay
// target, the one place that builds a replay, may).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { ROOT } from '../src/paths.js';

const SRC = join(ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** every relative import of a file (static and dynamic), as paths from src/ */
function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) =>
    relative(SRC, resolve(dirname(file), m[1])).replace(/\.js$/, '.ts'),
  );
}

/** the broken rules among files (path and text) */
function violations(files: [path: string, text: string][]): string[] {
  const out: string[] = [];
  for (const [file, text] of files) {
    const from = relative(SRC, file);
    for (const to of importsOf(file, text)) {
      if (!from.startsWith('cli/') && to.startsWith('cli/'))
        out.push(`${from} imports ${to}: nothing under src/ imports from src/cli/`);
      if (from.startsWith('runner/') && from !== 'runner/replay-target.ts' && to === 'transport/replay.ts')
        out.push(`${from} imports ${to}: the runner does not import replay internals`);
    }
  }
  return out;
}

test('import direction: nothing below src/cli/ imports from it; the runner does not import replay internals', () => {
  const files = sources(SRC);
  assert.ok(files.length > 30, 'the sources are found');
  assert.deepEqual(violations(files.map((f) => [f, readFileSync(f, 'utf8')])), []);
});

test('the import check catches each broken rule', () => {
  const found = violations([
    [
      join(SRC, 'runner', 'x.ts'),
      "import { x } from '../cli/main.js';\nconst r = await import('../transport/replay.js');\n",
    ],
  ]);
  assert.equal(found.length, 2, found.join('\n'));
  assert.match(found[0], /runner\/x\.ts imports cli\/main\.ts/);
  assert.match(found[1], /imports transport\/replay\.ts: the runner does not import replay internals/);
});
