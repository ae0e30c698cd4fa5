import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths, utcDay } from '../src/shared/calendar.ts';
import { MESSAGES } from '../src/shared/messages.ts';
import { createCertificateRow, createTestRow } from '../src/testing/certificate-rows.ts';
import { createCourse, createProfileWithFiles, createUser } from '../src/testing/factories.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { signInAs } from './support/session.ts';

const CA = MESSAGES.certificateAdmin;
const CC = MESSAGES.courseCertificate;
/** Where the pictures of the screens go, to look at (set SCREENSHOT_DIR to keep them elsewhere). */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp';

let harness: BrowserHarness;

beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

type TUser = Awaited<ReturnType<typeof createUser>>;

/**
 * A course with a five-year certificate and three holders, all with a family name of their own
 * (`token`) to search by: one expiring in 20 days with a complete profile (re-issued, reminded),
 * one whose certificate lacks the INDoS and CDC numbers (the regulator's missing fields), one to
 * revoke. Written straight into the database, as a pass would leave them.
 */
async function certificatesOfOneCourse(token: string) {
  const db = harness.portal.runtime.db;
  const course = await createCourse(db, {
    title: `Fire Prevention ${token}`,
    code: 'FPFF',
    approvalNumber: 'DGS/TR/2026/17',
    certificateValidityMonths: 60,
  });
  const test = await createTestRow(db, course.id);
  const today = utcDay();
  const snapshot = (serial: number) => ({
    holderName: `Seafarer ${serial} ${token}`,
    holderDateOfBirth: '1994-05-14',
    holderIndosNo: `07K${serial}${token.toUpperCase()}`,
    holderPassportNumber: `P${serial}${token.toUpperCase()}`,
    holderCdcNumber: `CDC${serial}${token.toUpperCase()}`,
    courseCode: 'FPFF',
    approvalNumber: 'DGS/TR/2026/17',
    pdfFile: `${randomUUID()}.pdf`,
  });
  async function holder(serial: number, certificate: Parameters<typeof createCertificateRow>[2]) {
    const user = await createUser(db, { approvedAt: new Date(), firstName: `Seafarer ${serial}`, lastName: token, email: `seafarer${serial}-${token.toLowerCase()}@example.com` });
    await createProfileWithFiles(db, harness.portal.runtime.files, user.id, { name: `Seafarer ${serial} ${token}`, indosNo: `07K${serial}${token.toUpperCase()}` });
    const row = await createCertificateRow(db, { userId: user.id, courseId: course.id, testId: test.id }, { ...snapshot(serial), ...certificate });
    return { user, certificate: row };
  }
  const expiring = await holder(1, { validUntil: addDays(today, 20) });
  const lacking = await holder(2, { validUntil: addDays(addMonths(today, 60), -1), holderIndosNo: null, holderCdcNumber: null });
  const toRevoke = await holder(3, { validUntil: addDays(addMonths(today, 60), -1) });
  return { course, expiring, lacking, toRevoke };
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** A certificate's place on the list: its table row at desktop widths, its card on a phone. */
function certificateOf(page: Page, width: number, number: string): Locator {
  return width >= 1024 ? page.getByRole('row').filter({ hasText: number }) : page.getByRole('article', { name: `Certificate ${number}` });
}

async function adminWith(page: Page): Promise<TUser> {
  const admin = await createUser(harness.portal.runtime.db, { role: 'admin', approvedAt: new Date(), firstName: 'Asha', lastName: 'Admin' });
  await signInAs(page, admin.email);
  return admin;
}

describe('the administrators’ certificate screens', () => {
  it('an administrator finds, filters, revokes, re-issues and reminds at 1280 and 390 px, downloads the list, and exports a regulator’s batch', async () => {
    for (const width of [1280, 390]) {
      const token = `Crew${randomUUID().slice(0, 6)}`;
      const { course, expiring, lacking, toRevoke } = await certificatesOfOneCourse(token);
      const { page, context, problems } = await harness.newPage(width, width === 390 ? 844 : 900);
      await adminWith(page);

      // ---- Search and filters, kept in the address.
      await page.goto('/admin-dashboard/certificates');
      await page.getByRole('heading', { name: 'Certificates', level: 1 }).waitFor();
      await page.getByRole('searchbox', { name: /Search by learner/ }).fill(token);
      await page.waitForURL(new RegExp(`q=${token}`));
      await page.getByText('3 certificates').waitFor();
      const expiringRow = certificateOf(page, width, expiring.certificate.number);
      await expiringRow.getByText('Expiring', { exact: true }).waitFor();
      expect(await expiringRow.textContent()).toContain(token);
      expect(await expiringRow.textContent()).toContain('FPFF');
      await certificateOf(page, width, lacking.certificate.number).getByText('Valid', { exact: true }).waitFor();

      await page.getByLabel('State').selectOption('expiring');
      await page.getByLabel('Expiring within (days)').fill('30');
      await page.waitForURL(/state=expiring.*within=30|within=30.*state=expiring/);
      await page.getByText(/^1 certificate matching/).waitFor();
      await page.getByLabel('Expiring within (days)').fill('10');
      await page.getByText('No certificates match.').waitFor();
      await page.getByLabel('Expiring within (days)').fill('');
      await page.getByLabel('State').selectOption('');
      await page.getByText('3 certificates').waitFor();
      await page.screenshot({ path: `${SCREENSHOT_DIR}/admin-certificates-${width}.png`, fullPage: true });

      // ---- Revoke, with the reason the form requires.
      const revokeRow = certificateOf(page, width, toRevoke.certificate.number);
      await revokeRow.getByRole('button', { name: `Revoke certificate ${toRevoke.certificate.number}` }).click();
      const revokeDialog = page.getByRole('dialog', { name: 'Revoke certificate' });
      await revokeDialog.getByRole('button', { name: 'Revoke' }).click();
      await revokeDialog.getByText(CA.reasonRequired).waitFor();
      await page.screenshot({ path: `${SCREENSHOT_DIR}/admin-certificates-revoke-${width}.png` });
      await revokeDialog.getByLabel('Reason').fill('Identity document found forged');
      await revokeDialog.getByRole('button', { name: 'Revoke' }).click();
      await revokeDialog.waitFor({ state: 'detached' });
      await revokeRow.getByText('Revoked', { exact: true }).waitFor();
      await revokeRow.getByText('Reason: Identity document found forged').waitFor();
      expect(await revokeRow.getByRole('button', { name: /Revoke|Re-issue/ }).count()).toBe(0);

      // ---- Re-issue: same number, version 2.
      await expiringRow.getByRole('button', { name: `Re-issue certificate ${expiring.certificate.number}` }).click();
      const reissueDialog = page.getByRole('alertdialog', { name: 'Re-issue certificate' });
      expect(await reissueDialog.textContent()).toContain('The old version will answer superseded');
      await reissueDialog.getByRole('button', { name: 'Re-issue' }).click();
      await page.getByText(CA.reissued(2)).first().waitFor();
      await expiringRow.getByText('v2').waitFor();

      // ---- Send due reminders now: the expiring one is due its 30-day reminder.
      await page.getByRole('button', { name: 'Send due reminders now' }).click();
      const said = page.getByRole('status').filter({ hasText: /reminders? queued\.|No reminders were due\./ }).first();
      await said.waitFor();
      expect(await said.textContent()).toMatch(/^\d+ reminders? queued\.$/);
      await expiringRow.getByText('30 days before').waitFor();

      // ---- Its reminder history.
      await expiringRow.getByRole('button', { name: `Reminder history of certificate ${expiring.certificate.number}` }).click();
      const history = page.getByRole('dialog', { name: 'Reminder history' });
      const reminder = history.getByRole('listitem').first();
      await reminder.waitFor();
      expect(await reminder.textContent()).toContain('30 days before expiry');
      expect(await reminder.textContent()).toContain(`To ${expiring.user.email}`);
      expect(await reminder.textContent()).toContain('Run by Asha Admin');
      await page.screenshot({ path: `${SCREENSHOT_DIR}/admin-certificates-reminders-${width}.png` });
      await page.keyboard.press('Escape');
      await history.waitFor({ state: 'detached' });

      // The holder's profile is a link away.
      expect(await expiringRow.getByRole('link', { name: /^Profile of / }).getAttribute('href')).toBe(`/admin-dashboard/user-profiles/${expiring.user.id}`);

      // ---- The CSV of the list as filtered.
      const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
      const lines = readFileSync((await csv.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
      expect(lines[0]).toContain('Certificate number');
      expect(lines).toHaveLength(4);
      expect(lines.find((line) => line.includes(toRevoke.certificate.number))).toContain('Identity document found forged');
      expect(lines.find((line) => line.includes(expiring.certificate.number))).toContain('Expiring');
      expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/admin-certificates-after-${width}.png`, fullPage: true });

      // ---- The regulator's batch: what lacks a field first, with the way to the profile.
      await page.goto('/admin-dashboard/certificates/regulator-export');
      await page.getByRole('heading', { name: 'Regulator Export', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Preview batch' }).click();
      await page.getByText(MESSAGES.tests.courseRequired).waitFor();
      await page.getByLabel('Course', { exact: true }).selectOption({ label: course.title });
      await page.getByRole('button', { name: 'Preview batch' }).click();
      const missing = page.getByRole('region', { name: '1 completion lacks a required field' });
      await missing.waitFor();
      const lackingItem = missing.getByRole('listitem').filter({ hasText: lacking.certificate.number });
      expect(await lackingItem.textContent()).toContain('Missing: INDoS number and CDC number');
      expect(await lackingItem.getByRole('link', { name: `Profile of the holder of ${lacking.certificate.number}` }).getAttribute('href')).toBe(
        `/admin-dashboard/user-profiles/${lacking.user.id}`,
      );
      await page.getByRole('region', { name: 'Rows of the batch' }).getByText(expiring.certificate.number).waitFor();
      expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/regulator-export-${width}.png`, fullPage: true });

      const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download XLSX' }).click()]);
      expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(readFileSync((await xlsx.path())!) as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0]!;
      const rowsOf = (index: number) => Array.from({ length: sheet.columnCount }, (_, column) => sheet.getRow(index).getCell(column + 1).text);
      const header = rowsOf(1);
      expect(header.slice(0, 5)).toEqual(['INDoS Number', 'Name as in Passport', 'Date of Birth', 'Passport Number', 'CDC Number']);
      const numberColumn = header.indexOf('Certificate Number');
      const body = Array.from({ length: sheet.rowCount - 1 }, (_, index) => rowsOf(index + 2));
      const lackingLine = body.find((cells) => cells[numberColumn] === lacking.certificate.number)!;
      expect(lackingLine[0]).toBe('');
      expect(lackingLine[1]).toBe(`Seafarer 2 ${token}`);
      expect(body.some((cells) => cells[numberColumn] === expiring.certificate.number)).toBe(true);

      // ---- The course's certificate settings: the server's 400 under the field, then saved.
      await page.goto(`/admin-dashboard/create-course?edit=${course.id}`);
      const settings = page.getByRole('region', { name: 'Certificate settings' });
      const code = settings.getByLabel('Course code');
      await code.waitFor();
      expect(await code.inputValue()).toBe('FPFF');
      expect(await settings.getByLabel('Months', { exact: true }).inputValue()).toBe('60');
      await code.fill('F!');
      await settings.getByRole('button', { name: 'Save certificate settings' }).click();
      await settings.getByText(CC.codeFormat).waitFor();
      expect(await code.getAttribute('aria-invalid')).toBe('true');
      await settings.screenshot({ path: `${SCREENSHOT_DIR}/course-certificate-settings-error-${width}.png` });
      await code.fill('FPFF-R');
      await settings.getByLabel('Approval number').fill('DGS/TR/2026/18');
      await settings.getByRole('button', { name: 'Save certificate settings' }).click();
      await settings.getByText(CC.saved).waitFor();
      expect(await code.inputValue()).toBe('FPFF-R');
      await settings.screenshot({ path: `${SCREENSHOT_DIR}/course-certificate-settings-${width}.png` });
      expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(width);

      expect(problems.filter((problem) => !problem.includes('400'))).toEqual([]);
      await context.close();
    }
  }, 240_000);
});
