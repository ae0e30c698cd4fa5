import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { containsPattern, prefixPattern } from '../../db/like-patterns.ts';
import { certificates, courses, profiles, users } from '../../db/schema.ts';
import type { TStateCondition } from './certificate-state.ts';

/*
 * The administrators' certificate list and the regulator's batch. Which rows are in a state is
 * decided by `stateCondition` (certificate-state.ts); this file only writes that data as SQL.
 */

/** What the list is narrowed by: a search term, a course, and conditions every row must meet. */
export type TCertificateListFilters = {
  search?: string | undefined;
  courseId?: string | undefined;
  conditions: TStateCondition[];
};

/**
 * A state condition as SQL. The state rule reads revoked before superseded, so a superseded row
 * is one that is not also revoked; `live` rows are neither.
 */
function conditionSql(condition: TStateCondition): SQL | undefined {
  switch (condition.kind) {
    case 'revoked':
      return isNotNull(certificates.revokedAt);
    case 'superseded':
      return and(isNull(certificates.revokedAt), isNotNull(certificates.supersededAt));
    case 'live': {
      const dated = and(
        condition.validUntilFrom === undefined ? isNotNull(certificates.validUntil) : gte(certificates.validUntil, condition.validUntilFrom),
        condition.validUntilTo === undefined ? undefined : lte(certificates.validUntil, condition.validUntilTo),
      );
      return and(isNull(certificates.revokedAt), isNull(certificates.supersededAt), condition.orNoExpiry ? or(dated, isNull(certificates.validUntil)) : dated);
    }
  }
}

/**
 * Certificates whose holder's account name or e-mail contains the term (the users' trigram index),
 * whose profile's name contains it or profile's INDOS starts with it (the profiles' indexes), or
 * whose own printed name contains it, printed INDOS starts with it, or number contains it; case
 * does not matter. Terms are matched as typed, LIKE's wildcards taken literally.
 */
function searchSql(db: Executor, term: string): SQL {
  const lower = term.toLowerCase();
  const contains = containsPattern(lower);
  const prefix = prefixPattern(lower);
  const byAccount = db.select({ id: users.id }).from(users).where(sql`${users.searchText} like ${contains}`);
  const byProfile = db
    .select({ id: profiles.userId })
    .from(profiles)
    .where(or(sql`lower(${profiles.name}) like ${contains}`, sql`lower(${profiles.indosNo}) like ${prefix}`));
  return or(
    inArray(certificates.userId, byAccount),
    inArray(certificates.userId, byProfile),
    sql`lower(${certificates.holderName}) like ${contains}`,
    sql`lower(${certificates.holderIndosNo}) like ${prefix}`,
    sql`lower(${certificates.number}) like ${contains}`,
  )!;
}

function filtersSql(db: Executor, filters: TCertificateListFilters): SQL | undefined {
  const search = filters.search?.trim();
  return and(
    search ? searchSql(db, search) : undefined,
    filters.courseId === undefined ? undefined : eq(certificates.courseId, filters.courseId),
    ...filters.conditions.map(conditionSql),
  );
}

const newestFirst = [desc(certificates.issuedAt), desc(certificates.id)];

/**
 * One page of the matching certificates' ids, newest issue first, with the number of matches
 * (counted in the same pass). A page past the end has no row to carry the count, so it is
 * counted apart then.
 */
export async function findPageIds(
  db: Executor,
  filters: TCertificateListFilters,
  window: { limit: number; offset: number },
): Promise<{ ids: string[]; total: number }> {
  const where = filtersSql(db, filters);
  const page = await db
    .select({ id: certificates.id, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(certificates)
    .where(where)
    .orderBy(...newestFirst)
    .limit(window.limit)
    .offset(window.offset);
  if (page.length > 0) return { ids: page.map((row) => row.id), total: page[0]!.total };
  return { ids: [], total: await countMatching(db, filters) };
}

export async function countMatching(db: Executor, filters: TCertificateListFilters): Promise<number> {
  const [row] = await db.select({ total: sql<number>`count(*)`.mapWith(Number) }).from(certificates).where(filtersSql(db, filters));
  return row?.total ?? 0;
}

/** The ids of every matching certificate, newest issue first (the CSV's list, fixed when it starts). */
export async function findAllIds(db: Executor, filters: TCertificateListFilters): Promise<string[]> {
  const rows = await db
    .select({ id: certificates.id })
    .from(certificates)
    .where(filtersSql(db, filters))
    .orderBy(...newestFirst);
  return rows.map((row) => row.id);
}

// ---------------------------------------------------------------------------------------------
// The regulator's batch

export type TBatchCourse = { id: string; title: string; code: string | null; approvalNumber: string | null };

export async function findBatchCourse(db: Executor, courseId: string): Promise<TBatchCourse | undefined> {
  const [row] = await db
    .select({ id: courses.id, title: courses.title, code: courses.code, approvalNumber: courses.approvalNumber })
    .from(courses)
    .where(eq(courses.id, courseId));
  return row;
}

/** A completion as it was printed: the holder's snapshot and the course terms it was issued with. */
export type TBatchCertificate = {
  id: string;
  userId: string;
  number: string;
  issuedAt: Date;
  validUntil: string | null;
  holderName: string;
  holderDateOfBirth: string | null;
  holderIndosNo: string | null;
  holderPassportNumber: string | null;
  holderCdcNumber: string | null;
  holderVerifiedByName: string | null;
  holderVerifiedAt: Date | null;
  courseCode: string | null;
  approvalNumber: string | null;
};

/**
 * A course's certificates issued from `from` up to (not including) `to` that are not revoked,
 * in order of issue and then number: the same rows in the same order however often it is read
 * (the number is unique). The course's index on (course, issue) serves it.
 */
export function findIssuedNotRevoked(db: Executor, courseId: string, from: Date, to: Date): Promise<TBatchCertificate[]> {
  return db
    .select({
      id: certificates.id,
      userId: certificates.userId,
      number: certificates.number,
      issuedAt: certificates.issuedAt,
      validUntil: certificates.validUntil,
      holderName: certificates.holderName,
      holderDateOfBirth: certificates.holderDateOfBirth,
      holderIndosNo: certificates.holderIndosNo,
      holderPassportNumber: certificates.holderPassportNumber,
      holderCdcNumber: certificates.holderCdcNumber,
      holderVerifiedByName: certificates.holderVerifiedByName,
      holderVerifiedAt: certificates.holderVerifiedAt,
      courseCode: certificates.courseCode,
      approvalNumber: certificates.approvalNumber,
    })
    .from(certificates)
    .where(and(eq(certificates.courseId, courseId), gte(certificates.issuedAt, from), lt(certificates.issuedAt, to), isNull(certificates.revokedAt)))
    .orderBy(asc(certificates.issuedAt), asc(certificates.number));
}
