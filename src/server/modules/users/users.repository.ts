import { and, count, desc, eq, gt, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { refreshTokens, users } from '../../db/schema.ts';

/** True while the session (refresh-token family) has a token neither revoked nor expired. */
export async function isSessionLive(db: Executor, familyId: string, at: Date): Promise<boolean> {
  const [live] = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, at)))
    .limit(1);
  return live !== undefined;
}

export async function findSessionUserById(db: Executor, id: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      verifiedAt: users.verifiedAt,
      approvedAt: users.approvedAt,
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
