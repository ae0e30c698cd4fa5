import { count } from 'drizzle-orm';
import { MESSAGES } from '../shared/messages.ts';
import { createUser, sessionOf } from '../testing/factories.ts';
import { uniqueIp } from '../testing/mailbox.ts';
import { form } from '../testing/multipart.ts';
import { courses, users } from './db/schema.ts';
import { describe, expect, test } from '../testing/portal-test.ts';

const NUL = 'ab\u0000cd';

const it = test
  .extend('admin', { scope: 'file' }, ({ db }) => createUser(db, { role: 'admin' }))
  .extend('authorization', { scope: 'file' }, ({ admin, portal }) => () => portal.authorization({ id: admin.id, role: 'admin' }))
  .extend('rowCount', { scope: 'file' }, ({ db }) => async (table: typeof users | typeof courses) => (await db.select({ n: count() }).from(table))[0]!.n);

describe('a NUL character, which PostgreSQL cannot store', () => {
  it('in any search box answers 400 with a message, through REST', async ({ authorization, portal }) => {
    for (const path of ['/api/userProfile/getAllUserProfiles', '/api/userCourses/inactive', '/api/user/getUnapprovedUsers', '/api/user/getApprovedUsers']) {
      const res = await portal.app.inject({ url: `${path}?search=${encodeURIComponent(NUL)}&page=1`, headers: { authorization: authorization() } });
      expect(res.statusCode, path).toBe(400);
      expect(res.json(), path).toMatchObject({ message: MESSAGES.validation.nulCharacter, errors: { search: MESSAGES.validation.nulCharacter } });
    }
  });

  it('in any search box answers BAD_REQUEST with the message, through tRPC', async ({ admin, authorization, portal }) => {
    const caller = portal.caller(sessionOf(admin));
    const searches = [
      () => caller.profiles.list({ search: NUL }),
      () => caller.enrolments.search({ search: NUL }),
    ];
    for (const search of searches) {
      await expect(search()).rejects.toMatchObject({ code: 'BAD_REQUEST', message: MESSAGES.validation.nulCharacter });
    }
    const overHttp = await portal.app.inject({
      url: `/trpc/profiles.list?input=${encodeURIComponent(JSON.stringify({ search: NUL }))}`,
      headers: { authorization: authorization() },
    });
    expect(overHttp.statusCode).toBe(400);
  });

  it('in a form, a key or a multipart field is refused and nothing is written', async ({ authorization, portal, rowCount }) => {
    const before = { users: await rowCount(users), courses: await rowCount(courses) };
    const registration = { tittle: 'Mr', firstName: NUL, lastName: 'Rao', mobile: '9876543210', email: 'nul@example.com', password: 'anchorage harbour' };
    const rest = await portal.app.inject({ method: 'POST', url: '/api/user/register', payload: registration, remoteAddress: uniqueIp() });
    expect(rest.statusCode).toBe(400);
    expect(rest.json()).toMatchObject({ message: MESSAGES.validation.nulCharacter, errors: { firstName: MESSAGES.validation.nulCharacter } });
    const login = await portal.app.inject({ method: 'POST', url: '/api/user/login', payload: { email: `a${NUL}@example.com`, password: 'whatever1' }, remoteAddress: uniqueIp() });
    expect(login.statusCode).toBe(400);
    const key = await portal.app.inject({ method: 'POST', url: '/api/contact', payload: { [`name${NUL}`]: 'x' }, remoteAddress: uniqueIp() });
    expect(key.statusCode).toBe(400);
    const multipart = form([
      { name: 'title', value: `Fire${NUL}fighting` },
      { name: 'description', value: 'Basic fire prevention' },
    ]);
    const course = await portal.app.inject({
      method: 'POST',
      url: '/api/courses',
      ...multipart,
      headers: { ...multipart.headers, authorization: authorization() },
    });
    expect(course.statusCode).toBe(400);
    expect(course.json().message).toBe(MESSAGES.validation.nulCharacter);
    expect({ users: await rowCount(users), courses: await rowCount(courses) }).toEqual(before);
  });
});
