import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/shared/messages.ts';
import { createCourse, createEnrolment, createUser } from '../src/testing/factories.ts';
import { makeClip } from '../src/testing/media.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { signInAs } from './support/session.ts';

const T = MESSAGES.training;

let harness: BrowserHarness;
let clipDir: string;
let firstClip: string;
let secondClip: string;

beforeAll(async () => {
  harness = await startBrowserHarness();
  clipDir = mkdtempSync(path.join(tmpdir(), 'training-e2e-'));
  [firstClip, secondClip] = await Promise.all([
    makeClip(clipDir, 'Fire_drill.mp4', { width: 320, height: 240, seconds: 2, audio: true }),
    makeClip(clipDir, 'Abandon_ship.mp4', { width: 320, height: 240, seconds: 4, audio: true }),
  ]);
});
afterAll(async () => {
  await harness?.close();
  if (clipDir) rmSync(clipDir, { recursive: true, force: true });
});

/** The player's state, read from the <video> element. */
function videoState(page: Page) {
  return page.locator('video').evaluate((video: HTMLVideoElement) => ({
    label: video.getAttribute('aria-label'),
    time: video.currentTime,
    paused: video.paused,
    ended: video.ended,
    ready: video.readyState,
  }));
}

/** Starts the part in the player from the keyboard: the native controls play on Space. */
async function playFromKeyboard(page: Page) {
  await page.locator('video').focus();
  await page.keyboard.press('Space');
  await expect.poll(async () => (await videoState(page)).paused, { timeout: 10_000 }).toBe(false);
}

describe('training videos', () => {
  it('an administrator uploads two clips and sees them become ready; a learner plays them in order, resumes after a reload and submits', async () => {
    const db = harness.portal.runtime.db;
    const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
    const learner = await createUser(db, { approvedAt: new Date() });
    const course = await createCourse(db, { title: `Personal Survival Techniques ${learner.id.slice(0, 6)}` });
    await createEnrolment(db, { userId: learner.id, courseId: course.id, status: 'approved' });

    // ---- The administrator uploads both clips, each with its own progress.
    const adminTab = await harness.newPage(1280);
    const a = adminTab.page;
    await signInAs(a, admin.email);
    await a.goto('/admin-dashboard/training-video');
    await a.getByRole('heading', { name: 'Upload Training Videos', level: 1 }).waitFor();

    // Nothing chosen: the form says what it needs.
    await a.getByRole('button', { name: 'Upload' }).click();
    await a.getByText(T.courseRequired).waitFor();
    await a.getByText(T.videoRequired).waitFor();

    await a.getByRole('combobox', { name: 'Course' }).click();
    await a.getByRole('option', { name: course.title }).click();
    // Choosing the course fills the title (on the render after the choice, which the click does not wait for).
    await expect.poll(() => a.getByLabel('Title', { exact: true }).inputValue()).toBe(course.title);
    await a.getByLabel('Video file 1', { exact: true }).setInputFiles(firstClip);
    await a.getByRole('button', { name: 'Add another video' }).click();
    // The new row has the focus.
    expect(await a.evaluate(() => document.activeElement?.id)).toBe(await a.getByLabel('Video file 2', { exact: true }).getAttribute('id'));
    await a.getByLabel('Video file 2', { exact: true }).setInputFiles(secondClip);
    await a.getByRole('button', { name: 'Upload' }).click();
    await a.getByText('2 videos uploaded. They are being prepared for playback.').waitFor({ timeout: 20_000 });
    await a.getByText(T.uploaded(1)).first().waitFor();
    // A fresh row for more, on the same course.
    expect(await a.getByLabel('Video file 1', { exact: true }).inputValue()).toBe('');
    expect(await a.getByLabel('Video file 2', { exact: true }).count()).toBe(0);

    // ---- The list follows the transcoder until both parts are ready.
    await a.getByRole('link', { name: 'Follow their preparation in All Training Videos' }).click();
    await a.getByRole('heading', { name: 'All Uploaded Training Videos', level: 1 }).waitFor();
    const card = a.getByRole('article', { name: course.title });
    await card.getByRole('heading', { name: 'Fire drill' }).waitFor();
    await card.getByRole('heading', { name: 'Abandon ship' }).waitFor();
    await expect.poll(() => card.getByText('Ready', { exact: true }).count(), { timeout: 40_000, interval: 500 }).toBe(2);
    // Each ready part has its player, with a poster, fetching nothing until played.
    const players = card.locator('video');
    expect(await players.count()).toBe(2);
    expect(await players.first().getAttribute('preload')).toBe('none');
    expect(await players.first().getAttribute('poster')).toMatch(/^\/api\//);
    expect(adminTab.problems).toEqual([]);

    // ---- The learner, on a phone: part 1 plays, part 2 is locked.
    const learnerTab = await harness.newPage(390, 844);
    const l = learnerTab.page;
    await signInAs(l, learner.email);
    await l.goto(`/training/${course.id}`);
    await l.getByRole('heading', { name: course.title, level: 1 }).waitFor();
    const partTwo = l.getByRole('button', { name: /Part 2.*Abandon ship/ });
    expect(await partTwo.getAttribute('aria-disabled')).toBe('true');
    await l.getByText('Complete part 1 first.').waitFor();
    expect(await l.getByRole('button', { name: /Part 1.*Fire drill/ }).getAttribute('aria-current')).toBe('true');
    await l.getByText('0 of 2 parts completed').waitFor();
    // Nothing on the page is wider than the phone.
    expect(await l.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // No Submit until every part is completed.
    expect(await l.getByRole('button', { name: 'Submit Training' }).count()).toBe(0);

    // Part 1 to the end: it is completed, part 2 unlocks and plays.
    await playFromKeyboard(l);
    await l.getByText('Part 1 completed. Now playing part 2: Abandon ship.').waitFor({ timeout: 20_000 });
    await l.getByText('1 of 2 parts completed').waitFor();
    await expect.poll(async () => (await videoState(l)).label).toBe('Part 2: Abandon ship');
    // The player kept the focus it had from the keyboard.
    expect(await l.evaluate(() => document.activeElement?.tagName)).toBe('VIDEO');
    await expect.poll(async () => (await videoState(l)).time, { timeout: 10_000 }).toBeGreaterThan(1.5);
    expect(JSON.parse((await l.evaluate((key) => localStorage.getItem(key), `completedVideos_${course.id}`)) ?? 'null')).toEqual([0]);
    expect(await l.evaluate((key) => localStorage.getItem(key), `currentVideoIndex_${course.id}`)).toBe('1');

    // Paused half way: the place is reported, and a reload resumes there.
    const reported = l.waitForResponse((response) => response.url().includes('training.heartbeat') && response.ok());
    await l.locator('video').evaluate((video: HTMLVideoElement) => video.pause());
    await reported;
    const pausedAt = (await videoState(l)).time;
    // After the reload the stream's first answer fails, as an expired link's would: the player takes
    // fresh links and still resumes where the learner left off.
    let streamsRefused = 0;
    await l.route('**/api/trainingVideo/stream/**', (route) => {
      if (streamsRefused > 0) return route.continue();
      streamsRefused += 1;
      return route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ message: MESSAGES.files.linkExpired }) });
    });
    await l.reload();
    await l.getByRole('heading', { name: course.title, level: 1 }).waitFor();
    expect(await l.getByRole('button', { name: /Part 2.*Abandon ship/ }).getAttribute('aria-current')).toBe('true');
    await expect.poll(async () => (await videoState(l)).time, { timeout: 10_000 }).toBeGreaterThan(pausedAt - 0.5);
    expect((await videoState(l)).time).toBeLessThan(pausedAt + 0.5);
    expect(streamsRefused).toBe(1);
    await l.unrouteAll();

    // The rest of part 2: every part is completed, and the training can be submitted.
    await playFromKeyboard(l);
    await l.getByText('Every part is completed. You can now submit the training.').waitFor({ timeout: 20_000 });
    await l.getByText('2 of 2 parts completed').waitFor();
    await l.getByRole('link', { name: 'Give Test' }).waitFor();
    expect(await l.getByRole('link', { name: 'Give Test' }).getAttribute('href')).toBe(`/testPage/${course.id}`);
    await l.getByRole('button', { name: 'Submit Training' }).click();
    await l.getByText(T.submitted).waitFor();
    // On to the course home, where the test is the next step.
    await l.waitForURL(`**/courses/${course.id}/content`, { timeout: 10_000 });
    // Chromium logs the refused stream; nothing else went wrong.
    expect(learnerTab.problems).toEqual([expect.stringContaining('status of 403')]);
  });
});
