import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The web budgets' Lighthouse runs (decision 032). They time the browser's work, so `npm test`
 * runs them on their own after the other projects, never beside them: a machine busy with other
 * tests would make every page look slow.
 */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    name: 'lighthouse',
    include: ['lighthouse/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['src/testing/global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
