import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages.ts';
import { createCourse, createEnrolment, createUser, sessionOf } from '../../../testing/factories.ts';
import { trainingVideos, trainingVideoSets, watchProgress, watchRefusals } from '../../db/schema.ts';
import { recordHeartbeat, reportStats } from './heartbeat.service.ts';
import { CLOCK_SLACK_SECONDS } from './watched.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';

const T = MESSAGES.training;

const it = test
  .extend('training', { scope: 'file' }, ({ db }) => async (durations: number[]) => {
    const course = await createCourse(db);
    const [set] = await db.insert(trainingVideoSets).values({ courseId: course.id, title: `Training ${course.title}` }).returning();
    const videos = await db
      .insert(trainingVideos)
      .values(durations.map((durationSeconds, index) => ({ setId: set!.id, serial: index + 1, originalName: `Part ${index + 1}`, sourceFile: `part-${index}.mp4`, status: 'ready' as const, durationSeconds, renditions: [] })))
      .returning();
    return { course, videos };
  })
  .extend('learnersIn', { scope: 'file' }, ({ db }) => async (courseId: string, count: number) => {
    return Promise.all(
      Array.from({ length: count }, async () => {
        const learner = await createUser(db, { approvedAt: new Date() });
        await createEnrolment(db, { userId: learner.id, courseId, status: 'approved', decidedAt: new Date() });
        return learner;
      }),
    );
  })
  /** Moves the learners' last reports back in time, as if that long had passed. */
  .extend('letTimePass', { scope: 'file' }, ({ db }) => async (userIds: string[], seconds: number) => {
    await db
      .update(watchProgress)
      .set({ lastBeatAt: sql`${watchProgress.lastBeatAt} - make_interval(secs => ${seconds})` })
      .where(inArray(watchProgress.userId, userIds));
  })
  .extend('recordsOf', { scope: 'file' }, ({ db }) => (userIds: string[]) => db.select().from(watchProgress).where(inArray(watchProgress.userId, userIds)));

/*
 * Reports are written in groups (decision 056): many learners' reports in one transaction, each
 * credited exactly as the rules credit it alone, one learner's reports in the order they came.
 */
describe('watch reports written together', () => {
  it('applies fifty learners\' reports sent at once in fewer transactions, each credited exactly as the rules allow', async ({ db, learnersIn, letTimePass, portal, recordsOf, training }) => {
    const { course, videos } = await training([600]);
    const videoId = videos[0]!.id;
    const learners = await learnersIn(course.id, 50);
    const ids = learners.map((learner) => learner.id);
    await Promise.all(learners.map((learner) => portal.caller(sessionOf(learner)).training.heartbeat({ videoId, from: 0, to: 0, position: 0 })));
    await letTimePass(ids, 10);

    // Forty play honestly; ten claim thirty seconds after ten.
    const before = reportStats(db);
    const answers = await Promise.all(
      learners.map((learner, index) => {
        const to = index < 40 ? 10 : 30;
        return portal.caller(sessionOf(learner)).training.heartbeat({ videoId, from: 0, to, position: to });
      }),
    );
    const after = reportStats(db);
    expect(after.reports - before.reports).toBe(50);
    expect(after.transactions - before.transactions).toBeLessThan(50);

    const records = new Map((await recordsOf(ids)).map((record) => [record.userId, record]));
    const refusals = await db.select().from(watchRefusals).where(inArray(watchRefusals.userId, ids));
    learners.forEach((learner, index) => {
      const record = records.get(learner.id)!;
      const credited = record.watchedIntervals.reduce((sum, [from, to]) => sum + (to - from), 0);
      // The clock saw ten seconds and a little more (the time the test itself took).
      expect(record.observedSeconds).toBeGreaterThanOrEqual(10);
      expect(record.observedSeconds).toBeLessThan(40);
      if (index < 40) {
        expect(credited).toBe(10);
        expect(answers[index]).toMatchObject({ watchedSeconds: 10, completed: false, progress: { completedVideos: 0, totalVideos: 1 } });
      } else {
        // Exactly what the clock covers, plus its slack; the rest refused and kept for the auditor.
        const allowed = Math.min(30, record.observedSeconds + CLOCK_SLACK_SECONDS);
        expect(credited).toBeCloseTo(allowed, 4);
        expect(answers[index]!.watchedSeconds).toBe(Math.round(credited * 10) / 10);
        const own = refusals.filter((refusal) => refusal.userId === learner.id);
        expect(own).toHaveLength(1);
        expect(own[0]).toMatchObject({ claimedFrom: 0, claimedTo: 30 });
        expect(own[0]!.creditedSeconds).toBeCloseTo(credited, 3);
      }
    });
    expect(refusals).toHaveLength(10);
  });

  it('applies one learner\'s reports sent back to back in one transaction in the order they came, and still refuses what runs ahead of the clock', async ({ db, learnersIn, letTimePass, recordsOf, training }) => {
    const { course, videos } = await training([60]);
    const videoId = videos[0]!.id;
    const [learner] = await learnersIn(course.id, 1);
    const viewer = sessionOf(learner!);
    const deps = { db: db };
    await recordHeartbeat(deps, viewer, { videoId, from: 0, to: 0, position: 0 });
    await letTimePass([learner!.id], 10);

    // Five spans of five seconds, in one turn of the event loop: one transaction.
    const before = reportStats(db);
    const answers = await Promise.all([0, 5, 10, 15, 20].map((from) => recordHeartbeat(deps, viewer, { videoId, from, to: from + 5, position: from + 5 })));
    const after = reportStats(db);
    expect(after.transactions - before.transactions).toBe(1);
    expect(after.reports - before.reports).toBe(5);

    const [record] = await recordsOf([learner!.id]);
    const observed = record!.observedSeconds;
    expect(observed).toBeGreaterThanOrEqual(10);
    expect(observed).toBeLessThan(12);
    // In order: 0-5 and 5-10 in full, 10-15 up to what the clock covers, the later ones nothing.
    // (Out of order, 20-25 would have been credited first.)
    expect(record!.watchedIntervals).toHaveLength(1);
    expect(record!.watchedIntervals[0]![0]).toBe(0);
    expect(record!.watchedIntervals[0]![1]).toBeCloseTo(observed + CLOCK_SLACK_SECONDS, 4);
    expect(answers.map((answer) => answer.watchedSeconds)).toEqual([5, 10, ...[1, 2, 3].map(() => Math.round((observed + CLOCK_SLACK_SECONDS) * 10) / 10)]);
    expect(record!.completedAt).toBeNull();
    const refusals = await db.select().from(watchRefusals).where(eq(watchRefusals.userId, learner!.id)).orderBy(asc(watchRefusals.claimedFrom));
    expect(refusals.map((refusal) => [refusal.claimedFrom, refusal.claimedTo])).toEqual([
      [10, 15],
      [15, 20],
      [20, 25],
    ]);
    expect(refusals[0]!.creditedSeconds).toBeCloseTo(observed + CLOCK_SLACK_SECONDS - 10, 3);
    expect(refusals.slice(1).map((refusal) => refusal.creditedSeconds)).toEqual([0, 0]);
  });

  it('refuses, within a batch, the report of a learner not enrolled and of a locked part, and credits the others', async ({ db, learnersIn, letTimePass, recordsOf, training }) => {
    const { course, videos } = await training([100, 100]);
    const [enrolled, other] = await learnersIn(course.id, 2);
    const outsider = await createUser(db, { approvedAt: new Date() });
    const deps = { db: db };
    await recordHeartbeat(deps, sessionOf(enrolled!), { videoId: videos[0]!.id, from: 0, to: 0, position: 0 });
    await letTimePass([enrolled!.id], 10);

    const before = reportStats(db);
    const outcomes = await Promise.allSettled([
      recordHeartbeat(deps, sessionOf(outsider), { videoId: videos[0]!.id, from: 0, to: 0, position: 0 }),
      recordHeartbeat(deps, sessionOf(other!), { videoId: videos[1]!.id, from: 0, to: 0, position: 0 }),
      recordHeartbeat(deps, sessionOf(enrolled!), { videoId: videos[0]!.id, from: 0, to: 10, position: 10 }),
      recordHeartbeat(deps, sessionOf(other!), { videoId: '00000000-0000-4000-8000-000000000000', from: 0, to: 0, position: 0 }),
    ]);
    expect(reportStats(db).transactions - before.transactions).toBe(1);
    expect(outcomes.map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as Error).message : outcome.value.watchedSeconds))).toEqual([
      T.notEnrolled,
      T.locked,
      10,
      T.videoNotFound,
    ]);
    // Nothing recorded for the refused reports.
    expect(await recordsOf([outsider.id, other!.id])).toEqual([]);
    const [record] = await db
      .select()
      .from(watchProgress)
      .where(and(eq(watchProgress.userId, enrolled!.id), eq(watchProgress.videoId, videos[0]!.id)));
    expect(record!.watchedSeconds).toBe(10);
  });
});
