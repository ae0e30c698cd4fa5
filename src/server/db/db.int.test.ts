import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { createCourse, createUser } from '../../testing/factories.ts';
import { openDatabase, type DatabaseOptions } from './client.ts';
import { certificates, enrolments, testAttempts, tests, users } from './schema.ts';
import { afterAll, describe, expect, inject, it } from '../../testing/portal-test.ts';

/** The error postgres raised, whichever driver wrapped it. */
async function pgErrorCode(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
  } catch (error) {
    const seen = error as { code?: string; cause?: { code?: string } };
    return seen.cause?.code ?? seen.code;
  }
  return undefined;
}

describe('data survives a restart', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-db-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const backends: Array<[string, DatabaseOptions | undefined]> = [
    ['embedded PGlite', { dataDir: path.join(dir, 'db') }],
    ['PostgreSQL', inject('databaseUrl') ? { url: inject('databaseUrl')! } : undefined],
  ];

  for (const [name, options] of backends) {
    it.runIf(options !== undefined)(`on ${name}`, async () => {
      const first = await openDatabase(options!);
      await first.migrate();
      const written = await createUser(first.db);
      await first.close();

      const second = await openDatabase(options!);
      await second.migrate();
      const [read] = await second.db.select().from(users).where(eq(users.id, written.id));
      await second.close();
      expect(read?.email).toBe(written.email);
    });
  }
});

describe('constraints keep the data true', () => {
  it('allows one enrolment per learner and course', async ({ db }) => {
    const user = await createUser(db);
    const course = await createCourse(db);
    await db.insert(enrolments).values({ userId: user.id, courseId: course.id });
    expect(await pgErrorCode(db.insert(enrolments).values({ userId: user.id, courseId: course.id }))).toBe('23505');
    expect(await db.select().from(enrolments).where(eq(enrolments.userId, user.id))).toHaveLength(1);
  });

  it('allows one certificate per learner and course', async ({ db }) => {
    const user = await createUser(db);
    const course = await createCourse(db);
    const [test] = await db.insert(tests).values({ courseId: course.id, title: course.title, passMark: 60 }).returning();
    const [attempt] = await db
      .insert(testAttempts)
      .values({ userId: user.id, testId: test!.id, courseId: course.id })
      .returning();
    const certificate = { userId: user.id, courseId: course.id, attemptId: attempt!.id };
    await db.insert(certificates).values({ ...certificate, number: `MTA-${user.id.slice(0, 8)}-1`, verificationCode: `code-${user.id}-1`, holderName: 'Holder' });
    expect(
      await pgErrorCode(db.insert(certificates).values({ ...certificate, number: `MTA-${user.id.slice(0, 8)}-2`, verificationCode: `code-${user.id}-2`, holderName: 'Holder' })),
    ).toBe('23505');
  });

  it('keeps e-mail addresses unique and lowercase', async ({ db }) => {
    const user = await createUser(db);
    expect(await pgErrorCode(createUser(db, { email: user.email }))).toBe('23505');
    expect(await pgErrorCode(createUser(db, { email: 'Captain@Example.com' }))).toBe('23514');
  });

  it('refuses a negative price and a pass mark outside 0..100', async ({ db }) => {
    expect(await pgErrorCode(createCourse(db, { price: -1 }))).toBe('23514');
    const course = await createCourse(db);
    expect(await pgErrorCode(db.insert(tests).values({ courseId: course.id, title: 't', passMark: 101 }))).toBe('23514');
  });

  it('refuses an enrolment for a course that does not exist', async ({ db }) => {
    const user = await createUser(db);
    expect(
      await pgErrorCode(
        db.insert(enrolments).values({ userId: user.id, courseId: '00000000-0000-4000-8000-000000000000' }),
      ),
    ).toBe('23503');
  });
});
