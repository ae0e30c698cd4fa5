import { eq } from 'drizzle-orm';
import type { TAdminTest, TTestForm } from '../../../shared/schemas/tests.ts';
import { createCourse, createEnrolment, createUser } from '../../../testing/factories.ts';
import { describe, expect, test, type TTestUser } from '../../../testing/portal-test.ts';
import { testAttempts } from '../../db/schema.ts';
import { monthStartInIndia } from './overview.service.ts';

/*
 * The figures count the whole database, so this file has one of its own: on PostgreSQL a fresh
 * database beside the run's (other files add users and courses in parallel); on PGlite every file
 * already has its own.
 */
test.override({ portalOptions: { ownDatabase: true } });

const it = test
  .extend('testFor', { scope: 'file' }, ({ as }) => async (admin: TUser, courseId: string, title: string, publish: boolean) => {
    const { test } = await as(admin).tests.create({ courseId, title, passMark: 50, questions: QUESTIONS });
    if (publish) await as(admin).tests.publish({ testId: test.id });
    return test;
  })
  /** An approved learner who finished the course's training, opens its test and answers `right` questions right. */
  .extend('attempt', { scope: 'file' }, ({ db, as }) => async (test: TAdminTest, courseId: string, right: number) => {
    const learner = await createUser(db, { approvedAt: new Date() });
    await createEnrolment(db, { userId: learner.id, courseId, status: 'approved', decidedAt: new Date(), trainingSubmittedAt: new Date() });
    await as(learner).tests.take({ courseId });
    const result = await as(learner).tests.submit({
      testId: test.id,
      answers: test.questions.map((question, index) => ({
        questionId: question.id,
        selectedAnswer: index < right ? question.correctAnswer : question.options.find((option) => option !== question.correctAnswer)!,
      })),
    });
    return result;
  });

type TUser = TTestUser;

const QUESTIONS: TTestForm['questions'] = [
  { questionText: 'Which extinguisher suits an electrical fire?', options: ['Water', 'CO2', 'Foam', 'Wet sand'], correctAnswer: 'CO2' },
  { questionText: 'Short blasts of the general alarm?', options: ['Three', 'Five', 'Seven', 'Nine'], correctAnswer: 'Seven' },
];

describe('overview.figures', () => {
  it('counts what waits for the administrators and how the tests go, each course with its pass rate', async ({ db, as, testFor, attempt }) => {
    const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
    const empty = await as(admin).overview.figures();
    expect(empty).toMatchObject({ pendingUsers: 0, pendingEnrolments: 0, activeCourses: 0, publishedTests: 0, attemptsThisMonth: 0, passRates: [] });

    // Two learners wait for approval; one who never verified the e-mail does not count yet.
    const waiting = await createUser(db);
    await createUser(db);
    await createUser(db, { verifiedAt: null });
    const navigation = await createCourse(db, { title: 'Bridge Navigation' });
    const safety = await createCourse(db, { title: 'Advanced Fire Fighting' });
    const retired = await createCourse(db, { title: 'Retired Course', isActive: false });
    // One pending request; a rejected one is not waiting.
    await createEnrolment(db, { userId: waiting.id, courseId: navigation.id });
    await createEnrolment(db, { userId: waiting.id, courseId: retired.id, status: 'rejected', decidedAt: new Date() });

    const navigationTest = await testFor(admin, navigation.id, navigation.title, true);
    const safetyTest = await testFor(admin, safety.id, safety.title, true);
    await testFor(admin, safety.id, `${safety.title} (draft)`, false);

    await attempt(navigationTest, navigation.id, 2);
    await attempt(navigationTest, navigation.id, 1);
    await attempt(navigationTest, navigation.id, 0);
    const lastMonth = await attempt(navigationTest, navigation.id, 2);
    await attempt(safetyTest, safety.id, 0);
    // One passing attempt was submitted before this month began: it counts for the pass rate only.
    const before = new Date(new Date(empty.monthStartedAt).getTime() - 60_000);
    await db.update(testAttempts).set({ submittedAt: before, startedAt: before }).where(eq(testAttempts.id, lastMonth.attemptId));
    // An attempt opened but not submitted counts nowhere.
    const opener = await createUser(db, { approvedAt: new Date() });
    await createEnrolment(db, { userId: opener.id, courseId: safety.id, status: 'approved', decidedAt: new Date(), trainingSubmittedAt: new Date() });
    await as(opener).tests.take({ courseId: safety.id });

    const figures = await as(admin).overview.figures();
    expect(figures).toEqual({
      pendingUsers: 2,
      pendingEnrolments: 1,
      activeCourses: 2,
      publishedTests: 2,
      attemptsThisMonth: 4,
      monthStartedAt: empty.monthStartedAt,
      passRates: [
        { courseId: safety.id, courseTitle: 'Advanced Fire Fighting', attempts: 1, passed: 0, passRate: 0 },
        // Pass mark 50 of two questions: one right passes. 3 of 4 passed.
        { courseId: navigation.id, courseTitle: 'Bridge Navigation', attempts: 4, passed: 3, passRate: 75 },
      ],
    });
  });

  it('is for administrators only', async ({ portal, db, as }) => {
    const learner = await createUser(db, { approvedAt: new Date() });
    await expect(as(learner).overview.figures()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(portal.caller(null).overview.figures()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('monthStartInIndia', () => {
  it('starts the month at midnight in India, which is 18:30 UTC the day before', () => {
    expect(monthStartInIndia(new Date('2026-11-24T10:00:00Z')).toISOString()).toBe('2026-10-31T18:30:00.000Z');
    // 20:00 UTC on 30 November is already 1 December in India.
    expect(monthStartInIndia(new Date('2026-11-30T20:00:00Z')).toISOString()).toBe('2026-11-30T18:30:00.000Z');
    expect(monthStartInIndia(new Date('2026-01-01T00:00:00Z')).toISOString()).toBe('2025-12-31T18:30:00.000Z');
  });
});
