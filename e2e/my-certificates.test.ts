import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, utcDay } from '../src/shared/calendar.ts';
import { MESSAGES } from '../src/shared/messages.ts';
import { enrolments, users } from '../src/server/db/schema.ts';
import { renderCertificate } from '../src/server/modules/certificates/render-certificate.job.ts';
import { createCertificateRow, createTestRow } from '../src/testing/certificate-rows.ts';
import { createCourse, createEnrolment, createUser, sessionOf } from '../src/testing/factories.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { signInAs } from './support/session.ts';

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp';
const M = MESSAGES.certificateAdmin;

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(() => harness?.close());

/** "15 Jan 2027" for "2027-01-15", as the pages write a calendar day. */
function written(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];
  return `${String(date).padStart(2, '0')} ${months[month! - 1]} ${year}`;
}

/**
 * A learner with a certificate in every state, written into the database with the dates that make
 * each state today: valid (no expiry, its PDF rendered for real), expiring (in 20 days, its course
 * has a refresher), expired (10 days ago, the refresher already requested), revoked with a reason,
 * superseded by its refresher's certificate, and one whose PDF is still being prepared.
 */
async function learnerWithCertificates() {
  const db = harness.portal.runtime.db;
  const today = utcDay();
  const unique = Date.now().toString(36);
  const learner = await createUser(db, { approvedAt: new Date(), firstName: 'आरव', lastName: `शर्मा ${unique}` });
  const holderName = `${learner.firstName} ${learner.lastName}`;

  async function courseWithTest(title: string, extra: Parameters<typeof createCourse>[1] = {}) {
    const course = await createCourse(db, { title: `${title} ${unique}`, ...extra });
    return { ...course, testId: (await createTestRow(db, course.id)).id };
  }
  const certificateOf = (course: { id: string; testId: string }, values: Parameters<typeof createCertificateRow>[2] = {}) =>
    createCertificateRow(db, { userId: learner.id, courseId: course.id, testId: course.testId }, { holderName, ...values });

  const fpffRefresher = await courseWithTest('FPFF Refresher');
  const fpff = await courseWithTest('Fire Prevention and Fire Fighting', { code: 'FPFF', approvalNumber: 'DGS/FPFF/2024/17', certificateValidityMonths: 60, refresherCourseId: fpffRefresher.id });
  const pstRefresher = await courseWithTest('PST Refresher');
  const pst = await courseWithTest('Personal Survival Techniques', { code: 'PST', certificateValidityMonths: 60, refresherCourseId: pstRefresher.id });
  const firstAid = await courseWithTest('Elementary First Aid');
  const security = await courseWithTest('Security Awareness');
  const pscRefresher = await courseWithTest('PSCRB Refresher');
  const psc = await courseWithTest('Proficiency in Survival Craft', { certificateValidityMonths: 60, refresherCourseId: pscRefresher.id });
  const medical = await courseWithTest('Medical First Aid');

  // Each PDF rendered by the real job, but the one still being prepared.
  const rendered = async (course: { id: string; testId: string }, values: Parameters<typeof createCertificateRow>[2] = {}) => {
    const row = await certificateOf(course, { status: 'pending', ...values });
    await renderCertificate({ certificateId: row.id }, harness.portal.runtime.jobContext, { isLast: true });
    return row;
  };
  const issued = new Date(Date.now() - 3 * 365 * 86_400_000);
  const valid = await rendered(firstAid);
  const expiring = await rendered(fpff, { validUntil: addDays(today, 20), courseCode: 'FPFF', approvalNumber: 'DGS/FPFF/2024/17', issuedAt: issued });
  const expired = await rendered(pst, { validUntil: addDays(today, -10), courseCode: 'PST', issuedAt: issued });
  await createEnrolment(db, { userId: learner.id, courseId: pstRefresher.id });
  const revoked = await certificateOf(security, { revokedAt: new Date(), revokeReason: 'Issued to the wrong learner' });
  const renewing = await rendered(pscRefresher);
  const superseded = await rendered(psc, { validUntil: addDays(today, 5), supersededAt: new Date(), supersededById: renewing.id, issuedAt: issued });
  const preparing = await certificateOf(medical, { status: 'pending' });

  return {
    learner,
    holderName,
    courses: { fpff, fpffRefresher, pst, firstAid, security, psc, pscRefresher, medical },
    certificates: { valid, expiring, expired, revoked, superseded, renewing, preparing },
    today,
  };
}

const card = (page: Page, title: string) => page.getByRole('article', { name: title });

describe('My certificates', () => {
  it('a learner sees each state and date, copies the link, enrols in a refresher and turns reminders off (390 px and 1280 px)', async () => {
    const db = harness.portal.runtime.db;
    const { learner, courses, certificates, today } = await learnerWithCertificates();
    const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
    // The expiring certificate was re-issued once (a name correction): version 2.
    const firstCode = certificates.expiring.verificationCode;
    await harness.portal.caller(sessionOf(admin)).certificates.reissue({ certificateId: certificates.expiring.id });
    await harness.portal.drainJobs();

    for (const width of [390, 1280]) {
      const { page, context, problems } = await harness.newPage(width, width === 390 ? 844 : 900);
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await signInAs(page, learner.email);

      // From the dashboard's link beside the tiles (the Reports tile keeps the spec's certificate report).
      await page.goto('/dashboard');
      expect(await page.getByRole('link', { name: /^Reports/ }).getAttribute('href')).toBe('/certificate-report');
      await page.getByRole('link', { name: /^My certificates Validity/ }).click();
      await page.waitForURL('**/my-certificates');
      await page.getByRole('heading', { level: 1, name: 'My certificates' }).waitFor();
      await card(page, courses.firstAid.title).waitFor();
      expect(await page.getByRole('article').count()).toBe(7);

      const valid = card(page, courses.firstAid.title);
      expect(await valid.getByText('Valid', { exact: true }).count()).toBe(1);
      expect(await valid.getByText('Does not expire').count()).toBe(1);
      expect(await valid.getByText(certificates.valid.number, { exact: true }).count()).toBe(1);
      const download = valid.getByRole('link', { name: /Download PDF/ });
      const pdfUrl = (await download.getAttribute('href'))!;
      const pdf = await page.request.get(pdfUrl);
      expect(pdf.status()).toBe(200);
      expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
      expect(await valid.getByRole('link', { name: /Enrol in refresher/ }).count()).toBe(0);

      const expiring = card(page, courses.fpff.title);
      expect(await expiring.getByText('Expiring', { exact: true }).count()).toBe(1);
      expect(await expiring.getByText('FPFF', { exact: true }).count()).toBe(1);
      expect(await expiring.getByText('version 2').count()).toBe(1);
      expect(await expiring.getByText(written(addDays(today, 20)), { exact: true }).count()).toBe(1);

      const expired = card(page, courses.pst.title);
      expect(await expired.getByText('Expired', { exact: true }).count()).toBe(1);
      expect(await expired.getByText(written(addDays(today, -10)), { exact: true }).count()).toBe(1);
      expect(await expired.getByText(/^Refresher requested/).count()).toBe(1);
      expect(await expired.getByRole('link', { name: /Enrol in refresher/ }).count()).toBe(0);

      const revoked = card(page, courses.security.title);
      expect(await revoked.getByText('Revoked', { exact: true }).count()).toBe(1);
      expect(await revoked.getByText(/Reason: Issued to the wrong learner/).count()).toBe(1);
      expect(await revoked.getByRole('link', { name: /Download PDF/ }).count()).toBe(0);

      const superseded = card(page, courses.psc.title);
      expect(await superseded.getByText('Superseded', { exact: true }).count()).toBe(1);
      expect(await superseded.getByText(certificates.renewing.number, { exact: true }).count()).toBe(1);
      expect(await superseded.getByRole('link', { name: /Enrol in refresher/ }).count()).toBe(0);

      expect(await card(page, courses.medical.title).getByText('The PDF is being prepared…').count()).toBe(1);

      // The learner's verification link, copied, opens the verify page with their name.
      await valid.getByRole('button', { name: 'Copy verification link' }).click();
      await valid.getByText('Link copied').waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(`${harness.baseUrl}/verify/${certificates.valid.number}?code=${certificates.valid.verificationCode}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      await page.screenshot({ path: `${SCREENSHOT_DIR}/my-certificates-${width}.png`, fullPage: true });
      await expiring.screenshot({ path: `${SCREENSHOT_DIR}/my-certificates-expiring-${width}.png` });

      if (width === 390) {
        // Reminders off: the server keeps it, and says so.
        const toggle = page.getByRole('switch', { name: 'E-mail me before a certificate expires' });
        expect(await toggle.isChecked()).toBe(true);
        await toggle.click();
        await page.getByText(M.remindersOff).waitFor();
        const [row] = await db.select({ on: users.certificateReminders }).from(users).where(eq(users.id, learner.id));
        expect(row!.on).toBe(false);
        expect(await harness.portal.caller(sessionOf(learner)).certificates.reminderPreference()).toEqual({ remindersOn: false });
        await page.reload();
        await card(page, courses.firstAid.title).waitFor();
        expect(await page.getByRole('switch', { name: 'E-mail me before a certificate expires' }).isChecked()).toBe(false);

        // Enrol in refresher: the catalogue sends the request for the refresher course.
        await card(page, courses.fpff.title).getByRole('link', { name: /Enrol in refresher/ }).click();
        await page.waitForURL('**/courses');
        await page.getByText(MESSAGES.enrolment.submitted).first().waitFor();
        const requested = await db
          .select({ status: enrolments.status })
          .from(enrolments)
          .where(and(eq(enrolments.userId, learner.id), eq(enrolments.courseId, courses.fpffRefresher.id)));
        expect(requested).toEqual([{ status: 'pending' }]);
        await page.goto('/my-certificates');
        await card(page, courses.fpff.title).getByText(/^Refresher requested/).waitFor();
      } else {
        expect(await page.getByRole('switch', { name: 'E-mail me before a certificate expires' }).isChecked()).toBe(false);
        // From the navigation bar too.
        await page.goto('/dashboard');
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My certificates' }).click();
        await page.waitForURL('**/my-certificates');
        await card(page, courses.fpff.title).getByText(/^Refresher requested/).waitFor();
      }
      expect(problems).toEqual([]);
      await context.close();
    }

    // The verify page: the expiring certificate's current code, and its first version's.
    const current = await harness.portal.caller(sessionOf(learner)).certificates.mine();
    const expiringNow = current.find((item) => item.id === certificates.expiring.id)!;
    for (const width of [390, 1280]) {
      const { page, context, problems } = await harness.newPage(width, width === 390 ? 844 : 900);
      await page.goto(`/verify/${expiringNow.number}?code=${expiringNow.verificationCode}`);
      const verdict = page.getByRole('region', { name: 'Valid certificate, expiring soon' });
      await verdict.waitFor();
      const text = (await verdict.textContent())!;
      expect(text).toContain(written(addDays(today, 20)));
      expect(text).toContain('DGS/FPFF/2024/17');
      expect(text).toContain('version 2');
      // The verdict and the holder's name on the first screen of a phone, the name in its own letters.
      const name = page.getByTestId('holder-name');
      const box = (await name.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(width === 390 ? 844 : 900);
      await page.evaluate(() => document.fonts.ready);
      const loaded = await page.evaluate(() => [...document.fonts].filter((face) => face.status === 'loaded').map((face) => face.family.replaceAll('"', '')));
      expect(loaded).toContain('Noto Serif Devanagari');
      const fontFiles = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name).filter((url) => url.includes('noto-serif')));
      // Only the subsets the name uses: Devanagari for the letters, Latin for the digits and spaces.
      expect(fontFiles.some((url) => url.includes('devanagari-devanagari-700'))).toBe(true);
      expect(fontFiles.filter((url) => /cyrillic|greek|vietnamese|math/.test(url))).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/verify-expiring-${width}.png`, fullPage: true });

      await page.goto(`/verify/${expiringNow.number}?code=${firstCode}`);
      const old = page.getByRole('region', { name: 'Not the current version' });
      await old.waitFor();
      expect(await old.textContent()).toContain(MESSAGES.certificate.supersededVersion(2));
      expect(await page.getByTestId('holder-name').count()).toBe(0);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/verify-superseded-version-${width}.png`, fullPage: true });
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('the signed-in bar holds My certificates from 601 px (the widest phone layout is 600 px) without spilling over', async () => {
    const learner = await createUser(harness.portal.runtime.db, { approvedAt: new Date() });
    for (const width of [601, 768, 1024]) {
      const { page, context } = await harness.newPage(width, 800);
      await signInAs(page, learner.email);
      await page.goto('/dashboard');
      // The app's own render (the server's frame comes first), with the learner's greeting.
      await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
      const right = await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'My certificates' })
        .evaluate((link) => link.getBoundingClientRect().right);
      expect(right, `${width} px`).toBeLessThanOrEqual(width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width} px`).toBeLessThanOrEqual(width);
      await context.close();
    }
  });

  it('the home page and the other public pages load no name fonts', async () => {
    const { page, context } = await harness.newPage(1280);
    for (const address of ['/', '/courses', '/verify']) {
      await page.goto(address);
      await page.waitForLoadState('networkidle');
      const fonts = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name).filter((url) => url.includes('noto-serif')));
      expect(fonts, address).toEqual([]);
    }
    await context.close();
  });
});
