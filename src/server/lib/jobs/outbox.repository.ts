import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { jobOutbox } from '../../db/schema.ts';

export type TOutboxRow = typeof jobOutbox.$inferSelect;

/**
 * Records a job's intent inside the caller's transaction. The same business key twice keeps the
 * first row, so retried requests never queue the work twice. Returns the row's id either way.
 */
export async function insertIntent(
  db: Executor,
  intent: { name: string; businessKey: string; payload: Record<string, unknown> },
): Promise<string> {
  const [inserted] = await db
    .insert(jobOutbox)
    .values(intent)
    .onConflictDoNothing({ target: [jobOutbox.name, jobOutbox.businessKey] })
    .returning({ id: jobOutbox.id });
  if (inserted) return inserted.id;
  const [existing] = await db
    .select({ id: jobOutbox.id })
    .from(jobOutbox)
    .where(and(eq(jobOutbox.name, intent.name), eq(jobOutbox.businessKey, intent.businessKey)));
  if (!existing) throw new Error(`outbox row ${intent.name}/${intent.businessKey} vanished`);
  return existing.id;
}

/**
 * Several intents in one statement, each business key new (a fresh id, say), so none is kept back.
 * Returns each row's id by its business key.
 */
export async function insertIntents(
  db: Executor,
  intents: ReadonlyArray<{ name: string; businessKey: string; payload: Record<string, unknown> }>,
): Promise<Map<string, string>> {
  if (intents.length === 0) return new Map();
  const rows = await db
    .insert(jobOutbox)
    .values([...intents])
    .onConflictDoNothing({ target: [jobOutbox.name, jobOutbox.businessKey] })
    .returning({ id: jobOutbox.id, businessKey: jobOutbox.businessKey });
  return new Map(rows.map((row) => [row.businessKey, row.id]));
}

export async function findById(db: Executor, id: string): Promise<TOutboxRow | undefined> {
  const [row] = await db.select().from(jobOutbox).where(eq(jobOutbox.id, id));
  return row;
}

/** Pending rows created before `olderThan`, oldest first, after the (createdAt, id) cursor. */
export async function findPending(
  db: Executor,
  olderThan: Date,
  limit: number,
  after?: { createdAt: Date; id: string },
): Promise<TOutboxRow[]> {
  return db
    .select()
    .from(jobOutbox)
    .where(
      and(
        eq(jobOutbox.status, 'pending'),
        lt(jobOutbox.createdAt, olderThan),
        after ? sql`(${jobOutbox.createdAt}, ${jobOutbox.id}) > (${after.createdAt}, ${after.id})` : undefined,
      ),
    )
    .orderBy(asc(jobOutbox.createdAt), asc(jobOutbox.id))
    .limit(limit);
}

export async function markDone(db: Executor, id: string): Promise<void> {
  await db
    .update(jobOutbox)
    .set({ status: 'done', processedAt: new Date(), attempts: sql`${jobOutbox.attempts} + 1`, lastError: null })
    .where(eq(jobOutbox.id, id));
}

/**
 * Records a failed try of a row still pending (a run that finished it meanwhile keeps it done);
 * `final` marks the row failed so the reconciler leaves it for a person. False when it was not pending.
 */
export async function recordFailure(db: Executor, id: string, error: string, final: boolean): Promise<boolean> {
  const updated = await db
    .update(jobOutbox)
    .set({
      attempts: sql`${jobOutbox.attempts} + 1`,
      lastError: error.slice(0, 2000),
      ...(final ? { status: 'failed' as const, processedAt: new Date() } : {}),
    })
    .where(and(eq(jobOutbox.id, id), eq(jobOutbox.status, 'pending')))
    .returning({ id: jobOutbox.id });
  return updated.length > 0;
}
