import { afterAll, beforeAll, expect, it } from 'vitest';
import { paths } from '../src/client/config/paths.ts';
import { FRAME_ATTRIBUTE } from '../src/shared/prerender.ts';
import { createUser } from '../src/testing/factories.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { signInAs } from './support/session.ts';

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(() => harness?.close());

// The admin menu's drawer comes on demand (decision 040): on a phone it opens from the keyboard,
// gives focus back to its button when closed, and closes as one of its links is followed.
it("the admin menu's drawer opens from the keyboard, gives focus back on Escape and closes on a link", async () => {
  const admin = await createUser(harness.portal.runtime.db, { role: 'admin' });
  const { page, context, problems } = await harness.newPage(390, 844);
  await signInAs(page, admin.email);
  await page.goto(paths.admin.users.approved);
  // The frame's button waits for the code; the app's is the one to use.
  await page.waitForFunction((attribute) => !document.querySelector(`[${attribute}]`), FRAME_ATTRIBUTE);
  const button = page.locator('button[aria-label="Open admin menu"]:not([disabled])');
  await button.focus();
  await page.keyboard.press('Enter');

  const drawer = page.getByRole('dialog', { name: 'Admin menu' });
  await drawer.waitFor();
  expect(await button.getAttribute('aria-expanded')).toBe('true');
  expect(await drawer.getByRole('link', { name: 'Approved Users', exact: true }).getAttribute('aria-current')).toBe('page');
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'detached' });
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Open admin menu');

  await button.click();
  await drawer.getByRole('link', { name: 'User Results' }).click();
  await page.getByRole('heading', { level: 1, name: 'Test Results' }).waitFor();
  await drawer.waitFor({ state: 'detached' });
  expect(new URL(page.url()).pathname).toBe(paths.admin.tests.results);
  expect(problems).toEqual([]);
  await context.close();
}, 120_000);
