import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { certificateNumberSeq, certificates, courses, profiles, users } from '../../db/schema.ts';

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

export async function findDetailsByNumber(db: Executor, number: string): Promise<TCertificateDetails | undefined> {
  const [row] = await withDetails(db).where(eq(certificates.number, number));
  return row && flatten(row);
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

/** Every PDF name rows point to (the sweep keeps these files). */
export async function findPdfFileNames(db: Executor): Promise<Set<string>> {
  const rows = await db.select({ pdfFile: certificates.pdfFile }).from(certificates).where(isNotNull(certificates.pdfFile));
  return new Set(rows.map((row) => row.pdfFile!));
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
