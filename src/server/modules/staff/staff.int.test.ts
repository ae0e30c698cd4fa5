import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages.ts';
import { createUser, sessionOf } from '../../../testing/factories.ts';
import { mailsTo, uniqueEmail } from '../../../testing/mailbox.ts';
import { auditEntries, refreshTokens, staffInvitations, users } from '../../db/schema.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { STAFF_JOIN_PATH } from './staff.service.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';

// "The last active owner" is a fact about the whole database, so this file has a database of its
// own (a fresh one on the run's PostgreSQL server, or the portal's own in-memory PGlite).
test.override({ portalOptions: { smtp: true, ownDatabase: true } });

const PASSWORD = 'a long harbour passphrase';

/** The link's token in the invitation mail, as the invitee would follow it. */
function tokenIn(text: string): string {
  const match = text.match(new RegExp(`${STAFF_JOIN_PATH}\\?token=([A-Za-z0-9_-]+)`));
  if (!match?.[1]) throw new Error(`no invitation link in: ${text}`);
  return match[1];
}

const it = test
  .extend('owner', { scope: 'file' }, ({ db }) => createUser(db, { role: 'admin', staffRole: 'owner', approvedAt: new Date() }))
  .extend('asOwner', { scope: 'file' }, ({ as, owner }) => () => as(owner))
  .extend('entries', { scope: 'file' }, ({ db }) => (subjectId: string) => db.select().from(auditEntries).where(eq(auditEntries.subjectId, subjectId)))
  .extend('userById', { scope: 'file' }, ({ db }) => async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0]!)
  .extend('invite', { scope: 'file' }, ({ smtp, asOwner, portal }) => async (email: string, staffRole: 'registrar' | 'instructor' | 'auditor' | 'owner' = 'registrar', count = 1) => {
    const invitation = await asOwner().staff.invite({ email, staffRole });
    await portal.drainJobs();
    const mails = await mailsTo(smtp, email, count);
    return { invitation, token: tokenIn(mails[mails.length - 1]!.text) };
  })
  /** A staff procedure over HTTP with the member's bearer token: the session check as a browser meets it. */
  .extend('callAs', { scope: 'file' }, ({ portal }) => async (user: { id: string; role: 'admin' | 'learner' }, procedure: string) => {
    const answer = await portal.app.inject({ method: 'GET', url: `/trpc/${procedure}`, headers: { authorization: portal.authorization(user) } });
    return answer.statusCode;
  });

describe('an invitation', () => {
  it('is mailed, and joining with it makes a staff account with its role; both are audited', async ({ asOwner, db, entries, invite, portal, owner }) => {
    const email = uniqueEmail('registrar');
    const { invitation, token } = await invite(email);
    const [row] = await db.select().from(staffInvitations).where(eq(staffInvitations.id, invitation.id));
    // Only the hash is stored, and it expires in seven days.
    expect(row!.tokenHash).not.toContain(token);
    expect(row!.expiresAt.getTime() - row!.sentAt.getTime()).toBe(7 * 24 * 3600_000);

    expect(await portal.caller().staff.invitation({ token })).toEqual({ valid: true, email, staffRole: 'registrar' });
    await portal.caller(null, '10.1.2.3').staff.join({ token, firstName: 'Meera', lastName: 'Iyer', password: PASSWORD });

    const [member] = await db.select().from(users).where(eq(users.email, email));
    expect(member).toMatchObject({ role: 'admin', staffRole: 'registrar', firstName: 'Meera', deactivatedAt: null });
    expect(await verifyPassword(member!.passwordHash, PASSWORD)).toBe(true);
    expect(await portal.caller(sessionOf(member!)).auth.me()).toMatchObject({ staffRole: 'registrar', role: 'admin' });
    expect((await asOwner().staff.list()).invitations.map((open) => open.id)).not.toContain(invitation.id);

    const [invited] = await entries(invitation.id);
    expect(invited).toMatchObject({ action: 'staff.invite', actorId: owner.id, actorRole: 'owner', after: { email, staffRole: 'registrar' } });
    const [joined] = await entries(member!.id);
    expect(joined).toMatchObject({ action: 'staff.join', actorId: member!.id, address: '10.1.2.3', after: { email, staffRole: 'registrar' } });
  });

  it('works once', async ({ invite, portal }) => {
    const { token } = await invite(uniqueEmail('once'));
    await portal.caller().staff.join({ token, firstName: 'Meera', lastName: 'Iyer', password: PASSWORD });
    await expect(portal.caller().staff.join({ token, firstName: 'Other', lastName: 'Person', password: PASSWORD })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: MESSAGES.staff.invitationInvalid,
    });
    expect(await portal.caller().staff.invitation({ token })).toEqual({ valid: false });
  });

  it('is refused once expired, and joining writes nothing', async ({ asOwner, db, invite, portal }) => {
    const email = uniqueEmail('expired');
    const { invitation, token } = await invite(email);
    await db.update(staffInvitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(staffInvitations.id, invitation.id));
    const before = await db.select().from(auditEntries);
    await expect(portal.caller().staff.join({ token, firstName: 'Meera', lastName: 'Iyer', password: PASSWORD })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    expect(await db.select().from(auditEntries)).toHaveLength(before.length);
    expect((await asOwner().staff.list()).invitations.find((open) => open.id === invitation.id)).toMatchObject({ expired: true });
  });

  it('re-sent gets a new link and the old one stops working; revoked, the link is refused', async ({ asOwner, entries, invite, portal, smtp }) => {
    const email = uniqueEmail('resent');
    const { invitation, token: first } = await invite(email);
    await asOwner().staff.resendInvitation({ invitationId: invitation.id });
    await portal.drainJobs();
    const mails = await mailsTo(smtp, email, 2);
    const second = tokenIn(mails[1]!.text);
    expect(second).not.toBe(first);
    expect(await portal.caller().staff.invitation({ token: first })).toEqual({ valid: false });
    expect(await portal.caller().staff.invitation({ token: second })).toMatchObject({ valid: true });

    await asOwner().staff.revokeInvitation({ invitationId: invitation.id });
    expect(await portal.caller().staff.invitation({ token: second })).toEqual({ valid: false });
    expect((await entries(invitation.id)).map((entry) => entry.action)).toEqual(['staff.invite', 'staff.invite', 'staff.invite-revoke']);
    // Revoked, the address can be invited again.
    await invite(email, 'auditor', 3);
  });

  it('to a learner’s or a member’s e-mail is refused, with no invitation and no entry', async ({ asOwner, db, owner }) => {
    const learner = await createUser(db, { email: uniqueEmail('learner') });
    const count = (await db.select().from(auditEntries)).length;
    await expect(asOwner().staff.invite({ email: learner.email, staffRole: 'auditor' })).rejects.toMatchObject({ code: 'CONFLICT', message: MESSAGES.staff.learnerEmail });
    await expect(asOwner().staff.invite({ email: owner.email, staffRole: 'auditor' })).rejects.toMatchObject({ code: 'CONFLICT', message: MESSAGES.staff.alreadyStaff });
    expect(await db.select().from(staffInvitations).where(inArray(staffInvitations.email, [learner.email, owner.email]))).toHaveLength(0);
    expect(await db.select().from(auditEntries)).toHaveLength(count);
  });

  it('twice to one e-mail is refused while the first is open', async ({ asOwner, invite }) => {
    const email = uniqueEmail('twice');
    await invite(email);
    await expect(asOwner().staff.invite({ email, staffRole: 'auditor' })).rejects.toMatchObject({ code: 'CONFLICT', message: MESSAGES.staff.alreadyInvited });
  });
});

describe('a member’s access', () => {
  it('follows a role change at once, and the change is audited', async ({ asOwner, callAs, db, entries }) => {
    const member = await createUser(db, { role: 'admin', staffRole: 'registrar', approvedAt: new Date() });
    expect(await callAs(member, 'users.listUnapproved')).toBe(200);
    expect(await callAs(member, 'training.sets')).toBe(200);
    await asOwner().staff.changeRole({ userId: member.id, staffRole: 'auditor' });
    // The kept session check answered the old role: the next call reads the new one.
    expect(await callAs(member, 'users.listUnapproved')).toBe(200);
    await asOwner().staff.changeRole({ userId: member.id, staffRole: 'instructor' });
    expect(await callAs(member, 'users.listUnapproved')).toBe(403);
    expect((await entries(member.id)).map((entry) => [entry.action, entry.before, entry.after])).toEqual([
      ['staff.role', { staffRole: 'registrar' }, { staffRole: 'auditor' }],
      ['staff.role', { staffRole: 'auditor' }, { staffRole: 'instructor' }],
    ]);
  });

  it('ends at once on deactivation, sessions included; reactivated, it returns', async ({ asOwner, callAs, db, entries, userById }) => {
    const member = await createUser(db, { role: 'admin', staffRole: 'instructor', approvedAt: new Date() });
    await db.insert(refreshTokens).values({ userId: member.id, familyId: member.id, tokenHash: randomBytes(16).toString('hex'), expiresAt: new Date(Date.now() + 3600_000) });
    expect(await callAs(member, 'training.sets')).toBe(200);
    await asOwner().staff.deactivate({ userId: member.id });
    expect(await callAs(member, 'training.sets')).toBe(401);
    expect(await db.select().from(refreshTokens).where(and(eq(refreshTokens.userId, member.id), isNull(refreshTokens.revokedAt)))).toHaveLength(0);
    expect((await userById(member.id)).deactivatedAt).toBeInstanceOf(Date);
    expect((await asOwner().staff.list()).members.find((listed) => listed.id === member.id)).toMatchObject({ active: false });

    await asOwner().staff.reactivate({ userId: member.id });
    expect(await callAs(member, 'training.sets')).toBe(200);
    expect((await entries(member.id)).map((entry) => entry.action)).toEqual(['staff.deactivate', 'staff.reactivate']);
  });

  it('is not a learner’s: a learner is no member of staff', async ({ asOwner, db, userById }) => {
    const learner = await createUser(db);
    await expect(asOwner().staff.changeRole({ userId: learner.id, staffRole: 'owner' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await userById(learner.id)).role).toBe('learner');
  });
});

describe('the last active owner', () => {
  it('alone cannot be demoted or deactivated, even by themselves, and nothing is written', async ({ asOwner, db, userById, owner }) => {
    // Every other owner made something else first: the owner is the academy's only one.
    for (const other of await db.select().from(users).where(and(eq(users.staffRole, 'owner'), isNull(users.deactivatedAt)))) {
      if (other.id !== owner.id) await asOwner().staff.changeRole({ userId: other.id, staffRole: 'auditor' });
    }
    const count = (await db.select().from(auditEntries)).length;
    await expect(asOwner().staff.changeRole({ userId: owner.id, staffRole: 'registrar' })).rejects.toMatchObject({ code: 'CONFLICT', message: MESSAGES.staff.lastOwner });
    await expect(asOwner().staff.deactivate({ userId: owner.id })).rejects.toMatchObject({ code: 'CONFLICT', message: MESSAGES.staff.lastOwner });
    expect(await userById(owner.id)).toMatchObject({ staffRole: 'owner', deactivatedAt: null });
    expect(await db.select().from(auditEntries)).toHaveLength(count);
  });

  it('of two owners demoting each other at once: exactly one change succeeds', async ({ asOwner, db, portal, owner }) => {
    const second = await createUser(db, { role: 'admin', staffRole: 'owner', approvedAt: new Date() });
    const count = (await db.select().from(auditEntries)).length;
    const results = await Promise.allSettled([
      asOwner().staff.changeRole({ userId: second.id, staffRole: 'registrar' }),
      portal.caller(sessionOf(second)).staff.changeRole({ userId: owner.id, staffRole: 'registrar' }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const owners = await db.select().from(users).where(and(eq(users.staffRole, 'owner'), isNull(users.deactivatedAt)));
    expect(owners.map((row) => row.id)).toHaveLength(1);
    expect(await db.select().from(auditEntries)).toHaveLength(count + 1);
    // The test's owner stays the owner for what follows.
    if (owners[0]!.id !== owner.id) {
      await portal.caller(sessionOf(second)).staff.changeRole({ userId: owner.id, staffRole: 'owner' });
      await asOwner().staff.changeRole({ userId: second.id, staffRole: 'registrar' });
    }
  });

  it('of two owners deactivating each other at once: exactly one succeeds', async ({ asOwner, db, portal, owner }) => {
    const second = await createUser(db, { role: 'admin', staffRole: 'owner', approvedAt: new Date() });
    const results = await Promise.allSettled([
      asOwner().staff.deactivate({ userId: second.id }),
      portal.caller(sessionOf(second)).staff.deactivate({ userId: owner.id }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const active = await db.select().from(users).where(and(eq(users.staffRole, 'owner'), isNull(users.deactivatedAt)));
    expect(active).toHaveLength(1);
  });
});

describe('the academy settings', () => {
  it('are read and changed by the owner, audited; out of range is refused', async ({ asOwner, entries }) => {
    expect(await asOwner().settings.get()).toEqual({ staffSecondFactorRequired: true, retentionYears: 10 });
    expect(await asOwner().settings.update({ staffSecondFactorRequired: false, retentionYears: 25 })).toEqual({ staffSecondFactorRequired: false, retentionYears: 25 });
    await expect(asOwner().settings.update({ retentionYears: 101 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(asOwner().settings.update({ retentionYears: 0 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await asOwner().settings.get()).toEqual({ staffSecondFactorRequired: false, retentionYears: 25 });
    expect((await entries('academy')).map((entry) => entry.action)).toEqual(['settings.change']);
  });
});
