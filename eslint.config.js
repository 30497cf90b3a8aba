import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import boundaries from './lint/boundaries.js';

// Imports point inward only: domain <- application <- adapters. composition.ts wires
// the service, main.ts runs it; tests may import anything.
const inwardPatterns = (forbidden) =>
  forbidden.map((layer) => ({
    group: [`**/${layer}/**`, `**/${layer}`],
    message: `Imports point inward: this layer must not depend on ${layer}.`,
  }));
const MAIN_IS_ENTRY = { group: ['**/main', '**/main.ts'], message: 'main.ts is the entry point: nothing imports it.' };
// What a script shares with the tests lives in @careerbot/testkit, never in test/.
const NO_TEST_IMPORTS = { group: ['**/test/**', '**/test'], message: 'Scripts do not import test/: share it through @careerbot/testkit.' };
const restricted = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', 'coverage/**', 'dist/**', 'packages/*/dist/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Plain JavaScript scripts run on Node.
  { files: ['**/*.mjs', '**/*.js'], languageOptions: { globals: globals.node } },
  {
    // Tests read loosely typed JSON answers.
    files: ['test/**/*.ts', 'scripts/**/*.ts', 'packages/testkit/**/*.ts', 'packages/*/test/**/*.ts', 'packages/*/scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  { files: ['src/domain/**/*.ts'], rules: restricted(...inwardPatterns(['application', 'adapters'])) },
  { files: ['src/application/**/*.ts'], rules: restricted(...inwardPatterns(['adapters'])) },
  {
    files: ['src/adapters/**/*.ts', 'src/adapters/**/*.tsx', 'src/*.ts', 'scripts/**/*.ts', 'packages/**/*.ts'],
    rules: restricted(
      MAIN_IS_ENTRY,
      { group: ['**/composition', '**/composition.ts'], message: 'Only main.ts runs what composition.ts wires.' },
    ),
  },
  // main.ts runs the composed service; the scripts may compose it too, but share nothing with test/.
  { files: ['src/main.ts'], rules: restricted(MAIN_IS_ENTRY) },
  { files: ['scripts/**/*.ts'], rules: restricted(MAIN_IS_ENTRY, NO_TEST_IMPORTS) },
  // Boundaries judged by where an import lands (lint/boundaries.js; proved by test/unit/lint-boundaries.test.ts):
  // adapter folders stay apart, packages import no src/ and no other package's insides,
  // and everything else imports a package by its name.
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    rules: { 'boundaries/adapter-folders': 'error' },
  },
  {
    files: ['packages/**/*.{ts,tsx,js,mjs}'],
    plugins: { boundaries },
    rules: { 'boundaries/package-imports': 'error' },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'scripts/**/*.{ts,mjs}', 'test/**/*.{ts,tsx}'],
    plugins: { boundaries },
    rules: { 'boundaries/packages-by-name': 'error' },
  },
);
