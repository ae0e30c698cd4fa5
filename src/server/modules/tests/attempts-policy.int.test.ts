import { and, asc, eq } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TAdminTest, TTestForm } from '../../../shared/schemas/tests.ts';
import { createCourse, createEnrolment, createUser, TEST_PASSWORD } from '../../../testing/factories.ts';
import { afterEach, describe, expect, test, vi, type TTestUser } from '../../../testing/portal-test.ts';
import { certificates, enrolments, testAttemptAnswers, testAttempts, tests, trainingVideos, trainingVideoSets, watchProgress } from '../../db/schema.ts';
import { academyClock } from './attempt-policy.ts';

const T = MESSAGES.tests;
type TUser = TTestUser;
type TPolicy = Partial<Pick<TTestForm, 'questionsPerAttempt' | 'attemptsAllowed' | 'waitMinutes'>>;

afterEach(() => {
  vi.useRealTimers();
});

/** The server's clock, moved by the test: only `Date` is faked, timers and the database keep running. */
function freezeClock(at = new Date('2026-11-26T08:30:00Z')) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
  return {
    now: () => new Date(),
    advanceMinutes: (minutes: number) => vi.setSystemTime(new Date(Date.now() + minutes * 60_000)),
    advanceSeconds: (seconds: number) => vi.setSystemTime(new Date(Date.now() + seconds * 1000)),
  };
}

/** A bank of `size` questions; question i's correct answer is `Right i`. */
function bank(size: number): TTestForm['questions'] {
  return Array.from({ length: size }, (_, index) => ({
    questionText: `Question ${index + 1} of the bank: which is right?`,
    options: [`Wrong ${index + 1}a`, `Right ${index + 1}`, `Wrong ${index + 1}b`, `Wrong ${index + 1}c`],
    correctAnswer: `Right ${index + 1}`,
  }));
}

/** Answers to the questions an attempt asked: the first `right` of them right, the others wrong. */
function answersFor(test: TAdminTest, asked: Array<{ id: string }>, right: number) {
  const key = new Map(test.questions.map((question) => [question.id, question]));
  return asked.map((question, index) => {
    const full = key.get(question.id)!;
    return { questionId: question.id, selectedAnswer: index < right ? full.correctAnswer : full.options.find((option) => option !== full.correctAnswer)! };
  });
}

const it = test
  .extend('admin', { scope: 'file' }, ({ staff }) => staff)
  .extend('policyTest', { scope: 'file' }, ({ publishedTest }) => (questions: TTestForm['questions'], policy: TPolicy = {}, passMark = 75) =>
    publishedTest({ questions, policy, passMark }),
  )
  /** A learner enrolled in the course who watched its one part and submitted the training. */
  .extend('trainedLearnerIn', { scope: 'file' }, ({ db }) => async (courseId: string) => {
    const learner = await createUser(db, { approvedAt: new Date() });
    const watchedAt = new Date(Date.now() - 60 * 60_000);
    await createEnrolment(db, { userId: learner.id, courseId, status: 'approved', decidedAt: watchedAt, trainingSubmittedAt: watchedAt });
    const [set] = await db.insert(trainingVideoSets).values({ courseId, title: 'Fire safety' }).onConflictDoNothing().returning();
    if (set) {
      await db
        .insert(trainingVideos)
        .values({ setId: set.id, serial: 1, originalName: 'part-1.mp4', sourceFile: `${learner.id}.mp4`, status: 'ready', durationSeconds: 60 });
    }
    const [video] = await db
      .select({ id: trainingVideos.id })
      .from(trainingVideos)
      .innerJoin(trainingVideoSets, eq(trainingVideoSets.id, trainingVideos.setId))
      .where(eq(trainingVideoSets.courseId, courseId));
    await db
      .insert(watchProgress)
      .values({ userId: learner.id, videoId: video!.id, watchedIntervals: [[0, 60]], watchedSeconds: 60, observedSeconds: 61, lastPosition: 60, completedAt: watchedAt });
    return learner;
  })
  .extend('takeAndSubmit', { scope: 'file' }, ({ as }) => async (learner: TUser, courseId: string, test: TAdminTest, right: number) => {
    const session = await as(learner).tests.take({ courseId });
    return as(learner).tests.submit({ testId: test.id, answers: answersFor(test, session.test.questions, right) });
  })
  /** tests.updatePolicy over HTTP, as the browser calls it: the answer's status, message and field errors. */
  .extend('updatePolicyOverHttp', { scope: 'file' }, ({ portal, bearer }) => async (user: TUser, input: Record<string, unknown>) => {
    const res = await portal.app.inject({ method: 'POST', url: '/trpc/tests.updatePolicy', headers: bearer(user), payload: input });
    const body = res.json();
    return { status: res.statusCode, message: body.error?.message as string | undefined, fields: body.error?.data?.fields as Record<string, string> | null | undefined };
  })
  .extend('attemptsOf', { scope: 'file' }, ({ db }) => (userId: string, courseId: string) =>
    db
      .select()
      .from(testAttempts)
      .where(and(eq(testAttempts.userId, userId), eq(testAttempts.courseId, courseId)))
      .orderBy(asc(testAttempts.startedAt)),
  )
  .extend('enrolmentOf', { scope: 'file' }, ({ db }) => async (userId: string, courseId: string) =>
    (await db.select().from(enrolments).where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, courseId))))[0]!,
  )
  .extend('certificatesOf', { scope: 'file' }, ({ db }) => (userId: string, courseId: string) =>
    db
      .select()
      .from(certificates)
      .where(and(eq(certificates.userId, userId), eq(certificates.courseId, courseId))),
  );

describe('an attacker who changes one answer at a time', () => {
  it('is stopped by the wait and the attempts limit over the spec’s REST calls, and never gets a certificate', async ({ portal, trainedLearnerIn, policyTest, attemptsOf, certificatesOf }) => {
    const clock = freezeClock();
    // Pass mark 100 %: from answers all wrong, changing one at a time needs at least five attempts.
    const { course, test } = await policyTest(bank(4), {}, 100);
    const attacker = await trainedLearnerIn(course.id);
    const key = new Map(test.questions.map((question) => [question.id, question]));
    const chosen = new Map(test.questions.map((question) => [question.id, question.options.find((option) => option !== question.correctAnswer)!]));

    const submitted: number[] = [];
    const refusals: Array<{ status: number; message: string; retryAfter?: string }> = [];
    let turn = 0;
    for (let step = 0; step < 20; step += 1) {
      // A client written from section 7: log in, GET /test/{courseId}, POST /submitTest.
      const login = await portal.app.inject({ method: 'POST', url: '/api/user/login', payload: { email: attacker.email, password: TEST_PASSWORD } });
      expect(login.statusCode, login.body).toBe(200);
      const headers = { authorization: `Bearer ${login.json().accessToken}` };
      const opened = await portal.app.inject({ url: `/api/test/${course.id}`, headers });
      if (opened.statusCode !== 200) {
        const retryAfter = opened.headers['retry-after'] as string | undefined;
        refusals.push({ status: opened.statusCode, message: opened.json().message, ...(retryAfter ? { retryAfter } : {}) });
        if (opened.statusCode !== 429) break;
        // Told when to come back, and coming back then, on the server's clock.
        clock.advanceSeconds(Number(retryAfter));
        continue;
      }
      const served = (opened.json().data as Array<{ _id: string; questions: Array<{ _id: string; options: string[] }> }>)[0]!;
      const answers = served.questions.map((question) => ({ questionId: question._id, selectedAnswer: chosen.get(question._id)! }));
      const result = await portal.app.inject({
        method: 'POST',
        url: '/api/submitTest',
        headers,
        payload: { testId: served._id, courseId: course.id, answers, timeTaken: 60 },
      });
      expect(result.statusCode, result.body).toBe(201);
      submitted.push(result.json().data.percentage);
      expect(result.json().data.pdfPath).toBeUndefined();
      // Change one answer: the next question in turn gets its next option.
      const question = key.get(test.questions[turn % test.questions.length]!.id)!;
      const options = question.options;
      chosen.set(question.id, options[(options.indexOf(chosen.get(question.id)!) + 1) % options.length]!);
      turn += 1;
    }

    expect(submitted).toHaveLength(3);
    expect(refusals.filter((refusal) => refusal.status === 429)).toHaveLength(2);
    const wait = refusals[0]!;
    expect(wait.retryAfter).toBe('600');
    expect(wait.message).toBe(`${T.nextAttemptAt(academyClock(new Date(Date.parse('2026-11-26T08:40:00Z'))), 10)} ${T.attemptsLeft(2)}`);
    expect(refusals.at(-1)).toEqual({ status: 403, message: T.attemptsUsed(3) });
    expect(await certificatesOf(attacker.id, course.id)).toHaveLength(0);
    expect(await attemptsOf(attacker.id, course.id)).toHaveLength(3);
  });
});

describe('drawing the questions', () => {
  it('draws N of a bank of M for each attempt, serves and scores exactly those, and refuses an answer to one not drawn', async ({ portal, as, bearer, trainedLearnerIn, policyTest, attemptsOf }) => {
    const { course, test } = await policyTest(bank(10), { questionsPerAttempt: 4, waitMinutes: 0 });
    const learner = await trainedLearnerIn(course.id);

    const session = await as(learner).tests.take({ courseId: course.id });
    const ids = session.test.questions.map((question) => question.id);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    const bankIds = new Set(test.questions.map((question) => question.id));
    expect(ids.every((id) => bankIds.has(id))).toBe(true);

    // The draw is kept with the attempt, and opening again serves it unchanged.
    const [row] = await attemptsOf(learner.id, course.id);
    expect(row!.questions.map((question) => question.questionId)).toEqual(ids);
    expect(row!.questions.map((question) => question.options)).toEqual(session.test.questions.map((question) => question.options));
    const again = await as(learner).tests.take({ courseId: course.id });
    expect(again.attempt.id).toBe(session.attempt.id);
    expect(again.test.questions).toEqual(session.test.questions);

    // An answer to a question of the bank that this attempt did not draw.
    const notDrawn = test.questions.find((question) => !ids.includes(question.id))!;
    const answers = answersFor(test, session.test.questions, 4);
    const extra = await portal.app.inject({
      method: 'POST',
      url: '/api/submitTest',
      headers: bearer(learner),
      payload: { testId: test.id, courseId: course.id, answers: [...answers, { questionId: notDrawn.id, selectedAnswer: notDrawn.correctAnswer }] },
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toBe(T.notDrawn);
    const swapped = await portal.app.inject({
      method: 'POST',
      url: '/api/submitTest',
      headers: bearer(learner),
      payload: { testId: test.id, courseId: course.id, answers: [...answers.slice(1), { questionId: notDrawn.id, selectedAnswer: notDrawn.correctAnswer }] },
    });
    expect(swapped.statusCode).toBe(400);
    expect((await attemptsOf(learner.id, course.id))[0]!.submittedAt).toBeNull();

    const result = await as(learner).tests.submit({ testId: test.id, answers: answersFor(test, session.test.questions, 3) });
    expect(result).toMatchObject({ score: 3, totalQuestions: 4, percentage: 75, passed: true });
  });

  it('orders the questions and each question’s options anew on every attempt', async ({ as, trainedLearnerIn, policyTest }) => {
    const { course, test } = await policyTest(bank(8), { attemptsAllowed: 6, waitMinutes: 0 }, 100);
    const learner = await trainedLearnerIn(course.id);
    const orders: string[] = [];
    const optionOrders: string[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const session = await as(learner).tests.take({ courseId: course.id });
      orders.push(session.test.questions.map((question) => question.id).join());
      optionOrders.push(session.test.questions.map((question) => `${question.id}:${question.options.join('|')}`).sort().join());
      for (const question of session.test.questions) {
        expect([...question.options].sort()).toEqual([...test.questions.find((q) => q.id === question.id)!.options].sort());
      }
      await as(learner).tests.submit({ testId: test.id, answers: answersFor(test, session.test.questions, 0) });
    }
    // Five orders of eight questions (and of 32 options) all the same by chance: about 1 in 10^18.
    expect(new Set(orders).size).toBeGreaterThan(1);
    expect(new Set(optionOrders).size).toBeGreaterThan(1);
  });

  it('serves an attempt opened before attempts drew their questions with every question, in the bank’s order', async ({ db, as, trainedLearnerIn, policyTest }) => {
    const { course, test } = await policyTest(bank(5), { questionsPerAttempt: 2 });
    const learner = await trainedLearnerIn(course.id);
    await db.insert(testAttempts).values({ userId: learner.id, testId: test.id, courseId: course.id });
    const session = await as(learner).tests.take({ courseId: course.id });
    expect(session.test.questions.map((question) => [question.id, question.options])).toEqual(test.questions.map((question) => [question.id, question.options]));
    const result = await as(learner).tests.submit({ testId: test.id, answers: answersFor(test, session.test.questions, 5) });
    expect(result).toMatchObject({ score: 5, totalQuestions: 5, passed: true });
  });
});

describe('the wait between attempts', () => {
  it('is kept on the server’s clock: the next attempt opens when the wait has passed, and says when', async ({ portal, as, bearer, trainedLearnerIn, policyTest, takeAndSubmit, attemptsOf }) => {
    const clock = freezeClock(new Date('2026-11-26T09:00:00Z'));
    const { course, test } = await policyTest(bank(4), { waitMinutes: 10 });
    const learner = await trainedLearnerIn(course.id);

    const failed = await takeAndSubmit(learner, course.id, test, 1);
    const opensAt = new Date('2026-11-26T09:10:00Z');
    expect(failed).toMatchObject({ passed: false, attemptsLeft: 2, nextAttemptAt: opensAt.toISOString(), wrongQuestionIds: null });
    expect(failed.message).toBe(`${T.scored(1, 4, 25, false)} ${T.attemptsLeft(2)} ${T.nextAttemptAt('14:40 IST', 10)}`);

    clock.advanceMinutes(2);
    await expect(as(learner).tests.take({ courseId: course.id })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: `${T.nextAttemptAt('14:40 IST', 8)} ${T.attemptsLeft(2)}`,
    });
    expect(await as(learner).tests.status({ courseId: course.id })).toMatchObject({
      state: 'waiting',
      attemptsAllowed: 3,
      attemptsUsed: 1,
      attemptsLeft: 2,
      nextAttemptAt: opensAt.toISOString(),
      lastResult: { score: 1, totalQuestions: 4, percentage: 25, passed: false },
    });
    // A submission without an open attempt is no way round it.
    await expect(as(learner).tests.submit({ testId: test.id, answers: answersFor(test, test.questions, 4) })).rejects.toMatchObject({ code: 'CONFLICT' });

    clock.advanceSeconds(7 * 60 + 59);
    const rest = await portal.app.inject({ url: `/api/test/${course.id}`, headers: bearer(learner) });
    expect(rest.statusCode).toBe(429);
    expect(rest.headers['retry-after']).toBe('1');
    expect(rest.json().message).toBe(`${T.nextAttemptAt('14:40 IST', 1)} ${T.attemptsLeft(2)}`);
    expect(await attemptsOf(learner.id, course.id)).toHaveLength(1);

    clock.advanceSeconds(1);
    const second = await as(learner).tests.take({ courseId: course.id });
    expect(second.attempt).toMatchObject({ number: 2, attemptsAllowed: 3 });
    expect(await as(learner).tests.status({ courseId: course.id })).toMatchObject({ state: 'inProgress', attemptsLeft: 1, message: T.attemptInProgress });
  });
});

describe('a round of attempts', () => {
  it('ends with its last failed attempt: the training must be watched again, from nothing; then a new round opens', async ({ db, as, trainedLearnerIn, policyTest, takeAndSubmit, attemptsOf, enrolmentOf }) => {
    const clock = freezeClock();
    const { course, test } = await policyTest(bank(4), { attemptsAllowed: 2, waitMinutes: 5 });
    const learner = await trainedLearnerIn(course.id);
    expect(await as(learner).tests.status({ courseId: course.id })).toMatchObject({ state: 'open', attemptsLeft: 2, test: { questionCount: 4, waitMinutes: 5 } });

    expect(await takeAndSubmit(learner, course.id, test, 2)).toMatchObject({ passed: false, attemptsLeft: 1 });
    clock.advanceMinutes(5);
    const last = await takeAndSubmit(learner, course.id, test, 2);
    expect(last).toMatchObject({ passed: false, attemptsLeft: 0, nextAttemptAt: null, wrongQuestionIds: null });
    expect(last.message).toBe(`${T.scored(2, 4, 50, false)} ${T.attemptsUsed(2)}`);

    expect(await enrolmentOf(learner.id, course.id)).toMatchObject({ trainingSubmittedAt: null, extraAttempts: 0 });
    const [watched] = await db.select().from(watchProgress).where(eq(watchProgress.userId, learner.id));
    expect(watched).toMatchObject({ completedAt: null, watchedIntervals: [], watchedSeconds: 0, observedSeconds: 0, lastPosition: 0 });

    clock.advanceMinutes(60);
    await expect(as(learner).tests.take({ courseId: course.id })).rejects.toMatchObject({ code: 'FORBIDDEN', message: T.attemptsUsed(2) });
    expect(await as(learner).tests.status({ courseId: course.id })).toMatchObject({ state: 'exhausted', attemptsLeft: 0, message: T.attemptsUsed(2) });

    // Watched and submitted again: a new round of two attempts.
    await db.update(enrolments).set({ trainingSubmittedAt: new Date() }).where(eq(enrolments.userId, learner.id));
    clock.advanceMinutes(1);
    const reopened = await as(learner).tests.take({ courseId: course.id });
    expect(reopened.attempt).toMatchObject({ number: 1, attemptsAllowed: 2 });

    // Every attempt is kept, with its questions, its answers and its times.
    const rows = await attemptsOf(learner.id, course.id);
    expect(rows).toHaveLength(3);
    for (const row of rows.slice(0, 2)) {
      expect(row.questions).toHaveLength(4);
      expect(row.submittedAt!.getTime()).toBeGreaterThanOrEqual(row.startedAt.getTime());
      const answers = await db.select().from(testAttemptAnswers).where(eq(testAttemptAnswers.attemptId, row.id));
      expect(answers.map((answer) => answer.questionId).sort()).toEqual(row.questions.map((question) => question.questionId).sort());
    }
  });

  it('reopens when an administrator grants attempts: added to a round, or a round of just those after one ended', async ({ portal, db, as, bearer, admin, trainedLearnerIn, policyTest, takeAndSubmit, enrolmentOf }) => {
    const clock = freezeClock();
    const { course, test } = await policyTest(bank(4), { attemptsAllowed: 1, waitMinutes: 0 });
    const learner = await trainedLearnerIn(course.id);
    await takeAndSubmit(learner, course.id, test, 0);
    await expect(as(learner).tests.take({ courseId: course.id })).rejects.toMatchObject({ code: 'FORBIDDEN', message: T.attemptsUsed(1) });

    const granted = await as(admin).tests.grantAttempts({ userId: learner.id, courseId: course.id, attempts: 2 });
    expect(granted).toEqual({ message: T.attemptsGranted(2, 2), attemptsLeft: 2 });
    clock.advanceMinutes(1);
    expect(await as(learner).tests.status({ courseId: course.id })).toMatchObject({ state: 'open', attemptsLeft: 2 });
    expect(await takeAndSubmit(learner, course.id, test, 1)).toMatchObject({ passed: false, attemptsLeft: 1 });

    // Within the round, over REST: one more.
    const rest = await portal.app.inject({
      method: 'POST',
      url: '/api/test/grantAttempts',
      headers: bearer(admin),
      payload: { userId: learner.id, courseId: course.id },
    });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json()).toEqual({ message: T.attemptsGranted(1, 2), data: { attemptsLeft: 2 } });
    expect((await enrolmentOf(learner.id, course.id)).extraAttempts).toBe(2);

    expect(await takeAndSubmit(learner, course.id, test, 4)).toMatchObject({ passed: true });
    await expect(as(admin).tests.grantAttempts({ userId: learner.id, courseId: course.id, attempts: 1 })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: T.grantAfterPass,
    });
    const stranger = await createUser(db, { approvedAt: new Date() });
    await expect(as(admin).tests.grantAttempts({ userId: stranger.id, courseId: course.id, attempts: 1 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: T.learnerNotEnrolled,
    });
    await expect(as(admin).tests.grantAttempts({ userId: learner.id, courseId: course.id, attempts: 11 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(as(learner).tests.grantAttempts({ userId: learner.id, courseId: course.id, attempts: 1 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('the result', () => {
  it('says which answers were wrong only after a pass, never after a fail', async ({ portal, as, bearer, trainedLearnerIn, policyTest }) => {
    const { course, test } = await policyTest(bank(4), { waitMinutes: 0 });
    const learner = await trainedLearnerIn(course.id);

    const failSession = await as(learner).tests.take({ courseId: course.id });
    const failed = await portal.app.inject({
      method: 'POST',
      url: '/api/submitTest',
      headers: bearer(learner),
      payload: { testId: test.id, courseId: course.id, answers: answersFor(test, failSession.test.questions, 2), timeTaken: 60 },
    });
    expect(failed.statusCode).toBe(201);
    expect(failed.json().data).toMatchObject({ passed: false, percentage: 50, wrongQuestionIds: null, attemptsLeft: 2 });
    expect(JSON.stringify(failed.json())).not.toMatch(/correct/i);

    const passSession = await as(learner).tests.take({ courseId: course.id });
    const passed = await portal.app.inject({
      method: 'POST',
      url: '/api/submitTest',
      headers: bearer(learner),
      payload: { testId: test.id, courseId: course.id, answers: answersFor(test, passSession.test.questions, 3), timeTaken: 60 },
    });
    expect(passed.statusCode).toBe(201);
    expect(passed.json().data).toMatchObject({ passed: true, percentage: 75, wrongQuestionIds: [passSession.test.questions[3]!.id] });
    expect(passed.json().data).toHaveProperty('pdfPath');
  });
});

describe('the attempts policy of a test', () => {
  it('is set on Create New Test, with its defaults over REST for the spec’s body, and refused when out of range', async ({ portal, db, as, bearer, admin }) => {
    const course = await createCourse(db);
    const created = await portal.app.inject({
      method: 'POST',
      url: '/api/test',
      headers: bearer(admin),
      payload: { courseId: course.id, title: course.title, passMark: '60', questions: bank(6), questionsPerAttempt: '4', attemptsAllowed: 2, waitMinutes: 30 },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ questionsPerAttempt: 4, attemptsAllowed: 2, waitMinutes: 30 });
    const [row] = await db.select().from(tests).where(eq(tests.id, created.json().data._id));
    expect(row).toMatchObject({ questionsPerAttempt: 4, attemptsAllowed: 2, waitMinutes: 30 });

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ questionsPerAttempt: 7 }, T.questionsPerAttemptTooMany(6)],
      [{ questionsPerAttempt: 0 }, T.questionsPerAttemptRange],
      [{ questionsPerAttempt: 2.5 }, T.questionsPerAttemptRange],
      [{ attemptsAllowed: 0 }, T.attemptsAllowedRange(20)],
      [{ attemptsAllowed: 21 }, T.attemptsAllowedRange(20)],
      [{ waitMinutes: -1 }, T.waitMinutesRange(10080)],
      [{ waitMinutes: 'soon' }, T.waitMinutesRange(10080)],
    ];
    for (const [override, message] of cases) {
      const field = Object.keys(override)[0]!;
      const res = await portal.app.inject({
        method: 'POST',
        url: '/api/test',
        headers: bearer(admin),
        payload: { courseId: course.id, title: course.title, passMark: 60, questions: bank(6), ...override },
      });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().errors?.[field], field).toBe(message);
    }
    expect(await db.select().from(tests).where(eq(tests.courseId, course.id))).toHaveLength(1);

    // Every question of the bank is every question: the policy says all.
    const all = await as(admin).tests.create({ courseId: course.id, title: course.title, passMark: 60, questions: bank(3), questionsPerAttempt: 3 });
    expect(all.test.questionsPerAttempt).toBeNull();
    const openapi = await portal.app.inject('/api/docs/openapi.json');
    const body = openapi.json().paths['/test'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['questionsPerAttempt', 'attemptsAllowed', 'waitMinutes']));
    // Optional: a client written from the spec sends none of them.
    expect(body.required).not.toEqual(expect.arrayContaining(['questionsPerAttempt']));
    expect(body.required ?? []).not.toContain('attemptsAllowed');
    expect(body.required ?? []).not.toContain('waitMinutes');
  });
});

describe('changing the attempts policy of an existing test', () => {
  it('applies to attempts started after it: the new draw, the new wait and the new allowance; an open attempt keeps its questions', async ({ db, as, admin, trainedLearnerIn, policyTest, attemptsOf }) => {
    const clock = freezeClock(new Date('2026-11-26T09:00:00Z'));
    const { course, test } = await policyTest(bank(6), { attemptsAllowed: 3, waitMinutes: 10 });
    const learner = await trainedLearnerIn(course.id);
    const open = await as(learner).tests.take({ courseId: course.id });
    expect(open.test.questions).toHaveLength(6);

    const changed = await as(admin).tests.updatePolicy({ testId: test.id, questionsPerAttempt: 2, attemptsAllowed: 2, waitMinutes: 30 });
    expect(changed.message).toBe(T.policySaved);
    expect(changed.test).toMatchObject({ id: test.id, questionsPerAttempt: 2, attemptsAllowed: 2, waitMinutes: 30, isPublished: true });
    expect(changed.test.questions).toHaveLength(6);
    const [row] = await db.select().from(tests).where(eq(tests.id, test.id));
    expect(row).toMatchObject({ questionsPerAttempt: 2, attemptsAllowed: 2, waitMinutes: 30 });
    expect((await as(admin).tests.list()).find((listed) => listed.id === test.id)).toMatchObject({ questionsPerAttempt: 2, attemptsAllowed: 2, waitMinutes: 30 });

    // The attempt opened before the change is resumed as it was drawn, and scored on all six.
    const resumed = await as(learner).tests.take({ courseId: course.id });
    expect(resumed.attempt.id).toBe(open.attempt.id);
    expect(resumed.test.questions.map((question) => question.id)).toEqual(open.test.questions.map((question) => question.id));
    const failed = await as(learner).tests.submit({ testId: test.id, answers: answersFor(test, resumed.test.questions, 1) });
    // The new wait and allowance: 30 minutes, one attempt of two left.
    expect(failed).toMatchObject({ passed: false, totalQuestions: 6, attemptsLeft: 1, nextAttemptAt: new Date('2026-11-26T09:30:00Z').toISOString() });

    clock.advanceMinutes(10);
    await expect(as(learner).tests.take({ courseId: course.id })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: `${T.nextAttemptAt('15:00 IST', 20)} ${T.attemptsLeft(1)}`,
    });
    clock.advanceMinutes(20);
    expect(await as(learner).tests.status({ courseId: course.id })).toMatchObject({ state: 'open', attemptsAllowed: 2, test: { questionCount: 2, waitMinutes: 30 } });
    const next = await as(learner).tests.take({ courseId: course.id });
    expect(next.test.questions).toHaveLength(2);
    expect(next.attempt).toMatchObject({ number: 2, attemptsAllowed: 2 });
    const [, drawn] = await attemptsOf(learner.id, course.id);
    expect(drawn!.questions).toHaveLength(2);
    expect(await as(learner).tests.submit({ testId: test.id, answers: answersFor(test, next.test.questions, 2) })).toMatchObject({
      passed: true,
      totalQuestions: 2,
    });
  });

  it('says all when every question of the bank is asked, and refuses bad values with the catalogue’s words, changing nothing', async ({ db, as, admin, policyTest, updatePolicyOverHttp }) => {
    const { test } = await policyTest(bank(4), { questionsPerAttempt: 3, attemptsAllowed: 4, waitMinutes: 15 });
    const all = await as(admin).tests.updatePolicy({ testId: test.id, questionsPerAttempt: 4, attemptsAllowed: 4, waitMinutes: 15 });
    expect(all.test.questionsPerAttempt).toBeNull();
    await as(admin).tests.updatePolicy({ testId: test.id, questionsPerAttempt: 3, attemptsAllowed: 4, waitMinutes: 15 });

    const valid = { testId: test.id, questionsPerAttempt: 2, attemptsAllowed: 2, waitMinutes: 0 };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ questionsPerAttempt: 5 }, T.questionsPerAttemptTooMany(4)],
      [{ questionsPerAttempt: 0 }, T.questionsPerAttemptRange],
      [{ questionsPerAttempt: 1.5 }, T.questionsPerAttemptRange],
      [{ attemptsAllowed: 0 }, T.attemptsAllowedRange(20)],
      [{ attemptsAllowed: 21 }, T.attemptsAllowedRange(20)],
      [{ attemptsAllowed: null }, T.attemptsAllowedRange(20)],
      [{ waitMinutes: -1 }, T.waitMinutesRange(10080)],
      [{ waitMinutes: 10081 }, T.waitMinutesRange(10080)],
      [{ waitMinutes: 'soon' }, T.waitMinutesRange(10080)],
    ];
    for (const [override, message] of cases) {
      const field = Object.keys(override)[0]!;
      const answer = await updatePolicyOverHttp(admin, { ...valid, ...override });
      expect(answer.status, `${field}: ${JSON.stringify(answer)}`).toBe(400);
      expect(answer.message, field).toBe(message);
      expect(answer.fields?.[field], field).toBe(message);
    }
    const [row] = await db.select().from(tests).where(eq(tests.id, test.id));
    expect(row).toMatchObject({ questionsPerAttempt: 3, attemptsAllowed: 4, waitMinutes: 15 });

    await expect(as(admin).tests.updatePolicy({ ...valid, testId: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: T.notFound,
    });
  });

  it('is refused to a learner with 403, and changes nothing', async ({ db, as, trainedLearnerIn, policyTest, updatePolicyOverHttp }) => {
    const { course, test } = await policyTest(bank(3), { attemptsAllowed: 3, waitMinutes: 10 });
    const learner = await trainedLearnerIn(course.id);
    const input = { testId: test.id, questionsPerAttempt: 1, attemptsAllowed: 20, waitMinutes: 0 };
    await expect(as(learner).tests.updatePolicy(input)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await updatePolicyOverHttp(learner, input)).status).toBe(403);
    const [row] = await db.select().from(tests).where(eq(tests.id, test.id));
    expect(row).toMatchObject({ questionsPerAttempt: null, attemptsAllowed: 3, waitMinutes: 10 });
  });
});
