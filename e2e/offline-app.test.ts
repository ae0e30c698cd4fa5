import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { paths } from '../src/client/config/paths.ts';
import { invalidateCatalogue } from '../src/server/modules/courses/catalogue.service.ts';
import { createCourse, createEnrolment, createUser } from '../src/testing/factories.ts';
import { CLIENT_DIR, startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { logOutWith, signInAs } from './support/session.ts';

/*
 * The installable app at sea (decision 050): once signed in, the service worker keeps the app's
 * code and the learner's pages, the app keeps the learner's last data per user, and with no
 * network the dashboard and Your Courses open with it and say when it was fetched. A second
 * learner on the same browser sees nothing of the first's.
 */

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(() => harness?.close());

/** The keys of the learner data the app keeps on the device (lib/pwa/query-persistence.ts). */
const keptRecords = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('academy-offline-data');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('query-cache')) return resolve([]);
          const keys = db.transaction('query-cache').objectStore('query-cache').getAllKeys();
          keys.onsuccess = () => resolve(keys.result.map(String));
          keys.onerror = () => reject(keys.error);
        };
      }),
  );

/** The procedures whose answers are kept under `key`, sorted. */
const keptProcedures = (page: Page, key: string) =>
  page.evaluate(
    (key) =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('academy-offline-data');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('query-cache')) return resolve([]);
          const read = db.transaction('query-cache').objectStore('query-cache').get(key);
          read.onsuccess = () => {
            const record = read.result as { state: { queries: Array<{ queryKey: [string[]] }> } } | undefined;
            resolve((record?.state.queries ?? []).map((query) => query.queryKey[0].join('.')).sort());
          };
          read.onerror = () => reject(read.error);
        };
      }),
    key,
  );

const controlled = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);

/** The pages the service worker keeps, by path. */
const keptPages = (page: Page) =>
  page.evaluate(async () => (await (await caches.open('pages')).keys()).map((request) => new URL(request.url).pathname));

describe('the installable app', () => {
  it("is named after the academy, opens on the dashboard, and its worker's script is never kept by the HTTP cache", async () => {
    const { page, context } = await harness.newPage(390, 844);
    for (const address of ['/', paths.courses, paths.login, paths.dashboard]) {
      await page.goto(address);
      expect(await page.locator('link[rel="manifest"]').getAttribute('href'), address).toBe('/manifest.webmanifest');
    }
    const manifest = await page.request.get('/manifest.webmanifest');
    expect(manifest.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const body = (await manifest.json()) as { name: string; start_url: string; display: string; icons: Array<{ src: string; purpose: string }> };
    expect(body).toMatchObject({ name: harness.portal.runtime.site.name, start_url: '/dashboard', display: 'standalone' });
    expect(body.icons.map((icon) => icon.purpose)).toEqual(['any', 'any', 'maskable', 'maskable']);
    for (const icon of body.icons) {
      const answer = await page.request.get(icon.src);
      expect(answer.headers()['content-type'], icon.src).toBe('image/png');
    }
    const worker = await page.request.get('/sw.js');
    expect(worker.ok()).toBe(true);
    expect(worker.headers()['cache-control']).toBe('no-cache');
    await context.close();
  });
});

describe('the app with no network', () => {
  it("opens the learner's dashboard and Your Courses with the last data and when it was fetched; the next learner sees none of it", async () => {
    const db = harness.portal.runtime.db;
    const tag = randomUUID().slice(0, 8);
    const first = await createUser(db, { approvedAt: new Date(), firstName: `Asha${tag}` });
    const second = await createUser(db, { approvedAt: new Date(), firstName: `Ravi${tag}` });
    const course = await createCourse(db, { title: `Survival at sea ${tag}` });
    await createEnrolment(db, { userId: first.id, courseId: course.id, status: 'approved', decidedAt: new Date() });
    invalidateCatalogue(harness.portal.runtime);

    const { page, context } = await harness.newPage(390, 844);
    await signInAs(page, first.email);
    await page.goto(paths.dashboard);
    await page.getByRole('heading', { name: `Welcome, ${first.firstName}`, exact: false }).waitFor();
    // Registered after the page has loaded; it takes the page over at once (clientsClaim).
    await expect.poll(() => controlled(page), { timeout: 20_000 }).toMatch(/\/sw\.js$/);
    // The dashboard's page, fetched before the worker existed, is kept at the page's request.
    await expect.poll(() => keptPages(page)).toContain(paths.dashboard);
    await expect.poll(() => keptProcedures(page, `queries:${first.id}`)).toEqual(['auth.me', 'enrolments.dashboard']);

    await page.goto(paths.userCourses);
    await page.getByRole('heading', { name: course.title }).waitFor();
    await expect.poll(() => keptRecords(page)).toEqual([`queries:${first.id}`]);
    await expect.poll(() => keptProcedures(page, `queries:${first.id}`)).toEqual(['auth.me', 'enrolments.dashboard', 'enrolments.mine']);
    await expect.poll(() => keptPages(page)).toContain(paths.userCourses);

    // Nothing of the API is in the worker's caches: no calls, no session, no media, no private files.
    const cached = await page.evaluate(async () => {
      const paths: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
      return paths;
    });
    expect(cached.length).toBeGreaterThan(10);
    expect(cached.filter((pathname) => /^\/(trpc|api\/(?!uploads\/courseImg\/|files\/trainingVideo\/))/.test(pathname))).toEqual([]);

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: course.title }).waitFor();
    const line = page.getByRole('status').filter({ hasText: /^Offline: last updated \d{2} \w+ \d{4}, \d{1,2}:\d{2} (am|pm)$/ });
    await line.waitFor();
    expect(await line.isVisible()).toBe(true);
    const box = await line.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: '/tmp/offline-user-courses-390.png' });

    // The dashboard, opened offline: the learner, the course, the line. Not signed out.
    await page.goto(paths.dashboard);
    await page.getByRole('heading', { name: `Welcome, ${first.firstName}`, exact: false }).waitFor();
    await page.getByText(course.title).first().waitFor();
    await line.waitFor();
    await page.screenshot({ path: '/tmp/offline-dashboard-390.png' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: '/tmp/offline-dashboard-1280.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    // A learner page never opened online: the dashboard's page, drawn as the address says.
    await page.goto(paths.myCertificates);
    await expect.poll(() => page.evaluate(() => window.location.pathname)).toBe(paths.myCertificates);
    await page.getByRole('status').filter({ hasText: /^Offline:/ }).waitFor();

    // Back online: the line goes. Logout removes the kept data; the worker stays.
    await context.setOffline(false);
    await page.goto(paths.dashboard);
    await page.getByRole('heading', { name: `Welcome, ${first.firstName}`, exact: false }).waitFor();
    await expect.poll(() => page.getByRole('status').filter({ hasText: /Offline/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await logOutWith(page, page.getByRole('button', { name: 'Logout' }));
    await page.getByRole('heading', { name: /^Login to / }).waitFor();
    await expect.poll(() => keptRecords(page)).toEqual([]);
    await expect.poll(() => controlled(page)).toMatch(/\/sw\.js$/);

    // The second learner, same browser: their own record, and nothing of the first's, online or not.
    await signInAs(page, second.email);
    await page.goto(paths.dashboard);
    await page.getByRole('heading', { name: `Welcome, ${second.firstName}`, exact: false }).waitFor();
    await expect.poll(() => keptProcedures(page, `queries:${second.id}`)).toEqual(['auth.me', 'enrolments.dashboard']);
    await page.goto(paths.userCourses);
    await page.getByRole('heading', { name: /Your Courses/i }).first().waitFor();
    await expect.poll(() => keptRecords(page)).toEqual([`queries:${second.id}`]);
    await expect.poll(() => keptProcedures(page, `queries:${second.id}`)).toEqual(['auth.me', 'enrolments.dashboard', 'enrolments.mine']);
    expect(await page.getByText(course.title).count()).toBe(0);
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('status').filter({ hasText: /^Offline: last updated/ }).waitFor();
    await page.getByRole('heading', { name: /Your Courses/i }).first().waitFor();
    expect(await page.getByText(course.title).count()).toBe(0);
    await page.goto(paths.dashboard);
    await page.getByRole('heading', { name: `Welcome, ${second.firstName}`, exact: false }).waitFor();
    expect(await page.getByText(first.firstName).count()).toBe(0);
    await context.close();
  });
});

describe("a new build's worker", () => {
  it('fetches again the learner pages the last one kept, whose files it no longer keeps', async () => {
    const learner = await createUser(harness.portal.runtime.db, { approvedAt: new Date() });
    const { page, context } = await harness.newPage(390, 844);
    await signInAs(page, learner.email);
    await page.goto(paths.dashboard);
    await expect.poll(() => controlled(page), { timeout: 20_000 }).toMatch(/\/sw\.js$/);
    await page.goto(paths.userCourses);
    await expect.poll(() => keptPages(page)).toEqual(expect.arrayContaining([paths.dashboard, paths.userCourses]));

    // The next build: the same worker but for a comment, as a deploy changes it. (A worker's own
    // script cannot be routed: the file is changed for the while, as a deploy would.)
    const workerFile = path.join(CLIENT_DIR, 'sw.js');
    const script = readFileSync(workerFile, 'utf8');
    const refetched: string[] = [];
    context.on('request', (request) => {
      if (request.serviceWorker() && request.resourceType() !== 'script') refetched.push(new URL(request.url()).pathname);
    });
    try {
      writeFileSync(workerFile, `${script}\n// the next build\n`);
      await page.goto(paths.dashboard);
      await expect.poll(() => refetched, { timeout: 20_000 }).toEqual(expect.arrayContaining([paths.userCourses]));
    } finally {
      writeFileSync(workerFile, script);
    }
    await context.close();
  });
});
