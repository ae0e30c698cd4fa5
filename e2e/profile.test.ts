import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/shared/messages.ts';
import { createUser, indosNumber } from '../src/testing/factories.ts';
import { JPEG, PDF, PNG } from '../src/testing/multipart.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { signInAs } from './support/session.ts';

let harness: BrowserHarness;
let fileDir: string;
const file = (name: string) => path.join(fileDir, name);

beforeAll(async () => {
  harness = await startBrowserHarness();
  fileDir = mkdtempSync(path.join(tmpdir(), 'profile-e2e-'));
  writeFileSync(file('picture.png'), PNG);
  writeFileSync(file('passport-scan.pdf'), PDF);
  writeFileSync(file('signature.jpg'), JPEG);
  writeFileSync(file('new-signature.png'), PNG);
});
afterAll(async () => {
  await harness?.close();
  if (fileDir) rmSync(fileDir, { recursive: true, force: true });
});

/** YYYY-MM-DD, `months` from today. */
function monthsFromNow(months: number): string {
  const date = new Date();
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
}

async function imageLoaded(page: Page, alt: string): Promise<boolean> {
  const image = page.getByRole('img', { name: alt, exact: true });
  await image.waitFor();
  await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).complete)).toBe(true);
  return image.evaluate((element) => (element as HTMLImageElement).naturalWidth > 0);
}

describe('seafarer profile', () => {
  it('a learner creates a profile with real files, sees it, edits it; an administrator finds it; another learner cannot', async () => {
    const db = harness.portal.runtime.db;
    const learner = await createUser(db);
    const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
    const other = await createUser(db);
    const indos = indosNumber();
    const name = `Kavya Menon ${learner.id.slice(0, 4)}`;

    // ---- The learner has no profile yet: the creation form.
    const { page, context, problems } = await harness.newPage(1280);
    await signInAs(page, learner.email);
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Create your profile' }).waitFor();

    // Nothing filled in: the toast, and each field says what it needs.
    await page.locator('#profile-name').fill('');
    await page.getByRole('button', { name: 'Submit Profile' }).click();
    await page.getByText(MESSAGES.validation.fillProfile).waitFor();
    await page.getByText('Date of Birth is required').waitFor();
    await page.getByText('Profile Picture is required').waitFor();
    await page.getByText(MESSAGES.profile.consentRequired).waitFor();

    await page.locator('#profile-name').fill(name);
    await page.locator('#profile-dateOfBirth').fill('1992-03-18');
    await page.locator('#profile-phone').fill('98765 43210');
    await page.locator('#profile-gradeNumber').fill('II/2');
    await page.locator('#profile-passportNumber').fill('z7654321');
    await page.locator('#profile-passportExpiryDate').fill(monthsFromNow(3));
    await page.locator('#profile-cdcNumber').fill('MUM 123456');
    await page.locator('#profile-cdcExpiryDate').fill(monthsFromNow(36));
    await page.locator('#profile-indosNo').fill(indos);
    await page.locator('#profile-idType').selectOption({ label: 'Passport' });
    await page.locator('#profile-streetAddress').fill('14 Marine Drive');
    await page.locator('#profile-city').fill('Kochi');
    await page.locator('#profile-state').fill('Kerala');
    await page.locator('#profile-country').fill('India');
    await page.locator('#profile-zipCode').fill('682031');
    await page.locator('#profile-profilePicture').setInputFiles(file('picture.png'));
    await page.locator('#profile-idDocument').setInputFiles(file('passport-scan.pdf'));
    await page.locator('#profile-signature').setInputFiles(file('signature.jpg'));
    // Pictures are previewed, a PDF shows its name.
    expect(await imageLoaded(page, 'Preview of picture.png')).toBe(true);
    await page.getByText('passport-scan.pdf').waitFor();
    await page.locator('#profile-consent').click();

    await page.getByRole('button', { name: 'Submit Profile' }).click();
    await page.getByText(MESSAGES.profile.submitted).waitFor();

    // ---- After 1.5 s: the profile itself.
    await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe('/profile');
    expect(await imageLoaded(page, `Profile picture of ${name}`)).toBe(true);
    expect(await imageLoaded(page, `Signature of ${name}`)).toBe(true);
    const main = page.locator('main');
    await expect(main.textContent()).resolves.toContain('+919876543210');
    await expect(main.textContent()).resolves.toContain('Z7654321');
    await expect(main.textContent()).resolves.toContain('18 Mar 1992');
    expect(await main.getByText('Passport expires within 6 months').count()).toBeGreaterThan(0);
    const idLink = main.getByRole('link', { name: /View ID document/ });
    expect(await idLink.getAttribute('target')).toBe('_blank');
    const oldSignature = await page.getByRole('img', { name: `Signature of ${name}` }).getAttribute('src');

    // ---- Editing: a new city and a new signature.
    await page.getByRole('link', { name: 'Edit Profile' }).click();
    await page.getByRole('heading', { name: 'Edit Profile' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/updateUserProfile');
    expect(await page.locator('#profile-city').inputValue()).toBe('Kochi');
    expect(await page.locator('#profile-indosNo').inputValue()).toBe(indos);
    await page.getByRole('link', { name: /View current signature/ }).waitFor();
    await page.locator('#profile-city').fill('Mumbai');
    await page.locator('#profile-signature').setInputFiles(file('new-signature.png'));
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText(MESSAGES.profile.updated).waitFor();
    await page.waitForURL((url) => url.pathname === '/profile', { timeout: 10_000 });
    await main.getByText('Mumbai', { exact: true }).waitFor();
    expect(await imageLoaded(page, `Signature of ${name}`)).toBe(true);
    const newSignature = await page.getByRole('img', { name: `Signature of ${name}` }).getAttribute('src');
    expect(newSignature).not.toBe(oldSignature);

    // The edit screen needs the profile from the Edit Profile button.
    await page.goto('/updateUserProfile');
    await page.waitForURL((url) => url.pathname === '/profile');
    expect(problems).toEqual([]);
    await context.close();

    // ---- An administrator finds the profile by its INDOS number and opens the ID document.
    const adminPage = await harness.newPage(1280);
    await signInAs(adminPage.page, admin.email);
    await adminPage.page.goto('/admin-dashboard/user-profiles');
    await adminPage.page.getByRole('heading', { name: 'User Profiles' }).waitFor();
    await adminPage.page.getByLabel('Search profiles').fill(indos.toLowerCase());
    await adminPage.page.waitForURL((url) => url.searchParams.get('q') === indos.toLowerCase());
    const card = adminPage.page.getByRole('article', { name });
    await card.waitFor();
    await expect.poll(() => adminPage.page.getByRole('article').count()).toBe(1);
    await expect(card.textContent()).resolves.toContain('Mumbai');
    expect(await card.getByText('Passport expires within 6 months').count()).toBe(1);
    const documentLink = card.getByRole('link', { name: /ID document \(Passport\)/ });
    expect(await documentLink.getAttribute('target')).toBe('_blank');
    const href = await documentLink.getAttribute('href');
    const opened = await adminPage.page.request.get(href!);
    expect(opened.status()).toBe(200);
    expect(opened.headers()['content-type']).toContain('application/pdf');
    expect((await opened.body()).subarray(0, 5).toString()).toBe('%PDF-');

    await card.getByRole('link', { name: `View profile of ${name}` }).click();
    await adminPage.page.waitForURL((url) => url.pathname === `/admin-dashboard/user-profiles/${learner.id}`);
    await adminPage.page.getByRole('heading', { level: 1, name }).waitFor();
    await expect(adminPage.page.locator('main').textContent()).resolves.toContain(learner.email);

    // A reviewer reaches the same profile from the users awaiting approval.
    await adminPage.page.goto('/admin-dashboard/unapproved-users');
    const accountName = `${learner.firstName} ${learner.lastName}`;
    await adminPage.page.getByRole('link', { name: `View profile of ${accountName}` }).click();
    await adminPage.page.getByRole('heading', { level: 1, name }).waitFor();
    expect(adminPage.problems).toEqual([]);
    await adminPage.context.close();

    // ---- Another learner: the server answers as if there were no such profile...
    const otherPage = await harness.newPage(1280);
    const otherSession = await signInAs(otherPage.page, other.email);
    const input = encodeURIComponent(JSON.stringify({ userId: learner.id }));
    const byUser = await fetch(`${harness.baseUrl}/trpc/profiles.byUser?input=${input}`, {
      headers: { authorization: `Bearer ${otherSession.accessToken}` },
    });
    expect(byUser.status).toBe(404);
    expect(await byUser.text()).not.toContain(indos);

    // ...and the admin screens send them away.
    await otherPage.page.goto('/admin-dashboard/user-profiles');
    await otherPage.page.waitForURL((url) => !url.pathname.startsWith('/admin-dashboard'));
    await expect(otherPage.page.locator('body').textContent()).resolves.not.toContain(indos);
    await otherPage.context.close();
  });
});
