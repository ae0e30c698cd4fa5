import { randomUUID } from 'node:crypto';
import { createCourse, createEnrolment, createProfileRow, createUser, TEST_PASSWORD_HASH } from '../testing/factories.ts';
import { users } from './db/schema.ts';
import { describe, expect, test } from '../testing/portal-test.ts';

/** More than one batch of the streamed lists. */
const MANY = 620;
let authorization: string;
const unapproved = new Set<string>();
const approved = new Set<string>();
const profiled = new Set<string>();
const requests = new Set<string>();

function expectWhole(list: Array<{ _id: string }>, mine: Set<string>) {
  const ids = list.map((item) => item._id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of mine) expect(ids).toContain(id);
}

const it = test
  .extend('get', { scope: 'file' }, ({ portal }) => (url: string) => portal.app.inject({ url, headers: { authorization } }));

it.beforeAll(async ({ portal, db }) => {
  const admin = await createUser(db, { role: 'admin' });
  authorization = portal.authorization({ id: admin.id, role: 'admin' });
  const learner = (approvedAt: Date | null) => ({
    title: 'Mr',
    firstName: 'Whole',
    lastName: `List ${randomUUID().slice(0, 8)}`,
    mobile: '9876543210',
    email: `whole-list-${randomUUID()}@example.com`,
    passwordHash: TEST_PASSWORD_HASH,
    role: 'learner' as const,
    verifiedAt: new Date(),
    approvedAt,
  });
  const waiting = await db.insert(users).values(Array.from({ length: MANY }, () => learner(null))).returning({ id: users.id });
  const accepted = await db.insert(users).values(Array.from({ length: MANY }, () => learner(new Date()))).returning({ id: users.id });
  for (const { id } of waiting) unapproved.add(id);
  for (const { id } of accepted) approved.add(id);
  const course = await createCourse(db);
  for (const { id } of waiting.slice(0, 30)) {
    profiled.add((await createProfileRow(db, id)).id);
    requests.add((await createEnrolment(db, { userId: id, courseId: course.id })).id);
  }
});

describe('the spec lists called without paging parameters', () => {
  it('GET /user/getUnapprovedUsers and /user/getApprovedUsers answer every learner, streamed', async ({ get }) => {
    const waiting = await get('/api/user/getUnapprovedUsers');
    expect(waiting.statusCode).toBe(200);
    expect(waiting.headers['content-type']).toContain('application/json');
    expectWhole(waiting.json(), unapproved);
    expectWhole((await get('/api/user/getApprovedUsers')).json(), approved);
  });

  it('GET /userProfile/getAllUserProfiles and /userCourses/inactive answer the whole data list', async ({ get }) => {
    const all = await get('/api/userProfile/getAllUserProfiles');
    expect(all.statusCode).toBe(200);
    expectWhole(all.json().data, profiled);
    const inactive = await get('/api/userCourses/inactive');
    expect(inactive.statusCode).toBe(200);
    expectWhole(inactive.json().data, requests);
  });

  it('page as before when paging parameters are given', async ({ get }) => {
    expect((await get('/api/user/getUnapprovedUsers?page=2&pageSize=50')).json()).toHaveLength(50);
    expect((await get('/api/userProfile/getAllUserProfiles?page=1&limit=10')).json().data).toHaveLength(10);
    expect((await get('/api/userCourses/inactive?page=1&pageSize=5')).json().data).toHaveLength(5);
    expect((await get('/api/user/getUnapprovedUsers?search=x')).statusCode).toBe(400);
  });
});
