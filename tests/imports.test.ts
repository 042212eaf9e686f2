// The layers of src/ (docs/architecture.md) are held by dependency-cruiser with .dependency-cruiser.cjs, in the
// build (npm run lint:deps). Here: the rules pass on src/ as it is, and each rule catches the wrong import it
// exists for — planted in a scratch copy of src/, as a static import, a type-only import, a dynamic import() or a
// re-export — and names itself (each wrong import matches exactly one rule).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/paths.js';
import { makeTemp, removeTemp } from './support/temp.js';

const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** dependency-cruiser over `dir`/src with the project's config, as `npm run lint:deps` runs it (more `args`) */
const depcruise = (dir: string, ...args: string[]) =>
  spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', '.dependency-cruiser.cjs', ...args], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });

/** the violations in `dir`/src and how many modules dependency-cruiser read */
function cruise(dir: string): { violations: Violation[]; modules: number } {
  const r = depcruise(dir, '--output-type', 'json');
  assert.ok(r.stdout, `depcruise printed no result (exit ${r.status}):\n${r.stderr}`);
  const out = JSON.parse(r.stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  return { violations: out.summary.violations, modules: out.summary.totalCruised };
}

test('dependency rules: src/ as it is breaks none', () => {
  const { violations, modules } = cruise(ROOT);
  assert.ok(modules > 100, `the sources are read (${modules} modules)`);
  assert.deepEqual(
    violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`),
    [],
  );
  assert.equal(depcruise(ROOT).status, 0, 'npm run lint:deps passes');
});

// [file (created, or appended to when it exists), the wrong import, its target, the rule that must name it]
const PLANTED: [file: string, line: string, to: string, rule: string][] = [
  [
    'src/paths.ts',
    "export { loadSchemas } from './schema/ajv-setup.js';",
    'src/schema/ajv-setup.ts',
    'layer-0-node-only',
  ],
  [
    'src/schema/__planted.ts',
    "import { worst } from '../verdict/verdicts.js';\nexport const a = worst;",
    'src/verdict/verdicts.ts',
    'layer-1-schema',
  ],
  [
    'src/verdict/__planted.ts',
    "import type { Target } from '../runner/run.js';\nexport type A = Target;",
    'src/runner/run.ts',
    'layer-2-verdict',
  ],
  [
    'src/transport/__planted.ts',
    "export const a = () => import('../scenario/load.js');",
    'src/scenario/load.ts',
    'layer-3-scenario-transport-lab-agents',
  ],
  [
    'src/lab/lab.ts',
    "export { LiveTransport as PlantedTransport } from '../transport/live.js';",
    'src/transport/live.ts',
    'layer-3-lab-agents',
  ],
  [
    'src/runner/__planted.ts',
    "import { viewOf } from '../report/view.js';\nexport const a = viewOf;",
    'src/report/view.ts',
    'layer-4-runner',
  ],
  [
    'src/report/__planted.ts',
    "import { runScenarios } from '../runner/run.js';\nexport const a = runScenarios;",
    'src/runner/run.ts',
    'layer-4-report',
  ],
  [
    'src/report/__planted2.ts',
    "import type { Cell } from '../matrix/classify.js';\nexport type A = Cell;",
    'src/matrix/classify.ts',
    'layer-4-report',
  ],
  [
    'src/changes/__planted.ts',
    "import { viewOf } from '../report/view.js';\nexport const a = viewOf;",
    'src/report/view.ts',
    'layer-4-changes',
  ],
  [
    'src/matrix/__planted.ts',
    "export { startServer } from '../serve/server.js';",
    'src/serve/server.ts',
    'layer-5-features',
  ],
  [
    'src/mutate/__planted.ts',
    "export const a = () => import('../serve/server.js');",
    'src/serve/server.ts',
    'layer-5-features',
  ],
  [
    'src/history/__planted.ts',
    "import { runOnce } from '../session/run-once.js';\nexport const a = runOnce;",
    'src/session/run-once.ts',
    'layer-5-features',
  ],
  [
    'src/session/__planted.ts',
    "export const a = () => import('../commands/terminal/interrupt.js');",
    'src/commands/terminal/interrupt.ts',
    'layer-6-session',
  ],
  [
    'src/commands/__planted.ts',
    "import { run } from '../engine.js';\nexport const a = run;",
    'src/engine.ts',
    'layer-7-commands',
  ],
  [
    'src/commands/__planted2.ts',
    "import { runMatrix } from './matrix.js';\nexport const a = runMatrix;",
    'src/commands/matrix.ts',
    'layer-7-one-entry-point',
  ],
  ['src/engine.ts', "export { runScenarios } from './runner/run.js';", 'src/runner/run.ts', 'layer-7-engine'],
  [
    'src/cli/__planted.ts',
    "import { runScenarios } from '../runner/run.js';\nexport const a = runScenarios;",
    'src/runner/run.ts',
    'layer-8-cli',
  ],
  [
    'src/cli/mutate.ts',
    "export { mutate as plantedMutate } from '../mutate/mutate.js';",
    'src/mutate/mutate.ts',
    'layer-8-cli-mutate',
  ],
  [
    'src/cli/__planted2.ts',
    "import { run } from '../commands/run.js';\nexport const a = run;",
    'src/commands/run.ts',
    'layer-8-cli-lazy',
  ],
  [
    'src/serve/__planted.ts',
    "import { list } from '../cli/options.js';\nexport const a = list;",
    'src/cli/options.ts',
    'nothing-below-cli-imports-cli',
  ],
  [
    'src/runner/__planted2.ts',
    "import { ReplayTransport } from '../transport/replay.js';\nexport const a = ReplayTransport;",
    'src/transport/replay.ts',
    'runner-not-replay-internals',
  ],
];

test('dependency rules: each wrong import planted in a copy of src/ is caught, by the rule made for it', (t) => {
  const scratch = makeTemp('imports');
  t.after(() => removeTemp(scratch));
  cpSync(join(ROOT, 'src'), join(scratch, 'src'), { recursive: true });
  for (const f of ['tsconfig.json', '.dependency-cruiser.cjs']) cpSync(join(ROOT, f), join(scratch, f));
  for (const [file, line] of PLANTED) {
    const path = join(scratch, file);
    if (existsSync(path)) appendFileSync(path, `\n${line}\n`);
    else writeFileSync(path, `${line}\n`);
  }
  const found = cruise(scratch)
    .violations.map((v) => `${v.from} → ${v.to}: ${v.rule.name}`)
    .sort();
  const want = PLANTED.map(([file, , to, rule]) => `${file} → ${to}: ${rule}`).sort();
  assert.deepEqual(found, want);
  // and the build stops, naming the rule and the import
  const build = depcruise(scratch);
  assert.notEqual(build.status, 0, 'npm run lint:deps fails');
  assert.match(build.stdout, /error layer-4-report: src\/report\/__planted\.ts → src\/runner\/run\.ts/);
});
