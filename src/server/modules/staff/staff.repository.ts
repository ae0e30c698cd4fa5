import { and, asc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { staffInvitations, users } from '../../db/schema.ts';
import type { TStaffRole } from '../../../shared/staff-roles.ts';

const member = {
  id: users.id,
  title: users.title,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  role: users.role,
  staffRole: users.staffRole,
  deactivatedAt: users.deactivatedAt,
  createdAt: users.createdAt,
};
export type TMemberRow = { [K in keyof typeof member]: (typeof users.$inferSelect)[K] };
export type TInvitationRow = typeof staffInvitations.$inferSelect;

/** Every member of staff: the active first, by role (owners first), then by name. */
export function findStaff(db: Executor): Promise<TMemberRow[]> {
  return db
    .select(member)
    .from(users)
    .where(eq(users.role, 'admin'))
    .orderBy(
      sql`${users.deactivatedAt} is not null`,
      sql`array_position(array['owner','registrar','instructor','auditor']::staff_role[], ${users.staffRole})`,
      asc(users.firstName),
      asc(users.lastName),
    );
}

/**
 * Locks the active owners' rows for the rest of the transaction, in one order (so two changes never
 * wait on each other in a circle), and returns their ids. A change that waited reads the rows as
 * committed: an owner just demoted or deactivated is no longer among them.
 */
export async function lockActiveOwners(tx: Executor): Promise<string[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.staffRole, 'owner'), isNull(users.deactivatedAt)))
    .orderBy(asc(users.id))
    .for('update');
  return rows.map((row) => row.id);
}

/** A member of staff, locked for the rest of the transaction. */
export async function lockMember(tx: Executor, id: string): Promise<TMemberRow | undefined> {
  const [row] = await tx
    .select(member)
    .from(users)
    .where(and(eq(users.id, id), eq(users.role, 'admin')))
    .for('update');
  return row;
}

export async function setStaffRole(tx: Executor, id: string, staffRole: TStaffRole): Promise<void> {
  await tx.update(users).set({ staffRole }).where(eq(users.id, id));
}

export async function setDeactivatedAt(tx: Executor, id: string, at: Date | null): Promise<void> {
  await tx.update(users).set({ deactivatedAt: at }).where(eq(users.id, id));
}

/** The account with this e-mail, staff or learner. */
export async function findAccountByEmail(db: Executor, email: string): Promise<{ id: string; role: 'learner' | 'admin' } | undefined> {
  const [row] = await db.select({ id: users.id, role: users.role }).from(users).where(eq(users.email, email));
  return row;
}

/** A new member of staff's account, or undefined if the e-mail was taken meanwhile. */
export async function insertStaffAccount(
  tx: Executor,
  values: { email: string; firstName: string; lastName: string; passwordHash: string; staffRole: TStaffRole; at: Date },
): Promise<TMemberRow | undefined> {
  const [row] = await tx
    .insert(users)
    .values({
      title: '',
      firstName: values.firstName,
      lastName: values.lastName,
      mobile: '',
      email: values.email,
      passwordHash: values.passwordHash,
      role: 'admin',
      staffRole: values.staffRole,
      verifiedAt: values.at,
      approvedAt: values.at,
    })
    .onConflictDoNothing()
    .returning(member);
  return row;
}

// Invitations.

/** Open invitations (neither used nor revoked), newest first; expired ones included. */
export function findOpenInvitations(db: Executor): Promise<TInvitationRow[]> {
  return db
    .select()
    .from(staffInvitations)
    .where(and(isNull(staffInvitations.usedAt), isNull(staffInvitations.revokedAt)))
    .orderBy(sql`${staffInvitations.sentAt} desc`);
}

/** An invitation, locked for the rest of the transaction. */
export async function lockInvitation(tx: Executor, id: string): Promise<TInvitationRow | undefined> {
  const [row] = await tx.select().from(staffInvitations).where(eq(staffInvitations.id, id)).for('update');
  return row;
}

/** A new invitation, or undefined when the e-mail got an open one meanwhile. */
export async function insertInvitation(
  tx: Executor,
  values: Pick<TInvitationRow, 'email' | 'staffRole' | 'tokenHash' | 'invitedBy' | 'sentAt' | 'expiresAt'>,
): Promise<TInvitationRow | undefined> {
  const [row] = await tx.insert(staffInvitations).values(values).onConflictDoNothing().returning();
  return row;
}

export async function renewInvitation(tx: Executor, id: string, values: { tokenHash: string; sentAt: Date; expiresAt: Date }): Promise<void> {
  await tx.update(staffInvitations).set(values).where(eq(staffInvitations.id, id));
}

export async function markInvitationRevoked(tx: Executor, id: string, at: Date): Promise<void> {
  await tx.update(staffInvitations).set({ revokedAt: at }).where(eq(staffInvitations.id, id));
}

/** The e-mail's open invitations that have expired are closed, so the address can be invited again. */
export async function revokeExpiredFor(tx: Executor, email: string, at: Date): Promise<void> {
  await tx
    .update(staffInvitations)
    .set({ revokedAt: at })
    .where(
      and(
        eq(staffInvitations.email, email),
        isNull(staffInvitations.usedAt),
        isNull(staffInvitations.revokedAt),
        lte(staffInvitations.expiresAt, at),
      ),
    );
}

const usable = (tokenHash: string, at: Date) =>
  and(eq(staffInvitations.tokenHash, tokenHash), isNull(staffInvitations.usedAt), isNull(staffInvitations.revokedAt), gt(staffInvitations.expiresAt, at));

/** The usable invitation with this token's hash (open, not expired). */
export async function findUsableInvitation(db: Executor, tokenHash: string, at: Date): Promise<TInvitationRow | undefined> {
  const [row] = await db.select().from(staffInvitations).where(usable(tokenHash, at));
  return row;
}

/** Uses the invitation once: undefined when another request used it first, or it closed meanwhile. */
export async function claimInvitation(tx: Executor, tokenHash: string, at: Date): Promise<TInvitationRow | undefined> {
  const [row] = await tx.update(staffInvitations).set({ usedAt: at }).where(usable(tokenHash, at)).returning();
  return row;
}

export async function setInvitationUser(tx: Executor, id: string, userId: string): Promise<void> {
  await tx.update(staffInvitations).set({ userId }).where(eq(staffInvitations.id, id));
}
