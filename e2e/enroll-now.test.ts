import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateCatalogue } from '../src/server/modules/courses/catalogue.service.ts';
import { MESSAGES } from '../src/shared/messages.ts';
import { createCourse, createEnrolment, createUser, sessionOf } from '../src/testing/factories.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { logInWithForm } from './support/session.ts';

const E = MESSAGES.enrolment;

let harness: BrowserHarness;

beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

/** Every request of this learner, in any state, as the administrators' search finds them. */
async function requestsOf(learner: Awaited<ReturnType<typeof createUser>>) {
  const admin = await createUser(harness.portal.runtime.db, { role: 'admin', approvedAt: new Date() });
  const caller = harness.portal.caller(sessionOf(admin));
  const found = await Promise.all(
    (['pending', 'approved', 'rejected'] as const).map((status) => caller.enrolments.search({ search: learner.email, status })),
  );
  return found.flatMap((page) => page.items).map((item) => ({ courseId: item.course.id, status: item.status }));
}

const pathOf = (page: Page) => new URL(page.url()).pathname;

describe('Enroll Now for a visitor', () => {
  it('asks the visitor to log in, then sends the request for that course and confirms it, once', async () => {
    const db = harness.portal.runtime.db;
    const learner = await createUser(db, { approvedAt: new Date() });
    const course = await createCourse(db, { title: `Advanced Fire Fighting ${learner.id.slice(0, 6)}` });
    invalidateCatalogue(harness.portal.runtime); // the course was written straight to the database

    const { page, context, problems } = await harness.newPage(390, 844);
    await page.goto('/courses');
    await page.getByRole('heading', { name: 'Explore Our Courses' }).waitFor();
    const card = page.getByRole('article', { name: course.title });
    await card.getByRole('button', { name: 'Enroll Now' }).click();

    await page.waitForURL((url) => url.pathname === '/login');
    expect(await requestsOf(learner)).toEqual([]);
    await logInWithForm(page, learner.email);

    // Back on the catalogue, the request has gone out for the course whose button was pressed.
    await page.waitForURL((url) => url.pathname === '/courses');
    await page.getByText(E.submitted).waitFor();
    await card.getByRole('button', { name: 'Request pending' }).waitFor();
    await card.getByText('The academy is reviewing your request.').waitFor();
    expect(await requestsOf(learner)).toEqual([{ courseId: course.id, status: 'pending' }]);

    // A reload does not ask again (the course was only in this visit's navigation state).
    await page.reload();
    await card.getByRole('button', { name: 'Request pending' }).waitFor();
    expect(await page.getByText(E.alreadyPending).count()).toBe(0);
    expect(pathOf(page)).toBe('/courses');
    expect(await requestsOf(learner)).toEqual([{ courseId: course.id, status: 'pending' }]);

    expect(problems).toEqual([]);
    await context.close();
  });

  it('tells a learner who had already asked for that course where the request stands, and asks nothing', async () => {
    const db = harness.portal.runtime.db;
    const learner = await createUser(db, { approvedAt: new Date() });
    const course = await createCourse(db, { title: `Medical First Aid ${learner.id.slice(0, 6)}` });
    invalidateCatalogue(harness.portal.runtime); // the course was written straight to the database
    await createEnrolment(db, { userId: learner.id, courseId: course.id });

    const { page, context, problems } = await harness.newPage(1280);
    await page.goto('/courses');
    await page.getByRole('article', { name: course.title }).getByRole('button', { name: 'Enroll Now' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await logInWithForm(page, learner.email);

    await page.waitForURL((url) => url.pathname === '/courses');
    await page.getByText(E.alreadyPending).waitFor();
    await page.getByRole('article', { name: course.title }).getByRole('button', { name: 'Request pending' }).waitFor();
    expect(await page.getByText(E.submitted).count()).toBe(0);
    expect(await requestsOf(learner)).toEqual([{ courseId: course.id, status: 'pending' }]);

    expect(problems).toEqual([]);
    await context.close();
  });
});
