import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateCatalogue } from '../src/server/modules/courses/catalogue.service.ts';
import { MESSAGES } from '../src/shared/messages.ts';
import { TEST_PASSWORD, createCourse, createUser } from '../src/testing/factories.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { restSignIn } from '../src/testing/second-factor.ts';
import { signInAs } from './support/session.ts';

const E = MESSAGES.enrolment;

let harness: BrowserHarness;

beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

const REQUESTS = '/admin-dashboard/enrollment-request';

describe('enrolment decisions', () => {
  it('an administrator accepts a request, rejects it (the learner loses the course), then accepts it again', async () => {
    const db = harness.portal.runtime.db;
    const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
    const learner = await createUser(db, { approvedAt: new Date() });
    const learnerName = `${learner.firstName} ${learner.lastName}`;
    const course = await createCourse(db, { title: `Proficiency in Survival Craft ${learner.id.slice(0, 6)}` });
    invalidateCatalogue(harness.portal.runtime); // the course was written straight to the database
    const title = course.title;

    // The learner asks for the course as the spec's client does.
    const learnerLogin = await restSignIn(harness.portal.app, learner.email, TEST_PASSWORD);
    expect(learnerLogin.statusCode).toBe(200);
    const asked = await fetch(`${harness.baseUrl}/api/userCourses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${learnerLogin.json().accessToken}` },
      body: JSON.stringify({ courseId: course.id }),
    });
    expect(asked.status).toBe(201);

    const adminTab = await harness.newPage(1280);
    const a = adminTab.page;
    await signInAs(a, admin.email);
    const learnerTab = await harness.newPage(1280);
    const l = learnerTab.page;
    await signInAs(l, learner.email);

    /** What the learner's Your Courses and dashboard show for the course. */
    async function learnerSees(access: 'launch' | 'not approved') {
      await l.goto('/UserCource');
      const card = l.getByRole('article', { name: title });
      if (access === 'launch') {
        await card.getByRole('link', { name: 'Launch the Course' }).waitFor();
      } else {
        await card.getByText('Not Approved', { exact: true }).waitFor();
        await card.getByText('Your request was not approved.').waitFor();
        expect(await card.getByRole('link', { name: 'Launch the Course' }).count()).toBe(0);
      }
      await l.goto('/dashboard');
      await l.getByRole('heading', { name: 'Course List' }).waitFor();
      if (access === 'launch') await l.getByRole('link', { name: `Launch ${title}` }).waitFor();
      else await l.getByRole('button', { name: `Request again: ${title}` }).waitFor();
    }

    const card = () => a.getByRole('article', { name: title });
    const tab = (name: string) => a.getByRole('tab', { name: new RegExp(`^${name}`) });

    // ---- Pending: the administrator finds it and accepts it, from the keyboard.
    await a.goto(REQUESTS);
    await a.getByRole('heading', { name: 'User Enrollment Requests' }).waitFor();
    await a.getByLabel('Search by learner name, course title or e-mail').fill(learner.email);
    await card().getByText('Pending approval').waitFor();
    expect(await tab('Pending').getAttribute('aria-selected')).toBe('true');
    await a.getByRole('tab', { name: 'Pending 1 request', exact: true }).waitFor();
    await card().getByRole('button', { name: `Reject ${learnerName}'s request for ${title}` }).waitFor();

    await card().getByRole('button', { name: `Accept ${learnerName}'s request for ${title}` }).focus();
    await a.keyboard.press('Enter');
    const acceptDialog = a.getByRole('alertdialog', { name: 'Accept request' });
    await acceptDialog.getByText('Are you sure you want to accept this request?', { exact: false }).waitFor();
    await a.keyboard.press('Tab');
    expect(await a.evaluate(() => document.activeElement?.textContent)).toBe('Yes, Accept');
    await a.keyboard.press('Enter');
    await a.getByText(E.accepted).waitFor();
    await a.getByText(E.noMatches).waitFor();
    await a.getByRole('tab', { name: 'Pending 0 requests', exact: true }).waitFor();
    await a.getByRole('tab', { name: 'Approved 1 request', exact: true }).waitFor();
    expect(await a.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tab');

    await learnerSees('launch');

    // ---- Approved: only Reject; the dialog says the learner loses the course.
    await tab('Approved').click();
    await a.waitForURL(/status=approved/);
    await card().getByText('Approved', { exact: true }).first().waitFor();
    expect(await card().getByRole('button').allTextContents()).toEqual(['Reject']);
    await card().getByRole('button', { name: `Reject ${learnerName}'s request for ${title}` }).click();
    const rejectDialog = a.getByRole('alertdialog', { name: 'Reject request' });
    await rejectDialog.getByText('The learner loses access to the course', { exact: false }).waitFor();
    await rejectDialog.getByRole('button', { name: 'Yes, Reject' }).click();
    await a.getByText(E.rejected).waitFor();
    await a.getByText(E.noMatches).waitFor();

    await learnerSees('not approved');
    const logged = learnerTab.problems.length;
    await l.goto(`/courses/${course.id}/content`);
    await l.getByRole('heading', { name: 'This course is not available to you' }).waitFor();
    // The server refuses the course home with a 404, which Chromium logs; nothing else went wrong.
    expect(learnerTab.problems.splice(logged)).toEqual([expect.stringContaining('status of 404')]);

    // ---- Rejected: only Accept; accepted again, the course opens again.
    await tab('Rejected').click();
    await card().getByText('Rejected', { exact: true }).first().waitFor();
    expect(await card().getByRole('button').allTextContents()).toEqual(['Accept']);
    await card().getByRole('button', { name: `Accept ${learnerName}'s request for ${title}` }).click();
    const againDialog = a.getByRole('alertdialog', { name: 'Accept request' });
    await againDialog.getByText('It was rejected before', { exact: false }).waitFor();
    await againDialog.getByRole('button', { name: 'Yes, Accept' }).click();
    await a.getByText(E.accepted).first().waitFor();
    await a.getByRole('tab', { name: 'Approved 1 request', exact: true }).waitFor();
    await tab('Approved').click();
    await card().getByRole('button', { name: `Reject ${learnerName}'s request for ${title}` }).waitFor();

    await learnerSees('launch');

    // ---- On a phone the tabs and cards fit the screen: nothing scrolls sideways.
    const phoneTab = await harness.newPage(390, 844);
    const p = phoneTab.page;
    await signInAs(p, admin.email);
    await p.goto(`${REQUESTS}?status=approved&q=${encodeURIComponent(learner.email)}`);
    await p.getByRole('article', { name: title }).waitFor();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    for (const name of ['Pending', 'Approved', 'Rejected']) {
      const box = await p.getByRole('tab', { name: new RegExp(`^${name}`) }).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    }

    for (const open of [adminTab, learnerTab, phoneTab]) {
      expect(open.problems).toEqual([]);
      await open.context.close();
    }
  });
});
