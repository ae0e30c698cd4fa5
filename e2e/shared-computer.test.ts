import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { paths } from '../src/client/config/paths.ts';
import { SESSION_CALL_HEADER } from '../src/shared/constants.ts';
import { refreshTokens } from '../src/server/db/schema.ts';
import { invalidateCatalogue } from '../src/server/modules/courses/catalogue.service.ts';
import { createCourse, createEnrolment, createUser, TEST_PASSWORD } from '../src/testing/factories.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { logInWithForm, logOutWith, signInAs } from './support/session.ts';

/*
 * A ship's shared computer, at 390 px: one learner logs out (with a link or without), the next
 * signs in on the same browser. The logout always ends the session at the server, and the next
 * learner starts from their own place, never from the page the last one left.
 */

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(() => harness?.close());

const db = () => harness.portal.runtime.db;

/** Whether each of the user's sessions has been ended at the server. */
async function sessionsEnded(userId: string): Promise<boolean[]> {
  const rows = await db().select({ revokedAt: refreshTokens.revokedAt }).from(refreshTokens).where(eq(refreshTokens.userId, userId));
  return rows.map((row) => row.revokedAt !== null);
}

/** The browser's session renewal, as any script of this browser could call it. */
const renewal = (page: Page) => page.request.post('/api/session/refresh', { headers: { [SESSION_CALL_HEADER.name]: SESSION_CALL_HEADER.value } });

const controlled = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);

/** What the page keeps in the current history entry and in local storage. */
const leftBehind = (page: Page) =>
  page.evaluate(() => ({ historyState: (history.state as { usr?: unknown } | null)?.usr ?? null, storage: Object.keys(localStorage).sort() }));

/** The bodies of the logouts the service worker holds for Background Sync (Workbox's queue). */
const queuedLogouts = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('workbox-background-sync');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('requests')) return resolve([]);
          const all = db.transaction('requests').objectStore('requests').getAll();
          all.onsuccess = () =>
            resolve(
              (all.result as Array<{ queueName: string; requestData: { body?: ArrayBuffer } }>)
                .filter((entry) => entry.queueName === 'logout')
                .map((entry) => (entry.requestData.body ? new TextDecoder().decode(entry.requestData.body) : '')),
            );
          all.onerror = () => reject(all.error);
        };
      }),
  );

async function logOutFromMenu(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: /menu/i }).click();
  await logOutWith(page, page.getByRole('dialog').getByRole('button', { name: 'Logout' }));
}

async function twoLearnersAndACourse() {
  const tag = randomUUID().slice(0, 8);
  const first = await createUser(db(), { approvedAt: new Date(), firstName: `Asha${tag}` });
  const next = await createUser(db(), { approvedAt: new Date(), firstName: `Ravi${tag}` });
  const course = await createCourse(db(), { title: `Ship security awareness ${tag}` });
  await createEnrolment(db(), { userId: first.id, courseId: course.id, status: 'approved', decidedAt: new Date() });
  invalidateCatalogue(harness.portal.runtime);
  return { first, next, course };
}

describe('a logout made with no link', () => {
  it('is sent before anything else when the link returns, and the session ends at the server', async () => {
    const { first, next, course } = await twoLearnersAndACourse();
    const { page, context } = await harness.newPage(390, 844);
    await signInAs(page, first.email);
    await page.goto(paths.courseContent(course.id));
    await page.getByRole('heading', { name: course.title }).first().waitFor();
    // The app at sea: its worker keeps the login page, where logging out lands.
    await expect.poll(() => controlled(page), { timeout: 20_000 }).toMatch(/\/sw\.js$/);

    await context.setOffline(true);
    await logOutFromMenu(page);
    await page.getByRole('heading', { name: /^Login to / }).waitFor();
    // Nothing of the learner's is left: no navigation state, no session; only the logout waiting.
    expect(await leftBehind(page)).toEqual({ historyState: null, storage: ['logoutPending'] });
    expect(await sessionsEnded(first.id)).toEqual([false]);
    // The service worker holds it too, naming the session it ends (a late copy ends nothing else).
    const sessionId = await page.evaluate(() => localStorage.getItem('logoutPending'));
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const queued = await queuedLogouts(page);
    expect(queued.length).toBeGreaterThan(0);
    for (const body of queued) expect(JSON.parse(body)).toEqual({ sessionId });

    // The link returns: the logout goes, and the session it ends stays ended.
    const back = Date.now();
    await context.setOffline(false);
    await expect.poll(() => sessionsEnded(first.id), { timeout: 20_000 }).toEqual([true]);
    const endedAfterMs = Date.now() - back;
    console.info(`offline logout: session ended ${endedAfterMs} ms after the link returned`);
    const renewed = await renewal(page);
    expect(renewed.status()).toBe(401);
    // The page has sent it too (the server answers a second copy alike), and forgets it.
    await expect.poll(() => leftBehind(page), { timeout: 15_000 }).toEqual({ historyState: null, storage: [] });

    // The next learner signs in and lands on their own dashboard.
    await logInWithForm(page, next.email);
    expect(new URL(page.url()).pathname).toBe(paths.dashboard);
    await page.getByRole('heading', { name: `Welcome, ${next.firstName}`, exact: false }).waitFor();
    // Every open course is listed; the last learner's is there to request, not to launch.
    await page.getByRole('button', { name: `Enrollment: ${course.title}` }).waitFor();
    expect(await page.getByRole('link', { name: `Launch ${course.title}` }).count()).toBe(0);
    expect(await sessionsEnded(next.id)).toEqual([false]);
    await context.close();
  });

  it('goes before the next learner’s login, which waits for the link and never replaces the session it ends', async () => {
    const { first, next } = await twoLearnersAndACourse();
    const { page, context } = await harness.newPage(390, 844);
    await signInAs(page, first.email);
    await page.goto(paths.dashboard);
    await page.getByRole('heading', { name: `Welcome, ${first.firstName}`, exact: false }).waitFor();
    await expect.poll(() => controlled(page), { timeout: 20_000 }).toMatch(/\/sw\.js$/);
    await context.setOffline(true);
    await logOutFromMenu(page);
    expect(await leftBehind(page)).toEqual({ historyState: null, storage: ['logoutPending'] });

    // Still no link: the next learner's login waits, saying so on its button.
    const calls: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/') || pathname.startsWith('/trpc/')) calls.push(pathname);
    });
    await page.getByLabel('Email Address').fill(next.email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Login', exact: true }).isDisabled()).toBe(true);
    expect(await sessionsEnded(first.id)).toEqual([false]);
    expect(await sessionsEnded(next.id)).toEqual([]);

    // The link returns: the logout goes first, then the login, on the cookie the logout cleared.
    await context.setOffline(false);
    await page.waitForURL((url) => url.pathname === paths.dashboard, { timeout: 20_000 });
    await page.getByRole('heading', { name: `Welcome, ${next.firstName}`, exact: false }).waitFor();
    const online = calls.slice(calls.lastIndexOf('/api/session/logout'));
    expect(online.slice(0, 2)).toEqual(['/api/session/logout', '/trpc/auth.login']);
    expect(await sessionsEnded(first.id)).toEqual([true]);
    expect(await sessionsEnded(next.id)).toEqual([false]);
    expect((await renewal(page)).status()).toBe(200);
    await context.close();
  });
});

describe('the next learner on the same browser', () => {
  it('lands on their own dashboard, not on the page the last one left nor one they step back to', async () => {
    const { first, next, course } = await twoLearnersAndACourse();
    const { page, context } = await harness.newPage(390, 844);
    await signInAs(page, first.email);
    await page.goto(paths.courseContent(course.id));
    await page.getByRole('heading', { name: course.title }).first().waitFor();
    await page.goto(paths.training(course.id));
    await page.getByRole('heading', { name: /training video/i }).waitFor();

    await logOutFromMenu(page);
    expect(await leftBehind(page)).toEqual({ historyState: null, storage: [] });
    expect(await sessionsEnded(first.id)).toEqual([true]);

    // A step back into the last learner's pages asks for a login, and keeps nothing of them.
    await page.goBack();
    await page.waitForURL((url) => url.pathname === paths.login, { timeout: 15_000 });
    expect(await leftBehind(page)).toEqual({ historyState: null, storage: [] });

    await logInWithForm(page, next.email);
    expect(new URL(page.url()).pathname).toBe(paths.dashboard);
    await page.getByRole('heading', { name: `Welcome, ${next.firstName}`, exact: false }).waitFor();
    await page.screenshot({ path: '/tmp/shared-computer-next-learner-390.png' });

    // A page the learner asks for themselves before signing in is still where the login leads.
    await logOutFromMenu(page);
    await page.goto(paths.courseContent(course.id));
    await page.waitForURL((url) => url.pathname === paths.login, { timeout: 15_000 });
    await logInWithForm(page, first.email);
    expect(new URL(page.url()).pathname).toBe(paths.courseContent(course.id));
    await context.close();
  });
});
