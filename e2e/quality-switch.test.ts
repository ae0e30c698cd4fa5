import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchProgress, watchRefusals } from '../src/server/db/schema.ts';
import { createCourse, createEnrolment, createUser } from '../src/testing/factories.ts';
import { makeClip } from '../src/testing/media.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { signInAs } from './support/session.ts';
import { uploadTrainingParts } from './support/training-parts.ts';

let harness: BrowserHarness;
let clipDir: string;
let clip: Buffer;

beforeAll(async () => {
  harness = await startBrowserHarness();
  clipDir = mkdtempSync(path.join(tmpdir(), 'quality-switch-e2e-'));
  // An HD part: it is prepared in 720p and 360p, so the learner has a choice.
  clip = readFileSync(await makeClip(clipDir, 'Fire_drill.mp4', { width: 1280, height: 720, seconds: 6, rate: 10, audio: true }));
});
afterAll(async () => {
  await harness?.close();
  if (clipDir) rmSync(clipDir, { recursive: true, force: true });
});

function videoState(page: Page) {
  return page.locator('video').evaluate((video: HTMLVideoElement) => ({ src: video.currentSrc, time: video.currentTime, paused: video.paused }));
}

describe('the picture size changed while a part plays', () => {
  it('keeps playing from the same place in the new size, and the part completes on the server with nothing refused', { timeout: 180_000 }, async () => {
    const db = harness.portal.runtime.db;
    const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
    const learner = await createUser(db, { approvedAt: new Date() });
    const course = await createCourse(db, { title: `Fire Fighting ${learner.id.slice(0, 6)}` });
    await createEnrolment(db, { userId: learner.id, courseId: course.id, status: 'approved', decidedAt: new Date() });
    const [part] = await uploadTrainingParts(harness, admin, course, [clip]);
    expect(part!.renditions.map((rendition) => rendition.height).sort()).toEqual([360, 720]);

    const tab = await harness.newPage(390, 844);
    const page = tab.page;
    await signInAs(page, learner.email);
    await page.goto(`/training/${course.id}`);
    await page.getByRole('heading', { name: course.title, level: 1 }).waitFor();
    await page.getByRole('radiogroup', { name: 'Picture' }).or(page.getByRole('group', { name: 'Picture' })).waitFor();

    await page.locator('video').focus();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await videoState(page)).time, { timeout: 10_000 }).toBeGreaterThan(1.5);
    const before = await videoState(page);
    expect(before.src).toMatch(/\/720\?/);

    // The learner picks 360p half way: the new size plays on from where the old one was.
    await page.getByText('360p', { exact: true }).click();
    await expect.poll(async () => (await videoState(page)).src, { timeout: 10_000 }).toMatch(/\/360\?/);
    await expect.poll(async () => (await videoState(page)).time, { timeout: 10_000 }).toBeGreaterThan(before.time + 0.5);
    expect((await videoState(page)).paused).toBe(false);

    // To the end: completed with the time actually watched.
    await page.getByText('Every part is completed. You can now submit the training.').waitFor({ timeout: 20_000 });
    const [record] = await db.select().from(watchProgress).where(eq(watchProgress.userId, learner.id));
    expect(record!.completedAt).not.toBeNull();
    expect(await db.select().from(watchRefusals).where(eq(watchRefusals.userId, learner.id))).toEqual([]);
    expect(tab.problems).toEqual([]);
  });
});
