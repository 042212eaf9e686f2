// The lint (eslint.config.mjs, `npm run lint` in the build): each rule catches the defect it is there for, planted
// in a scratch project (one small file, so the type-aware rules have a program to ask), and the project's config
// applies every rule to the hand-written sources and none to the generated types.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { ROOT } from '../src/paths.js';
// @ts-expect-error: the config is plain JavaScript, without a declaration file
import { defects } from '../eslint.config.mjs';
import { makeTemp, removeTemp } from './support/temp.js';

const LONG_BODY = Array.from({ length: 70 }, (_, i) => `  const v${i} = ${i};\n  void v${i};`).join('\n');

/** [rule, a source that breaks it]: each defect planted once */
const PLANTED: [rule: string, source: string][] = [
  ['@typescript-eslint/no-floating-promises', `export function start(): void {\n  work();\n}`],
  ['@typescript-eslint/no-misused-promises', `export function ready(): boolean {\n  return work() ? true : false;\n}`],
  ['@typescript-eslint/await-thenable', `export async function wait(): Promise<void> {\n  await 1;\n}`],
  [
    '@typescript-eslint/return-await',
    `export async function guarded(): Promise<number> {\n  try {\n    return work();\n  } catch {\n    return 0;\n  }\n}`,
  ],
  ['@typescript-eslint/no-unused-vars', `import { join } from 'node:path';`],
  [
    'no-fallthrough',
    `export function kind(n: number): string {\n  let s = '';\n  switch (n) {\n    case 1:\n      s = 'one';\n    case 2:\n      s += 'two';\n  }\n  return s;\n}`,
  ],
  ['eqeqeq', `export const same = (a: unknown, b: unknown): boolean => a == b;`],
  ['prefer-const', `export function one(): number {\n  let n = 1;\n  return n;\n}`],
  [
    'no-unsafe-finally',
    `export function last(): number {\n  try {\n    throw new Error('x');\n  } finally {\n    return 1;\n  }\n}`,
  ],
  ['no-async-promise-executor', `export const later = new Promise<void>(async (resolve) => resolve());`],
  ['max-lines-per-function', `export function long(): void {\n${LONG_BODY}\n}`],
];

test('lint: each rule catches the defect planted for it, on its lines, and nothing else is reported', async () => {
  const dir = makeTemp('lint');
  try {
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }));
    // the planted file: a promise-returning helper, then each planted source, remembering its lines
    let source = `async function work(): Promise<number> {\n  return 1;\n}\n`;
    const lines = new Map<string, [number, number]>();
    for (const [rule, planted] of PLANTED) {
      const first = source.split('\n').length;
      source += planted + '\n';
      lines.set(rule, [first, first + planted.split('\n').length - 1]);
    }
    writeFileSync(join(dir, 'src', 'planted.ts'), source);
    const config: Linter.Config[] = [
      {
        files: ['src/**/*.ts'],
        languageOptions: {
          parser: tseslint.parser as Linter.Parser,
          parserOptions: { projectService: true, tsconfigRootDir: dir },
        },
        plugins: { '@typescript-eslint': tseslint.plugin as unknown as ESLint.Plugin },
        rules: defects as Linter.RulesRecord,
      },
    ];
    const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: config });
    const [result] = await eslint.lintFiles(['src/planted.ts']);
    const found = result.messages.map((m) => `${m.ruleId} @${m.line}: ${m.message}`);
    for (const [rule] of PLANTED) {
      const [from, to] = lines.get(rule)!;
      const hits = result.messages.filter((m) => m.ruleId === rule);
      assert.ok(
        hits.some((m) => m.line >= from && m.line <= to),
        `${rule} is reported on lines ${from}-${to}; found:\n${found.join('\n')}`,
      );
      assert.ok(
        hits.every((m) => m.line >= from && m.line <= to),
        `${rule} only where planted; found:\n${found.join('\n')}`,
      );
    }
    assert.equal(result.messages.length, PLANTED.length, `one finding per planted defect:\n${found.join('\n')}`);
  } finally {
    removeTemp(dir);
  }
});

test('lint: the project config applies every rule to src/ but not to the generated types; the build runs it', async () => {
  const eslint = new ESLint({ cwd: ROOT });
  const config = (await eslint.calculateConfigForFile('src/runner/run.ts')) as Linter.Config;
  for (const rule of Object.keys(defects)) {
    const setting = config.rules?.[rule];
    assert.equal(Array.isArray(setting) ? setting[0] : setting, 2, `${rule} is an error for src/`);
  }
  assert.equal(await eslint.isPathIgnored('src/schema/generated/types.ts'), true, 'generated types are not linted');
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  assert.match(scripts.build, /npm run lint &&.*tsc/, 'npm run build runs the lint before tsc');
  assert.match(scripts.lint, /^eslint src\b/);
});
