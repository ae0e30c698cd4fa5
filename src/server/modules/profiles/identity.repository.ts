import { and, asc, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { prefixPattern } from '../../db/like-patterns.ts';
import { profileIdentityVersions, profiles, users } from '../../db/schema.ts';
import type { TIdentityState } from '../../../shared/identity.ts';

export type TProfileRecord = typeof profiles.$inferSelect;
export type TIdentityVersionInsert = typeof profileIdentityVersions.$inferInsert;
export type TIdentityVersionRow = typeof profileIdentityVersions.$inferSelect;

/** A document number compared as letters and digits only, upper case (the expression the key indexes hold). */
const numberKey = (column: AnyPgColumn) => sql`regexp_replace(upper(${column}), '[^A-Z0-9]', '', 'g')`;

/** The whole profile, locked until the transaction ends. */
export async function lockProfileOfUser(tx: Executor, userId: string): Promise<TProfileRecord | undefined> {
  const [row] = await tx.select().from(profiles).where(eq(profiles.userId, userId)).for('update');
  return row;
}

export type TIdentityUpdate = Pick<TProfileRecord, 'identityState' | 'identityVersion' | 'identityCheckedBy' | 'identityCheckedAt' | 'identityReturnReason'>;

export async function setIdentity(tx: Executor, profileId: string, values: TIdentityUpdate): Promise<void> {
  await tx.update(profiles).set(values).where(eq(profiles.id, profileId));
}

export async function insertIdentityVersion(tx: Executor, values: TIdentityVersionInsert): Promise<void> {
  await tx.insert(profileIdentityVersions).values(values);
}

/** The profile's identity history, newest first. */
export async function findIdentityHistory(db: Executor, profileId: string): Promise<TIdentityVersionRow[]> {
  return db
    .select()
    .from(profileIdentityVersions)
    .where(eq(profileIdentityVersions.profileId, profileId))
    .orderBy(desc(profileIdentityVersions.createdAt), desc(profileIdentityVersions.version));
}

/** The newest version the history holds for the profile, if any. */
export async function findLatestHistoryVersion(db: Executor, profileId: string): Promise<number | undefined> {
  const [row] = await db
    .select({ version: profileIdentityVersions.version })
    .from(profileIdentityVersions)
    .where(eq(profileIdentityVersions.profileId, profileId))
    .orderBy(desc(profileIdentityVersions.version), desc(profileIdentityVersions.createdAt))
    .limit(1);
  return row?.version;
}

/** The values a member of staff last verified for the user, with who and when. */
export async function findLatestVerified(db: Executor, userId: string): Promise<TIdentityVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(profileIdentityVersions)
    .where(and(eq(profileIdentityVersions.userId, userId), eq(profileIdentityVersions.state, 'verified')))
    .orderBy(desc(profileIdentityVersions.version), desc(profileIdentityVersions.createdAt))
    .limit(1);
  return row;
}

/** Other profiles whose INDOS or passport number is the given profile's, compared as letters and digits. */
export async function findDuplicatesOf(db: Executor, profile: Pick<TProfileRecord, 'id' | 'indosNo' | 'passportNumber'>) {
  const indos = sql`${numberKey(profiles.indosNo)} = regexp_replace(upper(${profile.indosNo}), '[^A-Z0-9]', '', 'g')`;
  const passport = sql`${numberKey(profiles.passportNumber)} = regexp_replace(upper(${profile.passportNumber}), '[^A-Z0-9]', '', 'g')`;
  return db
    .select({
      userId: profiles.userId,
      name: profiles.name,
      email: users.email,
      state: profiles.identityState,
      sameIndos: sql<boolean>`${indos}`.mapWith(Boolean),
      samePassport: sql<boolean>`${passport}`.mapWith(Boolean),
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(ne(profiles.id, profile.id), sql`(${indos} or ${passport})`))
    .orderBy(asc(profiles.createdAt));
}

/** For each profile id, how many other profiles share its INDOS and its passport number. */
export async function countDuplicates(db: Executor, ids: readonly string[]): Promise<Map<string, { indosNo: number; passportNumber: number }>> {
  if (ids.length === 0) return new Map();
  const count = (column: 'indos_no' | 'passport_number') =>
    // Spelled out: inside the subquery an unqualified column would name the inner row.
    sql<number>`(select count(*) from profiles as other where other.id <> profiles.id and regexp_replace(upper(other.${sql.raw(column)}), '[^A-Z0-9]', '', 'g') = regexp_replace(upper(profiles.${sql.raw(column)}), '[^A-Z0-9]', '', 'g'))`.mapWith(Number);
  const rows = await db
    .select({ id: profiles.id, indosNo: count('indos_no'), passportNumber: count('passport_number') })
    .from(profiles)
    .where(inArray(profiles.id, [...ids]));
  return new Map(rows.map((row) => [row.id, { indosNo: row.indosNo, passportNumber: row.passportNumber }]));
}

/** The queue's order: awaiting check first (oldest change first), then returned, not verified, verified. */
const QUEUE_RANK = sql`case ${profiles.identityState} when 'awaiting_check' then 0 when 'returned' then 1 when 'unverified' then 2 else 3 end`;

export async function findQueuePage(
  db: Executor,
  query: { state: TIdentityState | undefined; search: string | undefined; limit: number; offset: number },
) {
  const conditions: SQL[] = [];
  if (query.state) conditions.push(eq(profiles.identityState, query.state));
  if (query.search) {
    const pattern = prefixPattern(query.search.toLowerCase());
    conditions.push(
      sql`(lower(${profiles.name}) like ${`%${pattern}`} or lower(${profiles.indosNo}) like ${pattern} or lower(${profiles.passportNumber}) like ${pattern} or ${users.email} like ${pattern})`,
    );
  }
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const rows = await db
    .select({
      id: profiles.id,
      userId: profiles.userId,
      name: profiles.name,
      email: users.email,
      indosNo: profiles.indosNo,
      passportNumber: profiles.passportNumber,
      state: profiles.identityState,
      version: profiles.identityVersion,
      changedAt: profiles.updatedAt,
      checkedAt: profiles.identityCheckedAt,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(where)
    .orderBy(QUEUE_RANK, asc(profiles.updatedAt), asc(profiles.id))
    .limit(query.limit)
    .offset(query.offset);
  let total = rows[0]?.total;
  if (total === undefined) {
    const [counted] = await db
      .select({ total: sql<number>`count(*)`.mapWith(Number) })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(where);
    total = counted?.total ?? 0;
  }
  return { rows, total };
}
