import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolments } from '../src/server/db/schema.ts';
import { createCourse, createEnrolment, createUser } from '../src/testing/factories.ts';
import { makeClip } from '../src/testing/media.ts';
import { CHUNK_BYTES } from '../src/client/lib/offline/offline-db.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { signInAs } from './support/session.ts';
import { uploadTrainingParts } from './support/training-parts.ts';

/** Where the pictures of the screens go, to look at (set SCREENSHOT_DIR to keep them elsewhere). */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp';
const MEDIA = '**/api/trainingVideo/stream/offline/**';

/** A size as the panel writes it in this test's range (1 to 10 MB): "2.4 MB", "1 MB". */
const formatBytes = (bytes: number) => `${(Math.round(bytes / 100_000) / 10).toFixed(1).replace(/\.0$/, '')} MB`;

let harness: BrowserHarness;
let clips: Buffer[];

/** Each part's 360p rendition as the server keeps it: its size and SHA-256. */
type TRendition = { videoId: string; title: string; bytes: number; sha256: string };

beforeAll(async () => {
  harness = await startBrowserHarness();
  const dir = mkdtempSync(path.join(tmpdir(), 'offline-e2e-'));
  // 360p at the download's bitrate (about 48 kB/s): part 1 is two chunks, part 2 one.
  clips = await Promise.all([
    makeClip(dir, 'Fire_drill.mp4', { width: 640, height: 360, seconds: 30, audio: true }).then((file) => readFileSync(file)),
    makeClip(dir, 'Abandon_ship.mp4', { width: 640, height: 360, seconds: 12, audio: true }).then((file) => readFileSync(file)),
  ]);
  rmSync(dir, { recursive: true, force: true });
}, 120_000);
afterAll(() => harness?.close());

/** A learner enrolled in a course of two parts uploaded and transcoded as an administrator would. */
async function twoPartCourse() {
  const db = harness.portal.runtime.db;
  const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
  const learner = await createUser(db, { approvedAt: new Date() });
  const course = await createCourse(db, { title: `Personal Survival ${learner.id.slice(0, 6)}` });
  await createEnrolment(db, { userId: learner.id, courseId: course.id, status: 'approved', decidedAt: new Date() });
  const videos = await uploadTrainingParts(harness, admin, course, clips);
  const renditions: TRendition[] = [];
  for (const video of videos) {
    expect(video.status).toBe('ready');
    const rendition = video.renditions.find((candidate) => candidate.height === 360)!;
    const chunks: Buffer[] = [];
    for await (const chunk of await harness.portal.runtime.files.read('trainingVideo', rendition.file)) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    renditions.push({ videoId: video.id, title: video.originalName, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  // Part 1 needs more than one Range request, so a download can be caught between two.
  expect(renditions[0]!.bytes).toBeGreaterThan(CHUNK_BYTES);
  return { learner, course, renditions };
}

/** What the device holds for the learner's course, read from IndexedDB as the app wrote it. */
function onDevice(page: Page, key: string) {
  return page.evaluate(async (key) => {
    const request = <T,>(req: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    const db = await request(indexedDB.open('academy-offline'));
    const tx = db.transaction(['downloads', 'chunks']);
    const row = (await request(tx.objectStore('downloads').get(key))) as
      | { state: string; storedBytes: number; partBytes: Record<string, number>; error: string | null; package: { totalBytes: number } }
      | undefined;
    const chunks = (await request(tx.objectStore('chunks').getAll(IDBKeyRange.bound([key], [key, []])))) as { key: [string, string, number]; blob: Blob }[];
    db.close();
    const byPart = new Map<string, { index: number; blob: Blob }[]>();
    for (const chunk of chunks) {
      const [, id, index] = chunk.key;
      byPart.set(id, [...(byPart.get(id) ?? []), { index, blob: chunk.blob }]);
    }
    const parts: Record<string, { bytes: number; chunks: number; sha256: string }> = {};
    for (const [id, list] of byPart) {
      const blob = new Blob(list.sort((a, b) => a.index - b.index).map((item) => item.blob));
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer()));
      parts[id] = { bytes: blob.size, chunks: list.length, sha256: [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('') };
    }
    return {
      row: row ? { state: row.state, storedBytes: row.storedBytes, partBytes: row.partBytes, error: row.error, totalBytes: row.package.totalBytes } : null,
      parts,
      chunkRows: chunks.length,
    };
  }, key);
}

/** The device holds exactly the renditions: every byte, in order, and nothing else. */
async function expectWholeDownload(page: Page, key: string, renditions: TRendition[]) {
  const device = await onDevice(page, key);
  const total = renditions.reduce((sum, part) => sum + part.bytes, 0);
  expect(device.row).toMatchObject({ state: 'complete', storedBytes: total, totalBytes: total, error: null });
  for (const rendition of renditions) {
    expect(device.parts[rendition.videoId]).toEqual({ bytes: rendition.bytes, chunks: Math.ceil(rendition.bytes / CHUNK_BYTES), sha256: rendition.sha256 });
    expect(device.row!.partBytes[rendition.videoId]).toBe(rendition.bytes);
  }
}

/**
 * Media requests held on demand: `hold(fromByte)` holds the next one asking for bytes from
 * `fromByte` on, the others go through. Routed before the page first loads (before the app's
 * service worker is there: routing set up once it controls the page never answers).
 */
async function mediaGate(context: BrowserContext) {
  let waiting: { fromByte: number; resolve: (route: Route) => void } | null = null;
  const requests: { videoId: string; range: string }[] = [];
  await context.route(MEDIA, async (route) => {
    requests.push({ videoId: /\/offline\/[^/]+\/([^/?]+)/.exec(route.request().url())?.[1] ?? '', range: route.request().headers()['range'] ?? '' });
    const start = Number(/bytes=(\d+)-/.exec(route.request().headers()['range'] ?? '')?.[1] ?? -1);
    if (waiting && start >= waiting.fromByte) {
      const { resolve } = waiting;
      waiting = null;
      resolve(route);
      return;
    }
    await route.continue();
  });
  return {
    /** Every media request, in order: the part and its Range header. */
    requests,
    hold(fromByte: number): Promise<Route> {
      return new Promise<Route>((resolve) => (waiting = { fromByte, resolve }));
    },
  };
}

const panel = (page: Page) => page.getByRole('region', { name: 'Study offline' });
/** Pictures of the course home: the whole page, and the panel alone at full size. */
async function shoot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `offline-download-${name}.png`), fullPage: true, animations: 'disabled' });
  await panel(page).screenshot({ path: path.join(SCREENSHOT_DIR, `offline-download-${name}-panel.png`), animations: 'disabled' });
}

describe('downloading a course for offline study', () => {
  it('downloads two parts with their size first, survives a dropped link and a closed tab, and removes them', async () => {
    const { learner, course, renditions } = await twoPartCourse();
    const total = renditions.reduce((sum, part) => sum + part.bytes, 0);
    const key = `${learner.id}:${course.id}`;
    const { page, context, problems } = await harness.newPage(390, 844);
    const gate = await mediaGate(context);
    await signInAs(page, learner.email);
    await page.goto(`/courses/${course.id}/content`);
    await page.getByRole('heading', { name: course.title, level: 1 }).waitFor();

    // ---- Idle: the quality choice (360p by default) and the way to the size.
    await panel(page).getByRole('button', { name: 'Download for offline' }).waitFor();
    expect(await panel(page).getByRole('radio', { name: /360p/ }).isChecked()).toBe(true);
    await shoot(page, '390-idle');

    // ---- The size before anything is fetched.
    await panel(page).getByRole('button', { name: 'Download for offline' }).click();
    const sized = panel(page).getByRole('button', { name: `Download for offline (${formatBytes(total)})` });
    await sized.waitFor();
    await panel(page).getByText('2 parts at 360p.', { exact: false }).waitFor();
    expect((await onDevice(page, key)).row).toBeNull();
    await shoot(page, '390-size');

    // ---- Caught between two chunks of part 1: progress, bytes and percent.
    const firstHold = gate.hold(CHUNK_BYTES);
    await sized.click();
    const heldRoute = await firstHold;
    await panel(page).getByText('Downloading for offline').waitFor();
    const percentAtHold = Math.floor((CHUNK_BYTES / total) * 100);
    await panel(page).getByText(`${formatBytes(CHUNK_BYTES)} of ${formatBytes(total)} · ${percentAtHold} %`).waitFor();
    expect(await panel(page).getByRole('progressbar').getAttribute('aria-valuenow')).toBe(String(percentAtHold));
    await shoot(page, '390-downloading');

    // ---- The link drops mid-way: the download waits for it, then carries on from the first missing chunk.
    await context.setOffline(true);
    await heldRoute.abort('internetdisconnected');
    await panel(page).getByText('Waiting for a connection…', { exact: false }).waitFor();
    expect(await onDevice(page, key)).toMatchObject({ row: { state: 'downloading', storedBytes: CHUNK_BYTES } });
    // The test says it needs a connection while offline.
    await page.getByText('The test needs a connection: its questions never come to this device before you start.').waitFor();
    await shoot(page, '390-waiting');
    await context.setOffline(false);
    await panel(page).getByText(`Available offline · 2 parts · ${formatBytes(total)}`).waitFor({ timeout: 30_000 });
    // From the first missing chunk: part 1's first chunk was asked for once, its second again after the
    // link came back (tries while offline fail at once), then part 2's only one.
    const [one, two] = renditions as [TRendition, TRendition];
    const asked = gate.requests.map(({ videoId, range }) => `${videoId === one.videoId ? 1 : videoId === two.videoId ? 2 : '?'} ${range}`);
    expect(asked[0]).toBe(`1 bytes=0-${CHUNK_BYTES - 1}`);
    expect(new Set(asked.slice(1, -1))).toEqual(new Set([`1 bytes=${CHUNK_BYTES}-${one.bytes - 1}`]));
    expect(asked.at(-1)).toBe(`2 bytes=0-${two.bytes - 1}`);
    await expectWholeDownload(page, key, renditions);
    await shoot(page, '390-complete');

    // ---- Offline: what is on the device, and the test note.
    await context.setOffline(true);
    await panel(page).getByText('The parts play from here while you are offline.').waitFor();
    await shoot(page, '390-offline');
    await context.setOffline(false);

    // ---- A reload keeps it.
    await page.reload();
    await panel(page).getByText(`Available offline · 2 parts · ${formatBytes(total)}`).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // ---- Remove download (confirmed) frees the device.
    await panel(page).getByRole('button', { name: 'Remove download' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Remove the download?' });
    await dialog.getByText(`(${formatBytes(total)}) leave this device`, { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Remove download' }).click();
    await panel(page).getByRole('button', { name: 'Download for offline' }).waitFor();
    expect(await onDevice(page, key)).toEqual({ row: null, parts: {}, chunkRows: 0 });

    // ---- A closed tab: the download under way carries on when the course home opens again, with fresh links.
    const secondHold = gate.hold(CHUNK_BYTES);
    await panel(page).getByRole('button', { name: 'Download for offline' }).click();
    await panel(page).getByRole('button', { name: `Download for offline (${formatBytes(total)})` }).click();
    await secondHold;
    expect(await onDevice(page, key)).toMatchObject({ row: { state: 'downloading', storedBytes: CHUNK_BYTES } });
    await page.close();
    const reopened = await context.newPage();
    const resumed = reopened.waitForRequest((request) => request.url().includes('training.offlineResume'));
    await reopened.goto(`/courses/${course.id}/content`);
    await resumed;
    await panel(reopened).getByText(`Available offline · 2 parts · ${formatBytes(total)}`).waitFor({ timeout: 30_000 });
    await expectWholeDownload(reopened, key, renditions);

    // Only the dropped link's failures were logged.
    expect(problems.filter((problem) => !problem.includes('ERR_INTERNET_DISCONNECTED'))).toEqual([]);
  });

  it('pauses and resumes, and the wide screen shows the panel beside the course', async () => {
    const { learner, course, renditions } = await twoPartCourse();
    const total = renditions.reduce((sum, part) => sum + part.bytes, 0);
    const key = `${learner.id}:${course.id}`;
    const { page, context, problems } = await harness.newPage(1280, 900);
    const gate = await mediaGate(context);
    await signInAs(page, learner.email);
    await page.goto(`/courses/${course.id}/content`);
    await panel(page).getByRole('button', { name: 'Download for offline' }).waitFor();
    await shoot(page, '1280-idle');

    // A device without the room (the browser grants the site 1.5 MB more): the size, what is free, and no way to start.
    await page.evaluate(() => {
      const storage = navigator.storage;
      const real = storage.estimate.bind(storage);
      Object.assign(window, { realEstimate: real });
      storage.estimate = async () => {
        const estimate = await real();
        return { ...estimate, quota: (estimate.usage ?? 0) + 1_500_000 };
      };
    });
    await panel(page).getByRole('button', { name: 'Download for offline' }).click();
    await panel(page)
      .getByText(`This download needs ${formatBytes(total)}, and this device has 1.5 MB free for the portal. Free some space on the device and try again.`)
      .waitFor();
    expect(await panel(page).getByRole('button', { name: `Download for offline (${formatBytes(total)})` }).isDisabled()).toBe(true);
    expect((await onDevice(page, key)).row).toBeNull();
    await shoot(page, '1280-no-room');
    // Room again: asked afresh, the download can start.
    await page.evaluate(() => {
      navigator.storage.estimate = (window as unknown as { realEstimate: StorageManager['estimate'] }).realEstimate;
    });
    await panel(page).getByRole('button', { name: 'Check the space again' }).click();
    const sized = panel(page).getByRole('button', { name: `Download for offline (${formatBytes(total)})` });
    await expect.poll(() => sized.isEnabled()).toBe(true);

    const held = gate.hold(CHUNK_BYTES);
    await sized.click();
    const route = await held;
    await panel(page).getByText(`${formatBytes(CHUNK_BYTES)} of ${formatBytes(total)}`, { exact: false }).waitFor();
    await shoot(page, '1280-downloading');

    // Paused: the chunk under way is dropped, nothing more is fetched, and a reload keeps it paused.
    await panel(page).getByRole('button', { name: 'Pause' }).click();
    await panel(page).getByText('Download paused').waitFor();
    await route.continue().catch(() => undefined);
    await page.reload();
    await panel(page).getByText('Download paused').waitFor();
    expect(await onDevice(page, key)).toMatchObject({ row: { state: 'paused', storedBytes: CHUNK_BYTES } });

    await panel(page).getByRole('button', { name: 'Resume' }).click();
    await panel(page).getByText(`Available offline · 2 parts · ${formatBytes(total)}`).waitFor({ timeout: 30_000 });
    await expectWholeDownload(page, key, renditions);
    await shoot(page, '1280-complete');

    // Offline: the download, and the test's note.
    await context.setOffline(true);
    await page.getByText('The test needs a connection: its questions never come to this device before you start.').waitFor();
    await shoot(page, '1280-offline');
    await context.setOffline(false);

    // The dashboard marks the course downloaded.
    await page.goto('/dashboard');
    const card = page.getByRole('article', { name: course.title });
    await card.getByText('Downloaded', { exact: true }).waitFor();
    await card.screenshot({ path: path.join(SCREENSHOT_DIR, 'offline-download-1280-dashboard-card.png'), animations: 'disabled' });

    // The enrolment ends: on the next visit the device lets the download go, and says so.
    await harness.portal.runtime.db.update(enrolments).set({ status: 'rejected' }).where(eq(enrolments.courseId, course.id));
    await page.reload();
    await page.getByText(`Your enrolment in ${course.title} has ended, so its download was removed from this device.`).waitFor();
    expect(await onDevice(page, key)).toEqual({ row: null, parts: {}, chunkRows: 0 });
    expect(await card.getByText('Downloaded', { exact: true }).count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('takes fresh links when the stream pass has run out mid-way, and carries on', async () => {
    const { learner, course, renditions } = await twoPartCourse();
    const total = renditions.reduce((sum, part) => sum + part.bytes, 0);
    const key = `${learner.id}:${course.id}`;
    const { page, context, problems } = await harness.newPage(390, 844);
    const gate = await mediaGate(context);
    await signInAs(page, learner.email);
    await page.goto(`/courses/${course.id}/content`);
    await panel(page).getByRole('button', { name: 'Download for offline' }).click();
    const held = gate.hold(CHUNK_BYTES);
    await panel(page).getByRole('button', { name: `Download for offline (${formatBytes(total)})` }).click();
    const route = await held;

    // The pass (a cookie for the stream path, 10 minutes) is gone, as after a laptop's long sleep.
    await context.clearCookies({ name: 'stream_pass' });
    const refused = page.waitForResponse((response) => response.url().includes('/stream/offline/') && response.status() === 403);
    const resumed = page.waitForRequest((request) => request.url().includes('training.offlineResume'));
    await route.continue();
    await refused;
    await resumed;
    await panel(page).getByText(`Available offline · 2 parts · ${formatBytes(total)}`).waitFor({ timeout: 30_000 });
    await expectWholeDownload(page, key, renditions);
    expect(problems).toEqual([expect.stringContaining('status of 403')]);
  });

  it('removes what it has when the enrolment ends mid-way, and says why', async () => {
    const { learner, course, renditions } = await twoPartCourse();
    const total = renditions.reduce((sum, part) => sum + part.bytes, 0);
    const key = `${learner.id}:${course.id}`;
    const { page, context, problems } = await harness.newPage(390, 844);
    const gate = await mediaGate(context);
    await signInAs(page, learner.email);
    await page.goto(`/courses/${course.id}/content`);
    await panel(page).getByRole('button', { name: 'Download for offline' }).click();
    const held = gate.hold(CHUNK_BYTES);
    await panel(page).getByRole('button', { name: `Download for offline (${formatBytes(total)})` }).click();
    const route = await held;
    expect(await onDevice(page, key)).toMatchObject({ row: { state: 'downloading', storedBytes: CHUNK_BYTES } });

    await harness.portal.runtime.db.update(enrolments).set({ status: 'rejected' }).where(eq(enrolments.courseId, course.id));
    await route.continue();
    await panel(page).getByText(`Your enrolment in ${course.title} has ended, so its download was removed from this device.`).waitFor();
    expect(await onDevice(page, key)).toEqual({ row: null, parts: {}, chunkRows: 0 });
    // Nothing more is offered for the course.
    expect(await panel(page).getByRole('button', { name: /Download for offline/ }).count()).toBe(0);
    await shoot(page, '390-ended');
    // The media route and offlineResume refused it (403); nothing else went wrong.
    expect(problems.every((problem) => problem.includes('status of 403'))).toBe(true);
  });
});
