import { defineConfig } from 'vitest/config';

/**
 * `npm run bench:lighthouse` (and the bench index, and CI after the tests): Lighthouse on the
 * main screens, measured as its command line runs it. Not part of `npm test`: its figures are
 * this machine's timings, which the suite never gates on (decision 048). One file, run alone.
 */
export default defineConfig({
  test: {
    name: 'lighthouse',
    root: new URL('..', import.meta.url).pathname,
    include: ['lighthouse/screens.ts'],
    environment: 'node',
    globalSetup: ['src/testing/global-setup.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
