import { and, asc, desc, eq, gt, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { auditEntries } from '../../db/schema.ts';

export type TAuditRow = typeof auditEntries.$inferSelect;
export type TAuditInsert = Omit<typeof auditEntries.$inferInsert, 'seq'>;

/**
 * Holds the chain's head for the rest of the transaction: audited transactions append one after
 * another, each after the previous one's COMMIT (or ROLLBACK), so every entry links to the entry
 * committed before it.
 */
export async function lockChainHead(db: Executor): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('audit_entries'))`);
}

/** The hash of the last entry, or undefined before the first. */
export async function findHeadHash(db: Executor): Promise<string | undefined> {
  const [row] = await db.select({ hash: auditEntries.hash }).from(auditEntries).orderBy(desc(auditEntries.seq)).limit(1);
  return row?.hash;
}

export async function insertEntry(db: Executor, entry: TAuditInsert): Promise<TAuditRow> {
  const [row] = await db.insert(auditEntries).values(entry).returning();
  return row!;
}

/** The entries after `afterSeq`, in the chain's order, a batch at a time. */
export function findEntriesAfter(db: Executor, afterSeq: number, limit: number): Promise<TAuditRow[]> {
  return db.select().from(auditEntries).where(gt(auditEntries.seq, afterSeq)).orderBy(asc(auditEntries.seq)).limit(limit);
}

/** Every entry that names the user as the learner it concerns or as the one who acted, oldest first. */
export function findEntriesConcerning(db: Executor, userId: string): Promise<TAuditRow[]> {
  return db
    .select()
    .from(auditEntries)
    .where(or(eq(auditEntries.learnerId, userId), eq(auditEntries.actorId, userId)))
    .orderBy(asc(auditEntries.seq));
}

/** What the search filters by; `before` is the keyset cursor (newest first: at, then seq). */
export type TEntryFilter = {
  actorId?: string | undefined;
  action?: string | undefined;
  learnerId?: string | undefined;
  /** From this instant (inclusive) to `until` (exclusive). */
  since?: Date | undefined;
  until?: Date | undefined;
  before?: { at: Date; seq: number } | undefined;
};

/**
 * A page of the trail, newest first. Each filter has its index, ordered by (its column, at), so
 * the page is read from the index's end whatever the trail's size; seq breaks ties of `at`.
 */
export function findEntries(db: Executor, filter: TEntryFilter, limit: number): Promise<TAuditRow[]> {
  const conditions: SQL[] = [];
  if (filter.actorId) conditions.push(eq(auditEntries.actorId, filter.actorId));
  if (filter.action) conditions.push(eq(auditEntries.action, filter.action));
  if (filter.learnerId) conditions.push(eq(auditEntries.learnerId, filter.learnerId));
  if (filter.since) conditions.push(gte(auditEntries.at, filter.since));
  if (filter.until) conditions.push(lt(auditEntries.at, filter.until));
  if (filter.before) {
    // The row comparison keeps the index's range on `at` and pages past equal instants by seq.
    conditions.push(sql`(${auditEntries.at}, ${auditEntries.seq}) < (${filter.before.at.toISOString()}::timestamptz, ${filter.before.seq})`);
    conditions.push(sql`${auditEntries.at} <= ${filter.before.at.toISOString()}::timestamptz`);
  }
  return db
    .select()
    .from(auditEntries)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(auditEntries.at), desc(auditEntries.seq))
    .limit(limit);
}

/** The entries about one thing (a certificate's), oldest first. */
export function findEntriesOfSubject(db: Executor, subjectType: string, subjectId: string, limit: number): Promise<TAuditRow[]> {
  return db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.subjectType, subjectType), eq(auditEntries.subjectId, subjectId)))
    .orderBy(asc(auditEntries.seq))
    .limit(limit);
}

/**
 * Everyone who appears in the trail as its actor, with the name and role of their latest entry:
 * a skip through the actor index (one probe per person), however many entries each has.
 */
export async function findActors(db: Executor, limit: number): Promise<Array<{ id: string; name: string | null; role: string | null }>> {
  const result = await db.execute<{ id: string; name: string | null; role: string | null }>(sql`
    with recursive actors(id) as (
      (select actor_id from audit_entries where actor_id is not null order by actor_id limit 1)
      union all
      select (select e.actor_id from audit_entries e where e.actor_id > actors.id order by e.actor_id limit 1)
      from actors where actors.id is not null
    )
    select actors.id::text as id, latest.actor_name as name, latest.actor_role as role
    from actors
    cross join lateral (
      select actor_name, actor_role from audit_entries e where e.actor_id = actors.id order by e.at desc limit 1
    ) latest
    where actors.id is not null
    order by latest.actor_name nulls last
    limit ${limit}
  `);
  return typeof result === 'object' && result !== null && 'rows' in result ? (result.rows as Array<{ id: string; name: string | null; role: string | null }>) : (result as unknown as Array<{ id: string; name: string | null; role: string | null }>);
}
