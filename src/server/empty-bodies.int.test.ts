import { eq } from 'drizzle-orm';
import { createCourse, createEnrolment, createUser } from '../testing/factories.ts';
import { courses, enrolments, users } from './db/schema.ts';
import { describe, expect, test } from '../testing/portal-test.ts';

/** The headers a spec client may send on a call without a body: a type, and no bytes. */
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', undefined];

const it = test
  .extend('admin', { scope: 'file' }, ({ db }) => createUser(db, { role: 'admin' }));

describe('calls without a documented body', () => {
  it.for(CONTENT_TYPES)('accept an empty body sent as %s, as they accept {}', async (contentType, { admin, db, portal }) => {
    const learner = await createUser(db);
    const course = await createCourse(db);
    const toAccept = await createEnrolment(db, { userId: learner.id, courseId: course.id });
    const toReject = await createEnrolment(db, { userId: learner.id, courseId: (await createCourse(db)).id });
    const headers = {
      authorization: portal.authorization({ id: admin.id, role: 'admin' }),
      ...(contentType ? { 'content-type': contentType } : {}),
    };
    const call = async (method: 'POST' | 'PUT', url: string) => {
      const res = await portal.app.inject({ method, url, headers, payload: '' });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    };

    await call('POST', `/api/user/approve-user/${learner.id}`);
    await call('POST', `/api/courses/Deactive/${course.id}`);
    expect((await db.select().from(courses).where(eq(courses.id, course.id)))[0]!.isActive).toBe(false);
    await call('PUT', `/api/courses/activate/${course.id}`);
    await call('PUT', `/api/userCourses/activate/${toAccept.id}`);
    await call('PUT', `/api/userCourses/deactivate/${toReject.id}`);

    expect((await db.select().from(users).where(eq(users.id, learner.id)))[0]!.approvedAt).not.toBeNull();
    expect((await db.select().from(courses).where(eq(courses.id, course.id)))[0]!.isActive).toBe(true);
    expect((await db.select().from(enrolments).where(eq(enrolments.id, toAccept.id)))[0]!.status).toBe('approved');
    expect((await db.select().from(enrolments).where(eq(enrolments.id, toReject.id)))[0]!.status).toBe('rejected');
  });

  it('still refuses a JSON body that is malformed, and a body of a type nobody reads', async ({ admin, portal, db }) => {
    const learner = await createUser(db);
    const authorization = portal.authorization({ id: admin.id, role: 'admin' });
    const broken = await portal.app.inject({
      method: 'POST',
      url: `/api/user/approve-user/${learner.id}`,
      headers: { authorization, 'content-type': 'application/json' },
      payload: '{"oops"',
    });
    expect(broken.statusCode).toBe(400);
    const binary = await portal.app.inject({
      method: 'POST',
      url: `/api/user/approve-user/${learner.id}`,
      headers: { authorization, 'content-type': 'application/octet-stream' },
      payload: Buffer.from([1, 2, 3]),
    });
    expect(binary.statusCode).toBe(415);
    expect(binary.json().message).toBeTruthy();
    expect((await db.select().from(users).where(eq(users.id, learner.id)))[0]!.approvedAt).toBeNull();
  });
});
