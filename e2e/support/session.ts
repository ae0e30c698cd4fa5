import type { BrowserContext, Locator, Page } from 'playwright-core';
import { TEST_PASSWORD } from '../../src/testing/factories.ts';
import { freshTestCodeFor } from '../../src/testing/second-factor.ts';

export const REFRESH_COOKIE = 'portal_refresh';

export type TBrowserSession = { accessToken: string; user: { id: string; name: string; email: string; role: string } };

/**
 * Signs the page's browser in as the login screen does, without the typing: auth.login leaves the
 * refresh cookie in the browser context, and the access token and user go where the client keeps
 * them (lib/session/session.ts). The page is left on the home page.
 */
export async function signInAs(
  page: Page,
  email: string,
  password = TEST_PASSWORD,
  /** The member of staff's next code from their app (factory-made staff: computed from the e-mail). */
  nextCode: () => Promise<string> = () => freshTestCodeFor(email),
): Promise<TBrowserSession> {
  let res = await page.request.post('/trpc/auth.login', { data: { email, password } });
  if (!res.ok()) throw new Error(`login answered ${res.status()}: ${await res.text()}`);
  const answer = ((await res.json()) as { result: { data: TBrowserSession | { secondFactorRequired: true; challengeToken: string } } }).result.data;
  if ('secondFactorRequired' in answer) {
    // Staff give a code from their authenticator app, as the login's second step does.
    res = await page.request.post('/trpc/auth.secondFactor', { data: { challengeToken: answer.challengeToken, code: await nextCode() } });
    if (!res.ok()) throw new Error(`second factor answered ${res.status()}: ${await res.text()}`);
  }
  const session = ((await res.json()) as { result: { data: TBrowserSession } }).result.data;
  await page.goto('/');
  await page.evaluate(({ accessToken, user }) => {
    localStorage.setItem('accessToken', accessToken);
    localStorage.setItem('hasRefreshCookie', 'true');
    localStorage.setItem('user', JSON.stringify({ _id: user.id, name: user.name, email: user.email, role: user.role }));
  }, session);
  return session;
}

/**
 * Signs in through a login screen's form as a person does: the e-mail and password, then for staff
 * the code from their authenticator app. Opens `screen` first when the page is elsewhere, and waits
 * until the screen has moved on.
 */
export async function logInWithForm(page: Page, email: string, options: { password?: string; screen?: string } = {}): Promise<void> {
  const { password = TEST_PASSWORD } = options;
  const screen = options.screen ?? new URL(page.url()).pathname;
  if (new URL(page.url()).pathname !== screen) await page.goto(screen);
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  const code = page.getByLabel('Authentication code');
  const asked = await Promise.race([
    code.waitFor({ timeout: 15_000 }).then(() => true),
    page.waitForURL((url) => url.pathname !== screen, { timeout: 15_000 }).then(() => false),
  ]);
  if (asked) {
    await code.fill(await freshTestCodeFor(email));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
  }
  await page.waitForURL((url) => url.pathname !== screen, { timeout: 15_000 });
}

/** The browser's refresh cookie (HttpOnly: the page cannot see it, the context can), if any. */
export async function refreshCookieOf(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === REFRESH_COOKIE);
}

/**
 * Presses a public Logout button and waits for the fresh /login document it opens. Clearing the
 * session can let a guarded screen route to /login first, in the same document; the page is only
 * settled once the full load that follows has happened.
 */
export async function logOutWith(page: Page, logout: Locator): Promise<void> {
  const freshDocument = page.waitForEvent('load', { timeout: 20_000 });
  await logout.click();
  await freshDocument;
  await page.waitForURL((url) => url.pathname === '/login', { timeout: 15_000 });
}
