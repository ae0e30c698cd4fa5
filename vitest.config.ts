import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const clientRoot = fileURLToPath(new URL('./src/client', import.meta.url));

/**
 * Five projects: unit tests (no services), client tests (hooks and forms in jsdom), integration
 * tests (the app on a real database, Redis and SMTP when configured), browser tests (the built
 * client in the system Chromium) and fault scripts (the built portal and worker as processes,
 * stopped, killed and cut off from their services). They assert behaviour and fixed budgets
 * (bytes, requests, queries), never this machine's timings: Lighthouse and every timing are
 * `npm run bench`'s (lighthouse/vitest.config.ts, bench/; decision 048).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'build/**/*.test.ts'],
          exclude: ['src/**/*.int.test.ts', 'src/client/**'],
          environment: 'node',
          setupFiles: ['src/testing/fail-on-console-error.ts'],
        },
      },
      {
        resolve: { alias: { '@': clientRoot } },
        test: {
          name: 'client',
          include: ['src/client/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src/testing/fail-on-console-error.ts', 'src/client/testing/cleanup-after-each.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['src/**/*.int.test.ts'],
          environment: 'node',
          globalSetup: ['src/testing/global-setup.ts'],
          setupFiles: ['src/testing/fail-on-console-error.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['src/testing/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'faults',
          include: ['faults/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['src/testing/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
