import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/shared/messages.ts';
import { createUser } from '../src/testing/factories.ts';
import { imageOf } from '../src/testing/images.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { signInAs } from './support/session.ts';

let harness: BrowserHarness;
let fileDir: string;
let imagePath: string;

beforeAll(async () => {
  harness = await startBrowserHarness();
  fileDir = mkdtempSync(path.join(tmpdir(), 'courses-e2e-'));
  imagePath = path.join(fileDir, 'bridge-watch.png');
  writeFileSync(imagePath, await imageOf('png', 900, 500));
});
afterAll(async () => {
  await harness?.close();
  if (fileDir) rmSync(fileDir, { recursive: true, force: true });
});

async function imageLoaded(page: Page, selector: string): Promise<boolean> {
  const image = page.locator(selector).first();
  await image.waitFor();
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).complete)).toBe(true);
  return image.evaluate((element) => (element as HTMLImageElement).naturalWidth > 0);
}

describe('courses and enrolment', () => {
  it('an administrator publishes a course, a learner requests it, the request is accepted and the course opens; deactivation hides it', async () => {
    const db = harness.portal.runtime.db;
    const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
    const learner = await createUser(db, { approvedAt: new Date() });
    const learnerName = `${learner.firstName} ${learner.lastName}`;
    const title = `Bridge Resource Management ${learner.id.slice(0, 6)}`;

    // ---- The administrator creates the course, with its image.
    const adminTab = await harness.newPage(1280);
    const a = adminTab.page;
    await signInAs(a, admin.email);
    await a.goto('/admin-dashboard/create-course');
    await a.getByRole('heading', { name: 'Create Course', level: 1 }).waitFor();

    // Nothing filled in: each field says what it needs, the image included.
    await a.getByRole('button', { name: 'Create Course' }).click();
    await a.getByText(MESSAGES.courses.imageRequired).waitFor();
    await a.getByText(MESSAGES.courses.titleRequired).waitFor();

    await a.getByLabel('Title', { exact: true }).fill(title);
    await a.getByLabel('Duration').fill('3 days');
    await a.getByLabel('Price (₹)').fill('12500');
    await a.getByLabel('Category').fill('STCW');
    await a.getByLabel('Subject 1', { exact: true }).fill('Situational awareness');
    await a.getByRole('button', { name: 'Add subject' }).click();
    await a.getByLabel('Subject 2', { exact: true }).fill('Closed-loop communication');
    await a.getByLabel('Description', { exact: true }).fill('Teamwork and decision making on the bridge.');
    await a.locator('#course-image').setInputFiles(imagePath);
    expect(await imageLoaded(a, 'img[alt="Preview of bridge-watch.png"]')).toBe(true);
    await a.getByRole('button', { name: 'Create Course' }).click();
    await a.getByText(MESSAGES.courses.created).waitFor();
    // The form starts afresh.
    await expect.poll(() => a.getByLabel('Title', { exact: true }).inputValue()).toBe('');

    // ---- A visitor sees it in the catalogue; Enroll Now asks them to log in.
    const visitorTab = await harness.newPage(1280);
    const v = visitorTab.page;
    await v.goto('/courses');
    await v.getByRole('heading', { name: 'Explore Our Courses' }).waitFor();
    const visitorCard = v.getByRole('article', { name: title });
    await visitorCard.waitFor();
    await expect(visitorCard.textContent()).resolves.toContain('₹12,500');
    const cardImage = visitorCard.locator('img');
    expect(await cardImage.getAttribute('width')).toBeTruthy();
    expect(await cardImage.getAttribute('height')).toBeTruthy();
    expect(await imageLoaded(v, `article:has-text("${title}") img`)).toBe(true);
    await visitorCard.getByRole('button', { name: 'Enroll Now' }).click();
    await v.waitForURL('**/login');

    // ---- The learner requests it from the dashboard.
    const learnerTab = await harness.newPage(1280);
    const l = learnerTab.page;
    await signInAs(l, learner.email);
    await l.goto('/dashboard');
    await l.getByRole('heading', { name: 'Course List' }).waitFor();
    await l.getByRole('button', { name: `Enrollment: ${title}` }).click();
    await l.getByText(MESSAGES.enrolment.submitted).waitFor();
    const learnerCard = l.getByRole('article', { name: title });
    await learnerCard.getByRole('button', { name: 'Request pending' }).waitFor();

    // ---- The administrator finds the request by e-mail and accepts it.
    await a.goto('/admin-dashboard/enrollment-request');
    await a.getByRole('heading', { name: 'User Enrollment Requests' }).waitFor();
    await a.getByLabel('Search by learner name, course title or e-mail').fill(learner.email);
    const request = a.getByRole('article', { name: title });
    await request.waitFor();
    await expect(request.textContent()).resolves.toContain(learner.email);
    await a.getByRole('button', { name: `Accept ${learnerName}'s request for ${title}` }).click();
    await a.getByRole('alertdialog').getByText('Are you sure you want to accept this request?', { exact: false }).waitFor();
    await a.getByRole('button', { name: 'Yes, Accept' }).click();
    await a.getByText(MESSAGES.enrolment.accepted).waitFor();
    await a.getByText(MESSAGES.enrolment.noMatches).waitFor();

    // ---- The learner's button now reads Launch and opens the course home.
    await l.reload();
    const launch = l.getByRole('link', { name: `Launch ${title}` });
    await launch.waitFor();
    await launch.click();
    await l.waitForURL(/\/courses\/[^/]+\/content$/);
    await l.getByRole('heading', { level: 1, name: title }).waitFor();
    await l.getByRole('heading', { name: 'Your progress' }).waitFor();
    await l.getByText('Closed-loop communication').waitFor();
    const courseHomeUrl = l.url();

    // Your Courses and the learner's requests show it as approved.
    await l.goto('/UserCource');
    await l.getByRole('article', { name: title }).getByRole('link', { name: 'Launch the Course' }).waitFor();
    await l.goto('/EnrollmentRequest');
    await l.getByRole('heading', { name: title }).waitFor();
    await l.getByText('Approved', { exact: true }).first().waitFor();

    // ---- Deactivation hides it from the catalogue; the approved learner keeps the course home.
    await a.goto('/admin-dashboard/courses');
    await a.getByRole('button', { name: `Deactivate ${title}` }).click();
    await a.getByText('Are you sure you want to deactivate this course?').waitFor();
    await a.getByRole('button', { name: 'Yes, Deactivate' }).click();
    await a.getByText(MESSAGES.courses.deactivated).waitFor();
    await a.getByRole('button', { name: `Activate ${title}` }).waitFor();

    await v.goto('/courses');
    await v.getByRole('heading', { name: 'Explore Our Courses' }).waitFor();
    await v.locator('main').getByText(/No courses found\.|Enroll Now/).first().waitFor();
    expect(await v.getByRole('article', { name: title }).count()).toBe(0);

    await l.goto(courseHomeUrl);
    await l.getByRole('heading', { level: 1, name: title }).waitFor();

    for (const tab of [adminTab, visitorTab, learnerTab]) {
      expect(tab.problems).toEqual([]);
      await tab.context.close();
    }
  });
});
