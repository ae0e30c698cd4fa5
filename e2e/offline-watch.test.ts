import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/shared/messages.ts';
import { enrolments, offlineWatchRecords, testQuestions, tests, watchProgress } from '../src/server/db/schema.ts';
import { createCourse, createEnrolment, createUser } from '../src/testing/factories.ts';
import { makeClip } from '../src/testing/media.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { logOutWith, signInAs } from './support/session.ts';
import { uploadTrainingParts } from './support/training-parts.ts';

/*
 * Watching a downloaded course with no link (decision 050), in Chromium at 390 px: the parts play
 * from the device, part 2 unlocks on the device's own records, the records are sent when the link
 * returns and the server credits them (the training is then submitted as online), an edited
 * record is refused with its reason, and the next learner on the browser sees none of it. The
 * course home shows what the device played as the player does, and submits the training.
 */

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp';

let harness: BrowserHarness;
let clips: Buffer[];

beforeAll(async () => {
  harness = await startBrowserHarness();
  const dir = mkdtempSync(path.join(tmpdir(), 'offline-watch-e2e-'));
  clips = await Promise.all([
    makeClip(dir, 'Fire_drill.mp4', { width: 640, height: 360, seconds: 5, audio: true }).then((file) => readFileSync(file)),
    makeClip(dir, 'Abandon_ship.mp4', { width: 640, height: 360, seconds: 5, audio: true }).then((file) => readFileSync(file)),
  ]);
  rmSync(dir, { recursive: true, force: true });
}, 120_000);
afterAll(() => harness?.close());

/** A course of two short parts, uploaded and transcoded as an administrator's would be, and two learners enrolled in it. */
async function twoPartCourse() {
  const db = harness.portal.runtime.db;
  const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
  const learner = await createUser(db, { approvedAt: new Date() });
  const nextLearner = await createUser(db, { approvedAt: new Date() });
  const course = await createCourse(db, { title: `Sea Survival ${learner.id.slice(0, 6)}` });
  const [test] = await db.insert(tests).values({ courseId: course.id, title: course.title, passMark: 50, isPublished: true }).returning();
  await db.insert(testQuestions).values({ testId: test!.id, position: 1, questionText: 'Which way is the muster station?', options: ['Forward', 'Aft', 'Port', 'Starboard'], correctAnswer: 'Aft' });
  for (const user of [learner, nextLearner]) await createEnrolment(db, { userId: user.id, courseId: course.id, status: 'approved', decidedAt: new Date() });
  const videos = await uploadTrainingParts(harness, admin, course, clips);
  expect(videos.map((video) => video.status)).toEqual(['ready', 'ready']);
  return { learner, nextLearner, course, videoIds: videos.map((video) => video.id) };
}

type TDeviceRecord = { id: string; userId: string; state: string; outcome: string | null; reason: string | null; record: { seq: number; videoId: string; from: number; to: number; playedMs: number } };

/** The watch records the device keeps, every learner's, as the app wrote them. */
function deviceRecords(page: Page): Promise<TDeviceRecord[]> {
  return page.evaluate(async () => {
    const request = <T,>(req: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    const db = await request(indexedDB.open('academy-offline'));
    const rows = (await request(db.transaction('records').objectStore('records').getAll())) as TDeviceRecord[];
    db.close();
    return rows.sort((a, b) => a.record.seq - b.record.seq);
  });
}

/** Edits a kept record's end after it was signed, as someone with the browser's storage could. */
function editRecord(page: Page, id: string, to: number) {
  return page.evaluate(
    async ({ id, to }) => {
      const request = <T,>(req: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
      const db = await request(indexedDB.open('academy-offline'));
      const store = db.transaction('records', 'readwrite').objectStore('records');
      const row = (await request(store.get(id))) as { record: { to: number } };
      row.record.to = to;
      await request(store.put(row));
      db.close();
    },
    { id, to },
  );
}

function videoState(page: Page) {
  return page.locator('video').evaluate((video: HTMLVideoElement) => ({
    label: video.getAttribute('aria-label'),
    src: video.currentSrc,
    time: video.currentTime,
    paused: video.paused,
  }));
}

/** Starts the part in the player from the keyboard (the native controls play on Space). */
async function play(page: Page) {
  await page.locator('video').focus();
  await page.keyboard.press('Space');
  await expect.poll(async () => (await videoState(page)).paused, { timeout: 10_000 }).toBe(false);
}

/** Waits until the part in the player has played `seconds` more, or to its end (it plays in real time: the device records the time played). */
async function playedFor(page: Page, seconds: number) {
  const playhead = () => page.locator('video').evaluate((video: HTMLVideoElement) => (video.ended ? Number.POSITIVE_INFINITY : video.currentTime));
  const from = await playhead();
  await expect.poll(playhead, { timeout: 10_000 }).toBeGreaterThanOrEqual(from + seconds);
}

/** The procedures whose last answers the app keeps on the device for `userId` (lib/pwa/query-persistence.ts). */
function keptProcedures(page: Page, userId: string): Promise<string[]> {
  return page.evaluate(async (userId) => {
    const request = <T,>(req: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    const db = await request(indexedDB.open('academy-offline-data'));
    if (!db.objectStoreNames.contains('query-cache')) return [];
    const kept = (await request(db.transaction('query-cache').objectStore('query-cache').get(`queries:${userId}`))) as
      | { state: { queries: Array<{ queryKey: [string[]] }> } }
      | undefined;
    db.close();
    return (kept?.state.queries ?? []).map((query) => query.queryKey[0].join('.'));
  }, userId);
}

const partButton = (page: Page, serial: number) => page.getByRole('button', { name: new RegExp(`^Part ${serial}\\b`) });
const controlled = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);

/** Downloads the two-part course with the course home's Study offline panel, and waits for the app's worker. */
async function downloadOnCourseHome(page: Page, courseId: string) {
  await page.goto(`/courses/${courseId}/content`);
  const panel = page.getByRole('region', { name: 'Study offline' });
  await panel.getByRole('button', { name: 'Download for offline' }).click();
  await panel.getByRole('button', { name: /^Download for offline \(/ }).click();
  await panel.getByText('Available offline · 2 parts', { exact: false }).waitFor({ timeout: 30_000 });
  await expect.poll(() => controlled(page), { timeout: 20_000 }).toMatch(/\/sw\.js$/);
}

describe('watching a downloaded course offline', () => {
  it('plays from the device in order, unlocks part 2 locally, sends the watching when back online, refuses an edited record, and shows nothing to the next learner', async () => {
    const db = harness.portal.runtime.db;
    const { learner, nextLearner, course, videoIds } = await twoPartCourse();
    const { page, context, problems } = await harness.newPage(390, 844);
    page.setDefaultTimeout(15_000);
    await signInAs(page, learner.email);

    // ---- Download the course on the course home.
    await downloadOnCourseHome(page, course.id);

    // Once online, so the player's page and last data are kept on the device.
    await page.goto(`/training/${course.id}`);
    await page.getByRole('heading', { name: course.title, level: 1 }).waitFor();
    await page.getByText('Playing from this device.').waitFor();
    await expect.poll(() => keptProcedures(page, learner.id), { timeout: 10_000 }).toContain('training.player');

    // ---- Offline, reloaded: the page comes from the service worker, the parts from the device.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: course.title, level: 1 }).waitFor();
    await page.getByText('Offline: parts kept on this device play here', { exact: false }).waitFor();
    expect(await partButton(page, 2).getAttribute('aria-disabled')).toBe('true');
    await expect.poll(async () => (await videoState(page)).src).toMatch(/^blob:/);

    // Part 1 to its end: completed on the device, part 2 unlocks and plays.
    await play(page);
    await page.getByText('Part 1 completed. Now playing part 2: Abandon ship.').waitFor({ timeout: 20_000 });
    expect(await partButton(page, 2).getAttribute('aria-disabled')).toBeNull();
    await expect.poll(async () => (await videoState(page)).label).toBe('Part 2: Abandon ship');
    await page.locator('video').evaluate((video: HTMLVideoElement) => video.pause());
    await page.getByText(/^\d+ s of watching waiting to be sent$/).waitFor();
    const offlineRecords = await deviceRecords(page);
    expect(offlineRecords.length).toBeGreaterThan(0);
    expect(offlineRecords.every((row) => row.state === 'pending' && row.userId === learner.id)).toBe(true);
    const partOne = offlineRecords.filter((row) => row.record.videoId === videoIds[0]);
    expect(partOne.reduce((sum, row) => sum + row.record.playedMs, 0)).toBeGreaterThan(4_500);
    // Nothing reached the server yet.
    expect(await db.select().from(offlineWatchRecords).where(inArray(offlineWatchRecords.videoId, videoIds))).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'offline-watch-390-offline.png'), fullPage: true });

    // ---- The course home, offline, says what waits to be sent.
    await page.goto(`/courses/${course.id}/content`);
    await page.getByRole('heading', { name: course.title, level: 1 }).waitFor();
    const waiting = page.getByRole('status').filter({ hasText: /^\d+ s of watching waiting to be sent$/ });
    await waiting.waitFor();
    await waiting.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'offline-watch-390-course-home-waiting.png'), fullPage: true });

    // ---- Back online: the records go, the server credits part 1, the course home and the player show it from the server.
    await context.setOffline(false);
    await page.getByRole('status').filter({ hasText: /^All watching sent$/ }).waitFor({ timeout: 20_000 });
    await page.getByText('1 of 2 training parts completed').waitFor();
    const [partOneProgress] = await db
      .select()
      .from(watchProgress)
      .where(and(eq(watchProgress.userId, learner.id), eq(watchProgress.videoId, videoIds[0]!)));
    expect(partOneProgress?.completedAt).not.toBeNull();
    // Each record answered: credited, or 'duplicate' when the service worker's background sync
    // delivered it first (the server took it once; part 1's completion above is that credit).
    expect((await deviceRecords(page)).every((row) => row.state === 'sent' && (row.outcome === 'credited' || row.outcome === 'duplicate'))).toBe(true);
    await page.goto(`/training/${course.id}`);
    await page.getByText('1 of 2 parts completed').waitFor();

    // ---- Part 2 the same way, then the training is submitted and the test opens.
    await context.setOffline(true);
    await page.reload();
    await page.getByText('Offline: parts kept on this device play here', { exact: false }).waitFor();
    await partButton(page, 2).click();
    await expect.poll(async () => (await videoState(page)).label).toBe('Part 2: Abandon ship');
    await expect.poll(async () => (await videoState(page)).paused, { timeout: 10_000 }).toBe(false);
    await page.getByText('Every part is completed on this device', { exact: false }).first().waitFor({ timeout: 20_000 });
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Submit Training' }).click({ timeout: 20_000 });
    await page.getByText('Training successfully submitted', { exact: false }).waitFor();
    // On to the course home, where the test is open as after online watching.
    await page.getByRole('link', { name: 'Take the test' }).waitFor({ timeout: 20_000 });

    // ---- A record edited on the device before it is sent is refused, with the reason.
    await page.goto(`/training/${course.id}`);
    await page.getByRole('heading', { name: course.title, level: 1 }).waitFor();
    await context.setOffline(true);
    await page.reload();
    await page.getByText('Offline: parts kept on this device play here', { exact: false }).waitFor();
    await partButton(page, 1).click();
    await expect.poll(async () => (await videoState(page)).paused, { timeout: 10_000 }).toBe(false);
    await playedFor(page, 1.5);
    await page.locator('video').evaluate((video: HTMLVideoElement) => video.pause());
    await page.getByText(/^\d+ s of watching waiting to be sent$/).waitFor();
    const pending = (await deviceRecords(page)).filter((row) => row.state === 'pending');
    expect(pending).toHaveLength(1);
    await editRecord(page, pending[0]!.id, pending[0]!.record.to + 60);
    await context.setOffline(false);
    await page.getByText(/of watching not counted: edited or replayed record$/).waitFor({ timeout: 20_000 });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'offline-watch-390-refused.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'offline-watch-1280-refused.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    const [refused] = await db.select().from(offlineWatchRecords).where(eq(offlineWatchRecords.id, pending[0]!.id));
    // Kept, refused, in its place in the download's sequence: the records signed after it still come in.
    expect(refused).toMatchObject({ outcome: 'refused', reason: 'edited or replayed record', creditedSeconds: 0 });

    // ---- Offline again, a span that stays pending; then logout: sent records go, the pending one stays.
    await context.setOffline(true);
    await page.reload();
    await partButton(page, 1).click();
    await expect.poll(async () => (await videoState(page)).paused, { timeout: 10_000 }).toBe(false);
    await playedFor(page, 1);
    await page.locator('video').evaluate((video: HTMLVideoElement) => video.pause());
    await expect.poll(async () => (await deviceRecords(page)).filter((row) => row.state === 'pending').length).toBe(1);
    // Logged out still offline, so the span cannot be sent first: it stays, the sent ones go.
    await page.getByRole('banner').getByRole('button', { name: /menu/i }).click();
    await logOutWith(page, page.getByRole('dialog').getByRole('button', { name: 'Logout' }));
    await expect.poll(async () => (await deviceRecords(page)).length).toBe(1);
    const left = await deviceRecords(page);
    expect(left.every((row) => row.state === 'pending' && row.userId === learner.id)).toBe(true);
    await context.setOffline(false);

    // ---- The next learner on this browser: none of the first's downloads or watching.
    await signInAs(page, nextLearner.email);
    await page.goto(`/courses/${course.id}/content`);
    await page.getByRole('heading', { name: course.title, level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Study offline' }).getByRole('button', { name: 'Download for offline' }).waitFor();
    expect(await page.getByText(/of watching/).count()).toBe(0);
    await page.goto(`/training/${course.id}`);
    await page.getByRole('heading', { name: course.title, level: 1 }).waitFor();
    expect(await page.getByText('Playing from this device.').count()).toBe(0);
    expect(await page.getByText(/of watching/).count()).toBe(0);
    await expect.poll(async () => (await videoState(page)).src).not.toMatch(/^blob:/);

    expect(problems.filter((problem) => !/ERR_INTERNET_DISCONNECTED|net::ERR_FAILED/.test(problem))).toEqual([]);
  }, 240_000);

  it('the course home shows the parts played on the device as the player does, and Step 2 submits the training once the server has them', async () => {
    const db = harness.portal.runtime.db;
    const { learner, course } = await twoPartCourse();
    const { page, context, problems } = await harness.newPage(390, 844);
    page.setDefaultTimeout(15_000);
    await signInAs(page, learner.email);

    // ---- Downloaded on the course home; the player is never opened online.
    await downloadOnCourseHome(page, course.id);
    await expect.poll(() => keptProcedures(page, learner.id), { timeout: 10_000 }).toContain('enrolments.courseHome');

    // ---- Offline, the player opened for the first time plays from the device, and its line says so.
    await context.setOffline(true);
    await page.goto(`/training/${course.id}`);
    await page.getByRole('heading', { name: course.title, level: 1 }).waitFor();
    await page.getByRole('status').filter({ hasText: MESSAGES.connection.offlinePlayingFromDevice }).waitFor();
    expect(await page.getByText(MESSAGES.connection.offlineNothingKept).count()).toBe(0);
    await expect.poll(async () => (await videoState(page)).src).toMatch(/^blob:/);
    await play(page);
    await page.getByText('Part 1 completed. Now playing part 2: Abandon ship.').waitFor({ timeout: 20_000 });
    await page.getByText(MESSAGES.training.completedOnDevice).waitFor({ timeout: 20_000 });

    // ---- The course home, offline: the device's progress and the player's locks, marked as waiting to be sent.
    await page.goto(`/courses/${course.id}/content`);
    await page.getByRole('heading', { name: course.title, level: 1 }).waitFor();
    await page.getByText('2 of 2 training parts completed').waitFor();
    const part = (title: string) => page.getByRole('region', { name: course.title }).getByRole('listitem').filter({ hasText: title });
    for (const title of ['Fire drill', 'Abandon ship']) {
      await expect.poll(() => part(title).innerText()).toContain('Played on this device, waiting to be sent');
      expect(await part(title).innerText()).toContain('Completed');
      expect(await part(title).innerText()).not.toMatch(/Locked|Up next/);
    }
    await page.getByRole('link', { name: 'Review the training' }).waitFor();
    const step2 = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: /^Test/ }) });
    await step2.getByText(MESSAGES.training.completedOnDevice).waitFor();
    await page.getByRole('status').filter({ hasText: /^\d+ s of watching waiting to be sent$/ }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'course-home-390-offline-played-here.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'course-home-1280-offline-played-here.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });

    // ---- Back online: the watching goes, the server completes both parts, and Step 2 offers Submit Training.
    await context.setOffline(false);
    await page.getByRole('status').filter({ hasText: /^All watching sent$/ }).waitFor({ timeout: 20_000 });
    const submit = step2.getByRole('button', { name: 'Submit Training' });
    await submit.waitFor({ timeout: 20_000 });
    expect(await step2.innerText()).toContain('Every training part is completed. Submit the training to open the test: 1 question, pass mark 50%, 3 attempts.');
    expect(await step2.getByText('Not available yet').count()).toBe(0);
    await expect.poll(() => page.getByText('Played on this device, waiting to be sent').count()).toBe(0);
    await step2.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'course-home-390-submit-training.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    // From the top, so the sticky bar is where it belongs in the full-page picture.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'course-home-1280-submit-training.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });

    // ---- Offline, the submission cannot reach the server: Step 2 says so, with no button.
    await context.setOffline(true);
    await page.reload();
    await step2.getByText(MESSAGES.training.submitNeedsConnection).waitFor();
    expect(await submit.count()).toBe(0);
    await step2.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'course-home-390-submit-needs-connection.png'), fullPage: true });

    // ---- Online: submitted from the course home, then the test with its attempts.
    await context.setOffline(false);
    await submit.click({ timeout: 20_000 });
    await step2.getByRole('status').filter({ hasText: MESSAGES.training.submitted }).waitFor();
    await step2.getByRole('link', { name: 'Take the test' }).waitFor();
    expect(await step2.innerText()).toContain('The test is open: 1 question, pass mark 50%. You have 3 of 3 attempts left.');
    const [enrolment] = await db.select().from(enrolments).where(and(eq(enrolments.userId, learner.id), eq(enrolments.courseId, course.id)));
    expect(enrolment?.trainingSubmittedAt).not.toBeNull();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'course-home-390-submitted.png'), fullPage: true });

    expect(problems.filter((problem) => !/ERR_INTERNET_DISCONNECTED|net::ERR_FAILED/.test(problem))).toEqual([]);
  }, 180_000);

  it('when the link drops mid-play, what was played before goes as heartbeats and the rest as records, each moment once', async () => {
    const db = harness.portal.runtime.db;
    const { learner, course, videoIds } = await twoPartCourse();
    const { page, context } = await harness.newPage(390, 844);
    page.setDefaultTimeout(15_000);
    await signInAs(page, learner.email);
    await downloadOnCourseHome(page, course.id);

    // Online, from the device: the start of playback is a heartbeat.
    await page.goto(`/training/${course.id}`);
    await page.getByText('Playing from this device.').waitFor();
    const started = page.waitForResponse((response) => response.url().includes('training.heartbeat') && response.ok());
    await play(page);
    await started;
    await expect.poll(async () => (await videoState(page)).time, { timeout: 10_000 }).toBeGreaterThan(1.5);
    await context.setOffline(true);
    const droppedAt = (await videoState(page)).time;
    // The part plays on from the device to its end; only the device's records of it count here.
    await page.getByText(/^Part 1 (completed|is not completed yet)/).waitFor({ timeout: 20_000 });
    const records = (await deviceRecords(page)).filter((row) => row.record.videoId === videoIds[0]);
    expect(records.length).toBeGreaterThan(0);
    // Nothing before the drop is in a record: that stays with the heartbeats.
    expect(records[0]!.record.from).toBeGreaterThan(droppedAt - 0.5);
    expect(records.at(-1)!.record.to).toBeGreaterThan(4.5);

    // Back online: the heartbeat's share and the records' together complete the part on the server.
    await context.setOffline(false);
    await page.getByText('All watching sent').waitFor({ timeout: 30_000 });
    await expect
      .poll(
        async () =>
          (await db.select().from(watchProgress).where(and(eq(watchProgress.userId, learner.id), eq(watchProgress.videoId, videoIds[0]!))))[0]?.completedAt ?? null,
        { timeout: 30_000, interval: 500 },
      )
      .not.toBeNull();
    const [progress] = await db.select().from(watchProgress).where(and(eq(watchProgress.userId, learner.id), eq(watchProgress.videoId, videoIds[0]!)));
    expect(progress!.watchedSeconds).toBeGreaterThan(4.75);
    expect(progress!.watchedSeconds).toBeLessThanOrEqual(5.1);
    await page.getByText('1 of 2 parts completed').waitFor({ timeout: 20_000 });
  }, 180_000);

  it('when the browser says it is online but nothing gets through, the player keeps records, and sends them once a report gets an answer', async () => {
    const db = harness.portal.runtime.db;
    const { learner, course, videoIds } = await twoPartCourse();
    const { page, context } = await harness.newPage(390, 844);
    page.setDefaultTimeout(15_000);
    await signInAs(page, learner.email);
    await downloadOnCourseHome(page, course.id);
    await page.goto(`/training/${course.id}`);
    await page.getByText('Playing from this device.').waitFor();
    const started = page.waitForResponse((response) => response.url().includes('training.heartbeat') && response.ok());
    await play(page);
    await started;
    await expect.poll(async () => (await videoState(page)).time, { timeout: 10_000 }).toBeGreaterThan(1.5);

    // A ship's link that says it is up and carries nothing: every call fails, in the page and its service worker.
    const cut = (route: { abort: (code: string) => Promise<void> }) => route.abort('internetdisconnected');
    await context.route('**/trpc/**', cut);
    await context.route('**/api/trainingVideo/offline/sync', cut);
    // Paused, and the player has handled the pause (its listener runs before this one), then played again.
    await page.locator('video').evaluate(
      (video: HTMLVideoElement) =>
        new Promise<void>((resolve) => {
          video.addEventListener('pause', () => resolve(), { once: true });
          video.pause();
        }),
    );
    const pausedAt = (await videoState(page)).time;
    await page.locator('video').evaluate((video: HTMLVideoElement) => video.play());
    await page.getByText(/^Part 1 (completed|is not completed yet)/).waitFor({ timeout: 20_000 });
    await page.getByText(/^\d+ s of watching waiting to be sent$/).waitFor();
    const records = (await deviceRecords(page)).filter((row) => row.record.videoId === videoIds[0]);
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((row) => row.state === 'pending')).toBe(true);
    expect(records[0]!.record.from).toBeGreaterThan(pausedAt - 0.5);

    // The link carries again: the next heartbeat gets its answer, and the records go with it.
    await context.unrouteAll();
    await page.getByText('All watching sent').waitFor({ timeout: 30_000 });
    await expect
      .poll(
        async () =>
          (await db.select().from(watchProgress).where(and(eq(watchProgress.userId, learner.id), eq(watchProgress.videoId, videoIds[0]!))))[0]?.completedAt ?? null,
        { timeout: 30_000, interval: 500 },
      )
      .not.toBeNull();
    await page.getByText('1 of 2 parts completed').waitFor({ timeout: 20_000 });
  }, 180_000);
});
