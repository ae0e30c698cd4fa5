import type { TRole, TSecondFactorState } from '../../shared/constants.ts';
import { MESSAGES } from '../../shared/messages.ts';
import { staffMay, type TStaffPermission, type TStaffRole } from '../../shared/staff-roles.ts';

/**
 * The caller behind a request, as the session check (modules/users/session.service.ts) reads it
 * from the database on every authenticated call. Both edges, tRPC and REST, hand it to services.
 */
export type TSessionUser = {
  id: string;
  email: string;
  name: string;
  role: TRole;
  /** What a member of staff may do (role 'admin'); null for a learner. Decision 067. */
  staffRole: TStaffRole | null;
  verified: boolean;
  approved: boolean;
  /** The session (refresh-token family) the call came with; what ends it ends its stream passes too. */
  sessionId?: string;
  /** How the session's sign-in met the second factor, as its access token says; null before any. */
  secondFactor: TSecondFactorState | null;
};

/**
 * A member of staff acting, as the audit trail records them: who, with which role, from where.
 * Built per request from the caller and the request's address.
 */
export type TStaffActor = { id: string; name: string; staffRole: TStaffRole; address: string };

/** The actor behind a staff call (the guard has made sure the caller is staff). */
export function staffActor(user: TSessionUser, address: string): TStaffActor {
  if (!user.staffRole) throw new Error('staffActor: the caller is not a member of staff');
  return { id: user.id, name: user.name, staffRole: user.staffRole, address };
}

/**
 * Why a signed-in caller may not use a staff permission, or null when they may (decision 067): a
 * learner, a member of staff whose session has not met the second factor, or whose role lacks it.
 * Both edges, tRPC procedures and REST routes, ask this one question.
 */
export function staffRefusal(user: TSessionUser, permission: TStaffPermission): string | null {
  if (user.role !== 'admin' || !user.staffRole) return MESSAGES.common.forbidden;
  if (!user.secondFactor) return MESSAGES.common.secondFactorNeeded;
  if (!staffMay(user.staffRole, permission)) return MESSAGES.common.notForYourRole;
  return null;
}
