import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Executor } from '../server/db/client.ts';
import { certificates, testAttempts, tests } from '../server/db/schema.ts';

type TCertificateOverrides = Partial<Omit<typeof certificates.$inferInsert, 'userId' | 'courseId' | 'attemptId'>>;

/** A course's test, unpublished and without questions: what a certificate's attempt points to. */
export async function createTestRow(db: Executor, courseId: string): Promise<{ id: string }> {
  const [test] = await db.insert(tests).values({ courseId, title: 'Assessment', passMark: 50 }).returning({ id: tests.id });
  return test!;
}

/**
 * A certificate written straight into the database with a passing attempt behind it: numbered
 * from the real sequence, its holder snapshot and dates as given (the issue instant as
 * `issuedAt`), so lists, states and batches can be tested at any day without running the pass.
 */
export async function createCertificateRow(
  db: Executor,
  owner: { userId: string; courseId: string; testId: string },
  overrides: TCertificateOverrides = {},
): Promise<typeof certificates.$inferSelect> {
  const issuedAt = overrides.issuedAt ?? new Date();
  const [attempt] = await db
    .insert(testAttempts)
    .values({ ...owner, startedAt: issuedAt, submittedAt: issuedAt, score: 2, totalQuestions: 2, percentage: 100, passed: true, timeTakenSeconds: 30 })
    .returning({ id: testAttempts.id });
  const [serial] = await db.select({ n: sql<string>`nextval('certificate_number_seq')::text` }).from(sql`(values (1)) as one`);
  const [certificate] = await db
    .insert(certificates)
    .values({
      userId: owner.userId,
      courseId: owner.courseId,
      attemptId: attempt!.id,
      number: `MTA/${issuedAt.getUTCFullYear()}/${serial!.n.padStart(6, '0')}`,
      verificationCode: randomBytes(20).toString('base64url'),
      holderName: 'Arjun Nair',
      // Printed from a verified profile unless the overrides say otherwise.
      holderVerifiedByName: 'Leela Pillai',
      holderVerifiedAt: issuedAt,
      status: 'ready',
      ...overrides,
      issuedAt,
    })
    .returning();
  return certificate!;
}
