import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Imports point inward only: domain <- application <- adapters. composition.ts wires
// the service, main.ts runs it; tests may import anything.
const inwardPatterns = (forbidden) =>
  forbidden.map((layer) => ({
    group: [`**/${layer}/**`, `**/${layer}`],
    message: `Imports point inward: this layer must not depend on ${layer}.`,
  }));
// The guardrails are used only through their public entry (checkVisitorMessage,
// sanitizeReply, BLOCK_REASONS); their insides import each other freely.
const GUARDRAILS_ENTRY_ONLY = {
  group: ['**/guardrails/*', '!**/guardrails/index.ts'],
  message: 'Use the guardrails through their public entry, domain/guardrails/index.ts.',
};
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
    files: ['test/**/*.ts', 'scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  { files: ['src/domain/**/*.ts'], rules: restricted(...inwardPatterns(['application', 'adapters']), GUARDRAILS_ENTRY_ONLY) },
  { files: ['src/domain/guardrails/**/*.ts'], rules: restricted(...inwardPatterns(['application', 'adapters'])) },
  { files: ['src/application/**/*.ts'], rules: restricted(...inwardPatterns(['adapters']), GUARDRAILS_ENTRY_ONLY) },
  {
    files: ['src/adapters/**/*.ts', 'src/adapters/**/*.tsx', 'src/*.ts', 'scripts/**/*.ts', 'packages/**/*.ts'],
    rules: restricted(
      { group: ['**/main', '**/main.ts'], message: 'main.ts is the entry point: nothing imports it.' },
      { group: ['**/composition', '**/composition.ts'], message: 'Only main.ts runs what composition.ts wires.' },
      GUARDRAILS_ENTRY_ONLY,
    ),
  },
  // main.ts runs the composed service; the scripts may compose it too.
  {
    files: ['src/main.ts', 'scripts/**/*.ts'],
    rules: restricted({ group: ['**/main', '**/main.ts'], message: 'main.ts is the entry point: nothing imports it.' }, GUARDRAILS_ENTRY_ONLY),
  },
  // The scorer's training and the filter's evaluation also reach its halves, through tooling.ts.
  {
    files: ['scripts/train-guardrails.ts', 'scripts/eval-guardrails.ts'],
    rules: restricted({ ...GUARDRAILS_ENTRY_ONLY, group: [...GUARDRAILS_ENTRY_ONLY.group, '!**/guardrails/tooling.ts'] }),
  },
);
