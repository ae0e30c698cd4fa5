import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const clientRoot = fileURLToPath(new URL('./src/client', import.meta.url));

/**
 * Four projects: unit tests (no services), client tests (hooks and forms in jsdom), integration
 * tests (the app on a real database, Redis and SMTP when configured) and browser tests (the built
 * client in the system Chromium).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
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
        },
      },
    ],
  },
});
