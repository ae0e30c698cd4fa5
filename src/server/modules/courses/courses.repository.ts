import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { courses } from '../../db/schema.ts';

export type TCourseRow = typeof courses.$inferSelect;
export type TCourseValues = Pick<
  typeof courses.$inferInsert,
  'title' | 'description' | 'duration' | 'price' | 'category' | 'subjects'
>;
export type TCourseImageValues = { imageFile: string; imageWidth: number; imageHeight: number };

const newestFirst = [desc(courses.createdAt), desc(courses.id)];

export function findActive(db: Executor): Promise<TCourseRow[]> {
  return db.select().from(courses).where(eq(courses.isActive, true)).orderBy(...newestFirst);
}

export function findAll(db: Executor): Promise<TCourseRow[]> {
  return db.select().from(courses).orderBy(...newestFirst);
}

export async function findById(db: Executor, id: string): Promise<TCourseRow | undefined> {
  const [row] = await db.select().from(courses).where(eq(courses.id, id));
  return row;
}

/**
 * What the active catalogue's answer depends on, in one cheap aggregate: any insert, edit or
 * (de)activation moves the newest `updated_at` (microseconds), and the count covers the rest.
 */
export async function findCatalogueVersion(db: Executor): Promise<{ active: number; newest: string }> {
  const [row] = await db
    .select({
      active: sql<number>`count(*) filter (where ${courses.isActive})::int`,
      newest: sql<string>`coalesce((extract(epoch from max(${courses.updatedAt})) * 1000000)::bigint, 0)::text`,
    })
    .from(courses);
  return row ?? { active: 0, newest: '0' };
}

/** Reads a course and holds it against a concurrent change until the transaction ends. */
export async function findByIdForShare(tx: Executor, id: string): Promise<Pick<TCourseRow, 'id' | 'isActive'> | undefined> {
  const [row] = await tx
    .select({ id: courses.id, isActive: courses.isActive })
    .from(courses)
    .where(eq(courses.id, id))
    .for('share');
  return row;
}

export async function insertCourse(db: Executor, values: TCourseValues & TCourseImageValues): Promise<TCourseRow> {
  const [row] = await db.insert(courses).values(values).returning();
  if (!row) throw new Error('course insert returned no row');
  return row;
}

/** Updates a course's fields (and image); the row as it was before comes back too. */
export async function updateCourse(
  db: Executor,
  id: string,
  values: TCourseValues & Partial<TCourseImageValues>,
): Promise<{ before: TCourseRow; after: TCourseRow } | undefined> {
  const [before] = await db.select().from(courses).where(eq(courses.id, id)).for('update');
  if (!before) return undefined;
  const [after] = await db.update(courses).set(values).where(eq(courses.id, id)).returning();
  return after ? { before, after } : undefined;
}

/** Switches a course on or off; nothing comes back when it does not exist or is already so. */
export async function setActive(db: Executor, id: string, active: boolean): Promise<TCourseRow | undefined> {
  const [row] = await db
    .update(courses)
    .set({ isActive: active })
    .where(and(eq(courses.id, id), eq(courses.isActive, !active)))
    .returning();
  return row;
}

/** Every stored course image name a course points to. */
export async function findImageFileNames(db: Executor): Promise<string[]> {
  const rows = await db.select({ name: courses.imageFile }).from(courses).where(isNotNull(courses.imageFile));
  return rows.map((row) => row.name!);
}

export async function findCertificateTerms(db: Executor, id: string) {
  const [row] = await db
    .select({
      code: courses.code,
      approvalNumber: courses.approvalNumber,
      validityMonths: courses.certificateValidityMonths,
      testRequiresApprovedProfile: courses.testRequiresApprovedProfile,
    })
    .from(courses)
    .where(eq(courses.id, id));
  return row;
}

export async function findCoursesRenewedBy(db: Executor, refresherCourseId: string): Promise<string[]> {
  const rows = await db.select({ id: courses.id }).from(courses).where(eq(courses.refresherCourseId, refresherCourseId));
  return rows.map((row) => row.id);
}

/** A course's certificate settings, with its refresher course's title. */
export async function findCertificateSettings(db: Executor, id: string) {
  const refresher = alias(courses, 'refresher');
  const [row] = await db
    .select({
      code: courses.code,
      approvalNumber: courses.approvalNumber,
      validityMonths: courses.certificateValidityMonths,
      testRequiresApprovedProfile: courses.testRequiresApprovedProfile,
      refresherId: refresher.id,
      refresherTitle: refresher.title,
    })
    .from(courses)
    .leftJoin(refresher, eq(refresher.id, courses.refresherCourseId))
    .where(eq(courses.id, id));
  return row;
}

export type TCertificateSettingsValues = Pick<
  typeof courses.$inferInsert,
  'code' | 'approvalNumber' | 'certificateValidityMonths' | 'refresherCourseId' | 'testRequiresApprovedProfile'
>;

/** Sets a course's certificate settings; false when the course does not exist. */
export async function updateCertificateSettings(db: Executor, id: string, values: TCertificateSettingsValues): Promise<boolean> {
  const rows = await db.update(courses).set(values).where(eq(courses.id, id)).returning({ id: courses.id });
  return rows.length > 0;
}
