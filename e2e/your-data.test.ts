import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/shared/messages.ts';
import { users } from '../src/server/db/schema.ts';
import { renderCertificate } from '../src/server/modules/certificates/render-certificate.job.ts';
import { createCertificateRow, createTestRow } from '../src/testing/certificate-rows.ts';
import { createCourse, createProfileWithFiles, createUser, TEST_PASSWORD } from '../src/testing/factories.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { overflowing } from './support/layout.ts';
import { signInAs } from './support/session.ts';

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp';

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(() => harness?.close());

/** A learner with a profile (its files stored) and one certificate whose PDF is rendered. */
async function learnerWithCertificate() {
  const db = harness.portal.runtime.db;
  const unique = Date.now().toString(36);
  const learner = await createUser(db, { approvedAt: new Date(), firstName: 'Kavya', lastName: `Menon ${unique}` });
  await createProfileWithFiles(db, harness.portal.runtime.files, learner.id, { name: `Kavya Menon ${unique}` });
  const course = await createCourse(db, { title: `Elementary First Aid ${unique}` });
  const testId = (await createTestRow(db, course.id)).id;
  const certificate = await createCertificateRow(db, { userId: learner.id, courseId: course.id, testId }, { holderName: `Kavya Menon ${unique}`, status: 'pending' });
  await renderCertificate({ certificateId: certificate.id }, harness.portal.runtime.jobContext, { isLast: true });
  return { learner, course, certificate };
}

describe('Your data', () => {
  for (const width of [390, 1280]) {
    it(`a learner downloads their data and reads it back (${width} px)`, async () => {
      const { learner, certificate } = await learnerWithCertificate();
      const { page, context, problems } = await harness.newPage(width, width === 390 ? 844 : 900);
      try {
        await signInAs(page, learner.email);
        await page.goto('/profile');
        await page.getByRole('link', { name: 'Your data' }).click();
        await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Your data' }).isVisible()).toBe(true);
        await expect.poll(() => page.getByText(certificate.number).isVisible()).toBe(true);
        // Nothing wider than the screen, nothing past the edge of its card.
        expect(await overflowing(page)).toEqual({ page: false, elements: [] });
        await page.screenshot({ path: `${SCREENSHOT_DIR}/your-data-${width}.png`, fullPage: true });

        const downloading = page.waitForEvent('download');
        await page.getByRole('button', { name: 'Download your data' }).click();
        const download = await downloading;
        expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.zip$/);
        const files = unzipSync(readFileSync((await download.path())!));
        expect(JSON.parse(Buffer.from(files['account.json']!).toString()).email).toBe(learner.email);
        expect(Object.keys(files)).toContain(`certificates/${certificate.number.replaceAll('/', '-')}-v1.pdf`);
        expect(Object.keys(files).some((name) => name.startsWith('documents/photograph'))).toBe(true);
        await expect.poll(() => page.getByText(/Saved as my-data-.*\.zip/).isVisible()).toBe(true);
        await page.screenshot({ path: `${SCREENSHOT_DIR}/your-data-saved-${width}.png`, fullPage: true });
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('a learner closes their account: a wrong password changes nothing, the right one shows what was kept (390 px)', async () => {
    const { learner, certificate } = await learnerWithCertificate();
    const { page, context, problems } = await harness.newPage(390, 844);
    try {
      await signInAs(page, learner.email);
      await page.goto('/your-data');
      await expect.poll(() => page.getByText(certificate.number).isVisible()).toBe(true);
      const password = page.getByLabel('Your password');
      await password.fill('not my password');
      await page.getByRole('button', { name: 'Close my account and erase my data' }).click();
      await expect.poll(() => page.getByText(MESSAGES.personalData.passwordWrong).isVisible()).toBe(true);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/your-data-wrong-password-390.png`, fullPage: true });
      const [unchanged] = await harness.portal.runtime.db.select().from(users).where(eq(users.id, learner.id));
      expect(unchanged!.erasedAt).toBeNull();

      await password.fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Close my account and erase my data' }).click();
      const outcome = page.getByTestId('erasure-outcome');
      await expect.poll(() => outcome.isVisible()).toBe(true);
      expect(await outcome.textContent()).toContain(certificate.number);
      expect(await outcome.textContent()).toContain(MESSAGES.personalData.erased);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/your-data-erased-390.png`, fullPage: true });
      const [closed] = await harness.portal.runtime.db.select().from(users).where(eq(users.id, learner.id));
      expect(closed!.erasedAt).not.toBeNull();
      expect(problems.filter((problem) => !problem.includes('400'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
