import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { inject, test as base } from 'vitest';
import type { TSecondFactorState } from '../shared/constants.ts';
import type { TAdminTest, TTestForm } from '../shared/schemas/tests.ts';
import { createCourse, createEnrolment, createUser, sessionOf } from './factories.ts';
import { seedWorld } from './portal-world.ts';
import { startSmtpServer } from './smtp-server.ts';
import { createTestPortal, type TestPortal } from './test-runtime.ts';

export { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, inject, vi } from 'vitest';

export type TTestUser = Awaited<ReturnType<typeof createUser>>;
type TCourse = Awaited<ReturnType<typeof createCourse>>;
/** A course and its published test, as `publishedTest` makes them. */
export type TPublishedTest = { course: TCourse; test: TAdminTest };

/**
 * How the file's portal is built (createTestPortal's options); `smtp: true` sends its mail to the
 * file's SMTP server (`smtp`) instead of leaving mail unconfigured; `ownDatabase: true` gives it a
 * database no other file writes to, for tests of facts about the whole database.
 */
export type TPortalOptions = NonNullable<Parameters<typeof createTestPortal>[0]> & { smtp?: boolean; ownDatabase?: boolean };

/**
 * A fresh database beside the run's on its PostgreSQL server, and how to drop it; none on PGlite,
 * where every portal has its own already.
 */
async function ownDatabase(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const base = inject('databaseUrl');
  if (!base) return { url: undefined, drop: async () => {} };
  const name = `portal_own_${randomBytes(5).toString('hex')}`;
  const server = postgres(base, { max: 1, onnotice: () => {} });
  await server.unsafe(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await server.unsafe(`drop database if exists ${name} with (force)`);
      await server.end();
    },
  };
}

export const TEST_QUESTIONS: TTestForm['questions'] = [
  { questionText: 'Which extinguisher suits an electrical fire?', options: ['Water', 'CO2', 'Foam', 'Wet sand'], correctAnswer: 'CO2' },
  { questionText: 'Short blasts of the general alarm?', options: ['Three', 'Five', 'Seven', 'Nine'], correctAnswer: 'Seven' },
];

export type TPublishedTestOptions = {
  /** The course's own values (a fresh course either way). */
  course?: Parameters<typeof createCourse>[1];
  questions?: TTestForm['questions'];
  passMark?: number;
  title?: string;
  /** The attempts policy (the form's defaults unless given). */
  policy?: Partial<Pick<TTestForm, 'questionsPerAttempt' | 'attemptsAllowed' | 'waitMinutes'>>;
};

/**
 * What most files start from: a member of staff (an owner with an authenticator app, signed in
 * with it), a published course with a test, and an approved learner enrolled in it whose training
 * is submitted, so its test is theirs to take.
 */
export type TSeed = { staff: TTestUser; learner: TTestUser; course: TCourse; test: TAdminTest };

/**
 * The integration tests' `test`: one portal per file (built when a test or hook first asks for
 * it, closed after the file), with what the tests reach it by. A file that needs another portal
 * says so with `test.override({ portalOptions: { ... } })` at its top.
 */
export const test = base
  .extend('portalOptions', { scope: 'file' }, {} as TPortalOptions)
  // eslint-disable-next-line no-empty-pattern -- Vitest reads what a fixture needs from its first parameter's pattern
  .extend('smtp', { scope: 'file' }, async ({}, { onCleanup }) => {
    const smtp = await startSmtpServer();
    onCleanup(() => smtp.close());
    return smtp;
  })
  .extend('portal', { scope: 'file' }, async ({ portalOptions, smtp }, { onCleanup }): Promise<TestPortal> => {
    const { smtp: withSmtp, ownDatabase: withOwnDatabase, ...options } = portalOptions;
    const database = withOwnDatabase ? await ownDatabase() : undefined;
    const env = { ...(withSmtp ? { SMTP_URL: smtp.url } : {}), ...(database?.url ? { DATABASE_URL: database.url } : {}), ...options.env };
    const portal = await createTestPortal({ ...options, env });
    onCleanup(async () => {
      await portal.close();
      await database?.drop();
    });
    return portal;
  })
  .extend('db', { scope: 'file' }, ({ portal }) => portal.runtime.db)
  /** A tRPC caller acting as the user (a visitor for null), from the address given. */
  .extend('as', { scope: 'file' }, ({ portal }) => (user: TTestUser | null, ip?: string) => portal.caller(user ? sessionOf(user) : null, ip))
  /** The REST headers of a signed-in user; staff have given their second factor unless `secondFactor` is null. */
  .extend(
    'bearer',
    { scope: 'file' },
    ({ portal }) =>
      (user: { id: string; role: TTestUser['role'] }, secondFactor?: TSecondFactorState | null) => ({ authorization: portal.authorization(user, secondFactor) }),
  )
  /** An approved learner enrolled in the course, the training submitted an hour ago unless told not. */
  .extend(
    'learnerIn',
    { scope: 'file' },
    ({ db }) =>
      async (courseId: string, options: { user?: Parameters<typeof createUser>[1]; trainingSubmitted?: boolean } = {}) => {
        const learner = await createUser(db, { approvedAt: new Date(), ...options.user });
        const since = new Date(Date.now() - 60 * 60_000);
        await createEnrolment(db, { userId: learner.id, courseId, status: 'approved', decidedAt: since, trainingSubmittedAt: options.trainingSubmitted === false ? null : since });
        return learner;
      },
  )
  .extend('staff', { scope: 'file' }, ({ db }) => createUser(db, { role: 'admin', approvedAt: new Date() }))
  /** A fresh course with a published test the file's member of staff made. */
  .extend(
    'publishedTest',
    { scope: 'file' },
    ({ as, db, staff }) =>
      async (options: TPublishedTestOptions = {}): Promise<TPublishedTest> => {
        const course = await createCourse(db, options.course);
        const { test } = await as(staff).tests.create({
          courseId: course.id,
          title: options.title ?? course.title,
          passMark: options.passMark ?? 50,
          questions: options.questions ?? TEST_QUESTIONS,
          ...options.policy,
        });
        await as(staff).tests.publish({ testId: test.id });
        return { course, test };
      },
  )
  .extend('seed', { scope: 'file' }, async ({ staff, publishedTest, learnerIn }): Promise<TSeed> => {
    const { course, test } = await publishedTest();
    return { staff, course, test, learner: await learnerIn(course.id) };
  })
  /** Something of every kind, for the files that try every caller on every route (portal-world.ts). */
  .extend('world', { scope: 'file' }, ({ portal }) => seedWorld(portal));

export const it = test;
