import { randomUUID } from 'node:crypto';
import { MESSAGES } from '../../../shared/messages.ts';
import { createProfileRow, createUser, sessionOf } from '../../../testing/factories.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';


const it = test
  /** Three profiles whose searchable values share a prefix of their own. */
  .extend('seedProfiles', { scope: 'file' }, ({ db }) => async () => {
    const tag = randomUUID().slice(0, 6);
    const a = await createUser(db, { email: `mariner-${tag}@example.com`, createdAt: new Date() });
    const b = await createUser(db);
    const c = await createUser(db);
    const pa = await createProfileRow(db, a.id, { name: `Kavya ${tag}`, createdAt: new Date(Date.now() + 1000) });
    const pb = await createProfileRow(db, b.id, {
      name: `kavya ${tag} Menon`,
      indosNo: `IN${tag}X`.toUpperCase(),
      createdAt: new Date(Date.now() + 2000),
    });
    const pc = await createProfileRow(db, c.id, {
      passportNumber: `PP${tag}`.toUpperCase(),
      cdcNumber: `CD${tag}`.toUpperCase(),
      createdAt: new Date(Date.now() + 3000),
    });
    return { tag, a, b, c, pa, pb, pc };
  });

describe('the administrators\' profile list', () => {
  it('searches the name (anywhere), and the start of the e-mail, INDOS, passport and CDC numbers, ignoring case', async ({ db, portal, seedProfiles }) => {
    const admin = await createUser(db, { role: 'admin' });
    const { tag, a, pa, pb, pc } = await seedProfiles();
    const caller = portal.caller(sessionOf(admin));
    const ids = async (search: string) => (await caller.profiles.list({ search, pageSize: 100 })).items.map((p) => p.id);

    // Newest first.
    expect(await ids(`KAVYA ${tag}`)).toEqual([pb.id, pa.id]);
    expect(await ids(`mariner-${tag}`)).toEqual([pa.id]);
    expect(await ids(`in${tag}`)).toEqual([pb.id]);
    expect(await ids(`pp${tag}`)).toEqual([pc.id]);
    expect(await ids(`cd${tag.toUpperCase()}`)).toEqual([pc.id]);
    // A word inside the name is found from three letters on; numbers match from their start only.
    expect(await ids(`${tag} menon`)).toEqual([pb.id]);
    expect(await ids(`${tag}`)).toEqual([pb.id, pa.id]);
    expect(await ids(`x${tag}`)).toEqual([]);
    // LIKE's wildcards are plain characters here.
    expect(await ids(`%${tag}`)).toEqual([]);
    expect(await ids('_')).toEqual([]);

    const page = await caller.profiles.list({ search: `kavya ${tag}` });
    expect(page.total).toBe(2);
    const first = page.items.find((p) => p.id === pa.id)!;
    expect(first.creator).toEqual({ firstName: 'Arjun', lastName: a.lastName, email: a.email });
    expect(first.profilePicture.url).toMatch(/^\/api\/files\/profile_pictures\/.+signature=/);
    expect(first).toHaveProperty('passportExpiryStatus');
    expect(first).toHaveProperty('documentsExpiring');
  });

  it('comes in pages with a total', async ({ db, portal }) => {
    const admin = await createUser(db, { role: 'admin' });
    const tag = randomUUID().slice(0, 6);
    for (let i = 0; i < 5; i += 1) {
      const user = await createUser(db);
      await createProfileRow(db, user.id, { name: `Pager ${tag} ${i}`, createdAt: new Date(Date.now() + i * 1000) });
    }
    const caller = portal.caller(sessionOf(admin));
    const first = await caller.profiles.list({ search: `pager ${tag}`, page: 1, pageSize: 2 });
    const third = await caller.profiles.list({ search: `pager ${tag}`, page: 3, pageSize: 2 });
    expect(first).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(first.items.map((p) => p.name)).toEqual([`Pager ${tag} 4`, `Pager ${tag} 3`]);
    expect(third.items.map((p) => p.name)).toEqual([`Pager ${tag} 0`]);
    const all = await caller.profiles.list();
    expect(all.total).toBeGreaterThanOrEqual(5);
    expect(all.pageSize).toBe(20);
  });

  it('answers the documented REST shape with ?search, ?page and ?limit', async ({ bearer, db, portal, seedProfiles }) => {
    const admin = await createUser(db, { role: 'admin' });
    const { tag, pa, pb } = await seedProfiles();
    const res = await portal.app.inject({
      url: `/api/userProfile/getAllUserProfiles?search=${encodeURIComponent(`Kavya ${tag}`)}&page=2&limit=1`,
      headers: bearer(admin),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 2, page: 2, limit: 1 });
    expect(body.data.map((p: { _id: string }) => p._id)).toEqual([pa.id]);
    expect(res.headers['x-total-count']).toBe('2');
    expect(body.data[0]).toMatchObject({ IdDocument: { filename: pa.idDocumentFile }, creator: { firstName: 'Arjun' } });
    expect(body.data[0]).not.toHaveProperty('idDocumentFile');

    const plain = await portal.app.inject({ url: '/api/userProfile/getAllUserProfiles', headers: bearer(admin) });
    expect(plain.statusCode).toBe(200);
    expect(plain.json().data.map((p: { _id: string }) => p._id)).toContain(pb.id);
  });

  it('refuses bad paging and over-long searches', async ({ bearer, db, portal }) => {
    const admin = await createUser(db, { role: 'admin' });
    for (const query of ['page=0', 'limit=1000', 'page=abc', `search=${'a'.repeat(101)}`, 'sort=name']) {
      const res = await portal.app.inject({ url: `/api/userProfile/getAllUserProfiles?${query}`, headers: bearer(admin) });
      expect(res.statusCode, query).toBe(400);
    }
    await expect(portal.caller(sessionOf(admin)).profiles.list({ pageSize: 101 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const trpc = await portal.app.inject({
      url: `/trpc/profiles.list?input=${encodeURIComponent(JSON.stringify({ pageSize: 101 }))}`,
      headers: bearer(admin),
    });
    expect(trpc.statusCode).toBe(400);
    expect(trpc.json().error.message).toBe(MESSAGES.validation.pageSize);
  });

  it('is for administrators only', async ({ bearer, db, portal }) => {
    const learner = await createUser(db, { approvedAt: new Date() });
    expect((await portal.app.inject({ url: '/api/userProfile/getAllUserProfiles' })).statusCode).toBe(401);
    const res = await portal.app.inject({ url: '/api/userProfile/getAllUserProfiles', headers: bearer(learner) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: MESSAGES.common.forbidden });
    await expect(portal.caller().profiles.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
