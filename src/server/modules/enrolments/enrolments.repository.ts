import { and, asc, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import type { TEnrolmentStatus } from '../../../shared/constants.ts';
import type { Executor } from '../../db/client.ts';
import { containsPattern } from '../../db/like-patterns.ts';
import { courses, enrolments, trainingVideos, trainingVideoSets, users, watchProgress } from '../../db/schema.ts';

export type TEnrolmentRow = typeof enrolments.$inferSelect;
export type TCourseRow = typeof courses.$inferSelect;

export async function findOwn(db: Executor, userId: string, courseId: string): Promise<TEnrolmentRow | undefined> {
  const [row] = await db
    .select()
    .from(enrolments)
    .where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, courseId)));
  return row;
}

/** Records when the learner submitted the course's training; the first submission's time is kept. */
export async function markTrainingSubmitted(db: Executor, enrolmentId: string, at: Date): Promise<Date> {
  const [row] = await db
    .update(enrolments)
    .set({ trainingSubmittedAt: sql`coalesce(${enrolments.trainingSubmittedAt}, ${at.toISOString()}::timestamptz)`, updatedAt: at })
    .where(eq(enrolments.id, enrolmentId))
    .returning({ trainingSubmittedAt: enrolments.trainingSubmittedAt });
  return row?.trainingSubmittedAt ?? at;
}

/**
 * Records a request: a new row, or a rejected one asked again (back to pending, as new). Nothing
 * comes back when the learner's request is already pending or approved.
 */
export async function upsertRequest(db: Executor, userId: string, courseId: string, at: Date): Promise<TEnrolmentRow | undefined> {
  const [row] = await db
    .insert(enrolments)
    .values({ userId, courseId, status: 'pending', requestedAt: at })
    .onConflictDoUpdate({
      target: [enrolments.userId, enrolments.courseId],
      set: { status: 'pending', requestedAt: at, decidedAt: null, decidedBy: null, updatedAt: at },
      setWhere: eq(enrolments.status, 'rejected'),
    })
    .returning();
  return row;
}

/** The learner's enrolments (any status), for the dashboard's buttons. */
export function findStatusesOfUser(db: Executor, userId: string): Promise<TEnrolmentRow[]> {
  return db.select().from(enrolments).where(eq(enrolments.userId, userId));
}

/** The learner's enrolments with their courses, most recent request first. */
export function findOwnWithCourses(db: Executor, userId: string): Promise<Array<{ enrolment: TEnrolmentRow; course: TCourseRow }>> {
  return db
    .select({ enrolment: enrolments, course: courses })
    .from(enrolments)
    .innerJoin(courses, eq(courses.id, enrolments.courseId))
    .where(eq(enrolments.userId, userId))
    .orderBy(desc(enrolments.requestedAt), desc(enrolments.id));
}

export async function findOwnWithCourse(
  db: Executor,
  userId: string,
  courseId: string,
): Promise<{ enrolment: TEnrolmentRow; course: TCourseRow } | undefined> {
  const [row] = await db
    .select({ enrolment: enrolments, course: courses })
    .from(enrolments)
    .innerJoin(courses, eq(courses.id, enrolments.courseId))
    .where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, courseId)));
  return row;
}

/** Per course: its training videos and how many of them this learner has completed. */
export async function countCompletedVideos(
  db: Executor,
  userId: string,
  courseIds: string[],
): Promise<Map<string, { completed: number; total: number }>> {
  if (courseIds.length === 0) return new Map();
  const rows = await db
    .select({
      courseId: trainingVideoSets.courseId,
      total: count(trainingVideos.id),
      completed: count(watchProgress.completedAt),
    })
    .from(trainingVideoSets)
    .innerJoin(trainingVideos, eq(trainingVideos.setId, trainingVideoSets.id))
    .leftJoin(
      watchProgress,
      and(eq(watchProgress.videoId, trainingVideos.id), eq(watchProgress.userId, userId), isNotNull(watchProgress.completedAt)),
    )
    .where(inArray(trainingVideoSets.courseId, courseIds))
    .groupBy(trainingVideoSets.courseId);
  return new Map(rows.map((row) => [row.courseId, { completed: row.completed, total: row.total }]));
}

/** A course's training videos in order, with this learner's completion of each. */
export async function findTrainingOf(db: Executor, userId: string, courseId: string) {
  return db
    .select({
      setId: trainingVideoSets.id,
      setTitle: trainingVideoSets.title,
      id: trainingVideos.id,
      serial: trainingVideos.serial,
      name: trainingVideos.originalName,
      status: trainingVideos.status,
      durationSeconds: trainingVideos.durationSeconds,
      completedAt: watchProgress.completedAt,
    })
    .from(trainingVideoSets)
    .innerJoin(trainingVideos, eq(trainingVideos.setId, trainingVideoSets.id))
    .leftJoin(watchProgress, and(eq(watchProgress.videoId, trainingVideos.id), eq(watchProgress.userId, userId)))
    .where(eq(trainingVideoSets.courseId, courseId))
    .orderBy(asc(trainingVideos.serial));
}

// ---------------------------------------------------------------------------------------------
// Administration

const requestColumns = {
  id: enrolments.id,
  status: enrolments.status,
  requestedAt: enrolments.requestedAt,
  decidedAt: enrolments.decidedAt,
  userId: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  courseId: courses.id,
  courseTitle: courses.title,
  courseDescription: courses.description,
  courseDuration: courses.duration,
  coursePrice: courses.price,
  courseCategory: courses.category,
  courseIsActive: courses.isActive,
};
export type TRequestRow = {
  id: string;
  status: TEnrolmentStatus;
  requestedAt: Date;
  decidedAt: Date | null;
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  courseId: string;
  courseTitle: string;
  courseDescription: string;
  courseDuration: string;
  coursePrice: number;
  courseCategory: string;
  courseIsActive: boolean;
};


/**
 * Requests in one status whose learner's name or e-mail, or course title, contains `search`
 * (any case), most recent first. The matching learners (trigram index on users.search_text) and
 * courses are found first, then their requests in that status, index-only; only the page's
 * twenty rows are joined to their learner and course.
 */
export async function searchRequests(
  db: Executor,
  query: { status: TEnrolmentStatus; search: string; limit: number; offset: number },
): Promise<{ rows: TRequestRow[]; total: number }> {
  const inStatus = eq(enrolments.status, query.status);
  const ids = { id: enrolments.id, requestedAt: enrolments.requestedAt };
  const joined = () =>
    db
      .select(requestColumns)
      .from(enrolments)
      .innerJoin(users, eq(users.id, enrolments.userId))
      .innerJoin(courses, eq(courses.id, enrolments.courseId));

  if (!query.search) {
    // The page straight from the (status, requested_at) index; the count index-only beside it.
    const pageIds = db
      .select({ id: enrolments.id })
      .from(enrolments)
      .where(inStatus)
      .orderBy(desc(enrolments.requestedAt), desc(enrolments.id))
      .limit(query.limit)
      .offset(query.offset);
    const [pageRows, [counted]] = await Promise.all([
      joined().where(inArray(enrolments.id, pageIds)).orderBy(desc(enrolments.requestedAt), desc(enrolments.id)),
      db.select({ total: count() }).from(enrolments).where(inStatus),
    ]);
    return { rows: pageRows, total: counted?.total ?? 0 };
  }

  const pattern = containsPattern(query.search);
  const matchingUsers = db.select({ id: users.id }).from(users).where(sql`${users.searchText} like lower(${pattern})`);
  const matchingCourses = db
    .select({ id: courses.id })
    .from(courses)
    .where(sql`lower(${courses.title}) like lower(${pattern})`);
  const found = union(
    db.select(ids).from(enrolments).where(and(inStatus, inArray(enrolments.userId, matchingUsers))),
    db.select(ids).from(enrolments).where(and(inStatus, inArray(enrolments.courseId, matchingCourses))),
  );
  // One statement: the matching requests are found once (a CTE read twice is materialised),
  // counted, and only the page's rows are joined to their learner and course.
  const matching = db.$with('matching').as(found);
  const pageIds = db
    .select({ id: matching.id })
    .from(matching)
    .orderBy(desc(matching.requestedAt), desc(matching.id))
    .limit(query.limit)
    .offset(query.offset);
  const rows = await db
    .with(matching)
    .select({ ...requestColumns, total: sql<number>`(select count(*) from ${matching})::int` })
    .from(enrolments)
    .innerJoin(users, eq(users.id, enrolments.userId))
    .innerJoin(courses, eq(courses.id, enrolments.courseId))
    .where(inArray(enrolments.id, pageIds))
    .orderBy(desc(enrolments.requestedAt), desc(enrolments.id));
  if (rows.length === 0 && query.offset > 0) {
    // Past the last page there is no row to carry the total.
    const [counted] = await db.with(matching).select({ total: count() }).from(matching);
    return { rows: [], total: counted?.total ?? 0 };
  }
  return { rows: rows.map(({ total: _total, ...row }) => row), total: rows[0]?.total ?? 0 };
}

export async function findRequestById(db: Executor, id: string, lock = false): Promise<TRequestRow | undefined> {
  const query = db
    .select(requestColumns)
    .from(enrolments)
    .innerJoin(users, eq(users.id, enrolments.userId))
    .innerJoin(courses, eq(courses.id, enrolments.courseId))
    .where(eq(enrolments.id, id));
  const [row] = lock ? await query.for('update', { of: enrolments }) : await query;
  return row;
}

/** Moves a request to `to` if it is in one of `from`; false when it was not. */
export async function decide(
  db: Executor,
  id: string,
  from: TEnrolmentStatus[],
  to: TEnrolmentStatus,
  adminId: string,
  at: Date,
): Promise<boolean> {
  const rows = await db
    .update(enrolments)
    .set({ status: to, decidedAt: at, decidedBy: adminId })
    .where(and(eq(enrolments.id, id), inArray(enrolments.status, from)))
    .returning({ id: enrolments.id });
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Rounds of training and test attempts

/** The learner's enrolment in the course, locked until the transaction ends. */
export async function lockOwn(tx: Executor, userId: string, courseId: string): Promise<TEnrolmentRow | undefined> {
  const [row] = await tx
    .select()
    .from(enrolments)
    .where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, courseId)))
    .for('update');
  return row;
}

export async function clearTrainingRound(tx: Executor, enrolmentId: string): Promise<void> {
  await tx.update(enrolments).set({ trainingSubmittedAt: null, extraAttempts: 0, updatedAt: new Date() }).where(eq(enrolments.id, enrolmentId));
}

export async function addExtraAttempts(tx: Executor, enrolmentId: string, attempts: number): Promise<void> {
  await tx
    .update(enrolments)
    .set({ extraAttempts: sql`${enrolments.extraAttempts} + ${attempts}`, updatedAt: new Date() })
    .where(eq(enrolments.id, enrolmentId));
}

export async function openGrantedRound(tx: Executor, enrolmentId: string, at: Date, extraAttempts: number): Promise<void> {
  await tx.update(enrolments).set({ trainingSubmittedAt: at, extraAttempts, updatedAt: at }).where(eq(enrolments.id, enrolmentId));
}
