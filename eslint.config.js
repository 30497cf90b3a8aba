import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Imports point inward only: domain <- application <- adapters. main.ts and
// the scripts compose everything; tests may import anything.
const inwardPatterns = (forbidden) =>
  forbidden.map((layer) => ({
    group: [`**/${layer}/**`, `**/${layer}`],
    message: `Imports point inward: this layer must not depend on ${layer}.`,
  }));
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
    files: ['test/**/*.ts', 'scripts/**/*.ts', 'packages/*/test/**/*.ts', 'packages/*/scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  { files: ['src/domain/**/*.ts'], rules: restricted(...inwardPatterns(['application', 'adapters'])) },
  { files: ['src/domain/guardrails/**/*.ts'], rules: restricted(...inwardPatterns(['application', 'adapters'])) },
  { files: ['src/application/**/*.ts'], rules: restricted(...inwardPatterns(['adapters'])) },
  {
    files: ['src/adapters/**/*.ts', 'src/adapters/**/*.tsx', 'src/*.ts', 'scripts/**/*.ts', 'packages/**/*.ts'],
    rules: restricted({ group: ['**/main', '**/main.ts'], message: 'Only main.ts composes the service.' }),
  },
  // main.ts and the scripts compose the service: they may import main.ts itself.
  { files: ['src/main.ts', 'scripts/**/*.ts'], rules: { 'no-restricted-imports': 'off' } },
);
