import { defineConfig } from 'vitest/config';

// Two cores: two worker processes. Every integration test file gets its own
// database (test/support/test-database.ts), so files run in parallel safely.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/openapi-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Generous: the browser and process tests run on shared two-core machines.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
