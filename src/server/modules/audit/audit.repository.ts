import { asc, desc, eq, gt, or, sql } from 'drizzle-orm';
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
