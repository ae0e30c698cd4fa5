import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TAdminTest, TTestForm } from '../../../shared/schemas/tests.ts';
import { createCourse, createEnrolment, createUser } from '../../../testing/factories.ts';
import { describe, expect, test, type TPublishedTestOptions, type TTestUser } from '../../../testing/portal-test.ts';
import { certificates, testAttemptAnswers, testAttempts, tests } from '../../db/schema.ts';
import { RESULTS_COUNT_BOUND, searchResults as searchResultRows } from './tests.repository.ts';

const T = MESSAGES.tests;
type TUser = TTestUser;

const QUESTIONS: TTestForm['questions'] = [
  { questionText: 'Which extinguisher suits an electrical fire?', options: ['Water', 'CO2', 'Foam', 'Wet sand'], correctAnswer: 'CO2' },
  {
    questionText: 'The general emergency alarm is how many short blasts and one long?',
    options: ['Three', 'Five', 'Seven', 'Nine'],
    correctAnswer: 'Seven',
  },
  {
    questionText: 'A lifejacket light must burn for at least how long?',
    options: ['2 hours', '4 hours', '8 hours', '12 hours'],
    correctAnswer: '8 hours',
  },
  {
    questionText: 'Which SOLAS chapter covers life-saving appliances?',
    options: ['Chapter II-2', 'Chapter III', 'Chapter V', 'Chapter IX'],
    correctAnswer: 'Chapter III',
  },
];

/** Attempts without a wait and plenty of them: for tests about something else than the policy. */
const RETAKES = { attemptsAllowed: 20, waitMinutes: 0 } as const;

/** A course with a published test of four questions, pass mark 75 (three right passes), retakes at once. */
const FOUR: TPublishedTestOptions = { questions: QUESTIONS, passMark: 75, policy: RETAKES };

/** Answers with the first `right` questions right and the others wrong. */
const answersWith = (test: TAdminTest, right: number) =>
  test.questions.map((question, index) => ({
    questionId: question.id,
    selectedAnswer: index < right ? question.correctAnswer : question.options.find((option) => option !== question.correctAnswer)!,
  }));

/** Every key anywhere in a JSON value. */
function keysIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      found.add(key);
      keysIn(item, found);
    }
  }
  return found;
}
const ANSWER_KEYS = ['correctAnswer', 'isCorrect', 'correct'];
const expectNoAnswerKey = (payload: unknown) => {
  const keys = keysIn(JSON.parse(JSON.stringify(payload)));
  for (const key of ANSWER_KEYS) expect(keys, `learner payload holds "${key}"`).not.toContain(key);
};

const it = test
  .extend('admin', { scope: 'file' }, ({ staff }) => staff)
  .extend('attemptsOf', { scope: 'file' }, ({ db }) => (userId: string, testId: string) =>
    db
      .select()
      .from(testAttempts)
      .where(and(eq(testAttempts.userId, userId), eq(testAttempts.testId, testId))),
  )
  .extend('certificatesOf', { scope: 'file' }, ({ db }) => (userId: string, courseId: string) =>
    db
      .select()
      .from(certificates)
      .where(and(eq(certificates.userId, userId), eq(certificates.courseId, courseId))),
  )
  .extend('testsOfCourse', { scope: 'file' }, ({ db }) => (courseId: string) => db.select().from(tests).where(eq(tests.courseId, courseId)))
  /** Moves the open attempt's start back, as if the learner had spent that long on it. */
  .extend('letTimePass', { scope: 'file' }, ({ db }) => async (userId: string, testId: string, seconds: number) => {
    await db
      .update(testAttempts)
      .set({ startedAt: sql`${testAttempts.startedAt} - make_interval(secs => ${seconds})` })
      .where(and(eq(testAttempts.userId, userId), eq(testAttempts.testId, testId), isNull(testAttempts.submittedAt)));
  })
  .extend('submitRest', { scope: 'file' }, ({ portal, bearer }) => (learner: TUser, payload: unknown) =>
    portal.app.inject({ method: 'POST', url: '/api/submitTest', headers: bearer(learner), payload: payload as object }),
  )
  /** A course with a unique title and learners who each submitted once (scores given in order). */
  .extend('resultsCourse', { scope: 'file' }, ({ db, as, admin, learnerIn }) => async (scores: number[]) => {
    const tag = randomUUID().slice(0, 8);
    const course = await createCourse(db, { title: `Results Course ${tag}` });
    const { test } = await as(admin).tests.create({ courseId: course.id, title: course.title, passMark: 75, questions: QUESTIONS, ...RETAKES });
    await as(admin).tests.publish({ testId: test.id });
    const learners: TUser[] = [];
    for (const [index, right] of scores.entries()) {
      const learner = await learnerIn(course.id, { user: { firstName: `Navigator${tag}${index}` } });
      await as(learner).tests.take({ courseId: course.id });
      await as(learner).tests.submit({ testId: test.id, answers: answersWith(test, right) });
      learners.push(learner);
    }
    return { tag, course, test, learners };
  });

describe('creating tests', () => {
  it('stores the test with its questions in order, unpublished, and lists it for administrators with the answers', async ({ db, as, admin }) => {
    const course = await createCourse(db);
    const result = await as(admin).tests.create({ courseId: course.id, title: `  ${course.title} `, passMark: 60, questions: QUESTIONS });
    expect(result.message).toBe(T.created);
    // The attempts policy's defaults: every question, three attempts, ten minutes between them.
    expect(result.test).toMatchObject({
      course: { id: course.id, title: course.title },
      title: course.title,
      passMark: 60,
      isPublished: false,
      questionsPerAttempt: null,
      attemptsAllowed: 3,
      waitMinutes: 10,
    });
    expect(result.test.questions.map((question) => [question.position, question.questionText, question.correctAnswer])).toEqual(
      QUESTIONS.map((question, index) => [index + 1, question.questionText, question.correctAnswer]),
    );
    const listed = (await as(admin).tests.list()).find((test) => test.id === result.test.id);
    expect(listed?.questions[1]?.options).toEqual(QUESTIONS[1]!.options);
    expect((await as(admin).tests.published()).some((test) => test.id === result.test.id)).toBe(false);
  });

  it('POST /api/test takes the spec body (pass mark as typed text too) and answers 201; GET /api/test lists it as the spec reads it', async ({ portal, db, bearer, admin }) => {
    const course = await createCourse(db);
    const res = await portal.app.inject({
      method: 'POST',
      url: '/api/test',
      headers: bearer(admin),
      payload: { courseId: course.id, title: course.title, passMark: '70', questions: QUESTIONS },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(T.created);
    const id = res.json().data._id;

    const list = await portal.app.inject({ url: '/api/test', headers: bearer(admin) });
    expect(list.statusCode).toBe(200);
    const created = list.json().data.find((test: { _id: string }) => test._id === id);
    expect(created).toMatchObject({
      courseId: course.id,
      courseTitle: course.title,
      title: course.title,
      passMark: 70,
      isPublished: false,
      questionsPerAttempt: null,
      attemptsAllowed: 3,
      waitMinutes: 10,
    });
    expect(created.questions[0]).toEqual({
      _id: expect.any(String),
      questionText: QUESTIONS[0]!.questionText,
      options: QUESTIONS[0]!.options,
      correctAnswer: 'CO2',
    });
  });

  it('refuses a bad test with 400 naming the field, and writes nothing', async ({ portal, db, as, bearer, admin, testsOfCourse }) => {
    const course = await createCourse(db);
    const question = QUESTIONS[0]!;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ questions: [] }, 'questions', T.questionsRequired],
      [{ passMark: 101 }, 'passMark', T.passMarkRange],
      [{ passMark: 'high' }, 'passMark', T.passMarkRange],
      [{ passMark: undefined }, 'passMark', T.passMarkRequired],
      [{ title: '  ' }, 'title', T.titleRequired],
      [{ courseId: '' }, 'courseId', T.courseRequired],
      [{ questions: [{ ...question, options: ['Water', 'CO2', 'Foam'] }] }, 'questions.0.options', T.fourOptions],
      [{ questions: [{ ...question, options: ['Water', 'CO2', 'Foam', ' co2 '] }] }, 'questions.0.options.3', T.optionsDistinct],
      [{ questions: [{ ...question, options: ['Water', 'CO2', '', 'Foam'] }] }, 'questions.0.options.2', T.optionRequired],
      [{ questions: [question, { ...question, correctAnswer: 'Halon' }] }, 'questions.1.correctAnswer', T.correctAnswerNotOption],
      [{ questions: [{ ...question, questionText: '' }] }, 'questions.0.questionText', T.questionRequired],
    ];
    for (const [override, field, message] of cases) {
      const payload = { courseId: course.id, title: course.title, passMark: 75, questions: QUESTIONS, ...override };
      const res = await portal.app.inject({ method: 'POST', url: '/api/test', headers: bearer(admin), payload });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().errors?.[field], field).toBe(message);
    }

    const closed = await createCourse(db, { isActive: false });
    await expect(
      as(admin).tests.create({ courseId: closed.id, title: closed.title, passMark: 75, questions: QUESTIONS }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: T.courseNotActive });
    await expect(
      as(admin).tests.create({ courseId: randomUUID(), title: 'Missing course', passMark: 75, questions: QUESTIONS }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await testsOfCourse(course.id)).toHaveLength(0);
    expect(await testsOfCourse(closed.id)).toHaveLength(0);
  });

  it('is for administrators only', async ({ portal, db, as, bearer, learnerIn, testsOfCourse }) => {
    const course = await createCourse(db);
    const learner = await learnerIn(course.id);
    await expect(
      as(learner).tests.create({ courseId: course.id, title: course.title, passMark: 50, questions: QUESTIONS }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(as(learner).tests.list()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    for (const url of ['/api/test', '/api/test/published', '/api/submitTest']) {
      expect((await portal.app.inject({ url, headers: bearer(learner) })).statusCode, url).toBe(403);
    }
    expect(await testsOfCourse(course.id)).toHaveLength(0);
  });
});

describe('publishing', () => {
  it('publishes and unpublishes with the spec messages, over tRPC and REST; the published list follows', async ({ portal, db, as, bearer, admin }) => {
    const course = await createCourse(db);
    const { test } = await as(admin).tests.create({ courseId: course.id, title: course.title, passMark: 50, questions: QUESTIONS });

    const published = await portal.app.inject({ method: 'POST', url: `/api/test/published/${test.id}`, headers: bearer(admin) });
    expect(published.statusCode).toBe(200);
    expect(published.json()).toMatchObject({ message: T.published, data: { _id: test.id, isPublished: true } });
    const list = await portal.app.inject({ url: '/api/test/published', headers: bearer(admin) });
    expect(list.json().data.some((item: { _id: string }) => item._id === test.id)).toBe(true);

    const unpublished = await portal.app.inject({ method: 'POST', url: `/api/test/unpublished/${test.id}`, headers: bearer(admin) });
    expect(unpublished.json()).toMatchObject({ message: T.unpublished, data: { _id: test.id, isPublished: false } });
    expect((await as(admin).tests.published()).some((item) => item.id === test.id)).toBe(false);

    expect(await as(admin).tests.publish({ testId: test.id })).toMatchObject({ message: T.published, test: { isPublished: true } });
    const missing = await portal.app.inject({ method: 'POST', url: `/api/test/published/${randomUUID()}`, headers: bearer(admin) });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(T.notFound);
  });
});

describe('opening a test', () => {
  it('serves the published test without answers and starts one attempt, kept when opened again', async ({ portal, as, bearer, learnerIn, publishedTest, attemptsOf }) => {
    const { course, test } = await publishedTest(FOUR);
    const learner = await learnerIn(course.id);

    const first = await as(learner).tests.take({ courseId: course.id });
    expectNoAnswerKey(first);
    expect(first.test).toMatchObject({ id: test.id, title: test.title, passMark: 75, course: { id: course.id } });
    expect(first.attempt).toMatchObject({ number: 1, attemptsAllowed: 20 });
    // Every question of the bank, each with its own four options (in the order this attempt drew).
    const sortedOptions = (questions: Array<{ questionText: string; options: string[] }>) =>
      questions.map((question) => [question.questionText, [...question.options].sort()]).sort();
    expect(sortedOptions(first.test.questions)).toEqual(sortedOptions(QUESTIONS));

    const rest = await portal.app.inject({ url: `/api/test/${course.id}`, headers: bearer(learner) });
    expect(rest.statusCode).toBe(200);
    expectNoAnswerKey(rest.json());
    const [served] = rest.json().data;
    expect(served).toMatchObject({ _id: test.id, courseId: course.id, attemptId: first.attempt.id, startedAt: first.attempt.startedAt, attemptNumber: 1 });
    // Opened again, the open attempt comes back in the order it was drawn.
    expect(served.questions).toEqual(first.test.questions.map((question) => ({ _id: question.id, questionText: question.questionText, options: question.options })));

    const rows = await attemptsOf(learner.id, test.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ courseId: course.id, submittedAt: null, score: null });
  });

  it('two openings at once start one attempt', async ({ as, learnerIn, publishedTest, attemptsOf }) => {
    const { course, test } = await publishedTest(FOUR);
    const learner = await learnerIn(course.id);
    const [a, b] = await Promise.all([as(learner).tests.take({ courseId: course.id }), as(learner).tests.take({ courseId: course.id })]);
    expect(a.attempt.id).toBe(b.attempt.id);
    expect(await attemptsOf(learner.id, test.id)).toHaveLength(1);
  });

  it('is refused with 403 until the training is submitted, and without an approved enrolment; nothing is started', async ({ portal, db, as, bearer, admin, learnerIn, publishedTest, attemptsOf, submitRest }) => {
    const { course, test } = await publishedTest(FOUR);
    const notYet = await learnerIn(course.id, { trainingSubmitted: false });
    await expect(as(notYet).tests.take({ courseId: course.id })).rejects.toMatchObject({ code: 'FORBIDDEN', message: T.trainingFirst });
    const rest = await portal.app.inject({ url: `/api/test/${course.id}`, headers: bearer(notYet) });
    expect(rest.statusCode).toBe(403);
    expect(rest.json().message).toBe(T.trainingFirst);
    const submit = await submitRest(notYet, { testId: test.id, courseId: course.id, answers: answersWith(test, 4), timeTaken: 60 });
    expect(submit.statusCode).toBe(403);
    expect(submit.json().message).toBe(T.trainingFirst);
    expect(await attemptsOf(notYet.id, test.id)).toHaveLength(0);

    const pending = await createUser(db, { approvedAt: new Date() });
    await createEnrolment(db, { userId: pending.id, courseId: course.id, status: 'pending', trainingSubmittedAt: new Date() });
    await expect(as(pending).tests.take({ courseId: course.id })).rejects.toMatchObject({ code: 'FORBIDDEN', message: T.notEnrolled });
    const stranger = await createUser(db, { approvedAt: new Date() });
    const strangerRes = await portal.app.inject({ url: `/api/test/${course.id}`, headers: bearer(stranger) });
    expect(strangerRes.statusCode).toBe(403);
    expect(await attemptsOf(pending.id, test.id)).toHaveLength(0);
    expect(await attemptsOf(stranger.id, test.id)).toHaveLength(0);

    await expect(as(admin).tests.take({ courseId: course.id })).rejects.toMatchObject({ code: 'FORBIDDEN', message: T.learnersOnly });
    expect((await portal.app.inject({ url: `/api/test/${course.id}` })).statusCode).toBe(401);
  });

  it('does not serve an unpublished test, nor take answers to it', async ({ portal, db, as, bearer, admin, learnerIn, attemptsOf }) => {
    const course = await createCourse(db);
    const { test } = await as(admin).tests.create({ courseId: course.id, title: course.title, passMark: 50, questions: QUESTIONS });
    const learner = await learnerIn(course.id);
    await expect(as(learner).tests.take({ courseId: course.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: T.noneForCourse });
    const rest = await portal.app.inject({ url: `/api/test/${course.id}`, headers: bearer(learner) });
    expect(rest.statusCode).toBe(404);
    expect(rest.json().message).toBe(T.noneForCourse);

    // Published, opened, then withdrawn before the learner submits.
    await as(admin).tests.publish({ testId: test.id });
    await as(learner).tests.take({ courseId: course.id });
    await as(admin).tests.unpublish({ testId: test.id });
    await expect(as(learner).tests.submit({ testId: test.id, answers: answersWith(test, 4) })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: T.noneForCourse,
    });
    const [attempt] = await attemptsOf(learner.id, test.id);
    expect(attempt?.submittedAt).toBeNull();
  });
});

describe('submitting', () => {
  it('scores on the server: a client score, percentage, pass or time is ignored', async ({ portal, db, bearer, learnerIn, publishedTest, attemptsOf, certificatesOf, letTimePass, submitRest }) => {
    const { course, test } = await publishedTest(FOUR);
    const learner = await learnerIn(course.id);
    await portal.app.inject({ url: `/api/test/${course.id}`, headers: bearer(learner) });
    await letTimePass(learner.id, test.id, 95);

    const res = await submitRest(learner, {
      testId: test.id,
      courseId: course.id,
      answers: answersWith(test, 1),
      timeTaken: 60,
      score: 4,
      percentage: 100,
      passed: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    expectNoAnswerKey(res.json());
    const { data } = res.json();
    expect(data).toMatchObject({ testId: test.id, courseId: course.id, score: 1, totalQuestions: 4, percentage: 25, passMark: 75, passed: false, certificate: null });
    expect(data.timeTaken).toBeGreaterThanOrEqual(95);
    // The server's own count from the attempt's start, not the 60 the client claimed; the upper bound
    // only says it is a count of seconds, however slowly this machine ran the test.
    expect(data.timeTaken).toBeLessThan(95 + 600);
    expect(res.json().message).toBe(`${T.scored(1, 4, 25, false)} ${T.attemptsLeft(19)}`);
    expect(data).toMatchObject({ attemptsLeft: 19, nextAttemptAt: null, wrongQuestionIds: null });

    const [row] = await attemptsOf(learner.id, test.id);
    expect(row).toMatchObject({ id: data._id, score: 1, totalQuestions: 4, percentage: 25, passed: false, timeTakenSeconds: data.timeTaken });
    expect(await db.select().from(testAttemptAnswers).where(eq(testAttemptAnswers.attemptId, data._id))).toHaveLength(4);
    expect(await certificatesOf(learner.id, course.id)).toHaveLength(0);
  });

  it('passes at the pass mark exactly, and a pass issues one pending certificate numbered MTA/{year}/{six digits}', async ({ as, learnerIn, publishedTest, certificatesOf }) => {
    const { course, test } = await publishedTest(FOUR);
    const learner = await learnerIn(course.id);
    await as(learner).tests.take({ courseId: course.id });
    const result = await as(learner).tests.submit({ testId: test.id, answers: answersWith(test, 3) });
    expectNoAnswerKey(result);
    expect(result).toMatchObject({ score: 3, percentage: 75, passed: true, message: T.scored(3, 4, 75, true) });
    // The answers as given, in the order the attempt asked them.
    expect(result.answers).toHaveLength(4);
    expect(result.answers).toEqual(expect.arrayContaining(answersWith(test, 3)));
    const year = new Date().getUTCFullYear();
    expect(result.certificate?.number).toMatch(new RegExp(`^MTA/${year}/\\d{6,}$`));
    expect(result.certificate?.status).toBe('pending');

    const rows = await certificatesOf(learner.id, course.id);
    expect(rows).toHaveLength(1);
    // The worker renders the PDF after the commit (certificates.int.test.ts follows it there).
    expect(rows[0]).toMatchObject({ number: result.certificate!.number, attemptId: result.attemptId });
  });

  it('lets a failed learner try again with a new attempt; after a pass the test is closed and the certificate stands', async ({ portal, as, bearer, learnerIn, publishedTest, attemptsOf, certificatesOf }) => {
    const { course, test } = await publishedTest(FOUR);
    const learner = await learnerIn(course.id);
    const first = await as(learner).tests.take({ courseId: course.id });
    expect((await as(learner).tests.submit({ testId: test.id, answers: answersWith(test, 2) })).passed).toBe(false);

    const second = await as(learner).tests.take({ courseId: course.id });
    expect(second.attempt.id).not.toBe(first.attempt.id);
    expect(second.attempt.number).toBe(2);
    const passed = await as(learner).tests.submit({ testId: test.id, answers: answersWith(test, 4) });
    expect(passed).toMatchObject({ passed: true, percentage: 100, attemptId: second.attempt.id });

    await expect(as(learner).tests.take({ courseId: course.id })).rejects.toMatchObject({ code: 'CONFLICT', message: T.alreadyPassed });
    const rest = await portal.app.inject({ url: `/api/test/${course.id}`, headers: bearer(learner) });
    expect(rest.statusCode).toBe(409);
    expect(rest.json().message).toBe(T.alreadyPassed);

    const attempts = await attemptsOf(learner.id, test.id);
    expect(attempts.map((attempt) => attempt.passed).sort()).toEqual([false, true]);
    const rows = await certificatesOf(learner.id, course.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.attemptId).toBe(second.attempt.id);
  });

  it('two submissions of one attempt at once make one attempt; the other is refused', async ({ portal, db, bearer, learnerIn, publishedTest, attemptsOf, certificatesOf, submitRest }) => {
    const { course, test } = await publishedTest(FOUR);
    const learner = await learnerIn(course.id);
    await portal.app.inject({ url: `/api/test/${course.id}`, headers: bearer(learner) });
    const body = { testId: test.id, courseId: course.id, answers: answersWith(test, 4), timeTaken: 60 };
    const answers = await Promise.all([submitRest(learner, body), submitRest(learner, body)]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((res) => res.statusCode === 409)!.json().message).toBe(T.notOpen);

    const attempts = await attemptsOf(learner.id, test.id);
    expect(attempts).toHaveLength(1);
    expect(await db.select().from(testAttemptAnswers).where(eq(testAttemptAnswers.attemptId, attempts[0]!.id))).toHaveLength(4);
    expect(await certificatesOf(learner.id, course.id)).toHaveLength(1);
  });

  it('two passes of different tests of one course at once make one certificate', async ({ as, admin, learnerIn, publishedTest, certificatesOf }) => {
    const { course, test } = await publishedTest({ ...FOUR, passMark: 50 });
    const { test: other } = await as(admin).tests.create({ courseId: course.id, title: course.title, passMark: 50, questions: QUESTIONS });
    const learner = await learnerIn(course.id);
    // The newest published test is served; the older one was opened earlier.
    await as(learner).tests.take({ courseId: course.id });
    await as(admin).tests.publish({ testId: other.id });
    await as(learner).tests.take({ courseId: course.id });
    const [a, b] = await Promise.all([
      as(learner).tests.submit({ testId: test.id, answers: answersWith(test, 4) }),
      as(learner).tests.submit({ testId: other.id, answers: answersWith(other, 4) }),
    ]);
    expect(a.certificate?.number).toBe(b.certificate?.number);
    expect(await certificatesOf(learner.id, course.id)).toHaveLength(1);
  });

  it('gives different learners different certificate numbers', async ({ as, learnerIn, publishedTest }) => {
    const { course, test } = await publishedTest({ ...FOUR, passMark: 50 });
    const learners = await Promise.all([learnerIn(course.id), learnerIn(course.id), learnerIn(course.id)]);
    const numbers = await Promise.all(
      learners.map(async (learner) => {
        await as(learner).tests.take({ courseId: course.id });
        return (await as(learner).tests.submit({ testId: test.id, answers: answersWith(test, 4) })).certificate!.number;
      }),
    );
    expect(new Set(numbers).size).toBe(3);
  });

  it('refuses answers that leave a question out, pick no option or name another question, with 400, writing nothing', async ({ db, as, learnerIn, publishedTest, attemptsOf, submitRest }) => {
    const { course, test } = await publishedTest(FOUR);
    const learner = await learnerIn(course.id);
    const session = await as(learner).tests.take({ courseId: course.id });
    const full = answersWith(test, 4);
    const q2 = test.questions[1]!;
    // Questions are named by their number in this attempt, as the learner saw them.
    const shown = session.test.questions.findIndex((question) => question.id === q2.id) + 1;
    const cases: Array<[unknown, number, string, string | null]> = [
      [full.filter((answer) => answer.questionId !== q2.id), 400, T.unanswered(shown), `answers.${q2.id}`],
      [full.map((answer) => (answer.questionId === q2.id ? { ...answer, selectedAnswer: 'Eleven' } : answer)), 400, T.notAnOption(shown), `answers.${q2.id}`],
      [[...full, full[1]], 400, T.answeredTwice(shown), `answers.${q2.id}`],
      [[...full, { questionId: randomUUID(), selectedAnswer: 'CO2' }], 400, T.notDrawn, null],
      ['all of them', 400, T.answersRequired, 'answers'],
    ];
    for (const [answers, status, message, field] of cases) {
      const res = await submitRest(learner, { testId: test.id, courseId: course.id, answers, timeTaken: 60 });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().message).toBe(message);
      if (field) expect(res.json().errors?.[field]).toBe(message);
    }
    const mismatch = await submitRest(learner, { testId: test.id, courseId: randomUUID(), answers: full });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe(T.courseMismatch);
    expect((await submitRest(learner, { courseId: course.id, answers: full })).statusCode).toBe(400);

    const [attempt] = await attemptsOf(learner.id, test.id);
    expect(attempt).toMatchObject({ submittedAt: null, score: null });
    expect(await db.select().from(testAttemptAnswers).where(eq(testAttemptAnswers.attemptId, attempt!.id))).toHaveLength(0);
  });

  it('refuses a submission when no attempt was opened', async ({ as, learnerIn, publishedTest, attemptsOf }) => {
    const { course, test } = await publishedTest(FOUR);
    const learner = await learnerIn(course.id);
    await expect(as(learner).tests.submit({ testId: test.id, answers: answersWith(test, 4) })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: T.notOpen,
    });
    expect(await attemptsOf(learner.id, test.id)).toHaveLength(0);
  });
});

describe('test results', () => {
  it('searches by learner name, e-mail and course title, in pages, newest first, the answers beside the correct ones', async ({ as, admin, learnerIn, resultsCourse }) => {
    const { tag, course, test, learners } = await resultsCourse([4, 2, 3]);

    const byCourse = await as(admin).tests.results({ search: `results course ${tag}`, page: 1, pageSize: 2 });
    expect(byCourse.total).toBe(3);
    expect(byCourse.items.map((item) => item.user.id)).toEqual([learners[2]!.id, learners[1]!.id]);
    const page2 = await as(admin).tests.results({ search: course.title, page: 2, pageSize: 2 });
    expect(page2.items.map((item) => item.user.id)).toEqual([learners[0]!.id]);

    const byName = await as(admin).tests.results({ search: `navigator${tag}1` });
    expect(byName.total).toBe(1);
    const [item] = byName.items;
    expect(item).toMatchObject({
      user: { id: learners[1]!.id, email: learners[1]!.email },
      course: { id: course.id, title: course.title },
      test: { id: test.id, passMark: 75 },
      score: 2,
      totalQuestions: 4,
      percentage: 50,
      passed: false,
    });
    expect(item!.timeTakenSeconds).toBeGreaterThanOrEqual(0);
    expect(item!.answers.map((answer) => [answer.position, answer.selectedAnswer, answer.correctAnswer, answer.isCorrect])).toEqual(
      test.questions.map((question, index) => [
        index + 1,
        answersWith(test, 2)[index]!.selectedAnswer,
        question.correctAnswer,
        index < 2,
      ]),
    );

    const byEmail = await as(admin).tests.results({ search: learners[0]!.email.toUpperCase() });
    expect(byEmail.items.map((result) => result.user.id)).toEqual([learners[0]!.id]);
    expect((await as(admin).tests.results({ search: `nobody-${tag}` })).total).toBe(0);
    // Opened but not submitted attempts are no results.
    const opener = await learnerIn(course.id);
    await as(opener).tests.take({ courseId: course.id });
    expect((await as(admin).tests.results({ search: course.title })).total).toBe(3);
    await expect(as(admin).tests.results({ pageSize: 101 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('GET /api/submitTest answers the spec shape, paged with ?search=&page=&pageSize= and whole without', async ({ portal, bearer, admin, resultsCourse }) => {
    const { course, test, learners } = await resultsCourse([4, 1]);
    const paged = await portal.app.inject({
      url: `/api/submitTest?search=${encodeURIComponent(course.title)}&page=1&pageSize=1`,
      headers: bearer(admin),
    });
    expect(paged.statusCode).toBe(200);
    expect(paged.json()).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    const [latest] = paged.json().data;
    expect(latest).toMatchObject({
      userName: `${learners[1]!.firstName} ${learners[1]!.lastName}`,
      userEmail: learners[1]!.email,
      courseId: { _id: course.id, title: course.title },
      score: 1,
      totalQuestions: 4,
      percentage: 25,
      passed: false,
    });
    expect(typeof latest.timeTaken).toBe('number');
    expect(Number.isNaN(Date.parse(latest.submittedAt))).toBe(false);
    expect(latest.answers[0]).toMatchObject({
      _id: test.questions[0]!.id,
      selectedAnswer: 'CO2',
      correctAnswer: 'CO2',
      isCorrect: true,
    });

    const whole = await portal.app.inject({ url: `/api/submitTest?search=${encodeURIComponent(course.title)}`, headers: bearer(admin) });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['x-total-count']).toBe('2');
    expect(whole.json().data.map((submission: { userEmail: string; passed: boolean }) => [submission.userEmail, submission.passed])).toEqual([
      [learners[1]!.email, false],
      [learners[0]!.email, true],
    ]);

    const bad = await portal.app.inject({ url: '/api/submitTest?page=0', headers: bearer(admin) });
    expect(bad.statusCode).toBe(400);
  });

  it('counts a search matched by learner and by course once, and exactly up to the bound', async ({ db, resultsCourse }) => {
    const { tag, course, learners } = await resultsCourse([4, 2, 3]);
    // The course's title and a learner's name both hold the tag: that learner's attempt is one result.
    const both = await searchResultRows(db, { search: tag, limit: 10, offset: 0, countUpTo: 3 });
    expect(both).toMatchObject({ total: 3, totalIsEstimate: false });
    expect(both.rows.map((row) => row.userId)).toEqual([learners[2]!.id, learners[1]!.id, learners[0]!.id]);
    const bounded = await searchResultRows(db, { search: course.title, limit: 1, offset: 1, countUpTo: 2 });
    expect(bounded).toMatchObject({ total: 2, totalIsEstimate: true });
    expect(bounded.rows.map((row) => row.userId)).toEqual([learners[1]!.id]);
    const exact = await searchResultRows(db, { search: course.title, limit: 1, offset: 0 });
    expect(exact).toMatchObject({ total: 3, totalIsEstimate: false });
  });

  it('answers a lower bound past 10 000 matches, flagged totalIsEstimate, over tRPC and REST', async ({ portal, db, as, bearer, admin, resultsCourse }) => {
    const { course, test, learners } = await resultsCourse([4]);
    const learner = learners[0]!;
    await db.execute(sql`
      insert into test_attempts (user_id, test_id, course_id, started_at, submitted_at, score, total_questions, percentage, time_taken_seconds, passed)
      select ${learner.id}, ${test.id}, ${course.id}, now() - interval '2 days' - (i || ' seconds')::interval,
        now() - interval '1 day' - (i || ' seconds')::interval, 1, 4, 25, 60, false
      from generate_series(1, ${RESULTS_COUNT_BOUND + 5}) i`);

    const first = await as(admin).tests.results({ search: course.title, page: 1, pageSize: 20 });
    expect(first).toMatchObject({ total: RESULTS_COUNT_BOUND, totalIsEstimate: true, page: 1, pageSize: 20 });
    expect(first.items).toHaveLength(20);
    // The newest first: the learner's own submission, then the bulk rows a second apart.
    expect(first.items[0]!.score).toBe(4);
    const times = first.items.map((item) => Date.parse(item.submittedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    // A page past the bound is counted up to its own end: here the list ends on it, so exactly.
    const last = await as(admin).tests.results({ search: course.title, page: 501, pageSize: 20 });
    expect(last).toMatchObject({ total: RESULTS_COUNT_BOUND + 6, page: 501 });
    expect(last.totalIsEstimate).toBeUndefined();
    expect(last.items).toHaveLength(6);

    const rest = await portal.app.inject({ url: `/api/submitTest?search=${encodeURIComponent(course.title)}&page=1&pageSize=5`, headers: bearer(admin) });
    expect(rest.json()).toMatchObject({ total: RESULTS_COUNT_BOUND, totalIsEstimate: true, page: 1, pageSize: 5 });
    // A list under the bound has its exact total and no flag.
    const other = await resultsCourse([3]);
    const small = await portal.app.inject({ url: `/api/submitTest?search=${encodeURIComponent(other.course.title)}&page=1&pageSize=5`, headers: bearer(admin) });
    expect(small.json()).toMatchObject({ total: 1, page: 1 });
    expect(small.json()).not.toHaveProperty('totalIsEstimate');
  });
});
