import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAttempts } from '../src/server/db/schema.ts';
import { MESSAGES } from '../src/shared/messages.ts';
import type { TTestForm } from '../src/shared/schemas/tests.ts';
import { createCourse, createEnrolment, createUser, sessionOf } from '../src/testing/factories.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { signInAs } from './support/session.ts';

const T = MESSAGES.tests;

const QUESTIONS: TTestForm['questions'] = [
  { questionText: 'Which extinguisher suits an electrical fire?', options: ['Water', 'CO2', 'Foam', 'Wet sand'], correctAnswer: 'CO2' },
  { questionText: 'The general emergency alarm is how many short blasts and one long?', options: ['Three', 'Five', 'Seven', 'Nine'], correctAnswer: 'Seven' },
  { questionText: 'A lifejacket light must burn for at least how long?', options: ['2 hours', '4 hours', '8 hours', '12 hours'], correctAnswer: '8 hours' },
];

let harness: BrowserHarness;

beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe('the test page', () => {
  it('a learner who finished the training answers every question, fails, is told to wait, passes, and the course home leads to the certificate', async () => {
    const db = harness.portal.runtime.db;
    const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
    const learner = await createUser(db, { approvedAt: new Date() });
    const course = await createCourse(db, { title: `Fire Prevention ${learner.id.slice(0, 6)}` });
    await createEnrolment(db, { userId: learner.id, courseId: course.id, status: 'approved', decidedAt: new Date(), trainingSubmittedAt: new Date() });
    const asAdmin = harness.portal.caller(sessionOf(admin));
    const { test } = await asAdmin.tests.create({ courseId: course.id, title: `${course.title} test`, passMark: 70, questions: QUESTIONS });
    await asAdmin.tests.publish({ testId: test.id });

    const tab = await harness.newPage(390, 844);
    const page = tab.page;
    await signInAs(page, learner.email);
    // The course home leads to the test once the training is submitted, with the attempts left.
    await page.goto(`/courses/${course.id}/content`);
    await page.getByText('You have 3 of 3 attempts left.', { exact: false }).waitFor();
    await page.getByRole('link', { name: 'Take the test' }).click();
    await page.getByRole('heading', { level: 1, name: `${course.title} test` }).waitFor();
    // The overview starts nothing: Start uses an attempt.
    await page.getByRole('button', { name: 'Start attempt 1 of 3' }).click();

    const submit = page.getByRole('button', { name: 'Submit Test' });
    // Each attempt orders the questions anew: they are found by their text.
    const question = (number: number) => page.getByRole('group', { name: new RegExp(QUESTIONS[number - 1]!.questionText.slice(0, 30)) });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByText('Answered 0 of 3').waitFor();

    // From the keyboard: a click on the first option, then the arrow keys choose within the group.
    const radios = question(1).getByRole('radio');
    await radios.nth(0).check();
    await page.keyboard.press('ArrowDown');
    expect(await radios.nth(1).isChecked()).toBe(true);
    await question(1).getByRole('radio', { name: 'CO2', exact: true }).check();
    await question(2).getByRole('radio', { name: 'Seven', exact: true }).check();
    await page.getByText('Answered 2 of 3').waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await question(3).getByRole('radio', { name: '2 hours', exact: true }).check();
    await page.getByText('Answered 3 of 3').waitFor();
    expect(await submit.isDisabled()).toBe(false);
    // Nothing on the page is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // A reload keeps the answers of the open attempt.
    await page.reload();
    await page.getByText('Answered 3 of 3').waitFor();
    expect(await question(3).getByRole('radio', { name: '2 hours', exact: true }).isChecked()).toBe(true);

    await submit.click();
    await page.getByText(T.scored(2, 3, 66.67, false), { exact: false }).waitFor();
    await page.getByText(T.attemptsLeft(2), { exact: false }).waitFor();
    expect(await page.getByRole('link', { name: 'View Certificate' }).count()).toBe(0);
    expect(await page.getByText(/not right|to review/).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Back to Courses' }).getAttribute('href')).toBe('/UserCource');
    await page.screenshot({ path: '/tmp/test-page-failed-390.png', fullPage: true });

    // A second attempt is refused during the wait: the page says when it opens and offers no Start.
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText(/^Your next attempt opens at \d{1,2}:\d{2} (am|pm)$/).waitFor();
    expect(await page.getByRole('button', { name: /Start attempt/ }).count()).toBe(0);
    await page.screenshot({ path: '/tmp/test-page-waiting-390.png', fullPage: true });

    // Ten minutes pass on the server's clock (the attempt was submitted that long ago).
    await db
      .update(testAttempts)
      .set({ submittedAt: sql`${testAttempts.submittedAt} - interval '11 minutes'` })
      .where(and(eq(testAttempts.userId, learner.id), eq(testAttempts.courseId, course.id)));
    await page.reload();
    await page.getByRole('button', { name: 'Start attempt 2 of 3' }).click();
    await page.getByText('Answered 0 of 3').waitFor();
    await question(1).getByRole('radio', { name: 'CO2', exact: true }).check();
    await question(2).getByRole('radio', { name: 'Seven', exact: true }).check();
    await question(3).getByRole('radio', { name: '8 hours', exact: true }).check();
    await submit.click();
    await page.getByText(T.scored(3, 3, 100, true)).waitFor();
    await page.getByText('Every answer was right.').waitFor();
    const viewCertificate = page.getByRole('link', { name: 'View Certificate' });
    expect(await viewCertificate.getAttribute('href')).toBe(`/certificate-report?courseId=${course.id}`);
    await page.getByText(/^MTA\/\d{4}\/\d{6}$/).waitFor();
    expect(await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('testAnswers_')))).toEqual([]);
    await page.screenshot({ path: '/tmp/test-page-passed-390.png', fullPage: true });

    // The course home leads on to the certificate.
    await page.goto(`/courses/${course.id}/content`);
    const certificate = page.getByRole('link', { name: 'View Certificate' });
    await certificate.waitFor();
    expect(await certificate.getAttribute('href')).toBe(`/certificate-report?courseId=${course.id}`);
    await page.getByText('You passed with 100%.').waitFor();
    await page.screenshot({ path: '/tmp/course-home-passed-390.png', fullPage: true });
    expect(tab.problems).toEqual([]);
  });

  it('a learner who has not submitted the training is told so and shown the way to it', async () => {
    const db = harness.portal.runtime.db;
    const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
    const learner = await createUser(db, { approvedAt: new Date() });
    const course = await createCourse(db, { title: `Survival Craft ${learner.id.slice(0, 6)}` });
    await createEnrolment(db, { userId: learner.id, courseId: course.id, status: 'approved', decidedAt: new Date() });
    const asAdmin = harness.portal.caller(sessionOf(admin));
    const { test } = await asAdmin.tests.create({ courseId: course.id, title: course.title, passMark: 50, questions: QUESTIONS });
    await asAdmin.tests.publish({ testId: test.id });

    const tab = await harness.newPage(1280);
    await signInAs(tab.page, learner.email);
    await tab.page.goto(`/testPage/${course.id}`);
    await tab.page.getByText(T.trainingFirst).waitFor();
    expect(await tab.page.getByRole('link', { name: 'Go to the training' }).getAttribute('href')).toBe(`/training/${course.id}`);
    expect(await tab.page.getByRole('button', { name: 'Submit Test' }).count()).toBe(0);
    await tab.page.screenshot({ path: '/tmp/test-page-training-1280.png', fullPage: true });
    // Where the learner stands is read, not refused: nothing went wrong.
    expect(tab.problems).toEqual([]);
  });
  it('a course that requires an approved seafarer profile says so and leads to the profile, with no Start (390 px and 1280 px)', async () => {
    const db = harness.portal.runtime.db;
    const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
    const learner = await createUser(db, { approvedAt: new Date() });
    const course = await createCourse(db, { title: `Survival Craft ${learner.id.slice(0, 6)}`, testRequiresApprovedProfile: true });
    await createEnrolment(db, { userId: learner.id, courseId: course.id, status: 'approved', decidedAt: new Date(), trainingSubmittedAt: new Date() });
    const asAdmin = harness.portal.caller(sessionOf(admin));
    const { test } = await asAdmin.tests.create({ courseId: course.id, title: `${course.title} test`, passMark: 70, questions: QUESTIONS });
    await asAdmin.tests.publish({ testId: test.id });

    for (const width of [390, 1280]) {
      const { page, context, problems } = await harness.newPage(width, width === 390 ? 844 : 900);
      await signInAs(page, learner.email);
      await page.goto(`/testPage/${course.id}`);
      await page.getByText(MESSAGES.courseCertificate.profileRequired).waitFor();
      expect(await page.getByRole('button', { name: /^Start attempt/ }).count()).toBe(0);
      await page.screenshot({ path: `${process.env.SCREENSHOT_DIR ?? '/tmp'}/test-page-profile-required-${width}.png`, fullPage: true });
      await page.getByRole('link', { name: 'Go to your profile' }).click();
      await page.waitForURL('**/profile');
      expect(problems).toEqual([]);
      await context.close();
    }
    // Nothing was started.
    const attempts = await db.select({ n: sql<number>`count(*)::int` }).from(testAttempts).where(and(eq(testAttempts.userId, learner.id), eq(testAttempts.courseId, course.id)));
    expect(attempts[0]!.n).toBe(0);
  });
});
