import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { createTestPortal, type TestPortal } from '../../src/testing/test-runtime.ts';

const root = path.resolve(import.meta.dirname, '../..');
export const CLIENT_DIR = path.join(root, 'dist/client');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** The flags this machine's Chromium needs: no sandbox as root, and no calls to the outside. */
const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export type BrowserHarness = {
  portal: TestPortal;
  baseUrl: string;
  browser: Browser;
  /** A fresh page at the given viewport width; console errors and failed requests are collected. */
  newPage(width?: number, height?: number): Promise<{ page: Page; context: BrowserContext; problems: string[] }>;
  close(): Promise<void>;
};

/**
 * One data folder for the project's portals when they share its database (TEST_DATABASE_URL):
 * rows one test file leaves (a course with its picture, a learner's profile) show on the pages of
 * the next, and their files must be there too, as for two instances of the portal (decision 028).
 */
function projectDataDir(): string | undefined {
  const databaseUrl = inject('databaseUrl');
  if (!databaseUrl) return undefined;
  return path.join(tmpdir(), `portal-e2e-${createHash('sha256').update(databaseUrl).digest('hex').slice(0, 16)}`);
}

/** The real portal (built client included) listening on a free port, and a headless Chromium. */
export async function startBrowserHarness(options: Parameters<typeof createTestPortal>[0] = {}, listen: { port?: number } = {}): Promise<BrowserHarness> {
  if (!existsSync(path.join(CLIENT_DIR, 'index.html'))) {
    throw new Error('The client is not built: run `npm run build` first (npm test does).');
  }
  const portal = await createTestPortal({ sharedDataDir: projectDataDir(), ...options, clientDir: CLIENT_DIR });
  const address = await portal.app.listen({ port: listen.port ?? 0, host: '127.0.0.1' });
  const browser = await chromium.launch({ executablePath: CHROME, args: CHROME_ARGS, headless: true });
  return {
    portal,
    baseUrl: address,
    browser,
    async newPage(width = 1280, height = 900) {
      const context = await browser.newContext({ viewport: { width, height }, baseURL: address });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        // A failed load's message does not name the resource; its location does.
        const where = message.text().startsWith('Failed to load resource') ? ` (${message.location().url})` : '';
        if (message.type() === 'error') problems.push(`console: ${message.text()}${where}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      return { page, context, problems };
    },
    async close() {
      await browser.close();
      await portal.close();
    },
  };
}

/**
 * Waits until React has taken this element over (its props are attached): what a user types
 * before then lands in the server's markup, which keeps no rule of the form.
 */
export async function waitForReact(locator: Locator): Promise<void> {
  await locator.waitFor();
  await expect
    .poll(() => locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps'))))
    .toBe(true);
}
