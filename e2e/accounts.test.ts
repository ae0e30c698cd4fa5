import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/shared/messages.ts';
import { createUser, TEST_PASSWORD } from '../src/testing/factories.ts';
import { codeIn, mailsTo, uniqueEmail } from '../src/testing/mailbox.ts';
import { startSmtpServer } from '../src/testing/smtp-server.ts';
import { startBrowserHarness, waitForReact, type BrowserHarness } from './support/browser.ts';
import { logInWithForm, logOutWith, REFRESH_COOKIE, refreshCookieOf } from './support/session.ts';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let harness: BrowserHarness;

beforeAll(async () => {
  smtp = await startSmtpServer();
  harness = await startBrowserHarness({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await harness?.close();
  await smtp?.close();
});

const pathOf = (page: Page) => new URL(page.url()).pathname;

async function waitForPath(page: Page, path: string) {
  await page.waitForURL((url) => url.pathname === path, { timeout: 15_000 });
}

const storedSession = (page: Page) =>
  page.evaluate(() => ({
    accessToken: localStorage.getItem('accessToken'),
    hasRefreshCookie: localStorage.getItem('hasRefreshCookie'),
    user: localStorage.getItem('user'),
  }));
const SIGNED_OUT = { accessToken: null, hasRefreshCookie: null, user: null };

/** Whether the server still takes this refresh token (asked the way a spec client would). */
async function refreshTokenWorks(refreshToken: string): Promise<boolean> {
  const res = await fetch(`${harness.baseUrl}/api/user/refresh-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  });
  return res.status === 200;
}

/** A JWT-shaped token whose `exp` lies in the past (the server would refuse it anyway). */
function expiredAccessToken(role = 'learner'): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const exp = Math.floor(Date.now() / 1000) - 3600;
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'someone', role, exp })}.c2lnbmF0dXJl`;
}

describe('a new learner', () => {
  it('registers, verifies the code from the mail, logs in, waits for approval and is approved by an administrator', async () => {
    const { page, context, problems } = await harness.newPage(1280);
    const email = uniqueEmail('newcomer');

    await page.goto('/Registration');
    await page.getByRole('heading', { name: 'Create Account' }).waitFor();
    await page.getByLabel('First Name').fill('Meera');
    await page.getByLabel('Last Name').fill('Pillai');
    const mobile = page.getByLabel('Mobile Number');
    await waitForReact(mobile);
    await mobile.pressSequentially('98-765 43210 99');
    expect(await mobile.inputValue()).toBe('9876543210');
    const emailField = page.getByLabel('Email', { exact: true });
    await emailField.fill(email.toUpperCase());
    expect(await emailField.inputValue()).toBe(email);
    await page.getByLabel('Password', { exact: true }).fill('Anchor-2024');
    await page.getByLabel('Confirm Password').fill('Anchor-2025');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText(MESSAGES.validation.passwordsDiffer).waitFor();

    await page.getByLabel('Confirm Password').fill('Anchor-2024');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText(MESSAGES.auth.registered).waitFor();
    await waitForPath(page, '/otp');
    await page.getByText(email).waitFor();

    const [mail] = await mailsTo(smtp, email);
    const code = codeIn(mail!);
    const codeField = page.getByLabel('Verification code');
    await codeField.pressSequentially(`a${code}9`);
    expect(await codeField.inputValue()).toBe(code);
    expect(await codeField.getAttribute('autocomplete')).toBe('one-time-code');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(/verified/i).first().waitFor();
    await waitForPath(page, '/login');

    // The login screen has the e-mail already; a learner lands on the dashboard.
    expect(await page.getByLabel('Email Address').inputValue()).toBe(email);
    await logInWithForm(page, email, { password: 'Anchor-2024', screen: '/login' });
    expect(pathOf(page)).toBe('/dashboard');
    await page.getByText(MESSAGES.enrolment.accountNotApproved).waitFor();
    const stored = await storedSession(page);
    expect(stored.accessToken).toBeTruthy();
    expect(stored.hasRefreshCookie).toBe('true');
    expect(JSON.parse(stored.user!)).toMatchObject({ name: 'Meera Pillai', email, role: 'learner' });
    expect(JSON.parse(stored.user!)._id).toBeTruthy();

    const nav = page.getByRole('banner');
    expect(await nav.getByRole('link', { name: 'Profile', exact: true }).isVisible()).toBe(true);
    expect(await nav.getByRole('link', { name: 'Dashboard', exact: true }).isVisible()).toBe(true);
    expect(await nav.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
    expect(await nav.getByRole('link', { name: 'Login' }).count()).toBe(0);

    // An administrator approves the learner.
    const admin = await createUser(harness.portal.runtime.db, { role: 'admin' });
    const staff = await harness.newPage(1280);
    await staff.page.goto('/backend');
    await logInWithForm(staff.page, admin.email, { screen: '/backend' });
    expect(pathOf(staff.page)).toBe('/admin-dashboard');
    await staff.page.goto('/admin-dashboard/unapproved-users');
    const row = staff.page.getByRole('row').filter({ hasText: email });
    await row.waitFor();
    await row.getByRole('button', { name: /Approve/ }).click();
    const dialog = staff.page.getByRole('alertdialog');
    await dialog.getByText('Confirm Approval').waitFor();
    await dialog.getByText('Are you sure you want to approve this user?').waitFor();
    await dialog.getByRole('button', { name: 'Yes, Approve' }).click();
    await staff.page.getByText(MESSAGES.users.approved).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await row.waitFor({ state: 'detached' });
    await staff.page.goto('/admin-dashboard/approved-users');
    await staff.page.getByRole('row').filter({ hasText: email }).waitFor();
    expect(staff.problems).toEqual([]);
    await staff.context.close();

    // The learner's banner is gone on the next visit.
    const me = page.waitForResponse((response) => response.url().includes('auth.me'));
    await page.reload();
    await me;
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    await page.getByRole('link', { name: /Users/ }).waitFor();
    expect(await page.getByText(MESSAGES.enrolment.accountNotApproved).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('who has not verified the e-mail is sent to the code screen from the login', async () => {
    const learner = await createUser(harness.portal.runtime.db, { verifiedAt: null });
    const { page, context } = await harness.newPage(1280);
    await logInWithForm(page, learner.email, { screen: '/login' });
    expect(pathOf(page)).toBe('/otp');
    await page.getByText(MESSAGES.auth.emailNotVerified).waitFor();
    await page.getByRole('button', { name: 'Resend OTP' }).click();
    await page.getByText(/resent|sent/i).last().waitFor();
    await mailsTo(smtp, learner.email);
    await context.close();
  });

  it('without navigation state, the code screen asks to register again', async () => {
    const { page, context } = await harness.newPage(390);
    await page.goto('/otp');
    await page.getByText(MESSAGES.auth.emailNotProvided).waitFor();
    await context.close();
  });
});

describe('sessions and guards', () => {
  it('an expired session without a refresh cookie ends on load and opens /login', async () => {
    const { page, context } = await harness.newPage(1280);
    await page.goto('/');
    await page.evaluate((token) => {
      localStorage.setItem('accessToken', token);
      localStorage.setItem('user', JSON.stringify({ _id: 'x', name: 'Old Session', email: 'x@example.com', role: 'learner' }));
    }, expiredAccessToken());
    await page.goto('/dashboard');
    await waitForPath(page, '/login');
    await page.getByText(MESSAGES.auth.sessionExpired).waitFor();
    expect(await storedSession(page)).toEqual(SIGNED_OUT);
    await context.close();
  });

  it('keeps the refresh token out of reach of script, and a reload stays logged in', async () => {
    const learner = await createUser(harness.portal.runtime.db);
    const { page, context, problems } = await harness.newPage(1280);
    await logInWithForm(page, learner.email, { screen: '/login' });
    expect(pathOf(page)).toBe('/dashboard');
    const cookie = await refreshCookieOf(context);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/session' });
    const token = cookie!.value;

    const seenBy = (tab: Page) =>
      tab.evaluate(() => ({ cookies: document.cookie, storage: JSON.stringify(Object.entries(localStorage)) }));
    // Neither on a screen nor on a page under the cookie's own path (a 404, in a tab of its own)
    // can script read it.
    const underCookiePath = await context.newPage();
    await underCookiePath.goto('/api/session/refresh');
    for (const [where, seen] of [
      ['screen', await seenBy(page)],
      ['cookie path', await seenBy(underCookiePath)],
    ] as const) {
      expect(seen.cookies, where).not.toContain(REFRESH_COOKIE);
      expect(seen.cookies, where).not.toContain(token);
      expect(seen.storage, where).not.toContain(token);
      expect(seen.storage, where).not.toContain('refreshToken');
    }
    await underCookiePath.close();

    await page.reload();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    expect(pathOf(page)).toBe('/dashboard');
    expect((await storedSession(page)).accessToken).toBeTruthy();
    expect(problems, problems.join('\n')).toEqual([]);
    await context.close();
  });

  it('an expired access token is renewed with the refresh cookie instead', async () => {
    const learner = await createUser(harness.portal.runtime.db);
    const { page, context, problems } = await harness.newPage(1280);
    await logInWithForm(page, learner.email, { screen: '/login' });
    const before = await refreshCookieOf(context);
    const expired = expiredAccessToken();
    await page.evaluate((token) => localStorage.setItem('accessToken', token), expired);
    await page.reload();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    await page.waitForFunction((old) => {
      const token = localStorage.getItem('accessToken');
      return token !== null && token !== old;
    }, expired);
    // The renewal rotated the cookie.
    await expect.poll(async () => (await refreshCookieOf(context))?.value).not.toBe(before!.value);
    expect(pathOf(page)).toBe('/dashboard');
    expect(problems, problems.join('\n')).toEqual([]);
    await context.close();
  });

  it('a learner page without a token opens /login and returns there after login', async () => {
    const learner = await createUser(harness.portal.runtime.db);
    const { page, context } = await harness.newPage(1280);
    await page.goto('/dashboard');
    await waitForPath(page, '/login');
    await page.getByRole('heading', { name: /^Login to / }).waitFor();
    await logInWithForm(page, learner.email, { screen: '/login' });
    expect(pathOf(page)).toBe('/dashboard');
    await context.close();
  });

  it('the admin area with a learner token clears storage and opens /backend', async () => {
    const learner = await createUser(harness.portal.runtime.db);
    const { page, context } = await harness.newPage(1280);
    await logInWithForm(page, learner.email, { screen: '/login' });
    await page.goto('/admin-dashboard/unapproved-users');
    await waitForPath(page, '/backend');
    expect(await storedSession(page)).toEqual(SIGNED_OUT);

    // And /backend itself lets only administrators in.
    await page.getByLabel('Email Address').fill(learner.email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByText(MESSAGES.auth.adminOnly).waitFor();
    expect(pathOf(page)).toBe('/backend');
    await context.close();
  });

  it('the drawer shows Profile, Dashboard and Logout when logged in, and Logout ends the session', async () => {
    const learner = await createUser(harness.portal.runtime.db);
    const { page, context } = await harness.newPage(390);
    await logInWithForm(page, learner.email, { screen: '/login' });
    const cookie = await refreshCookieOf(context);
    await page.getByRole('banner').getByRole('button', { name: /menu/i }).click();
    const drawer = page.getByRole('dialog');
    await drawer.waitFor();
    for (const name of ['Home', 'Courses', 'Contact', 'Profile', 'Dashboard']) {
      expect(await drawer.getByRole('link', { name, exact: true }).isVisible(), name).toBe(true);
    }
    expect(await drawer.getByRole('link', { name: 'Login' }).count()).toBe(0);
    await logOutWith(page, drawer.getByRole('button', { name: 'Logout' }));
    await page.getByRole('heading', { name: /^Login to / }).waitFor();
    expect(await storedSession(page)).toEqual(SIGNED_OUT);

    // The session was revoked at the server, and the browser dropped the cookie.
    expect(await refreshTokenWorks(cookie!.value)).toBe(false);
    expect(await refreshCookieOf(context)).toBeUndefined();
    await context.close();
  });

  it('the administrator logout revokes the session and opens /backend', async () => {
    const admin = await createUser(harness.portal.runtime.db, { role: 'admin' });
    const { page, context } = await harness.newPage(1280);
    await logInWithForm(page, admin.email, { screen: '/backend' });
    const bar = page.getByRole('banner').filter({ hasText: 'Admin Dashboard' });
    await bar.waitFor();
    const cookie = await refreshCookieOf(context);
    await bar.getByRole('button', { name: 'Logout' }).click();
    await waitForPath(page, '/backend');
    expect(await storedSession(page)).toEqual(SIGNED_OUT);
    expect(await refreshTokenWorks(cookie!.value)).toBe(false);
    expect(await refreshCookieOf(context)).toBeUndefined();
    await context.close();
  });
});
