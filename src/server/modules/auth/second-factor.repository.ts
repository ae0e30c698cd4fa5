import { and, asc, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { recoveryCodes, secondFactors } from '../../db/schema.ts';

export type TFactorRow = typeof secondFactors.$inferSelect;

/** The user's confirmed factors, oldest first. */
export async function findFactors(db: Executor, userId: string): Promise<TFactorRow[]> {
  return db
    .select()
    .from(secondFactors)
    .where(and(eq(secondFactors.userId, userId), isNotNull(secondFactors.confirmedAt)))
    .orderBy(asc(secondFactors.createdAt));
}

/** The user's TOTP factors, confirmed or not, locked for this transaction when asked. */
export async function findTotpFactors(db: Executor, userId: string, forUpdate = false): Promise<TFactorRow[]> {
  const query = db.select().from(secondFactors).where(and(eq(secondFactors.userId, userId), eq(secondFactors.kind, 'totp')));
  return forUpdate ? query.for('update') : query;
}

export async function findPasskeyByCredential(db: Executor, userId: string, credentialId: string): Promise<TFactorRow | undefined> {
  const [row] = await db
    .select()
    .from(secondFactors)
    .where(and(eq(secondFactors.userId, userId), eq(secondFactors.credentialId, credentialId), isNotNull(secondFactors.confirmedAt)))
    .for('update');
  return row;
}

export async function insertFactor(db: Executor, values: typeof secondFactors.$inferInsert): Promise<TFactorRow> {
  const [row] = await db.insert(secondFactors).values(values).returning();
  return row!;
}

/** Drops a pending (unconfirmed) TOTP secret the user started and never confirmed. */
export async function deletePendingTotp(db: Executor, userId: string): Promise<void> {
  await db.delete(secondFactors).where(and(eq(secondFactors.userId, userId), eq(secondFactors.kind, 'totp'), isNull(secondFactors.confirmedAt)));
}

/**
 * Records a TOTP code's step as used, only if it is later than the last one used: false when
 * another sign-in took that step (or a later one) first.
 */
export async function claimTotpStep(db: Executor, factorId: string, step: number, at: Date, confirm: boolean): Promise<boolean> {
  const rows = await db
    .update(secondFactors)
    .set({ totpLastStep: step, lastUsedAt: at, ...(confirm ? { confirmedAt: at } : {}) })
    .where(and(eq(secondFactors.id, factorId), or(isNull(secondFactors.totpLastStep), lt(secondFactors.totpLastStep, step))))
    .returning({ id: secondFactors.id });
  return rows.length === 1;
}

export async function markPasskeyUsed(db: Executor, factorId: string, signCount: number, at: Date): Promise<void> {
  await db.update(secondFactors).set({ signCount, lastUsedAt: at }).where(eq(secondFactors.id, factorId));
}

/** Deletes one of the user's factors; the deleted row, or undefined when it was not theirs. */
export async function deleteFactor(db: Executor, userId: string, factorId: string): Promise<TFactorRow | undefined> {
  const [row] = await db.delete(secondFactors).where(and(eq(secondFactors.id, factorId), eq(secondFactors.userId, userId))).returning();
  return row;
}

/** Deletes every factor and recovery code of the user; how many factors there were. */
export async function deleteAllFactors(db: Executor, userId: string): Promise<number> {
  const rows = await db.delete(secondFactors).where(eq(secondFactors.userId, userId)).returning({ id: secondFactors.id });
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  return rows.length;
}

/** Replaces the user's recovery codes with these hashes. */
export async function replaceRecoveryCodes(db: Executor, userId: string, hashes: string[]): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  if (hashes.length > 0) await db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
}

/** Uses an unused recovery code once: false when there is none with that hash (or it was used). */
export async function useRecoveryCode(db: Executor, userId: string, codeHash: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: at })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length === 1;
}

export async function countUnusedRecoveryCodes(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.count ?? 0;
}
