// Lint: a small set of rules, each catching a kind of defect that tsc lets through. Type-aware (typescript-eslint's
// project service reads tsconfig.json), so the promise rules know what is a promise. Run by `npm run lint` in the build.
import tseslint from 'typescript-eslint';

/** the rules, each with the defect it catches (tests/lint.test.ts plants one of each kind) */
export const defects = {
  // A promise nobody awaits: its rejection is unhandled and the work may outlive the command (exit codes, reports).
  '@typescript-eslint/no-floating-promises': 'error',
  // A promise where a boolean or a void callback is expected: `if (fileExists())` is always true; an async
  // listener's rejection is lost.
  '@typescript-eslint/no-misused-promises': 'error',
  // `await` on something that is not a promise: usually a forgotten call or a sync API taken for an async one.
  '@typescript-eslint/await-thenable': 'error',
  // `return promise` inside try: the catch and finally run before the promise settles, so its error escapes them.
  '@typescript-eslint/return-await': ['error', 'in-try-catch'],
  // Dead code: unused variables, parameters, imports and caught errors (a leading _ marks one kept on purpose).
  '@typescript-eslint/no-unused-vars': [
    'error',
    { args: 'after-used', argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
  ],
  // A switch case that runs into the next one without saying so.
  'no-fallthrough': 'error',
  // `==` coercion (`'0' == 0`); `== null` stays allowed, it means null or undefined.
  eqeqeq: ['error', 'smart'],
  // A `let` never reassigned: says "this changes" when it does not.
  'prefer-const': 'error',
  // return/throw in finally silently replaces the error or result of the try block.
  'no-unsafe-finally': 'error',
  // An async Promise executor: its throw is lost instead of rejecting the promise.
  'no-async-promise-executor': 'error',
  // A function too long to read as one idea (issue 19: functions under ~60 lines).
  'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'src/schema/generated/**', 'reports/**'] },
  {
    files: ['src/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: defects,
  },
  // tests/ (npm run lint:tests, not in the build: it doubles the lint's time for files whose defects fail a test
  // run anyway). Test tables and suites are long by nature, so no length limit; node:test's test() and describe()
  // return promises the runner itself awaits.
  {
    files: ['tests/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: './tsconfig.tests.json', tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      ...defects,
      'max-lines-per-function': 'off',
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', name: ['test', 'it', 'describe', 'suite'], package: 'node:test' },
          ],
        },
      ],
    },
  },
);
