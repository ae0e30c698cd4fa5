import { MESSAGES } from '../../../shared/messages.ts';
import { personName } from '../../../shared/names.ts';
import type {
  TInvitationStatus,
  TStaffInvitation,
  TStaffInviteRequest,
  TStaffJoinRequest,
  TStaffList,
  TStaffMember,
} from '../../../shared/schemas/staff.ts';
import { STAFF_ROLE_LABELS, type TStaffRole } from '../../../shared/staff-roles.ts';
import type { Executor } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { publicBaseUrl } from '../../env.ts';
import { refuseCommonPassword } from '../../lib/common-passwords.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { TJobRef } from '../../lib/jobs/dispatcher.ts';
import { queueMail } from '../../lib/mail/mail.service.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { TStaffActor } from '../../lib/session-user.ts';
import { hashToken, randomToken } from '../../lib/tokens.ts';
import { actorOfStaff, recordAudit } from '../audit/audit.service.ts';
import { endAllSessions } from '../auth/auth.service.ts';
import { revokeSessionChecks } from '../users/session.service.ts';
import {
  claimInvitation,
  findAccountByEmail,
  findOpenInvitations,
  findStaff,
  findUsableInvitation,
  insertInvitation,
  insertStaffAccount,
  lockActiveOwners,
  lockInvitation,
  lockMember,
  markInvitationRevoked,
  renewInvitation,
  revokeExpiredFor,
  setDeactivatedAt,
  setInvitationUser,
  setStaffRole,
  type TInvitationRow,
  type TMemberRow,
} from './staff.repository.ts';

/*
 * The academy's staff (decision 067): the owner invites members by e-mail with a role, changes
 * roles, deactivates and reactivates them. The academy always keeps one active owner: every change
 * that could remove the last one locks the active owners' rows first and counts them, so two owners
 * demoting each other at once cannot both succeed. Each change writes its audit entry in its own
 * transaction; a change to what a member may do ends their kept session checks after the commit.
 *
 * An invitation to an e-mail that already has a learner's account is refused: a learner's account
 * (their profile, enrolments, certificates) never becomes a staff account.
 */

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;
/** The public page the invitation's link opens (the client's paths.staffJoin). */
export const STAFF_JOIN_PATH = '/join-staff';

type Deps = Pick<AppDeps, 'db' | 'env' | 'site' | 'jobs' | 'accessGrants'>;

const S = MESSAGES.staff;

function toMember(row: TMemberRow): TStaffMember {
  return {
    id: row.id,
    name: personName(row),
    email: row.email,
    staffRole: row.staffRole!,
    active: row.deactivatedAt === null,
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
    joinedAt: row.createdAt.toISOString(),
  };
}

function toInvitation(row: TInvitationRow, at: Date): TStaffInvitation {
  return {
    id: row.id,
    email: row.email,
    staffRole: row.staffRole,
    sentAt: row.sentAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    expired: row.expiresAt <= at,
  };
}

/** What the audit trail keeps of an invitation (never its token). */
const invitationRecord = (row: Pick<TInvitationRow, 'email' | 'staffRole' | 'expiresAt'>) => ({
  email: row.email,
  staffRole: row.staffRole,
  expiresAt: row.expiresAt.toISOString(),
});

/** Every member of staff and the open invitations. */
export async function listStaff(deps: Pick<AppDeps, 'db'>): Promise<TStaffList> {
  const at = new Date();
  const [members, invitations] = await Promise.all([findStaff(deps.db), findOpenInvitations(deps.db)]);
  return { members: members.map(toMember), invitations: invitations.map((row) => toInvitation(row, at)) };
}

function invitationMail(tx: Executor, deps: Deps, invitation: { email: string; staffRole: TStaffRole; expiresAt: Date }, token: string, inviter: string): Promise<TJobRef> {
  const role = STAFF_ROLE_LABELS[invitation.staffRole];
  const url = `${publicBaseUrl(deps.env)}${STAFF_JOIN_PATH}?token=${token}`;
  return queueMail(tx, {
    to: invitation.email,
    subject: `${deps.site.name}: you are invited to join the staff`,
    text: [
      'Hello,',
      '',
      `${inviter} invites you to join the staff of ${deps.site.name} as ${role.label}: ${role.description}`,
      '',
      'Open this link to set your name and password:',
      url,
      '',
      `The link works once and expires in ${INVITATION_TTL_MS / (24 * 3600_000)} days.`,
      'If you did not expect it, you can ignore this e-mail.',
      '',
      deps.site.name,
    ].join('\n'),
  });
}

/** Refuses an e-mail that already has an account: a member of staff, or a learner (see above). */
async function refuseExistingAccount(db: Executor, email: string): Promise<void> {
  const account = await findAccountByEmail(db, email);
  if (!account) return;
  const message = account.role === 'admin' ? S.alreadyStaff : S.learnerEmail;
  throw new AppError('CONFLICT', message, { fields: { email: message } });
}

/** Invites an e-mail to join with a role; the mail with its link is queued with the invitation. */
export async function inviteStaff(deps: Deps, actor: TStaffActor, input: TStaffInviteRequest): Promise<TStaffInvitation> {
  const at = new Date();
  const token = randomToken(32);
  const { row, job } = await deps.db.transaction(async (tx) => {
    await refuseExistingAccount(tx, input.email);
    await revokeExpiredFor(tx, input.email, at);
    const row = await insertInvitation(tx, {
      email: input.email,
      staffRole: input.staffRole,
      tokenHash: hashToken(token),
      invitedBy: actor.id,
      sentAt: at,
      expiresAt: new Date(at.getTime() + INVITATION_TTL_MS),
    });
    if (!row) throw new AppError('CONFLICT', S.alreadyInvited, { fields: { email: S.alreadyInvited } });
    const job = await invitationMail(tx, deps, row, token, actor.name);
    await recordAudit(tx, actorOfStaff(actor), { action: 'staff.invite', subjectType: 'staff-invitation', subjectId: row.id, before: null, after: invitationRecord(row) }, at);
    return { row, job };
  });
  await deps.jobs.dispatch([job]);
  return toInvitation(row, at);
}

/** Sends an open invitation again with a new link (the old one stops working), valid seven days from now. */
export async function resendInvitation(deps: Deps, actor: TStaffActor, invitationId: string): Promise<TStaffInvitation> {
  const at = new Date();
  const token = randomToken(32);
  const { row, job } = await deps.db.transaction(async (tx) => {
    const before = await lockInvitation(tx, invitationId);
    if (!before) throw notFound(S.invitationNotFound);
    if (before.usedAt || before.revokedAt) throw new AppError('CONFLICT', S.invitationClosed);
    await refuseExistingAccount(tx, before.email);
    const renewed = { ...before, tokenHash: hashToken(token), sentAt: at, expiresAt: new Date(at.getTime() + INVITATION_TTL_MS) };
    await renewInvitation(tx, before.id, renewed);
    const job = await invitationMail(tx, deps, renewed, token, actor.name);
    await recordAudit(tx, actorOfStaff(actor), { action: 'staff.invite', subjectType: 'staff-invitation', subjectId: before.id, before: invitationRecord(before), after: invitationRecord(renewed) }, at);
    return { row: renewed, job };
  });
  await deps.jobs.dispatch([job]);
  return toInvitation(row, at);
}

/** Revokes an open invitation: its link stops working. */
export async function revokeInvitation(deps: Deps, actor: TStaffActor, invitationId: string): Promise<void> {
  const at = new Date();
  await deps.db.transaction(async (tx) => {
    const row = await lockInvitation(tx, invitationId);
    if (!row) throw notFound(S.invitationNotFound);
    if (row.usedAt || row.revokedAt) throw new AppError('CONFLICT', S.invitationClosed);
    await markInvitationRevoked(tx, row.id, at);
    await recordAudit(tx, actorOfStaff(actor), { action: 'staff.invite-revoke', subjectType: 'staff-invitation', subjectId: row.id, before: invitationRecord(row), after: { revokedAt: at.toISOString() } }, at);
  });
}

/** What the invitation page shows: the e-mail and role, or that the link will not do. */
export async function invitationStatus(deps: Pick<AppDeps, 'db'>, token: string): Promise<TInvitationStatus> {
  const row = await findUsableInvitation(deps.db, hashToken(token), new Date());
  return row ? { valid: true, email: row.email, staffRole: row.staffRole } : { valid: false };
}

/** The invitee sets their name and password: a staff account with the invitation's role. The link works once. */
export async function joinStaff(deps: Deps, input: TStaffJoinRequest, address: string): Promise<{ message: string }> {
  refuseCommonPassword(input.password, 'password');
  const invalid = () => new AppError('BAD_REQUEST', S.invitationInvalid);
  if (!(await findUsableInvitation(deps.db, hashToken(input.token), new Date()))) throw invalid();
  const passwordHash = await hashPassword(input.password);
  await deps.db.transaction(async (tx) => {
    const at = new Date();
    const invitation = await claimInvitation(tx, hashToken(input.token), at);
    if (!invitation) throw invalid();
    await refuseExistingAccount(tx, invitation.email);
    const account = await insertStaffAccount(tx, { email: invitation.email, firstName: input.firstName, lastName: input.lastName, passwordHash, staffRole: invitation.staffRole, at });
    if (!account) throw new AppError('CONFLICT', S.alreadyStaff);
    await setInvitationUser(tx, invitation.id, account.id);
    await recordAudit(
      tx,
      { id: account.id, name: personName(account), role: invitation.staffRole, address },
      { action: 'staff.join', subjectType: 'user', subjectId: account.id, before: { invitationId: invitation.id }, after: { email: account.email, name: personName(account), staffRole: invitation.staffRole } },
      at,
    );
  });
  return { message: S.joined };
}

/**
 * Locks the active owners and the member (owners first, always in that order) and refuses a
 * change that would leave no active owner, or an actor who is no longer an active owner.
 */
async function lockForChange(tx: Executor, actor: TStaffActor, userId: string, leavesOwners: (member: TMemberRow) => boolean) {
  const owners = await lockActiveOwners(tx);
  if (!owners.includes(actor.id)) throw new AppError('FORBIDDEN', MESSAGES.common.notForYourRole);
  const member = await lockMember(tx, userId);
  if (!member) throw notFound(S.notFound);
  const isActiveOwner = owners.includes(member.id);
  if (isActiveOwner && leavesOwners(member) && owners.length <= 1) throw new AppError('CONFLICT', S.lastOwner);
  return member;
}

/** Gives a member another role; their session checks end after the commit, so the next call reads it. */
export async function changeStaffRole(deps: Deps, actor: TStaffActor, userId: string, staffRole: TStaffRole): Promise<TStaffMember> {
  const member = await deps.db.transaction(async (tx) => {
    const member = await lockForChange(tx, actor, userId, () => staffRole !== 'owner');
    if (member.staffRole === staffRole) throw new AppError('CONFLICT', S.sameRole);
    await setStaffRole(tx, member.id, staffRole);
    await recordAudit(tx, actorOfStaff(actor), { action: 'staff.role', subjectType: 'user', subjectId: member.id, before: { staffRole: member.staffRole }, after: { staffRole } });
    return { ...member, staffRole };
  });
  await revokeSessionChecks(deps, { userId });
  return toMember(member);
}

/** Deactivates a member: no sign-in, and every session ends at once. */
export async function deactivateStaff(deps: Deps, actor: TStaffActor, userId: string): Promise<TStaffMember> {
  const at = new Date();
  const member = await deps.db.transaction(async (tx) => {
    const member = await lockForChange(tx, actor, userId, () => true);
    if (member.deactivatedAt) throw new AppError('CONFLICT', S.alreadyDeactivated);
    await setDeactivatedAt(tx, member.id, at);
    await endAllSessions(tx, member.id, at);
    await recordAudit(tx, actorOfStaff(actor), { action: 'staff.deactivate', subjectType: 'user', subjectId: member.id, before: { active: true, staffRole: member.staffRole }, after: { active: false, staffRole: member.staffRole } }, at);
    return { ...member, deactivatedAt: at };
  });
  await revokeSessionChecks(deps, { userId });
  return toMember(member);
}

/** Reactivates a member with the role they had: they sign in again. */
export async function reactivateStaff(deps: Deps, actor: TStaffActor, userId: string): Promise<TStaffMember> {
  const member = await deps.db.transaction(async (tx) => {
    const member = await lockForChange(tx, actor, userId, () => false);
    if (!member.deactivatedAt) throw new AppError('CONFLICT', S.alreadyActive);
    await setDeactivatedAt(tx, member.id, null);
    await recordAudit(tx, actorOfStaff(actor), { action: 'staff.reactivate', subjectType: 'user', subjectId: member.id, before: { active: false, staffRole: member.staffRole }, after: { active: true, staffRole: member.staffRole } });
    return { ...member, deactivatedAt: null };
  });
  await revokeSessionChecks(deps, { userId });
  return toMember(member);
}
