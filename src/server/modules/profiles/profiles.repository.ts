import { count, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias, union, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../../db/client.ts';
import { prefixPattern } from '../../db/like-patterns.ts';
import { profiles, users } from '../../db/schema.ts';

export type TProfileInsert = typeof profiles.$inferInsert;
export type TProfileValues = Omit<TProfileInsert, 'id' | 'userId' | 'createdAt' | 'updatedAt' | 'consentAcceptedAt'>;

/** The member of staff who last checked the profile's identity. */
const checker = alias(users, 'checker');

/** A profile row with its account holder's name and e-mail, and the name of its identity's checker. */
const profileColumns = {
  profile: profiles,
  creator: { firstName: users.firstName, lastName: users.lastName, email: users.email },
  checker: { firstName: checker.firstName, lastName: checker.lastName },
};
export type TProfileRow = {
  profile: typeof profiles.$inferSelect;
  creator: { firstName: string; lastName: string; email: string };
  checker: { firstName: string; lastName: string } | null;
};

function withCreator(db: Executor) {
  return db
    .select(profileColumns)
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoin(checker, eq(checker.id, profiles.identityCheckedBy));
}

export async function findByUserId(db: Executor, userId: string): Promise<TProfileRow | undefined> {
  const [row] = await withCreator(db).where(eq(profiles.userId, userId));
  return row;
}

export async function existsForUser(db: Executor, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, userId));
  return row !== undefined;
}

/** Inserts the user's profile unless they already have one (then undefined). */
export async function insertIfAbsent(db: Executor, values: TProfileInsert): Promise<typeof profiles.$inferSelect | undefined> {
  const [row] = await db.insert(profiles).values(values).onConflictDoNothing({ target: profiles.userId }).returning();
  return row;
}

export type TProfileFileNames = Pick<typeof profiles.$inferSelect, 'profilePictureFile' | 'idDocumentFile' | 'signatureFile'>;

export async function updateByUserId(tx: Executor, userId: string, values: Partial<TProfileValues>): Promise<void> {
  await tx.update(profiles).set(values).where(eq(profiles.userId, userId));
}

export function inTransaction<T>(db: Database, work: (tx: Executor) => Promise<T>): Promise<T> {
  return db.transaction(work);
}


/** Shorter terms have no trigram to look up; they match the start of values only. */
const SUBSTRING_MIN_LENGTH = 3;

/**
 * Ids of profiles whose name, e-mail, INDOS, passport or CDC number starts with the term, or whose
 * name contains it (terms of three letters or more). Each branch is a scan of its own index
 * (lower(...) text_pattern_ops for prefixes, a trigram index for the name); the union removes repeats.
 */
function matchingIds(db: Executor, term: string) {
  const pattern = prefixPattern(term.toLowerCase());
  const byColumn = (column: AnyPgColumn) =>
    db.select({ id: profiles.id }).from(profiles).where(sql`lower(${column}) like ${pattern}`);
  const nameContains = db
    .select({ id: profiles.id })
    .from(profiles)
    .where(sql`lower(${profiles.name}) like ${`%${pattern}`}`);
  return union(
    term.length >= SUBSTRING_MIN_LENGTH ? nameContains : byColumn(profiles.name),
    byColumn(profiles.indosNo),
    byColumn(profiles.passportNumber),
    byColumn(profiles.cdcNumber),
    // E-mails are stored lower-case (a check constraint says so).
    db
      .select({ id: profiles.id })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(sql`${users.email} like ${pattern}`),
  );
}

/**
 * A page of profiles, newest first, optionally only those matching a search term, with the total.
 * The page's ids are found first and only those rows are joined with their account. A search
 * counts its matches in the same pass (count over the matches); the whole list is counted apart,
 * which an index-only scan does faster than counting inside the paging scan.
 */
export async function findPage(
  db: Executor,
  query: { search: string | undefined; limit: number; offset: number },
): Promise<{ rows: TProfileRow[]; total: number }> {
  const where = query.search ? inArray(profiles.id, matchingIds(db, query.search)) : undefined;
  const countAll = async () => (await db.select({ total: count() }).from(profiles).where(where))[0]?.total ?? 0;
  const pageOfIds = db
    .select({ id: profiles.id, total: query.search ? sql<number>`count(*) over ()`.mapWith(Number) : sql<number>`0` })
    .from(profiles)
    .where(where)
    .orderBy(desc(profiles.createdAt), desc(profiles.id))
    .limit(query.limit)
    .offset(query.offset);
  const [page, counted] = await Promise.all([pageOfIds, query.search ? undefined : countAll()]);
  // A page past the end of a search has no row to carry the total.
  const total = counted ?? page[0]?.total ?? (await countAll());
  if (page.length === 0) return { rows: [], total };
  const rows = await withCreator(db)
    .where(inArray(profiles.id, page.map((row) => row.id)))
    .orderBy(desc(profiles.createdAt), desc(profiles.id));
  return { rows, total };
}

const FILE_COLUMNS = {
  profilePictureFile: profiles.profilePictureFile,
  idDocumentFile: profiles.idDocumentFile,
  signatureFile: profiles.signatureFile,
} as const;

/** Every stored file name the profiles point to in one of their file columns. */
export async function findFileNames(db: Executor, column: keyof typeof FILE_COLUMNS): Promise<string[]> {
  const rows = await db.select({ name: FILE_COLUMNS[column] }).from(profiles);
  return rows.map((row) => row.name);
}

/** An account with its profile's name and documents, if it has a profile (a certificate's holder). */
export async function findHolder(db: Executor, userId: string) {
  const [row] = await db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      approvedAt: users.approvedAt,
      identityState: profiles.identityState,
      identityCheckedAt: profiles.identityCheckedAt,
      checkerFirstName: checker.firstName,
      checkerLastName: checker.lastName,
      profileName: profiles.name,
      dateOfBirth: profiles.dateOfBirth,
      indosNo: profiles.indosNo,
      passportNumber: profiles.passportNumber,
      cdcNumber: profiles.cdcNumber,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(checker, eq(checker.id, profiles.identityCheckedBy))
    .where(eq(users.id, userId));
  return row;
}
