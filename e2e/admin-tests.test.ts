import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/shared/messages.ts';
import { createCourse, createEnrolment, createUser, sessionOf } from '../src/testing/factories.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { signInAs } from './support/session.ts';

const T = MESSAGES.tests;
/** Set SCREENSHOT_DIR to keep a picture of each screen at 1280 and 390 px wide. */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR;

let harness: BrowserHarness;

beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

async function shoot(page: Page, name: string) {
  if (!SCREENSHOT_DIR) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${page.viewportSize()!.width}.png`), fullPage: true });
}

describe('administrators and tests', () => {
  it('an administrator writes a test for an active course, publishes it, and sees it among the published tests', async () => {
    const db = harness.portal.runtime.db;
    const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
    const course = await createCourse(db, { title: `Proficiency in Survival Craft ${admin.id.slice(0, 6)}` });
    await createCourse(db, { title: `Retired Course ${admin.id.slice(0, 6)}`, isActive: false });

    const { page, problems } = await harness.newPage(1280);
    await signInAs(page, admin.email);
    await page.goto('/admin-dashboard/test-form');
    await page.getByRole('heading', { name: 'Create New Test', level: 1 }).waitFor();

    // Nothing filled in: the shared rules say what is missing, on each field.
    await page.getByRole('button', { name: 'Submit Test' }).click();
    await page.getByText(T.courseRequired).waitFor();
    await page.getByText(T.passMarkRequired).waitFor();
    await page.getByText(T.questionRequired).waitFor();
    await page.getByText(T.correctAnswerRequired).waitFor();

    // Only active courses are offered; choosing one fills the read-only title.
    await page.getByRole('combobox', { name: 'Course' }).click();
    expect(await page.getByRole('option', { name: /Retired Course/ }).count()).toBe(0);
    await page.getByRole('option', { name: course.title }).click();
    const title = page.getByLabel('Title', { exact: true });
    expect(await title.inputValue()).toBe(course.title);
    expect(await title.getAttribute('readonly')).not.toBeNull();
    await page.getByLabel('Pass mark (%)').fill('50');

    await page.getByLabel('Question text').fill('Which extinguisher suits an electrical fire?');
    for (const [letter, text] of [['A', 'Water'], ['B', 'CO2'], ['C', 'Foam'], ['D', 'Wet sand']]) await page.getByLabel(`Option ${letter}`, { exact: true }).fill(text!);
    // The answer is chosen among the options, which the choice lists as they are typed.
    await page.getByRole('radio', { name: 'B. CO2' }).check();

    await page.getByRole('button', { name: 'Add Question' }).click();
    await page.getByRole('group', { name: 'Question 2' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('question-1-text');
    await page.getByRole('button', { name: 'Add Question' }).click();
    await page.getByRole('button', { name: 'Remove question 3' }).click();
    expect(await page.getByRole('group', { name: 'Question 3' }).count()).toBe(0);
    const second = page.getByRole('group', { name: 'Question 2' });
    await second.getByLabel('Question text').fill('How many short blasts come before the long one in the general alarm?');
    for (const [letter, text] of [['A', 'Three'], ['B', 'Five'], ['C', 'Seven'], ['D', 'Nine']]) await second.getByLabel(`Option ${letter}`, { exact: true }).fill(text!);
    await second.getByRole('radio', { name: 'C. Seven' }).check();
    await shoot(page, 'test-form');

    await page.getByRole('button', { name: 'Submit Test' }).click();
    await page.getByText(T.created).waitFor();
    // The form starts again: no course, one empty question.
    expect(await title.inputValue()).toBe('');
    expect(await page.getByRole('group', { name: /^Question \d$/ }).count()).toBe(1);
    expect(await page.getByLabel('Question text').inputValue()).toBe('');

    // ---- All Created Tests: unpublished; publish it.
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'All Tests' }).click();
    await page.getByRole('heading', { name: 'All Created Tests', level: 1 }).waitFor();
    const card = page.getByRole('article', { name: course.title });
    await card.getByText('Unpublished').waitFor();
    expect(await card.textContent()).toContain('50%');
    await card.getByRole('button', { name: 'Show the 2 questions' }).click();
    await card.getByText('Which extinguisher suits an electrical fire?').waitFor();
    const answer = card.getByRole('listitem').filter({ hasText: 'CO2' }).last();
    expect(await answer.textContent()).toMatch(/^B\.CO2Answer$/);
    await shoot(page, 'all-tests');
    await card.getByRole('button', { name: `Publish ${course.title}` }).click();
    await page.getByText(T.published).waitFor();
    await card.getByText('Published', { exact: true }).waitFor();
    await card.getByRole('button', { name: `Unpublish ${course.title}` }).waitFor();
    const rows = await harness.portal.caller(sessionOf(admin)).tests.published();
    expect(rows.map((test) => test.course.id)).toContain(course.id);

    // ---- The attempts policy, changed in a dialog: refused in the server's words, then saved.
    expect(await card.textContent()).toContain('3 per round');
    await card.getByRole('button', { name: `Edit policy of ${course.title}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit attempts policy' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('placeholder'))).toBe('All');
    await dialog.getByLabel('Questions per attempt').fill('3');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(T.questionsPerAttemptTooMany(2)).waitFor();
    await dialog.getByLabel('Questions per attempt').fill('1');
    await dialog.getByLabel('Attempts allowed').fill('2');
    await dialog.getByLabel('Wait in minutes').fill('30');
    await dialog.getByLabel('Wait in minutes').press('Enter');
    await page.getByText(T.policySaved).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await card.getByText('1 at random').waitFor();
    expect(await card.textContent()).toContain('2 per round');
    expect(await card.textContent()).toContain('30 min');
    const [saved] = (await harness.portal.caller(sessionOf(admin)).tests.list()).filter((test) => test.course.id === course.id);
    expect(saved).toMatchObject({ questionsPerAttempt: 1, attemptsAllowed: 2, waitMinutes: 30 });

    // ---- Published Tests: read-only.
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Published Tests' }).click();
    await page.getByRole('heading', { name: 'Published Tests', level: 1 }).waitFor();
    const published = page.getByRole('article', { name: course.title });
    await published.waitFor();
    expect(await published.getByRole('button', { name: /Publish|Unpublish/ }).count()).toBe(0);
    await shoot(page, 'published-tests');
    // The one refusal asked for on purpose: the policy with more questions per attempt than the test has.
    expect(problems).toEqual([expect.stringMatching(/status of 400 .*\/trpc\/tests\.updatePolicy/)]);

    // On a phone the screens fit the width: nothing scrolls sideways.
    const phone = await harness.newPage(390, 844);
    await signInAs(phone.page, admin.email);
    for (const [address, heading, name] of [
      ['/admin-dashboard/test-form', 'Create New Test', 'test-form'],
      ['/admin-dashboard/All-tests', 'All Created Tests', 'all-tests'],
      ['/admin-dashboard/Published-tests', 'Published Tests', 'published-tests'],
    ] as const) {
      await phone.page.goto(address);
      await phone.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      if (name !== 'test-form') await phone.page.getByRole('article', { name: course.title }).getByRole('button', { name: /^Show/ }).click();
      else await phone.page.getByRole('combobox', { name: 'Course' }).waitFor();
      expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shoot(phone.page, name);
    }
    // The policy dialog fits a phone: its three boxes and buttons within the width.
    await phone.page.goto('/admin-dashboard/All-tests');
    await phone.page.getByRole('article', { name: course.title }).getByRole('button', { name: `Edit policy of ${course.title}` }).click();
    const phoneDialog = phone.page.getByRole('dialog', { name: 'Edit attempts policy' });
    await phoneDialog.getByLabel('Wait in minutes').waitFor();
    expect(await phoneDialog.getByLabel('Attempts allowed').inputValue()).toBe('2');
    const box = (await phoneDialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shoot(phone.page, 'test-policy-dialog');
    await phoneDialog.getByRole('button', { name: 'Cancel' }).click();
    await phoneDialog.waitFor({ state: 'detached' });
    expect(phone.problems).toEqual([]);
  });

  it('the results screen searches on the server, keeps the search in the address, and the landing page shows the figures', async () => {
    const db = harness.portal.runtime.db;
    const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
    const as = (user: Awaited<ReturnType<typeof createUser>>) => harness.portal.caller(sessionOf(user));
    const course = await createCourse(db, { title: `Medical First Aid ${admin.id.slice(0, 6)}` });
    const { test } = await as(admin).tests.create({
      courseId: course.id,
      title: course.title,
      passMark: 50,
      questions: [
        { questionText: 'Recovery position is for?', options: ['Unconscious breathing', 'Cardiac arrest', 'Fracture', 'Burns'], correctAnswer: 'Unconscious breathing' },
        { questionText: 'Compressions per minute?', options: ['60', '80', '100 to 120', '150'], correctAnswer: '100 to 120' },
      ],
    });
    await as(admin).tests.publish({ testId: test.id });
    for (const [firstName, right] of [['Kavya', 2], ['Rohan', 0], ['Meera', 1]] as const) {
      const learner = await createUser(db, { approvedAt: new Date(), firstName, lastName: `Sailor ${admin.id.slice(0, 4)}` });
      await createEnrolment(db, { userId: learner.id, courseId: course.id, status: 'approved', decidedAt: new Date(), trainingSubmittedAt: new Date() });
      await as(learner).tests.take({ courseId: course.id });
      await as(learner).tests.submit({
        testId: test.id,
        answers: test.questions.map((question, index) => ({
          questionId: question.id,
          selectedAnswer: index < right ? question.correctAnswer : question.options.find((option) => option !== question.correctAnswer)!,
        })),
      });
    }

    for (const width of [1280, 390]) {
      const { page, problems } = await harness.newPage(width, 900);
      await signInAs(page, admin.email);
      await page.goto('/admin-dashboard/user-results');
      await page.getByRole('heading', { name: 'Test Results', level: 1 }).waitFor();
      await page.getByRole('searchbox').fill('rohan');
      await page.waitForURL(/\?q=rohan/);
      const card = page.getByRole('article', { name: /^Rohan Sailor/ });
      await card.waitFor();
      await expect.poll(() => page.getByRole('article').count()).toBe(1);
      await card.getByText('Failed', { exact: true }).waitFor();
      expect(await card.textContent()).toContain('0 / 2');
      await card.getByRole('button', { name: 'Show answers' }).click();
      await card.getByText('Correct: 100 to 120').waitFor();
      await shoot(page, 'test-results');

      // The export holds every matching attempt; the download carries the search.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^test-results-\d{4}-\d{2}-\d{2}\.csv$/);

      // A reload keeps the search.
      await page.reload();
      expect(await page.getByRole('searchbox').inputValue()).toBe('rohan');
      await page.getByRole('article', { name: /^Rohan Sailor/ }).waitFor();

      await page.goto('/admin-dashboard');
      await page.getByRole('link', { name: /Published tests\s*\d+/ }).waitFor();
      await page.getByRole('figure', { name: 'Pass rate per course' }).waitFor();
      // The table alternative reads the same figures: 2 of 3 passed.
      const row = page.getByRole('row', { name: new RegExp(course.title) });
      expect((await row.textContent())?.replace(/\s+/g, ' ')).toContain(`${course.title}3266%`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shoot(page, 'overview');
      expect(problems).toEqual([]);
      await page.context().close();
    }
  });
});
