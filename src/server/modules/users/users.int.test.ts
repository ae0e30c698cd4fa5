import { eq } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages.ts';
import { createUser, sessionOf } from '../../../testing/factories.ts';
import { users } from '../../db/schema.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';

const it = test
  .extend('row', { scope: 'file' }, ({ db }) => async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0]!);

describe('lists of learners for review', () => {
  it('show verified learners awaiting approval, newest first, and approved ones apart', async ({ db, portal }) => {
    const admin = await createUser(db, { role: 'admin' });
    const older = await createUser(db, { createdAt: new Date(Date.now() + 60_000) });
    const newer = await createUser(db, { createdAt: new Date(Date.now() + 120_000) });
    const unverified = await createUser(db, { verifiedAt: null });
    const approved = await createUser(db, { approvedAt: new Date() });

    const caller = portal.caller(sessionOf(admin));
    const page = await caller.users.listUnapproved({ pageSize: 100 });
    const ids = page.items.map((item) => item.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(ids.indexOf(newer.id)).toBe(0);
    expect(ids).not.toContain(unverified.id);
    expect(ids).not.toContain(approved.id);
    expect(ids).not.toContain(admin.id);
    expect(page.items[0]).toEqual({
      id: newer.id,
      title: 'Mr',
      firstName: 'Arjun',
      lastName: newer.lastName,
      name: `Arjun ${newer.lastName}`,
      email: newer.email,
      mobile: '9876543210',
      verified: true,
      registeredAt: newer.createdAt.toISOString(),
      approvedAt: null,
    });

    const approvedPage = await caller.users.listApproved();
    expect(approvedPage.items.map((item) => item.id)).toContain(approved.id);
    expect(approvedPage.items.map((item) => item.id)).not.toContain(newer.id);
  });

  it('come in pages with a total', async ({ db, portal }) => {
    const admin = await createUser(db, { role: 'admin' });
    for (let i = 0; i < 3; i += 1) await createUser(db);
    const caller = portal.caller(sessionOf(admin));
    const first = await caller.users.listUnapproved({ page: 1, pageSize: 2 });
    const second = await caller.users.listUnapproved({ page: 2, pageSize: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.total).toBeGreaterThanOrEqual(3);
    expect(second.page).toBe(2);
    expect(second.items.map((i) => i.id)).not.toContain(first.items[0]!.id);
  });

  it('answer the documented REST shape: a list of users with _id, name and email', async ({ bearer, db, portal }) => {
    const admin = await createUser(db, { role: 'admin' });
    const learner = await createUser(db, { createdAt: new Date(Date.now() + 600_000) });
    const res = await portal.app.inject({ url: '/api/user/getUnapprovedUsers', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(Array.isArray(list)).toBe(true);
    expect(list[0]).toMatchObject({ _id: learner.id, name: `Arjun ${learner.lastName}`, email: learner.email });
    expect(list[0]).not.toHaveProperty('passwordHash');
    expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(1);
    const approved = await portal.app.inject({ url: '/api/user/getApprovedUsers?page=1&pageSize=5', headers: bearer(admin) });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().length).toBeLessThanOrEqual(5);
  });

  it('are for administrators only', async ({ bearer, db, portal }) => {
    const learner = await createUser(db, { approvedAt: new Date() });
    await expect(portal.caller(sessionOf(learner)).users.listUnapproved()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(portal.caller().users.listApproved()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    for (const url of ['/api/user/getUnapprovedUsers', '/api/user/getApprovedUsers']) {
      expect((await portal.app.inject({ url })).statusCode).toBe(401);
      const forbidden = await portal.app.inject({ url, headers: bearer(learner) });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toEqual({ message: MESSAGES.common.forbidden });
    }
  });
});

describe('approving a learner', () => {
  it('records who approved and when, and counts at once for the learner', async ({ bearer, db, portal, row }) => {
    const admin = await createUser(db, { role: 'admin' });
    const learner = await createUser(db);
    const me = async () =>
      (await portal.app.inject({ url: '/trpc/auth.me', headers: bearer(learner) })).json().result.data;
    expect((await me()).approved).toBe(false);

    const res = await portal.app.inject({ method: 'POST', url: `/api/user/approve-user/${learner.id}`, headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: MESSAGES.users.approved, user: { _id: learner.id, email: learner.email } });
    const stored = await row(learner.id);
    expect(stored.approvedAt).toBeInstanceOf(Date);
    expect(stored.approvedBy).toBe(admin.id);

    // The learner's next request, with the same access token, reads the approval from the database.
    expect((await me()).approved).toBe(true);
    const list = await portal.caller(sessionOf(admin)).users.listApproved({ pageSize: 100 });
    expect(list.items.map((item) => item.id)).toContain(learner.id);
  });

  it('twice keeps the first approval', async ({ db, portal, row }) => {
    const first = await createUser(db, { role: 'admin' });
    const second = await createUser(db, { role: 'admin' });
    const learner = await createUser(db);
    await portal.caller(sessionOf(first)).users.approve({ userId: learner.id });
    const before = await row(learner.id);
    const again = await portal.caller(sessionOf(second)).users.approve({ userId: learner.id });
    expect(again.message).toBe(MESSAGES.users.approved);
    expect(await row(learner.id)).toMatchObject({ approvedAt: before.approvedAt, approvedBy: first.id });
  });

  it('refuses unknown ids, administrators, unverified accounts and non-administrators, writing nothing', async ({ bearer, db, portal, row }) => {
    const admin = await createUser(db, { role: 'admin' });
    const otherAdmin = await createUser(db, { role: 'admin' });
    const unverified = await createUser(db, { verifiedAt: null });
    const learner = await createUser(db);
    const caller = portal.caller(sessionOf(admin));

    await expect(caller.users.approve({ userId: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: MESSAGES.users.notFound,
    });
    await expect(caller.users.approve({ userId: otherAdmin.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(caller.users.approve({ userId: unverified.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: MESSAGES.users.notVerified,
    });
    expect((await row(unverified.id)).approvedAt).toBeNull();

    await expect(portal.caller(sessionOf(learner)).users.approve({ userId: learner.id })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const rest = await portal.app.inject({ method: 'POST', url: `/api/user/approve-user/${learner.id}`, headers: bearer(learner) });
    expect(rest.statusCode).toBe(403);
    expect((await portal.app.inject({ method: 'POST', url: `/api/user/approve-user/${learner.id}` })).statusCode).toBe(401);
    expect((await row(learner.id)).approvedAt).toBeNull();

    for (const id of ['not-a-uuid', "1' or '1'='1", '%00', 'x'.repeat(500)]) {
      const res = await portal.app.inject({
        method: 'POST',
        url: `/api/user/approve-user/${encodeURIComponent(id)}`,
        headers: bearer(admin),
      });
      expect(res.statusCode, id).toBe(400);
      expect(res.json(), id).toEqual({ message: MESSAGES.validation.invalidId, errors: { id: MESSAGES.validation.invalidId } });
    }
  });
});
