import { defineConfig } from 'vitest/config';

// Two cores: two worker processes. Every integration test file gets its own
// database (test/support/test-database.ts), so files run in parallel safely.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
