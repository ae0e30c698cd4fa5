import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MESSAGES } from '../../../shared/messages.ts';
import { createCourse, createEnrolment, createUser, TEST_PASSWORD } from '../../../testing/factories.ts';
import { latestCode, uniqueEmail, uniqueIp } from '../../../testing/mailbox.ts';
import { makeClip } from '../../../testing/media.ts';
import { form } from '../../../testing/multipart.ts';
import { restSignIn } from '../../../testing/second-factor.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';

/**
 * A password reset ends every session of the account, and with them the stream links those
 * sessions fetched: someone who had the learner's password and a copied link loses both.
 */

test.override({ portalOptions: { smtp: true } });

const it = test
  // eslint-disable-next-line no-empty-pattern -- Vitest reads what a fixture needs from its first parameter's pattern
  .extend('clipDir', { scope: 'file' }, ({}, { onCleanup }) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reset-streams-'));
    onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  })
  .extend('login', { scope: 'file' }, ({ portal }) => async (email: string, password: string, remoteAddress: string) => {
    const res = await restSignIn(portal.app, email, password, remoteAddress);
    expect(res.statusCode, res.body).toBe(200);
    return `Bearer ${(res.json() as { accessToken: string }).accessToken}`;
  })
  /** The first part's link and the stream pass the training list set, as a spec client keeps them. */
  .extend('firstPartLink', { scope: 'file' }, ({ portal }) => async (authorization: string, courseId: string) => {
    const list = await portal.app.inject({ url: `/api/trainingVideo/${courseId}`, headers: { authorization } });
    expect(list.statusCode, list.body).toBe(200);
    const url = (list.json().data.trainingVideo as Array<{ url: string | null }>)[0]!.url!;
    const cookies = ([] as string[]).concat((list.headers['set-cookie'] as string | string[] | undefined) ?? []);
    const pass = cookies.find((cookie) => cookie.startsWith('stream_pass='))!.split(';')[0]!;
    return { url, pass };
  })
  .extend('stream', { scope: 'file' }, ({ portal }) => (url: string, cookie: string) => portal.app.inject({ url, headers: { range: 'bytes=0-9', cookie } }));

describe('a password reset', () => {
  it('stops the stream links of every session the account had; a new login gets links that play', async ({ clipDir, db, firstPartLink, login, portal, smtp, stream }) => {
    const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
    const course = await createCourse(db);
    const clip = readFileSync(await makeClip(clipDir, 'part.mp4', { width: 320, height: 240, seconds: 2, audio: true }));
    const body = form([
      { name: 'courseId', value: course.id },
      { name: 'title', value: 'Muster stations' },
      { name: 'trainingVideo', file: clip, filename: 'part.mp4', type: 'video/mp4' },
    ]);
    const uploaded = await portal.app.inject({ method: 'POST', url: '/api/trainingVideo', headers: { ...body.headers, authorization: portal.authorization(admin) }, payload: body.payload });
    expect(uploaded.statusCode, uploaded.body).toBeLessThan(300);
    await portal.drainJobs();

    const learner = await createUser(db, { email: uniqueEmail('reset-stream'), approvedAt: new Date() });
    await createEnrolment(db, { userId: learner.id, courseId: course.id, status: 'approved', decidedAt: new Date() });
    const ip = uniqueIp();
    // Two sessions: the learner's own, and one opened elsewhere with the same password.
    const own = await firstPartLink(await login(learner.email, TEST_PASSWORD, ip), course.id);
    const other = await firstPartLink(await login(learner.email, TEST_PASSWORD, uniqueIp()), course.id);
    expect((await stream(own.url, own.pass)).statusCode).toBe(206);
    expect((await stream(other.url, other.pass)).statusCode).toBe(206);

    await portal.app.inject({ method: 'POST', url: '/api/user/forgotPasssword', payload: { email: learner.email }, remoteAddress: ip });
    const otp = await latestCode(smtp, learner.email);
    const newPassword = 'Lifeboat-Davit-Winch';
    const reset = await portal.app.inject({ method: 'POST', url: '/api/user/resetPassword', payload: { email: learner.email, otp, newPassword }, remoteAddress: ip });
    expect(reset.statusCode, reset.body).toBe(200);

    for (const { url, pass } of [own, other]) {
      const refused = await stream(url, pass);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(MESSAGES.training.streamRefused);
    }

    const fresh = await firstPartLink(await login(learner.email, newPassword, ip), course.id);
    expect((await stream(fresh.url, fresh.pass)).statusCode).toBe(206);
  });
});
