import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Names the directory a shared PostgreSQL server starts in when a test first asks for one.
    globalSetup: ['test/support/postgres-global.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
