import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/shared/messages.ts';
import { profiles } from '../src/server/db/schema.ts';
import { createProfileWithFiles, createUser, indosNumber } from '../src/testing/factories.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { signInAs } from './support/session.ts';

/** Where the pictures of the screens go, to look at (set SCREENSHOT_DIR to keep them elsewhere). */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp';

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('the identity checks', () => {
  it('a registrar verifies a profile from its documents at 1280 and 390 px', async () => {
    for (const width of [1280, 390]) {
      const db = harness.portal.runtime.db;
      const token = `Kapoor${randomUUID().slice(0, 6)}`;
      const learner = await createUser(db, { approvedAt: new Date(), firstName: 'Rohan', lastName: token });
      await createProfileWithFiles(db, harness.portal.runtime.files, learner.id, {
        name: `Rohan ${token}`,
        indosNo: indosNumber(),
        identityState: 'awaiting_check',
        identityCheckedAt: null,
      });
      const registrar = await createUser(db, { role: 'admin', staffRole: 'registrar', approvedAt: new Date(), firstName: 'Leela', lastName: `Pillai${width}` });
      const { page, context, problems } = await harness.newPage(width, width === 390 ? 844 : 900);
      await signInAs(page, registrar.email);

      // ---- The queue, awaiting check first, searched by name.
      await page.goto('/admin-dashboard/identity-checks');
      await page.getByRole('heading', { name: 'Identity checks', level: 1 }).waitFor();
      await page.getByRole('searchbox', { name: 'Search' }).fill(token);
      // The search is kept in the address once typing pauses.
      await page.waitForURL(new RegExp(`q=${token}`));
      await page.getByText('1 profile').waitFor();
      const item = page.getByRole('listitem').filter({ hasText: token });
      await item.getByText('Awaiting check').waitFor();
      expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/identity-queue-${width}.png`, fullPage: true });

      // ---- The check screen: the values beside the photograph, ID document and signature.
      await item.getByRole('link', { name: `Rohan ${token}` }).click();
      await page.getByRole('heading', { name: `Rohan ${token}`, level: 1 }).waitFor();
      const photo = page.getByRole('img', { name: `Photograph of Rohan ${token}` });
      await photo.waitFor();
      await page.waitForFunction(() => [...document.images].every((image) => image.complete && image.naturalWidth > 0));
      await page.getByRole('link', { name: /Open the ID document/ }).waitFor();
      await page.getByRole('img', { name: `Signature of Rohan ${token}` }).waitFor();
      expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/identity-check-${width}.png`, fullPage: true });

      // ---- Return asks for a reason before anything is sent.
      await page.getByRole('button', { name: 'Return to learner' }).click();
      const returning = page.getByRole('alertdialog', { name: 'Return the profile' });
      await returning.getByRole('button', { name: 'Return profile' }).click();
      await returning.getByRole('alert').getByText(MESSAGES.identity.reasonRequired).waitFor();
      await returning.getByRole('button', { name: 'Cancel' }).click();
      await returning.waitFor({ state: 'detached' });

      // ---- Verify, confirmed.
      await page.getByRole('button', { name: 'Verify' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Verify this identity' });
      await dialog.waitFor();
      await dialog.evaluate((element) => Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)));
      await page.screenshot({ path: `${SCREENSHOT_DIR}/identity-verify-dialog-${width}.png` });
      await dialog.getByRole('button', { name: 'Yes, Verify' }).click();
      await page.getByText(MESSAGES.identity.verified).first().waitFor();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('heading', { name: 'History' }).waitFor();
      await page.getByText(`by Leela Pillai${width}`).first().waitFor();
      const [row] = await db.select().from(profiles).where(eq(profiles.userId, learner.id));
      expect([row!.identityState, row!.identityCheckedBy]).toEqual(['verified', registrar.id]);
      expect(await page.getByRole('button', { name: 'Verify' }).count()).toBe(0);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/identity-verified-${width}.png`, fullPage: true });

      expect(problems).toEqual([]);
      await context.close();

      // ---- The learner's profile says it is verified, and that a change goes back for a check.
      const mine = await harness.newPage(width, width === 390 ? 844 : 900);
      await signInAs(mine.page, learner.email);
      await mine.page.goto('/profile');
      await mine.page.getByText(/^Identity verified on /).waitFor();
      await mine.page.getByText(/sends your profile back for a check/).waitFor();
      expect(await noSidewaysScroll(mine.page)).toBeLessThanOrEqual(width);
      await mine.page.screenshot({ path: `${SCREENSHOT_DIR}/identity-learner-profile-${width}.png` });
      expect(mine.problems).toEqual([]);
      await mine.context.close();
    }
  });
});
