import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { vi } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TOfflinePackage } from '../../../shared/schemas/offline.ts';
import { createCourse, createEnrolment, createUser, TEST_PASSWORD } from '../../../testing/factories.ts';
import { uniqueIp } from '../../../testing/mailbox.ts';
import { countQueries } from '../../../testing/queries.ts';
import { createPortalsSharingRedis, untilRefused } from '../../../testing/shared-portals.ts';
import { enrolments, offlinePartFetches, trainingVideos, trainingVideoSets, watchProgress } from '../../db/schema.ts';
import { STREAM_PASS_COOKIE } from './stream-pass.ts';
import { restSignIn } from '../../../testing/second-factor.ts';
import { describe, expect, inject, test, type TTestUser } from '../../../testing/portal-test.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';

/**
 * The stream check asks the database once for the Range requests of a playing part, and every
 * change that takes the access away stops the very next request, in this process and in another
 * one on the same PostgreSQL and Redis.
 */
const T = MESSAGES.training;
type TUser = TTestUser;
const MEDIA = randomBytes(64 * 1024);

/** The spec's login, as its client calls it. */
async function signIn(on: TestPortal, user: TUser) {
  const res = await restSignIn(on.app, user.email, TEST_PASSWORD, uniqueIp());
  expect(res.statusCode, res.body).toBe(200);
  const { accessToken, refreshToken } = res.json() as { accessToken: string; refreshToken: string };
  return { authorization: `Bearer ${accessToken}`, refreshToken };
}

function passOf(res: { headers: Record<string, unknown> }): string {
  const cookies = ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []);
  return cookies.find((cookie) => cookie.startsWith(`${STREAM_PASS_COOKIE}=`))!.split(';')[0]!;
}

/** The learner's links (in part order) and the pass, as the spec's client fetches them. */
async function openTraining(on: TestPortal, authorization: string, courseId: string) {
  const list = await on.app.inject({ url: `/api/trainingVideo/${courseId}`, headers: { authorization } });
  expect(list.statusCode, list.body).toBe(200);
  return { urls: (list.json().data.trainingVideo as Array<{ url: string | null }>).map((part) => part.url), pass: passOf(list) };
}

const rangeOf = (index: number) => `bytes=${index * 1024}-${index * 1024 + 1023}`;
const stream = (on: TestPortal, url: string, cookie: string, range = 'bytes=0-1023') => on.app.inject({ url, headers: { range, cookie } });

const it = test
  .extend('admin', { scope: 'file' }, ({ db }) => createUser(db, { role: 'admin' }))
  /** A course whose training has `parts` ready parts, each with a stored 360p rendition in each portal given. */
  .extend('trainingOf', { scope: 'file' }, ({ portal }) => async (parts: number, portals: TestPortal[] = [portal]) => {
    const { db } = portals[0]!.runtime;
    const course = await createCourse(db);
    const [set] = await db.insert(trainingVideoSets).values({ courseId: course.id, title: `Training ${course.title}` }).returning();
    const files = Array.from({ length: parts }, () => `${randomUUID()}.mp4`);
    for (const target of portals) for (const file of files) await target.runtime.files.put('trainingVideo', file, MEDIA);
    const videos = await db
      .insert(trainingVideos)
      .values(
        files.map((file, index) => ({
          setId: set!.id,
          serial: index + 1,
          originalName: `Part ${index + 1}`,
          sourceFile: `${randomUUID()}.mp4`,
          status: 'ready' as const,
          durationSeconds: 60,
          renditions: [{ height: 360, file, bitrateKbps: 500 }],
        })),
      )
      .returning();
    return { course, set: set!, videos };
  })
  .extend('enrolledLearner', { scope: 'file' }, ({ db }) => async (courseId: string, completed: string[] = []) => {
    const learner = await createUser(db, { approvedAt: new Date() });
    await createEnrolment(db, { userId: learner.id, courseId, status: 'approved', decidedAt: new Date() });
    for (const videoId of completed) {
      await db.insert(watchProgress).values({ userId: learner.id, videoId, watchedIntervals: [[0, 60]], watchedSeconds: 60, observedSeconds: 61, lastPosition: 60, completedAt: new Date() });
    }
    return learner;
  });

describe('the Range requests of a playing part', () => {
  it('ask the database once, then not again until the grant is a minute old', async ({ db, enrolledLearner, portal, trainingOf }) => {
    const { course } = await trainingOf(1);
    const learner = await enrolledLearner(course.id);
    const { authorization } = await signIn(portal, learner);
    const { urls, pass } = await openTraining(portal, authorization, course.id);

    const queries = countQueries(db);
    try {
      for (let index = 0; index < 20; index += 1) {
        const res = await stream(portal, urls[0]!, pass, rangeOf(index));
        expect(res.statusCode).toBe(206);
        expect(res.rawPayload).toEqual(MEDIA.subarray(index * 1024, index * 1024 + 1024));
      }
      expect(queries.count).toBe(1);
      // The signatures are still checked on every request: another learner's pass is refused.
      expect((await stream(portal, urls[0]!, `${STREAM_PASS_COOKIE}=x_y_1_z`)).statusCode).toBe(403);
      expect((await stream(portal, `${urls[0]!}x`, pass)).statusCode).toBe(403);
    } finally {
      queries.stop();
    }
  });

  it('ask again once the grant has lived its time (STREAM_GRANT_SECONDS)', async () => {
    // A portal of its own whose grants last a second, beside the file's; its clock is the
    // test's, so the grant's time passes at once.
    vi.useFakeTimers({ toFake: ['Date'] });
    const short = await createTestPortal({ env: { STREAM_GRANT_SECONDS: '1' } });
    try {
      const { db } = short.runtime;
      const course = await createCourse(db);
      const [set] = await db.insert(trainingVideoSets).values({ courseId: course.id, title: 'Mooring' }).returning();
      const file = `${randomUUID()}.mp4`;
      await short.runtime.files.put('trainingVideo', file, MEDIA);
      await db.insert(trainingVideos).values({ setId: set!.id, serial: 1, originalName: 'Part 1', sourceFile: `${randomUUID()}.mp4`, status: 'ready', durationSeconds: 60, renditions: [{ height: 360, file, bitrateKbps: 500 }] });
      const learner = await createUser(db, { approvedAt: new Date() });
      await createEnrolment(db, { userId: learner.id, courseId: course.id, status: 'approved', decidedAt: new Date() });
      const { authorization } = await signIn(short, learner);
      const { urls, pass } = await openTraining(short, authorization, course.id);

      const queries = countQueries(db);
      try {
        for (let index = 0; index < 5; index += 1) expect((await stream(short, urls[0]!, pass, rangeOf(index))).statusCode).toBe(206);
        expect(queries.count).toBe(1);
        vi.setSystemTime(Date.now() + 999);
        expect((await stream(short, urls[0]!, pass, rangeOf(0))).statusCode).toBe(206);
        expect(queries.count).toBe(1);
        vi.setSystemTime(Date.now() + 1);
        for (let index = 0; index < 5; index += 1) expect((await stream(short, urls[0]!, pass, rangeOf(index))).statusCode).toBe(206);
        expect(queries.count).toBe(2);
      } finally {
        queries.stop();
      }
    } finally {
      await short.close();
      vi.useRealTimers();
    }
  });

  it('of a downloaded part ask once, and record the part\'s first fetch once', async ({ admin, as, db, enrolledLearner, portal, trainingOf }) => {
    const { course, videos } = await trainingOf(1);
    const learner = await enrolledLearner(course.id);
    const { authorization } = await signIn(portal, learner);
    const res = await portal.app.inject({ method: 'POST', url: '/trpc/training.offlinePackage', headers: { authorization, 'content-type': 'application/json' }, payload: { courseId: course.id } });
    expect(res.statusCode, res.body).toBe(200);
    const pack = (res.json() as { result: { data: TOfflinePackage } }).result.data;
    const pass = passOf(res);

    const queries = countQueries(db);
    try {
      for (let index = 0; index < 20; index += 1) expect((await stream(portal, pack.parts[0]!.url, pass, rangeOf(index))).statusCode).toBe(206);
      // The check, and the insert of the first fetch.
      expect(queries.count).toBe(2);
    } finally {
      queries.stop();
    }
    const fetches = await db.select().from(offlinePartFetches).where(eq(offlinePartFetches.downloadId, pack.downloadId));
    expect(fetches.map((row) => row.videoId)).toEqual([videos[0]!.id]);

    // The enrolment ends: the very next request is refused.
    const [enrolment] = await db.select().from(enrolments).where(and(eq(enrolments.userId, learner.id), eq(enrolments.courseId, course.id)));
    await as(admin).enrolments.reject({ enrolmentId: enrolment!.id });
    const ended = await stream(portal, pack.parts[0]!.url, pass);
    expect(ended.statusCode).toBe(403);
    expect(ended.json().message).toBe(T.offlineEnded);
  });
});

describe('a viewer whose access is taken away', () => {
  it('is refused at the very next request after logging out (the spec\'s REST logout)', async ({ enrolledLearner, portal, trainingOf }) => {
    const { course } = await trainingOf(1);
    const learner = await enrolledLearner(course.id);
    const session = await signIn(portal, learner);
    const { urls, pass } = await openTraining(portal, session.authorization, course.id);
    expect((await stream(portal, urls[0]!, pass)).statusCode).toBe(206);
    expect((await stream(portal, urls[0]!, pass, rangeOf(1))).statusCode).toBe(206);

    const logout = await portal.app.inject({ method: 'POST', url: '/api/user/logout', payload: { refreshToken: session.refreshToken } });
    expect(logout.statusCode).toBe(200);
    const after = await stream(portal, urls[0]!, pass);
    expect(after.statusCode).toBe(403);
    expect(after.json().message).toBe(T.streamRefused);
  });

  it('is refused at the very next request once the enrolment is rejected', async ({ admin, as, db, enrolledLearner, portal, trainingOf }) => {
    const { course } = await trainingOf(1);
    const learner = await enrolledLearner(course.id);
    const { authorization } = await signIn(portal, learner);
    const { urls, pass } = await openTraining(portal, authorization, course.id);
    expect((await stream(portal, urls[0]!, pass)).statusCode).toBe(206);

    const [enrolment] = await db.select().from(enrolments).where(and(eq(enrolments.userId, learner.id), eq(enrolments.courseId, course.id)));
    await as(admin).enrolments.reject({ enrolmentId: enrolment!.id });
    const ended = await stream(portal, urls[0]!, pass);
    expect(ended.statusCode).toBe(403);
    expect(ended.json().message).toBe(T.notEnrolled);
  });

  it('is refused at the very next request when the last failed attempt starts the watching again (part 2 locked)', async ({ admin, as, db, enrolledLearner, portal, trainingOf }) => {
    const { course, videos } = await trainingOf(2);
    const learner = await enrolledLearner(course.id, [videos[0]!.id]);
    await db.update(enrolments).set({ trainingSubmittedAt: new Date() }).where(eq(enrolments.userId, learner.id));
    const { test } = await as(admin).tests.create({
      courseId: course.id,
      title: course.title,
      passMark: 100,
      attemptsAllowed: 1,
      waitMinutes: 0,
      questions: [{ questionText: 'Which side of the ship is port?', options: ['Left', 'Right', 'Ahead', 'Astern'], correctAnswer: 'Left' }],
    });
    await as(admin).tests.publish({ testId: test.id });
    const { authorization } = await signIn(portal, learner);
    const { urls, pass } = await openTraining(portal, authorization, course.id);
    expect((await stream(portal, urls[1]!, pass)).statusCode).toBe(206);

    const attempt = await as(learner).tests.take({ courseId: course.id });
    const failed = await as(learner).tests.submit({ testId: test.id, answers: attempt.test.questions.map((question) => ({ questionId: question.id, selectedAnswer: 'Right' })) });
    expect(failed.passed).toBe(false);
    const locked = await stream(portal, urls[1]!, pass);
    expect(locked.statusCode).toBe(403);
    expect(locked.json().message).toBe(T.locked);
  });

  it('is refused at the very next request once the part is deleted, or moved behind one not yet watched', async ({ admin, as, enrolledLearner, portal, trainingOf }) => {
    const { course, set, videos } = await trainingOf(3);
    const learner = await enrolledLearner(course.id, [videos[0]!.id]);
    const { authorization } = await signIn(portal, learner);
    const { urls, pass } = await openTraining(portal, authorization, course.id);
    expect((await stream(portal, urls[0]!, pass)).statusCode).toBe(206);
    expect((await stream(portal, urls[1]!, pass)).statusCode).toBe(206);

    await as(admin).training.reorder({ setId: set.id, videoIds: [videos[0]!.id, videos[2]!.id, videos[1]!.id] });
    const behind = await stream(portal, urls[1]!, pass);
    expect(behind.statusCode).toBe(403);
    expect(behind.json().message).toBe(T.locked);

    await as(admin).training.deleteVideo({ videoId: videos[0]!.id });
    expect((await stream(portal, urls[0]!, pass)).statusCode).toBe(404);
  });
});

// Two API processes of one platform: needs TEST_DATABASE_URL and TEST_REDIS_URL.
describe.runIf(inject('redisUrl') && inject('databaseUrl'))('two portals on one PostgreSQL and Redis', () => {
  it('refuse a viewer streaming from B within a second of logging out through A', async ({ enrolledLearner, trainingOf }) => {
    const [a, b] = await createPortalsSharingRedis();
    try {
      const { course } = await trainingOf(1, [a, b]);
      const learner = await enrolledLearner(course.id);
      const session = await signIn(a, learner);
      const { urls, pass } = await openTraining(a, session.authorization, course.id);
      const queries = countQueries(b.runtime.db);
      try {
        for (let index = 0; index < 5; index += 1) expect((await stream(b, urls[0]!, pass, rangeOf(index))).statusCode).toBe(206);
        expect(queries.count).toBe(1);
      } finally {
        queries.stop();
      }

      expect((await a.app.inject({ method: 'POST', url: '/api/user/logout', payload: { refreshToken: session.refreshToken } })).statusCode).toBe(200);
      const refused = await untilRefused(() => stream(b, urls[0]!, pass), 206);
      expect(refused.status).toBe(403);
      expect(refused.afterMs).toBeLessThan(1000);
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);
});
