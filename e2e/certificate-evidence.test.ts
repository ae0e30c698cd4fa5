import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../src/shared/messages.ts';
import { trainingVideos, trainingVideoSets } from '../src/server/db/schema.ts';
import { createCourse, createEnrolment, createUser, sessionOf } from '../src/testing/factories.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { signInAs } from './support/session.ts';

const E = MESSAGES.evidence;
/** Where the pictures of the screens go, to look at (set SCREENSHOT_DIR to keep them elsewhere). */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp';

let harness: BrowserHarness;

beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

type TUser = Awaited<ReturnType<typeof createUser>>;
const RIGHT: Record<string, string> = { 'Which extinguisher suits an electrical fire?': 'CO2', 'How long must a lifejacket light burn?': '8 hours' };

/**
 * A certificate with something to show: a part of 30 s watched after a report that ran ahead of
 * the server's clock (refused, 2 s credited), a failed attempt (one answer wrong) and a pass. The
 * server's clock is moved by the test (only `Date`), ten minutes back from now, and put back after.
 */
async function certificateWithEvidence(admin: TUser) {
  const db = harness.portal.runtime.db;
  const as = (user: TUser) => harness.portal.caller(sessionOf(user));
  const course = await createCourse(db, { title: `Fire Prevention ${admin.id.slice(0, 6)}` });
  const [set] = await db.insert(trainingVideoSets).values({ courseId: course.id, title: course.title }).returning();
  const [video] = await db
    .insert(trainingVideos)
    .values({ setId: set!.id, serial: 1, originalName: 'Fire drill', sourceFile: `${crypto.randomUUID()}.mp4`, status: 'ready', durationSeconds: 30, renditions: [] })
    .returning();
  const { test } = await as(admin).tests.create({
    courseId: course.id,
    title: course.title,
    passMark: 100,
    waitMinutes: 0,
    questions: Object.entries(RIGHT).map(([questionText, correctAnswer]) => ({
      questionText,
      options: questionText.startsWith('Which') ? ['Water', 'CO2', 'Foam', 'Wet sand'] : ['2 hours', '4 hours', '8 hours', '12 hours'],
      correctAnswer,
    })),
  });
  await as(admin).tests.publish({ testId: test.id });
  const learner = await createUser(db, { approvedAt: new Date(), firstName: 'Kavya', lastName: `Evidence ${admin.id.slice(0, 4)}` });
  await createEnrolment(db, { userId: learner.id, courseId: course.id, status: 'approved', decidedAt: new Date() });
  const me = as(learner);

  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(new Date(Date.now() - 10 * 60_000));
    const advance = (seconds: number) => vi.setSystemTime(new Date(Date.now() + seconds * 1000));
    await me.training.heartbeat({ videoId: video!.id, from: 0, to: 20, position: 20 });
    await me.training.heartbeat({ videoId: video!.id, from: 0, to: 0, position: 0 });
    for (let second = 10; second <= 30; second += 10) {
      advance(10);
      await me.training.heartbeat({ videoId: video!.id, from: second - 10, to: second, position: second });
    }
    await me.training.submit({ setId: set!.id });
    const first = await me.tests.take({ courseId: course.id });
    advance(95);
    await me.tests.submit({
      testId: first.test.id,
      answers: first.test.questions.map((question) => ({ questionId: question.id, selectedAnswer: question.questionText.startsWith('Which') ? 'Water' : RIGHT[question.questionText]! })),
    });
    advance(60);
    const second = await me.tests.take({ courseId: course.id });
    advance(40);
    const passed = await me.tests.submit({
      testId: second.test.id,
      answers: second.test.questions.map((question) => ({ questionId: question.id, selectedAnswer: RIGHT[question.questionText]! })),
    });
    expect(passed.passed).toBe(true);
    return { course, learner, certificate: passed.certificate! };
  } finally {
    vi.useRealTimers();
  }
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('the evidence behind a certificate', () => {
  it('an administrator opens a certificate’s evidence from Test Results at 1280 and 390 px, and exports the course’s evidence as CSV', async () => {
    const admin = await createUser(harness.portal.runtime.db, { role: 'admin', approvedAt: new Date() });
    const { course, learner, certificate } = await certificateWithEvidence(admin);

    for (const width of [1280, 390]) {
      const { page, context, problems } = await harness.newPage(width, width === 390 ? 844 : 900);
      await signInAs(page, admin.email);
      await page.goto(`/admin-dashboard/user-results?q=${encodeURIComponent(learner.lastName)}`);
      await page.getByRole('heading', { name: 'Test Results', level: 1 }).waitFor();
      const passedCard = page.getByRole('article', { name: new RegExp(`^Kavya ${learner.lastName}`) }).filter({ hasText: 'Passed' });
      await passedCard.waitFor();
      await passedCard.screenshot({ path: `${SCREENSHOT_DIR}/certificate-evidence-link-${width}.png` });
      await passedCard.getByRole('link', { name: `Evidence for certificate ${certificate.number}` }).click();

      await page.waitForURL(`**/admin-dashboard/certificate-evidence/${certificate.id}`);
      await page.getByRole('heading', { name: 'Certificate Evidence', level: 1 }).waitFor();
      const summary = page.getByRole('region', { name: certificate.number });
      await summary.waitFor();
      expect(await summary.textContent()).toContain(course.title);
      expect(await summary.textContent()).toContain(learner.email);

      // The part: completed, 30 s credited and timed, the report that ran ahead of the clock refused.
      const part = page.getByRole('article', { name: 'Part 1: Fire drill' });
      expect(await part.textContent()).toContain('Completed');
      await part.getByText('1 refused report').waitFor();
      const refusal = part.getByRole('row').filter({ hasText: 'Ahead of the server' });
      expect((await refusal.textContent())?.replace(/\s+/g, ' ')).toContain('0 s to 20 s');
      expect(await refusal.textContent()).toContain('2 s of 20 s');

      // The failed attempt: its wrong answer marked in words, beside the right one.
      const failed = page.getByRole('article', { name: 'Attempt 1' });
      await failed.getByText('Failed', { exact: true }).waitFor();
      expect(await failed.textContent()).toContain('1 / 2');
      expect(await failed.textContent()).toContain('1 min 35 s');
      const question = failed.getByRole('listitem').filter({ hasText: 'Which extinguisher suits an electrical fire?' });
      await question.getByText('Wrong', { exact: true }).waitFor();
      expect(await question.getByRole('listitem').filter({ hasText: 'Water' }).textContent()).toContain('Learner’s answer');
      expect(await question.getByRole('listitem').filter({ hasText: 'CO2' }).textContent()).toContain('Right answer');
      await page.getByRole('article', { name: 'Attempt 2' }).getByText('Passed', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Print' }).waitFor();

      expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/certificate-evidence-${width}.png`, fullPage: true });
      await part.screenshot({ path: `${SCREENSHOT_DIR}/certificate-evidence-part-${width}.png` });
      await failed.screenshot({ path: `${SCREENSHOT_DIR}/certificate-evidence-attempt-${width}.png` });

      // Printed, the page is the evidence alone: no bar, no menu, no buttons.
      await page.emulateMedia({ media: 'print' });
      expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
      expect(await page.getByRole('link', { name: 'Back to Test Results' }).isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: 'Logout' }).isVisible()).toBe(false);
      expect(await page.getByRole('link', { name: 'User Results' }).isVisible()).toBe(false);
      expect(await page.getByRole('heading', { name: 'Training watched' }).isVisible()).toBe(true);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/certificate-evidence-print-${width}.png`, fullPage: true });
      await page.emulateMedia({ media: 'screen' });

      // Back to the results, with their search.
      await page.getByRole('link', { name: 'Back to Test Results' }).click();
      await page.waitForURL(/user-results\?q=/);

      // ---- The export: the course and the last 30 days, as one CSV.
      await page.goto('/admin-dashboard/certificate-evidence');
      await page.getByRole('heading', { name: 'Certificate Evidence', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Export CSV' }).click();
      await page.getByText(MESSAGES.tests.courseRequired).waitFor();
      await page.getByLabel('Course', { exact: true }).selectOption({ label: course.title });
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^certificate-evidence-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
      await page.getByText(E.exported).waitFor();
      const rows = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
      expect(rows[0]).toContain('Timed by the server (seconds)');
      const ours = rows.filter((row) => row.includes(certificate.number));
      expect(ours.filter((row) => row.includes('Part watched'))).toHaveLength(1);
      expect(ours.filter((row) => row.includes('Report refused'))).toHaveLength(1);
      expect(ours.filter((row) => row.includes('Test attempt'))).toHaveLength(2);
      expect(ours.find((row) => row.includes('Attempt 1'))).toContain('Water / CO2');
      expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/evidence-export-${width}.png`, fullPage: true });
      expect(problems).toEqual([]);
      await context.close();
    }
  });
});
