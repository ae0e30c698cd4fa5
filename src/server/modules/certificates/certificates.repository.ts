import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import {
  certificateNumberSeq,
  certificateReminders,
  certificates,
  certificateVersions,
  courses,
  enrolments,
  profiles,
  users,
} from '../../db/schema.ts';

export type TCertificateRow = typeof certificates.$inferSelect;

/** A certificate with what is printed on it and what the verification page shows. */
export type TCertificateDetails = TCertificateRow & {
  firstName: string;
  lastName: string;
  email: string;
  courseTitle: string;
  indosNo: string | null;
};

const details = {
  certificate: certificates,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  courseTitle: courses.title,
  indosNo: profiles.indosNo,
};

function withDetails(db: Executor) {
  return db
    .select(details)
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.userId))
    .innerJoin(courses, eq(courses.id, certificates.courseId))
    .leftJoin(profiles, eq(profiles.userId, certificates.userId));
}

type TDetailsRow = { certificate: TCertificateRow } & Omit<TCertificateDetails, keyof TCertificateRow>;
const flatten = ({ certificate, ...rest }: TDetailsRow): TCertificateDetails => ({ ...certificate, ...rest });

export async function findDetailsById(db: Executor, id: string): Promise<TCertificateDetails | undefined> {
  const [row] = await withDetails(db).where(eq(certificates.id, id));
  return row && flatten(row);
}

/** Another certificate named beside one (the one that superseded it, or the one it renews). */
export type TCertificateLink = { number: string; courseTitle: string };

/**
 * A certificate with everything its states and answers name: its course and holder's account,
 * the certificates it links to, its course's refresher and whether the holder has asked to enrol in it.
 */
export type TLinkedCertificate = TCertificateRow & {
  courseTitle: string;
  email: string;
  firstName: string;
  lastName: string;
  supersededBy: TCertificateLink | null;
  renews: TCertificateLink | null;
  refresher: { courseId: string; title: string; enrolled: boolean } | null;
};

const successor = alias(certificates, 'successor');
const successorCourse = alias(courses, 'successor_course');
const renewed = alias(certificates, 'renewed');
const renewedCourse = alias(courses, 'renewed_course');
const refresherCourse = alias(courses, 'refresher_course');

/** A pending or approved enrolment of the certificate's holder in its course's refresher. */
const refresherEnrolled = sql<boolean>`exists (${sql`select 1 from ${enrolments} where ${and(
  eq(enrolments.userId, certificates.userId),
  eq(enrolments.courseId, courses.refresherCourseId),
  inArray(enrolments.status, ['pending', 'approved']),
)}`})`;

/** One query, however many certificates `where` matches: every link is a join. */
async function findLinked(db: Executor, where: SQL | undefined, order: 'issued' | 'none' = 'issued'): Promise<TLinkedCertificate[]> {
  const query = db
    .select({
      certificate: certificates,
      courseTitle: courses.title,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      supersededByNumber: successor.number,
      supersededByCourseTitle: successorCourse.title,
      renewsNumber: renewed.number,
      renewsCourseTitle: renewedCourse.title,
      refresherCourseId: refresherCourse.id,
      refresherTitle: refresherCourse.title,
      refresherEnrolled,
    })
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.userId))
    .innerJoin(courses, eq(courses.id, certificates.courseId))
    .leftJoin(successor, eq(successor.id, certificates.supersededById))
    .leftJoin(successorCourse, eq(successorCourse.id, successor.courseId))
    .leftJoin(renewed, eq(renewed.id, certificates.renewsId))
    .leftJoin(renewedCourse, eq(renewedCourse.id, renewed.courseId))
    .leftJoin(refresherCourse, eq(refresherCourse.id, courses.refresherCourseId))
    .where(where);
  const rows = order === 'issued' ? await query.orderBy(asc(certificates.issuedAt), asc(certificates.id)) : await query;
  return rows.map((row) => ({
    ...row.certificate,
    courseTitle: row.courseTitle,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    supersededBy: row.supersededByNumber ? { number: row.supersededByNumber, courseTitle: row.supersededByCourseTitle ?? '' } : null,
    renews: row.renewsNumber ? { number: row.renewsNumber, courseTitle: row.renewsCourseTitle ?? '' } : null,
    refresher: row.refresherCourseId ? { courseId: row.refresherCourseId, title: row.refresherTitle ?? '', enrolled: Boolean(row.refresherEnrolled) } : null,
  }));
}

/** A learner's certificates (of one course, when given) with their links, oldest first. */
export function findLinkedOfLearner(db: Executor, userId: string, courseId?: string): Promise<TLinkedCertificate[]> {
  return findLinked(db, and(eq(certificates.userId, userId), courseId === undefined ? undefined : eq(certificates.courseId, courseId)));
}

export async function findLinkedByNumber(db: Executor, number: string): Promise<TLinkedCertificate | undefined> {
  const [row] = await findLinked(db, eq(certificates.number, number), 'none');
  return row;
}

/** The certificates of `ids` with their links, in no particular order. */
export function findLinkedByIds(db: Executor, ids: readonly string[]): Promise<TLinkedCertificate[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return findLinked(db, inArray(certificates.id, [...ids]), 'none');
}

/** The latest expiry reminder of each of `ids` that has one. */
export async function findLatestReminders(db: Executor, ids: readonly string[]): Promise<Map<string, { daysBefore: number; at: Date }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([certificateReminders.certificateId], {
      certificateId: certificateReminders.certificateId,
      daysBefore: certificateReminders.daysBefore,
      at: certificateReminders.createdAt,
    })
    .from(certificateReminders)
    .where(inArray(certificateReminders.certificateId, [...ids]))
    .orderBy(certificateReminders.certificateId, desc(certificateReminders.createdAt), asc(certificateReminders.daysBefore));
  return new Map(rows.map((row) => [row.certificateId, { daysBefore: row.daysBefore, at: row.at }]));
}

/** A learner's certificates with their course titles, oldest first. */
export async function findOfLearner(db: Executor, userId: string, courseId?: string): Promise<Array<TCertificateRow & { courseTitle: string }>> {
  const rows = await db
    .select({ certificate: certificates, courseTitle: courses.title })
    .from(certificates)
    .innerJoin(courses, eq(courses.id, certificates.courseId))
    .where(and(eq(certificates.userId, userId), courseId === undefined ? undefined : eq(certificates.courseId, courseId)))
    .orderBy(asc(certificates.issuedAt), asc(certificates.id));
  return rows.map(({ certificate, courseTitle }) => ({ ...certificate, courseTitle }));
}

/** A learner's certificate for a course (there is at most one). */
export async function findOfLearnerForCourse(db: Executor, userId: string, courseId: string): Promise<TCertificateRow | undefined> {
  const [row] = await db
    .select()
    .from(certificates)
    .where(and(eq(certificates.userId, userId), eq(certificates.courseId, courseId)));
  return row;
}

/** The next certificate serial; every call gets a different one, without a lock. */
export async function nextSerial(tx: Executor): Promise<number> {
  const sequence = sql.raw(`'${certificateNumberSeq.seqName}'`);
  const [row] = await tx.select({ serial: sql<string>`nextval(${sequence})` }).from(sql`(values (1)) as one`);
  return Number(row!.serial);
}

export type TNewCertificate = Pick<
  typeof certificates.$inferInsert,
  | 'userId'
  | 'courseId'
  | 'attemptId'
  | 'number'
  | 'verificationCode'
  | 'holderName'
  | 'holderDateOfBirth'
  | 'holderIndosNo'
  | 'holderPassportNumber'
  | 'holderCdcNumber'
  | 'courseCode'
  | 'approvalNumber'
  | 'validUntil'
>;

/** A pending certificate; nothing comes back when the learner already has one for the course. */
export async function insertPending(tx: Executor, values: TNewCertificate): Promise<TCertificateRow | undefined> {
  const [row] = await tx
    .insert(certificates)
    .values({ ...values, status: 'pending' })
    .onConflictDoNothing({ target: [certificates.userId, certificates.courseId] })
    .returning();
  return row;
}

export async function findById(db: Executor, id: string): Promise<TCertificateRow | undefined> {
  const [row] = await db.select().from(certificates).where(eq(certificates.id, id));
  return row;
}

export async function findByPdfFile(db: Executor, pdfFile: string): Promise<TCertificateRow | undefined> {
  const [row] = await db.select().from(certificates).where(eq(certificates.pdfFile, pdfFile));
  return row;
}

/**
 * Gives the certificate its PDF's name, once: the first caller's name stands and comes back to
 * every later caller, so a retried render writes the same file.
 */
export async function claimPdfFile(db: Executor, id: string, name: string): Promise<string | undefined> {
  const [claimed] = await db
    .update(certificates)
    .set({ pdfFile: name, updatedAt: new Date() })
    .where(and(eq(certificates.id, id), isNull(certificates.pdfFile)))
    .returning({ pdfFile: certificates.pdfFile });
  if (claimed?.pdfFile) return claimed.pdfFile;
  return (await findById(db, id))?.pdfFile ?? undefined;
}

/** Marks the PDF ready; nothing comes back when it already was (the caller then queues nothing). */
export async function markReady(tx: Executor, id: string): Promise<boolean> {
  const rows = await tx
    .update(certificates)
    .set({ status: 'ready', updatedAt: new Date() })
    .where(and(eq(certificates.id, id), ne(certificates.status, 'ready'), isNotNull(certificates.pdfFile)))
    .returning({ id: certificates.id });
  return rows.length > 0;
}

/** The render failed for good; a PDF already ready stays ready. */
export async function markFailed(db: Executor, id: string): Promise<void> {
  await db
    .update(certificates)
    .set({ status: 'failed', updatedAt: new Date() })
    .where(and(eq(certificates.id, id), ne(certificates.status, 'ready')));
}

/** Revokes a certificate not yet revoked; nothing comes back when there is none such. */
export async function revoke(
  db: Executor,
  id: string,
  revocation: { by: string; reason: string | null },
): Promise<TCertificateRow | undefined> {
  const [row] = await db
    .update(certificates)
    .set({ revokedAt: sql`now()`, revokedBy: revocation.by, revokeReason: revocation.reason, updatedAt: new Date() })
    .where(and(eq(certificates.id, id), isNull(certificates.revokedAt)))
    .returning();
  return row;
}

/** Every PDF name rows point to, the current versions' and the earlier ones' (the sweep keeps these files). */
export async function findPdfFileNames(db: Executor): Promise<Set<string>> {
  const [current, earlier] = await Promise.all([
    db.select({ pdfFile: certificates.pdfFile }).from(certificates).where(isNotNull(certificates.pdfFile)),
    db.select({ pdfFile: certificateVersions.pdfFile }).from(certificateVersions).where(isNotNull(certificateVersions.pdfFile)),
  ]);
  return new Set([...current, ...earlier].map((row) => row.pdfFile!));
}

/** The certificates of a course issued in [from, to), with their holders, oldest first. */
export async function findDetailsIssuedBetween(db: Executor, courseId: string, from: Date, to: Date): Promise<TCertificateDetails[]> {
  const rows = await withDetails(db)
    .where(and(eq(certificates.courseId, courseId), gte(certificates.issuedAt, from), lt(certificates.issuedAt, to)))
    .orderBy(asc(certificates.issuedAt), asc(certificates.id));
  return rows.map(flatten);
}

/**
 * The learner's live (neither revoked nor superseded) certificates of `courseIds` become
 * superseded by `byId`, which renews them; their ids come back.
 */
export async function supersedeLive(tx: Executor, userId: string, courseIds: string[], byId: string): Promise<string[]> {
  if (courseIds.length === 0) return [];
  const rows = await tx
    .update(certificates)
    .set({ supersededAt: sql`now()`, supersededById: byId, updatedAt: new Date() })
    .where(
      and(
        eq(certificates.userId, userId),
        inArray(certificates.courseId, courseIds),
        isNull(certificates.revokedAt),
        isNull(certificates.supersededAt),
        ne(certificates.id, byId),
      ),
    )
    .returning({ id: certificates.id, issuedAt: certificates.issuedAt });
  return rows.sort((a, b) => b.issuedAt.getTime() - a.issuedAt.getTime()).map((row) => row.id);
}

export async function setRenews(tx: Executor, id: string, renewsId: string): Promise<void> {
  await tx.update(certificates).set({ renewsId, updatedAt: new Date() }).where(eq(certificates.id, id));
}

// ---------------------------------------------------------------------------------------------
// Versions: a re-issue keeps the version it replaces

/** The certificate's row, locked until the transaction ends (a re-issue reads and replaces it). */
export async function lockById(tx: Executor, id: string): Promise<TCertificateRow | undefined> {
  const [row] = await tx.select().from(certificates).where(eq(certificates.id, id)).for('update');
  return row;
}

export type TCertificateVersionRow = typeof certificateVersions.$inferSelect;

export async function insertVersion(tx: Executor, values: typeof certificateVersions.$inferInsert): Promise<void> {
  await tx.insert(certificateVersions).values(values);
}

/** What a re-issue changes on the certificate's row: its version, code, holder and PDF (to be rendered). */
export type TReissue = Pick<
  typeof certificates.$inferInsert,
  'version' | 'verificationCode' | 'holderName' | 'holderDateOfBirth' | 'holderIndosNo' | 'holderPassportNumber' | 'holderCdcNumber'
>;

export async function replaceVersion(tx: Executor, id: string, values: TReissue): Promise<TCertificateRow> {
  const [row] = await tx
    .update(certificates)
    .set({ ...values, pdfFile: null, status: 'pending', reissuedAt: sql`now()`, updatedAt: new Date() })
    .where(eq(certificates.id, id))
    .returning();
  return row!;
}

/** The earlier versions of a certificate, oldest first. */
export function findVersionsOf(db: Executor, certificateId: string): Promise<TCertificateVersionRow[]> {
  return db.select().from(certificateVersions).where(eq(certificateVersions.certificateId, certificateId)).orderBy(asc(certificateVersions.version));
}

/** The earlier version whose PDF has this name, with its certificate as it is now. */
export async function findVersionByPdfFile(db: Executor, pdfFile: string): Promise<{ version: number; certificate: TCertificateRow } | undefined> {
  const [row] = await db
    .select({ version: certificateVersions.version, certificate: certificates })
    .from(certificateVersions)
    .innerJoin(certificates, eq(certificates.id, certificateVersions.certificateId))
    .where(eq(certificateVersions.pdfFile, pdfFile));
  return row;
}
