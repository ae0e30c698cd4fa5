import { MESSAGES } from '../../../shared/messages.ts';
import { createCourse, createEnrolment, createUser } from '../../../testing/factories.ts';
import { trainingVideos, trainingVideoSets } from '../../db/schema.ts';
import { afterEach, describe, expect, test, vi } from '../../../testing/portal-test.ts';


afterEach(() => vi.useRealTimers());

/** The server's clock, moved by the test: only `Date` is faked. */
function clock() {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-26T08:00:00Z'));
  return { advance: (seconds: number) => vi.setSystemTime(new Date(Date.now() + seconds * 1000)) };
}

const RIGHT: Record<string, string> = { 'Which extinguisher suits an electrical fire?': 'CO2', 'How long must a lifejacket light burn?': '8 hours' };

const it = test
  .extend('admin', { scope: 'file' }, ({ db }) => createUser(db, { role: 'admin', approvedAt: new Date() }))
  /** A course with one ready part of `seconds` and a published test of two questions, no wait between attempts. */
  .extend('course', { scope: 'file' }, ({ admin, db, as }) => async (seconds: number) => {
    const created = await createCourse(db);
    const [set] = await db.insert(trainingVideoSets).values({ courseId: created.id, title: created.title }).returning();
    const [video] = await db
      .insert(trainingVideos)
      .values({ setId: set!.id, serial: 1, originalName: 'Fire drill', sourceFile: `${crypto.randomUUID()}.mp4`, status: 'ready', durationSeconds: seconds, renditions: [] })
      .returning();
    const { test } = await as(admin).tests.create({
      courseId: created.id,
      title: created.title,
      passMark: 100,
      waitMinutes: 0,
      questions: [
        { questionText: 'Which extinguisher suits an electrical fire?', options: ['Water', 'CO2', 'Foam', 'Wet sand'], correctAnswer: 'CO2' },
        { questionText: 'How long must a lifejacket light burn?', options: ['2 hours', '4 hours', '8 hours', '12 hours'], correctAnswer: '8 hours' },
      ],
    });
    await as(admin).tests.publish({ testId: test.id });
    return { course: created, setId: set!.id, videoId: video!.id };
  });

describe('the evidence behind a certificate', () => {
  it('shows each part watched with its times, each refused report with its reason, and every attempt with its questions and answers', async ({ admin, as, course, db, portal }) => {
    const time = clock();
    const { course: theCourse, setId, videoId } = await course(30);
    const learner = await createUser(db, { approvedAt: new Date() });
    await createEnrolment(db, { userId: learner.id, courseId: theCourse.id, status: 'approved', decidedAt: new Date() });
    const me = as(learner);

    // A burst that runs ahead of the clock, then honest watching.
    await me.training.heartbeat({ videoId, from: 0, to: 20, position: 20 });
    await me.training.heartbeat({ videoId, from: 0, to: 0, position: 0 });
    for (let second = 10; second <= 30; second += 10) {
      time.advance(10);
      await me.training.heartbeat({ videoId, from: second - 10, to: second, position: second });
    }
    await me.training.submit({ setId });

    // A failed attempt (one answer wrong), then a pass.
    const first = await me.tests.take({ courseId: theCourse.id });
    const failed = await me.tests.submit({
      testId: first.test.id,
      // The questions come in a new order each attempt: the wrong answer goes to the extinguisher question wherever it is.
      answers: first.test.questions.map((question) => ({
        questionId: question.id,
        selectedAnswer: question.questionText.startsWith('Which extinguisher') ? 'Water' : RIGHT[question.questionText]!,
      })),
    });
    expect(failed.passed).toBe(false);
    time.advance(60);
    const second = await me.tests.take({ courseId: theCourse.id });
    const passed = await me.tests.submit({
      testId: second.test.id,
      answers: second.test.questions.map((question) => ({ questionId: question.id, selectedAnswer: RIGHT[question.questionText]! })),
    });
    expect(passed.passed).toBe(true);
    const certificateId = passed.certificate!.id;

    const evidence = await as(admin).evidence.certificate({ certificateId });
    expect(evidence.holder.email).toBe(learner.email);
    expect(evidence.course).toEqual({ id: theCourse.id, title: theCourse.title });
    expect(evidence.parts).toHaveLength(1);
    const [part] = evidence.parts;
    expect(part).toMatchObject({ serial: 1, title: 'Fire drill', durationSeconds: 30, watchedSeconds: 30, timedSeconds: 30 });
    expect(part!.firstWatchedAt).toBe('2026-11-26T08:00:00.000Z');
    expect(part!.completedAt).toBe('2026-11-26T08:00:30.000Z');
    // The first report claimed 20 s the server had not seen pass: 2 s credited, the rest refused.
    expect(part!.refusals).toEqual([{ at: '2026-11-26T08:00:00.000Z', reason: "ahead of the server's clock", claimedFrom: 0, claimedTo: 20, creditedSeconds: 2 }]);

    expect(evidence.attempts.map((attempt) => [attempt.number, attempt.score, attempt.totalQuestions, attempt.passed])).toEqual([
      [1, 1, 2, false],
      [2, 2, 2, true],
    ]);
    const [one] = evidence.attempts;
    expect(one!.startedAt).toBe('2026-11-26T08:00:30.000Z');
    expect(one!.questions.map((question) => question.questionText).sort()).toEqual(Object.keys(RIGHT).sort());
    const wrong = one!.questions.find((question) => question.questionText.startsWith('Which extinguisher'))!;
    expect(wrong).toMatchObject({ selectedAnswer: 'Water', correctAnswer: 'CO2', correct: false });
    expect(wrong.options.sort()).toEqual(['CO2', 'Foam', 'Water', 'Wet sand']);

    // One CSV per course and date range, for administrators only. The range is the certificate's
    // day of issue, which the database stamps on its own clock (not this test's).
    vi.useRealTimers();
    const issuedOn = evidence.certificate.issuedAt.slice(0, 10);
    const dayBefore = new Date(Date.parse(issuedOn) - 24 * 60 * 60_000).toISOString().slice(0, 10);
    const url = `/api/certificates/evidence.csv?courseId=${theCourse.id}&from=${issuedOn}&to=${issuedOn}`;
    const csv = await portal.app.inject({ url, headers: { authorization: portal.authorization(admin) } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toContain('Timed by the server (seconds)');
    expect(lines.filter((line) => line.includes('Part watched'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('Report refused'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('Test attempt'))).toHaveLength(2);
    expect(lines.find((line) => line.includes('Attempt 1'))).toContain('Water / CO2');
    // A day with no certificates: the header alone.
    const empty = await portal.app.inject({ url: url.replaceAll(issuedOn, dayBefore), headers: { authorization: portal.authorization(admin) } });
    expect(empty.body.replace(/^\uFEFF/, '').trim().split('\r\n')).toHaveLength(1);
    const asLearner = await portal.app.inject({ url, headers: { authorization: portal.authorization(learner) } });
    expect(asLearner.statusCode).toBe(403);
  });

  it('answers a missing certificate and a wrong range clearly', async ({ admin, as, portal }) => {
    await expect(as(admin).evidence.certificate({ certificateId: crypto.randomUUID() })).rejects.toMatchObject({ message: MESSAGES.evidence.notFound });
    const backwards = await portal.app.inject({
      url: `/api/certificates/evidence.csv?courseId=${crypto.randomUUID()}&from=2026-11-26&to=2026-11-01`,
      headers: { authorization: portal.authorization(admin) },
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toBe(MESSAGES.evidence.rangeOrder);
  });
});
