import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/shared/messages.ts';
import { createCourse, createEnrolment, createUser, sessionOf } from '../src/testing/factories.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { signInAs } from './support/session.ts';

let harness: BrowserHarness;

beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe('a certificate, from the pass to the public check', () => {
  it('a learner passes, opens the PDF from the report, the verify page confirms it, and after a revocation says so', async () => {
    const db = harness.portal.runtime.db;
    const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
    // The unique part in the given names: the masked name is the first given name's and the surname's initials.
    const unique = Date.now().toString(36);
    const learner = await createUser(db, { approvedAt: new Date(), firstName: `Meera ${unique}`, lastName: 'Iyer' });
    const course = await createCourse(db, { title: `Personal Survival ${learner.id.slice(0, 6)}` });
    await createEnrolment(db, { userId: learner.id, courseId: course.id, status: 'approved', decidedAt: new Date(), trainingSubmittedAt: new Date() });
    const asAdmin = harness.portal.caller(sessionOf(admin));
    const { test } = await asAdmin.tests.create({
      courseId: course.id,
      title: `${course.title} test`,
      passMark: 100,
      questions: [{ questionText: 'How many short blasts and one long is the general alarm?', options: ['Three', 'Five', 'Seven', 'Nine'], correctAnswer: 'Seven' }],
    });
    await asAdmin.tests.publish({ testId: test.id });

    // The learner, on a phone: the test, then View Certificate.
    const { page, problems } = await harness.newPage(390, 844);
    await signInAs(page, learner.email);
    await page.goto(`/testPage/${course.id}`);
    await page.getByRole('button', { name: 'Start attempt 1 of 3' }).click();
    await page.getByRole('radio', { name: 'Seven', exact: true }).check();
    await page.getByRole('button', { name: 'Submit Test' }).click();
    await page.getByText(MESSAGES.tests.scored(1, 1, 100, true)).waitFor();
    await page.getByRole('link', { name: 'View Certificate' }).click();

    // The report shows the number, and the PDF once the worker has rendered it.
    await page.waitForURL(`**/certificate-report?courseId=${course.id}`);
    const number = (await page.getByText(/^MTA\/\d{4}\/\d{6}$/).first().textContent())!.trim();
    const view = page.getByRole('link', { name: /View Certificate/ });
    await view.waitFor({ timeout: 20_000 });
    expect(await view.getAttribute('target')).toBe('_blank');
    const pdfUrl = (await view.getAttribute('href'))!;
    expect(pdfUrl).toMatch(/^\/certificates\/[0-9a-f]{36}\.pdf$/);
    const pdf = await page.request.get(pdfUrl);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // Anyone the learner gives their verification link (the QR code's) sees it valid, and nothing more.
    const shared = (await page.getByRole('link', { name: 'verification link' }).getAttribute('href'))!;
    expect(shared).toMatch(new RegExp(`^/verify/${number}\\?code=[\\w-]{27}$`));
    const visitor = await harness.newPage(390, 844);
    await visitor.page.goto(shared);
    const valid = visitor.page.getByRole('region', { name: 'Valid certificate' });
    await valid.waitFor();
    const shown = (await valid.textContent())!;
    expect(shown).toContain(`${learner.firstName} ${learner.lastName}`);
    expect(shown).toContain(course.title);
    expect(shown).toContain(number);
    expect(shown).not.toContain(learner.email);
    // The number alone says it is valid, with the initials only.
    const byNumber = await harness.newPage(390, 844);
    await byNumber.page.goto(`/verify/${number}`);
    const masked = byNumber.page.getByRole('region', { name: 'Valid certificate' });
    await masked.waitFor();
    expect(await masked.textContent()).toContain('M. I***');
    expect(await masked.textContent()).not.toContain(course.title);
    await byNumber.context.close();

    // An administrator revokes it from Test Results.
    const office = await harness.newPage(1280, 900);
    await signInAs(office.page, admin.email);
    await office.page.goto(`/admin-dashboard/user-results?q=${encodeURIComponent(unique)}`);
    const card = office.page.getByRole('article', { name: `${learner.firstName} ${learner.lastName}` });
    await card.getByText('Certificate issued').waitFor();
    await card.getByRole('button', { name: `Revoke certificate ${number}` }).click();
    await office.page.getByRole('button', { name: 'Yes, Revoke' }).click();
    await card.getByText('Certificate revoked').waitFor();

    await visitor.page.reload();
    await visitor.page.getByRole('region', { name: 'Revoked certificate' }).waitFor();
    expect((await page.request.get(pdfUrl)).status()).toBe(410);
    await page.reload();
    await page.getByText(/revoked/i).first().waitFor();
    expect(await page.getByRole('link', { name: /View Certificate/ }).count()).toBe(0);

    expect([...problems, ...visitor.problems, ...office.problems]).toEqual([]);
  });
});
