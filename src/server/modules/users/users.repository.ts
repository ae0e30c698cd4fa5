import { and, count, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { refreshTokens, users } from '../../db/schema.ts';

/**
 * The caller's account as the session check needs it, and when the session (refresh-token family)
 * the token names ends: the last expiry of its tokens not revoked, or null once none is left (and
 * null when no session is named). One round trip.
 */
export async function findSessionUser(db: Executor, id: string, familyId: string | undefined, at: Date) {
  const endsAt = familyId
    ? sql<number | null>`(select extract(epoch from max(${refreshTokens.expiresAt})) * 1000 from ${refreshTokens} where ${refreshTokens.familyId} = ${familyId} and ${refreshTokens.revokedAt} is null and ${refreshTokens.expiresAt} > ${at.toISOString()}::timestamptz)`.mapWith(Number)
    : sql<number | null>`null`;
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      staffRole: users.staffRole,
      deactivatedAt: users.deactivatedAt,
      verifiedAt: users.verifiedAt,
      approvedAt: users.approvedAt,
      sessionEndsAt: endsAt,
    })
    .from(users)
    .where(eq(users.id, id));
  return row;
}

const reviewColumns = {
  id: users.id,
  title: users.title,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  mobile: users.mobile,
  verifiedAt: users.verifiedAt,
  approvedAt: users.approvedAt,
  createdAt: users.createdAt,
};
export type TReviewRow = { [K in keyof typeof reviewColumns]: (typeof users.$inferSelect)[K] };

/** Learners waiting for approval who have verified their e-mail, newest registration first. */
function awaitingApproval() {
  return and(eq(users.role, 'learner'), isNull(users.approvedAt), isNotNull(users.verifiedAt));
}

function approvedLearners() {
  return and(eq(users.role, 'learner'), isNotNull(users.approvedAt));
}

async function pageOf(db: Executor, where: SQL | undefined, order: SQL[], page: { limit: number; offset: number }) {
  const [rows, [counted]] = await Promise.all([
    db
      .select(reviewColumns)
      .from(users)
      .where(where)
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

export function findAwaitingApproval(db: Executor, page: { limit: number; offset: number }) {
  return pageOf(db, awaitingApproval(), [desc(users.createdAt), desc(users.id)], page);
}

/** Approved learners, most recently approved first. */
export function findApproved(db: Executor, page: { limit: number; offset: number }) {
  return pageOf(db, approvedLearners(), [desc(users.approvedAt), desc(users.id)], page);
}

export async function findLearnerForReview(db: Executor, id: string): Promise<TReviewRow | undefined> {
  const [row] = await db
    .select(reviewColumns)
    .from(users)
    .where(and(eq(users.id, id), eq(users.role, 'learner')));
  return row;
}

/** Approves a learner once; an approval already given keeps its first date and approver. */
export async function markApproved(db: Executor, id: string, approvedBy: string, at: Date): Promise<TReviewRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ approvedAt: at, approvedBy })
    .where(and(eq(users.id, id), eq(users.role, 'learner'), isNull(users.approvedAt)))
    .returning(reviewColumns);
  return row;
}
