import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: the tests of the production shape (test/cluster), each starting the
 * cluster of `npm run cluster` itself; no shared stack (the main config's global setup) is started.
 */
export default defineConfig({
  test: {
    include: ['test/cluster/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 180_000,
    // The first run builds the Temporal server and UI with Go (minutes) and the service with tsc.
    hookTimeout: 900_000,
    teardownTimeout: 120_000,
    reporters: ['default'],
  },
});
