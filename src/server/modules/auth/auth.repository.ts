import type { TSecondFactorState } from '../../../shared/constants.ts';
import { and, desc, eq, gt, gte, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { adminSetupTokens, oneTimePasswords, refreshTokens, users } from '../../db/schema.ts';

export type TOtpPurpose = (typeof oneTimePasswords.$inferSelect)['purpose'];

const account = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  role: users.role,
  staffRole: users.staffRole,
  deactivatedAt: users.deactivatedAt,
  passwordHash: users.passwordHash,
  verifiedAt: users.verifiedAt,
  approvedAt: users.approvedAt,
};
export type TAccount = { [K in keyof typeof account]: (typeof users.$inferSelect)[K] };

// Accounts.

export async function findAccountByEmail(db: Executor, email: string): Promise<TAccount | undefined> {
  const [row] = await db.select(account).from(users).where(eq(users.email, email));
  return row;
}

export async function findAccountById(db: Executor, id: string): Promise<TAccount | undefined> {
  const [row] = await db.select(account).from(users).where(eq(users.id, id));
  return row;
}

/** Inserts an account unless the e-mail is taken; undefined when it was. */
export async function insertAccount(
  db: Executor,
  values: Pick<typeof users.$inferInsert, 'title' | 'firstName' | 'lastName' | 'mobile' | 'email' | 'passwordHash'> &
    Partial<Pick<typeof users.$inferInsert, 'role' | 'staffRole' | 'verifiedAt' | 'approvedAt'>>,
): Promise<TAccount | undefined> {
  const [row] = await db.insert(users).values(values).onConflictDoNothing({ target: users.email }).returning(account);
  return row;
}

export async function markVerified(db: Executor, userId: string, at: Date): Promise<void> {
  await db
    .update(users)
    .set({ verifiedAt: at })
    .where(and(eq(users.id, userId), isNull(users.verifiedAt)));
}

export async function setPasswordHash(db: Executor, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

export async function anyAdminExists(db: Executor): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
  return row !== undefined;
}

/** Makes an existing account a verified, approved administrator with the given password. */
export async function promoteToAdmin(db: Executor, userId: string, passwordHash: string, at: Date): Promise<void> {
  await db
    .update(users)
    .set({
      role: 'admin',
      staffRole: 'owner',
      passwordHash,
      // postgres.js takes dates in raw SQL only as text.
      verifiedAt: sql`coalesce(${users.verifiedAt}, ${at.toISOString()}::timestamptz)`,
      approvedAt: sql`coalesce(${users.approvedAt}, ${at.toISOString()}::timestamptz)`,
    })
    .where(eq(users.id, userId));
}

// One-time passwords.

export type TOtpRow = typeof oneTimePasswords.$inferSelect;

/** Ends every live code of this purpose: only the newest code sent may be used. */
export async function voidLiveCodes(db: Executor, userId: string, purpose: TOtpPurpose, at: Date): Promise<void> {
  await db
    .update(oneTimePasswords)
    .set({ voidedAt: at })
    .where(
      and(
        eq(oneTimePasswords.userId, userId),
        eq(oneTimePasswords.purpose, purpose),
        isNull(oneTimePasswords.consumedAt),
        isNull(oneTimePasswords.voidedAt),
      ),
    );
}

export async function insertCode(
  db: Executor,
  values: { userId: string; purpose: TOtpPurpose; codeHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(oneTimePasswords).values(values);
}

/** A code that may still be tried: not used, not replaced, not expired, tries left. */
function live(at: Date, maxFailures: number) {
  return and(
    isNull(oneTimePasswords.consumedAt),
    isNull(oneTimePasswords.voidedAt),
    gt(oneTimePasswords.expiresAt, at),
    lt(oneTimePasswords.failedAttempts, maxFailures),
  );
}

export async function findLiveCode(
  db: Executor,
  userId: string,
  purpose: TOtpPurpose,
  at: Date,
  maxFailures: number,
): Promise<TOtpRow | undefined> {
  const [row] = await db
    .select()
    .from(oneTimePasswords)
    .where(and(eq(oneTimePasswords.userId, userId), eq(oneTimePasswords.purpose, purpose), live(at, maxFailures)))
    .orderBy(desc(oneTimePasswords.createdAt))
    .limit(1);
  return row;
}

/** Counts a wrong try against a live code; the count reached, or undefined if it was no longer live. */
export async function recordWrongCode(
  db: Executor,
  id: string,
  at: Date,
  maxFailures: number,
): Promise<number | undefined> {
  const [row] = await db
    .update(oneTimePasswords)
    .set({ failedAttempts: sql`${oneTimePasswords.failedAttempts} + 1` })
    .where(and(eq(oneTimePasswords.id, id), live(at, maxFailures)))
    .returning({ failedAttempts: oneTimePasswords.failedAttempts });
  return row?.failedAttempts;
}

/**
 * Uses a live code. The condition and the write are one statement, so of two requests presenting
 * the same code at once exactly one gets the row back.
 */
export async function consumeCode(db: Executor, id: string, at: Date, maxFailures: number): Promise<boolean> {
  const rows = await db
    .update(oneTimePasswords)
    .set({ consumedAt: at })
    .where(and(eq(oneTimePasswords.id, id), live(at, maxFailures)))
    .returning({ id: oneTimePasswords.id });
  return rows.length === 1;
}

// Refresh tokens.

export type TRefreshTokenRow = typeof refreshTokens.$inferSelect;

export async function insertRefreshToken(
  db: Executor,
  values: { userId: string; familyId: string; tokenHash: string; expiresAt: Date; secondFactor: TSecondFactorState | null },
): Promise<void> {
  await db.insert(refreshTokens).values(values);
}

export async function findRefreshTokenByHash(db: Executor, tokenHash: string): Promise<TRefreshTokenRow | undefined> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}

/** Marks a token used if nobody has used or revoked it yet; false when someone had. */
export async function claimRefreshToken(db: Executor, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ usedAt: at })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

/** True when a token of the family issued after `createdAt` has been used: its successor was. */
export async function successorWasUsed(db: Executor, row: { id: string; familyId: string; createdAt: Date }): Promise<boolean> {
  const [used] = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.familyId, row.familyId),
        ne(refreshTokens.id, row.id),
        gte(refreshTokens.createdAt, row.createdAt),
        isNotNull(refreshTokens.usedAt),
      ),
    )
    .limit(1);
  return used !== undefined;
}

export async function revokeFamily(db: Executor, familyId: string, at: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

export async function revokeAllForUser(db: Executor, userId: string, at: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

// Administrator set-up links.

export async function voidOpenSetupTokens(db: Executor, at: Date): Promise<void> {
  await db
    .update(adminSetupTokens)
    .set({ voidedAt: at })
    .where(and(isNull(adminSetupTokens.usedAt), isNull(adminSetupTokens.voidedAt)));
}

export async function insertSetupToken(db: Executor, values: { tokenHash: string; expiresAt: Date }): Promise<void> {
  await db.insert(adminSetupTokens).values(values);
}

function usableSetupToken(at: Date) {
  return and(isNull(adminSetupTokens.usedAt), isNull(adminSetupTokens.voidedAt), gt(adminSetupTokens.expiresAt, at));
}

export async function findUsableSetupToken(db: Executor, tokenHash: string, at: Date) {
  const [row] = await db
    .select({ id: adminSetupTokens.id })
    .from(adminSetupTokens)
    .where(and(eq(adminSetupTokens.tokenHash, tokenHash), usableSetupToken(at)));
  return row;
}

/** Uses a set-up link once, whatever races it. */
export async function claimSetupToken(db: Executor, tokenHash: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(adminSetupTokens)
    .set({ usedAt: at })
    .where(and(eq(adminSetupTokens.tokenHash, tokenHash), usableSetupToken(at)))
    .returning({ id: adminSetupTokens.id });
  return rows.length === 1;
}
