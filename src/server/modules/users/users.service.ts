import { MESSAGES } from '../../../shared/messages.ts';
import { personName } from '../../../shared/names.ts';
import type {
  TApproveUserResult,
  TUserListItem,
  TUserListQuery,
  TUserPage,
} from '../../../shared/schemas/users.ts';
import { USER_LIST_DEFAULT_PAGE_SIZE } from '../../../shared/schemas/users.ts';
import type { AppDeps } from '../../deps.ts';
import { inBatches, type TWholeList } from '../../lib/whole-list.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { TStaffActor } from '../../lib/session-user.ts';
import { actorOfStaff, recordAudit } from '../audit/audit.service.ts';
import { readPage } from '../../lib/paging.ts';
import { revokeSessionChecks } from './session.service.ts';
import {
  findApproved,
  findAwaitingApproval,
  findLearnerForReview,
  markApproved,
  type TReviewRow,
} from './users.repository.ts';

type Deps = Pick<AppDeps, 'db' | 'logger' | 'accessGrants'>;

function toListItem(row: TReviewRow): TUserListItem {
  return {
    id: row.id,
    title: row.title,
    firstName: row.firstName,
    lastName: row.lastName,
    name: personName(row),
    email: row.email,
    mobile: row.mobile,
    verified: row.verifiedAt !== null,
    registeredAt: row.createdAt.toISOString(),
    approvedAt: row.approvedAt?.toISOString() ?? null,
  };
}

/** Learners who verified their e-mail and wait for an administrator, newest registration first. */
export async function listUnapproved(deps: Deps, query: TUserListQuery): Promise<TUserPage> {
  return readPage(query, USER_LIST_DEFAULT_PAGE_SIZE, (window) => findAwaitingApproval(deps.db, window), toListItem);
}

/** Approved learners, most recently approved first. */
export async function listApproved(deps: Deps, query: TUserListQuery): Promise<TUserPage> {
  return readPage(query, USER_LIST_DEFAULT_PAGE_SIZE, (window) => findApproved(deps.db, window), toListItem);
}

/** How many learners wait for approval (the overview's figure). */
export async function countAwaitingApproval(deps: Pick<AppDeps, 'db'>): Promise<number> {
  return (await findAwaitingApproval(deps.db, { limit: 0, offset: 0 })).total;
}

/** Every learner awaiting approval, in the list's order, a batch at a time (the spec's whole list). */
export async function allUnapproved(deps: Deps): Promise<TWholeList<TUserListItem>> {
  const { total } = await findAwaitingApproval(deps.db, { limit: 0, offset: 0 });
  return { total, batches: inBatches(async (limit, offset) => (await findAwaitingApproval(deps.db, { limit, offset })).rows.map(toListItem)) };
}

/** Every approved learner, in the list's order, a batch at a time. */
export async function allApproved(deps: Deps): Promise<TWholeList<TUserListItem>> {
  const { total } = await findApproved(deps.db, { limit: 0, offset: 0 });
  return { total, batches: inBatches(async (limit, offset) => (await findApproved(deps.db, { limit, offset })).rows.map(toListItem)) };
}

/**
 * Approves a learner's account. Approving twice is harmless (the first approval stands); an
 * administrator's id or an unknown one is not found; an account whose e-mail is unverified cannot
 * be approved, since its owner may not even hold that address.
 */
export async function approveUser(deps: Deps, actor: TStaffActor, userId: string): Promise<TApproveUserResult> {
  const approved = await deps.db.transaction(async (tx) => {
    const learner = await findLearnerForReview(tx, userId);
    if (!learner) throw notFound(MESSAGES.users.notFound);
    if (!learner.verifiedAt) throw new AppError('CONFLICT', MESSAGES.users.notVerified);
    const changed = await markApproved(tx, userId, actor.id, new Date());
    if (!changed) return (await findLearnerForReview(tx, userId)) ?? learner;
    await recordAudit(tx, actorOfStaff(actor), {
      action: 'account.approve',
      subjectType: 'user',
      subjectId: userId,
      learnerId: userId,
      before: { approvedAt: learner.approvedAt },
      after: { approvedAt: changed.approvedAt },
    });
    return changed;
  });
  // The learner's next call is let in as approved.
  await revokeSessionChecks(deps, { userId });
  deps.logger.info({ userId, by: actor.id }, 'user approved');
  return { message: MESSAGES.users.approved, user: toListItem(approved) };
}
