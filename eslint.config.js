import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Imports point inward only: domain <- application <- adapters. main.ts and
// the scripts compose everything; tests may import anything.
const inward = (forbidden) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: forbidden.map((layer) => ({
        group: [`**/${layer}/**`, `**/${layer}`],
        message: `Imports point inward: this layer must not depend on ${layer}.`,
      })),
    },
  ],
});

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
  { files: ['src/domain/**/*.ts'], rules: inward(['application', 'adapters']) },
  { files: ['src/application/**/*.ts'], rules: inward(['adapters']) },
  {
    files: ['src/adapters/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/main', '**/main.ts'], message: 'Only main.ts composes the service.' }] },
      ],
    },
  },
);
