import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TEnrolmentStatus } from '../../../shared/constants.ts';
import type { Executor } from '../../db/client.ts';
import { certificateReminders, certificates, courses, enrolments, mails, users } from '../../db/schema.ts';

/** Where a sweep's read stopped: the last certificate of the batch, in (validUntil, id) order. */
export type TSweepCursor = { validUntil: string; id: string };

/** A live certificate in the reminder window, with what decides its reminder and what its mail says. */
export type TRemindable = {
  id: string;
  number: string;
  validUntil: string;
  courseTitle: string;
  refresherCourseId: string | null;
  refresherTitle: string | null;
  email: string;
  firstName: string;
  lastName: string;
  /** The holder's choice (users.certificate_reminders). */
  remindersOn: boolean;
  /** The holder has an enrolment in the course's refresher in one of the statuses asked about. */
  enrolledInRefresher: boolean;
  /** The stages (days before) already recorded for this certificate. */
  sentStages: number[];
};

const refresher = alias(courses, 'refresher');

/**
 * One batch of live certificates (neither revoked nor superseded) whose last valid day is within
 * [from, to], after `after`, in (validUntil, id) order: a walk of the partial index
 * certificates_live_valid_until_idx, one query per batch however many rows it holds.
 */
export async function findRemindableBatch(
  db: Executor,
  window: { from: string; to: string },
  after: TSweepCursor | undefined,
  limit: number,
  refresherStatuses: readonly TEnrolmentStatus[],
): Promise<TRemindable[]> {
  const rows = await db
    .select({
      id: certificates.id,
      number: certificates.number,
      validUntil: certificates.validUntil,
      courseTitle: courses.title,
      refresherCourseId: courses.refresherCourseId,
      refresherTitle: refresher.title,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      remindersOn: users.certificateReminders,
      enrolledInRefresher: sql<boolean>`exists (select 1 from ${enrolments} where ${enrolments.userId} = ${certificates.userId}
        and ${enrolments.courseId} = ${courses.refresherCourseId} and ${inArray(enrolments.status, [...refresherStatuses])})`,
      sentStages: sql<number[]>`coalesce((select array_agg(${certificateReminders.daysBefore}) from ${certificateReminders}
        where ${certificateReminders.certificateId} = ${certificates.id}), '{}')`,
    })
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.userId))
    .innerJoin(courses, eq(courses.id, certificates.courseId))
    .leftJoin(refresher, eq(refresher.id, courses.refresherCourseId))
    .where(
      and(
        // The partial index's own predicate, so the planner walks it.
        isNull(certificates.revokedAt),
        isNull(certificates.supersededAt),
        isNotNull(certificates.validUntil),
        gte(certificates.validUntil, window.from),
        lte(certificates.validUntil, window.to),
        after ? sql`(${certificates.validUntil}, ${certificates.id}) > (${after.validUntil}::date, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(asc(certificates.validUntil), asc(certificates.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, validUntil: row.validUntil!, sentStages: row.sentStages.map(Number) }));
}

export type TNewReminder = { certificateId: string; daysBefore: number; validUntil: string; runBy: string | null };

/**
 * Records reminder stages, one statement for the batch. A stage recorded already (by another sweep,
 * now or before) is left as it is and not returned: only the returned ones may be mailed. A row
 * another transaction is writing waits for it, so two sweeps never both get one stage.
 */
export async function insertReminders(tx: Executor, rows: readonly TNewReminder[]): Promise<Array<{ certificateId: string; daysBefore: number }>> {
  if (rows.length === 0) return [];
  return tx
    .insert(certificateReminders)
    .values([...rows])
    .onConflictDoNothing({ target: [certificateReminders.certificateId, certificateReminders.daysBefore] })
    .returning({ certificateId: certificateReminders.certificateId, daysBefore: certificateReminders.daysBefore });
}

/** Points each recorded stage at the mail that carries it, one statement for the batch. */
export async function setReminderMails(
  tx: Executor,
  rows: ReadonlyArray<{ certificateId: string; daysBefore: number; mailId: string }>,
): Promise<void> {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map((row) => sql`(${row.certificateId}::uuid, ${row.daysBefore}::int, ${row.mailId}::uuid)`),
    sql`, `,
  );
  await tx.execute(sql`update ${certificateReminders} set mail_id = v.mail_id
    from (values ${values}) as v(certificate_id, days_before, mail_id)
    where ${certificateReminders.certificateId} = v.certificate_id and ${certificateReminders.daysBefore} = v.days_before`);
}

export async function certificateExists(db: Executor, id: string): Promise<boolean> {
  const [row] = await db.select({ id: certificates.id }).from(certificates).where(eq(certificates.id, id));
  return row !== undefined;
}

const runner = alias(users, 'run_by_user');

/** A certificate's reminders, newest first, with their mail (address, when it left) and who ran them. */
export async function findRemindersOf(db: Executor, certificateId: string) {
  return db
    .select({
      daysBefore: certificateReminders.daysBefore,
      validUntil: certificateReminders.validUntil,
      queuedAt: certificateReminders.createdAt,
      sentAt: mails.sentAt,
      to: mails.to,
      runBy: certificateReminders.runBy,
      runnerFirstName: runner.firstName,
      runnerLastName: runner.lastName,
    })
    .from(certificateReminders)
    .leftJoin(mails, eq(mails.id, certificateReminders.mailId))
    .leftJoin(runner, eq(runner.id, certificateReminders.runBy))
    .where(eq(certificateReminders.certificateId, certificateId))
    .orderBy(desc(certificateReminders.createdAt), asc(certificateReminders.daysBefore));
}

/** The holders' choices (users.certificate_reminders); an unknown id is simply absent. */
export async function findReminderChoice(db: Executor, userId: string): Promise<boolean | undefined> {
  const [row] = await db.select({ on: users.certificateReminders }).from(users).where(eq(users.id, userId));
  return row?.on;
}

export async function setReminderChoice(db: Executor, userId: string, on: boolean): Promise<boolean | undefined> {
  const [row] = await db
    .update(users)
    .set({ certificateReminders: on })
    .where(eq(users.id, userId))
    .returning({ on: users.certificateReminders });
  return row?.on;
}
