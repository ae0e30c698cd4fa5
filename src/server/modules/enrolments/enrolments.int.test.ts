import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages.ts';
import { createCourse, createEnrolment, createUser } from '../../../testing/factories.ts';
import { enrolments, mails, trainingVideos, trainingVideoSets, watchProgress } from '../../db/schema.ts';
import { invalidateCatalogue } from '../courses/catalogue.service.ts';
import { describe, expect, test, type TTestUser } from '../../../testing/portal-test.ts';

const E = MESSAGES.enrolment;
const MISSING = '00000000-0000-4000-8000-000000000000';

type TUser = TTestUser;

const it = test
  .extend('admin', { scope: 'file' }, ({ db }) => createUser(db, { role: 'admin' }))
  .extend('approvedLearner', { scope: 'file' }, ({ db }) => (overrides: Parameters<typeof createUser>[1] = {}) =>
    createUser(db, { approvedAt: new Date(), ...overrides }))
  .extend('rowsOf', { scope: 'file' }, ({ db }) => (userId: string, courseId: string) =>
    db
      .select()
      .from(enrolments)
      .where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, courseId))))
  /** A course with `videos` training videos, of which the learner completed the first `done`. */
  .extend('courseWithTraining', { scope: 'file' }, ({ db, approvedLearner }) => async (learner: TUser, videos: number, done: number) => {
    const course = await createCourse(db);
    const [set] = await db.insert(trainingVideoSets).values({ courseId: course.id, title: `${course.title} training` }).returning();
    const made = await db
      .insert(trainingVideos)
      .values(
        Array.from({ length: videos }, (_, i) => ({
          setId: set!.id,
          serial: i + 1,
          originalName: `Part ${i + 1}.mp4`,
          sourceFile: `${randomUUID()}.mp4`,
          status: 'ready' as const,
          durationSeconds: 120,
        })),
      )
      .returning();
    const sorted = made.sort((a, b) => a.serial - b.serial);
    for (const video of sorted.slice(0, done)) {
      await db.insert(watchProgress).values({ userId: learner.id, videoId: video.id, watchedSeconds: 120, completedAt: new Date() });
    }
    // Someone else's progress never counts for this learner.
    const other = await approvedLearner();
    for (const video of sorted) {
      await db.insert(watchProgress).values({ userId: other.id, videoId: video.id, watchedSeconds: 120, completedAt: new Date() });
    }
    return course;
  })
  .extend('pendingRequest', { scope: 'file' }, ({ approvedLearner, db }) => async () => {
    const learner = await approvedLearner();
    const course = await createCourse(db);
    const enrolment = await createEnrolment(db, { userId: learner.id, courseId: course.id });
    return { learner, course, enrolment };
  })
  .extend('row', { scope: 'file' }, ({ db }) => async (id: string) => (await db.select().from(enrolments).where(eq(enrolments.id, id)))[0]!);

describe('requesting enrolment', () => {
  it('records a pending request for an approved learner and an active course (tRPC)', async ({ approvedLearner, as, db, rowsOf }) => {
    const learner = await approvedLearner();
    const course = await createCourse(db);
    const result = await as(learner).enrolments.request({ courseId: course.id });
    expect(result.message).toBe(E.submitted);
    expect(result.enrolment).toMatchObject({ courseId: course.id, status: 'pending', decidedAt: null });
    const [row] = await rowsOf(learner.id, course.id);
    expect(row).toMatchObject({ id: result.enrolment.id, status: 'pending', decidedAt: null, decidedBy: null });
  });

  it('answers POST /api/userCourses with 201 and the request', async ({ approvedLearner, bearer, db, portal, rowsOf }) => {
    const learner = await approvedLearner();
    const course = await createCourse(db);
    const res = await portal.app.inject({ method: 'POST', url: '/api/userCourses', headers: bearer(learner), payload: { courseId: course.id } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ message: E.submitted, data: { courseId: course.id, status: 'pending' } });
    expect(await rowsOf(learner.id, course.id)).toHaveLength(1);
  });

  it('refuses accounts awaiting approval, administrators and visitors, writing nothing', async ({ admin, as, bearer, db, portal, rowsOf }) => {
    const course = await createCourse(db);
    const waiting = await createUser(db);
    await expect(as(waiting).enrolments.request({ courseId: course.id })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: E.accountNotApproved,
    });
    const rest = await portal.app.inject({ method: 'POST', url: '/api/userCourses', headers: bearer(waiting), payload: { courseId: course.id } });
    expect(rest.statusCode).toBe(403);
    expect(rest.json()).toEqual({ message: E.accountNotApproved });
    await expect(as(admin).enrolments.request({ courseId: course.id })).rejects.toMatchObject({ code: 'FORBIDDEN', message: E.learnersOnly });
    await expect(portal.caller().enrolments.request({ courseId: course.id })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const visitor = await portal.app.inject({ method: 'POST', url: '/api/userCourses', payload: { courseId: course.id } });
    expect(visitor.statusCode).toBe(401);
    expect(await rowsOf(waiting.id, course.id)).toHaveLength(0);
    expect(await rowsOf(admin.id, course.id)).toHaveLength(0);
  });

  it('refuses inactive (409) and unknown (404) courses, and bad bodies (400)', async ({ approvedLearner, as, bearer, db, portal, rowsOf }) => {
    const learner = await approvedLearner();
    const closed = await createCourse(db, { isActive: false });
    await expect(as(learner).enrolments.request({ courseId: closed.id })).rejects.toMatchObject({ code: 'CONFLICT', message: E.courseClosed });
    await expect(as(learner).enrolments.request({ courseId: MISSING })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: MESSAGES.courses.notFound,
    });
    expect(await rowsOf(learner.id, closed.id)).toHaveLength(0);

    for (const payload of [{}, { courseId: 'abc' }, { courseId: 42 }, { courseId: closed.id, status: 'approved' }, [closed.id]]) {
      const res = await portal.app.inject({ method: 'POST', url: '/api/userCourses', headers: bearer(learner), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(typeof res.json().message).toBe('string');
    }
    const garbage = await portal.app.inject({
      method: 'POST',
      url: '/api/userCourses',
      headers: { ...bearer(learner), 'content-type': 'application/json' },
      payload: '{"courseId":',
    });
    expect(garbage.statusCode).toBe(400);
  });

  it('changes nothing when asked again while pending or approved, and says so (409)', async ({ admin, approvedLearner, as, bearer, db, portal, rowsOf }) => {
    const learner = await approvedLearner();
    const course = await createCourse(db);
    await as(learner).enrolments.request({ courseId: course.id });
    const [before] = await rowsOf(learner.id, course.id);
    await expect(as(learner).enrolments.request({ courseId: course.id })).rejects.toMatchObject({ code: 'CONFLICT', message: E.alreadyPending });
    const rest = await portal.app.inject({ method: 'POST', url: '/api/userCourses', headers: bearer(learner), payload: { courseId: course.id } });
    expect(rest.statusCode).toBe(409);
    expect(rest.json()).toEqual({ message: E.alreadyPending });
    expect(await rowsOf(learner.id, course.id)).toEqual([before]);

    await as(admin).enrolments.accept({ enrolmentId: before!.id });
    await expect(as(learner).enrolments.request({ courseId: course.id })).rejects.toMatchObject({ code: 'CONFLICT', message: E.alreadyApproved });
    expect((await rowsOf(learner.id, course.id))[0]!.status).toBe('approved');
  });

  it('lets a rejected learner ask again: the same row goes back to pending as a new request', async ({ admin, approvedLearner, as, db, rowsOf }) => {
    const learner = await approvedLearner();
    const course = await createCourse(db);
    const enrolment = await createEnrolment(db, {
      userId: learner.id,
      courseId: course.id,
      status: 'rejected',
      decidedAt: new Date(Date.now() - 60_000),
      decidedBy: admin.id,
      requestedAt: new Date(Date.now() - 120_000),
    });
    const result = await as(learner).enrolments.request({ courseId: course.id });
    expect(result.enrolment).toMatchObject({ id: enrolment.id, status: 'pending', decidedAt: null });
    const [row] = await rowsOf(learner.id, course.id);
    expect(row).toMatchObject({ id: enrolment.id, status: 'pending', decidedAt: null, decidedBy: null });
    expect(row!.requestedAt.getTime()).toBeGreaterThan(enrolment.requestedAt.getTime());
  });

  it('keeps one request when several arrive at once', async ({ approvedLearner, bearer, db, portal, rowsOf }) => {
    const learner = await approvedLearner();
    const course = await createCourse(db);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        portal.app.inject({ method: 'POST', url: '/api/userCourses', headers: bearer(learner), payload: { courseId: course.id } }),
      ),
    );
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await rowsOf(learner.id, course.id)).toHaveLength(1);
  });
});

describe('the learner’s views', () => {
  it('dashboard: active courses with the learner’s own enrolment in each, nothing of others', async ({ approvedLearner, as, db, portal }) => {
    const learner = await approvedLearner();
    const other = await approvedLearner();
    const pending = await createCourse(db);
    const approved = await createCourse(db);
    const untouched = await createCourse(db);
    const hidden = await createCourse(db, { isActive: false });
    await createEnrolment(db, { userId: learner.id, courseId: pending.id });
    await createEnrolment(db, { userId: learner.id, courseId: approved.id, status: 'approved' });
    await createEnrolment(db, { userId: other.id, courseId: untouched.id, status: 'approved' });

    invalidateCatalogue(portal.runtime); // the courses were written straight to the database
    const list = await as(learner).enrolments.dashboard();
    const byId = new Map(list.map((course) => [course.id, course]));
    expect(byId.get(pending.id)?.enrolment?.status).toBe('pending');
    expect(byId.get(approved.id)?.enrolment?.status).toBe('approved');
    expect(byId.get(untouched.id)?.enrolment).toBeNull();
    expect(byId.has(hidden.id)).toBe(false);
    await expect(portal.caller().enrolments.dashboard()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('own enrolments: course details, status and real progress (REST with courseId populated)', async ({ approvedLearner, as, bearer, courseWithTraining, db, portal }) => {
    const learner = await approvedLearner();
    const trained = await courseWithTraining(learner, 4, 3);
    const bare = await createCourse(db);
    await createEnrolment(db, { userId: learner.id, courseId: trained.id, status: 'approved' });
    await createEnrolment(db, {
      userId: learner.id,
      courseId: bare.id,
      requestedAt: new Date(Date.now() + 60_000),
    });

    const mine = await as(learner).enrolments.mine();
    expect(mine.map((e) => e.course.id)).toEqual([bare.id, trained.id]);
    expect(mine[1]).toMatchObject({
      status: 'approved',
      hasAccess: true,
      course: { title: trained.title, duration: trained.duration, price: trained.price },
      progress: { completedVideos: 3, totalVideos: 4, percent: 75 },
    });
    expect(mine[0]).toMatchObject({ status: 'pending', hasAccess: false, progress: { completedVideos: 0, totalVideos: 0, percent: 0 } });

    const res = await portal.app.inject({ url: '/api/userCourses/user', headers: bearer(learner) });
    expect(res.statusCode).toBe(200);
    const [first, second] = res.json().data;
    expect(second).toMatchObject({
      _id: mine[1]!.id,
      status: 'approved',
      isActive: true,
      userId: { _id: learner.id, email: learner.email },
      courseId: { _id: trained.id, title: trained.title, subject: trained.subjects, isActive: true },
      courseTitle: trained.title,
      progress: { percent: 75 },
    });
    expect(first).toMatchObject({ status: 'pending', isActive: false });
    expect((await portal.app.inject({ url: '/api/userCourses/user' })).statusCode).toBe(401);
  });

  it('course home: for an approved learner, with the training parts in order, locks and progress', async ({ approvedLearner, as, courseWithTraining, db }) => {
    const learner = await approvedLearner();
    const course = await courseWithTraining(learner, 3, 1);
    const enrolment = await createEnrolment(db, { userId: learner.id, courseId: course.id, status: 'approved' });
    const home = await as(learner).enrolments.courseHome({ courseId: course.id });
    expect(home.course).toMatchObject({ id: course.id, subjects: course.subjects });
    // The set Submit Training names, and whether it was submitted.
    const [set] = await db.select().from(trainingVideoSets).where(eq(trainingVideoSets.courseId, course.id));
    expect(home.training).toMatchObject({ setId: set!.id, submittedAt: null });
    expect(home.enrolment.status).toBe('approved');
    expect(home.progress).toEqual({ completedVideos: 1, totalVideos: 3, percent: 33 });
    expect(home.training?.videos.map((v) => [v.serial, v.completed, v.locked])).toEqual([
      [1, true, false],
      [2, false, false],
      [3, false, true],
    ]);

    const empty = await createCourse(db);
    await createEnrolment(db, { userId: learner.id, courseId: empty.id, status: 'approved' });
    const none = await as(learner).enrolments.courseHome({ courseId: empty.id });
    expect(none.training).toBeNull();
    expect(none.progress.percent).toBe(0);

    const submittedAt = new Date('2026-11-20T08:00:00.000Z');
    await db.update(enrolments).set({ trainingSubmittedAt: submittedAt }).where(eq(enrolments.id, enrolment.id));
    expect((await as(learner).enrolments.courseHome({ courseId: course.id })).training?.submittedAt).toBe(submittedAt.toISOString());
  });

  it('course home: 404 when not approved, not enrolled, someone else’s or unknown', async ({ approvedLearner, as, db }) => {
    const learner = await approvedLearner();
    const other = await approvedLearner();
    const course = await createCourse(db);
    for (const status of ['pending', 'rejected'] as const) {
      const mine = await createCourse(db);
      await createEnrolment(db, { userId: learner.id, courseId: mine.id, status });
      await expect(as(learner).enrolments.courseHome({ courseId: mine.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
    await createEnrolment(db, { userId: other.id, courseId: course.id, status: 'approved' });
    for (const courseId of [course.id, MISSING]) {
      await expect(as(learner).enrolments.courseHome({ courseId })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: MESSAGES.courses.notFound,
      });
    }
    await expect(as(learner).enrolments.courseHome({ courseId: 'x' as string })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('deactivating a course hides it and stops requests, but approved learners keep their access', async ({ admin, approvedLearner, as, db, portal, rowsOf }) => {
    const kept = await approvedLearner();
    const late = await approvedLearner();
    const course = await createCourse(db);
    await createEnrolment(db, { userId: kept.id, courseId: course.id, status: 'approved' });
    await as(admin).courses.deactivate({ courseId: course.id });

    expect((await as(late).enrolments.dashboard()).map((c) => c.id)).not.toContain(course.id);
    expect((await portal.caller().courses.catalogue()).map((c) => c.id)).not.toContain(course.id);
    await expect(as(late).enrolments.request({ courseId: course.id })).rejects.toMatchObject({ code: 'CONFLICT', message: E.courseClosed });
    expect(await rowsOf(late.id, course.id)).toHaveLength(0);

    expect((await as(kept).enrolments.courseHome({ courseId: course.id })).course.isActive).toBe(false);
    const mine = await as(kept).enrolments.mine();
    expect(mine.find((e) => e.course.id === course.id)).toMatchObject({ hasAccess: true, course: { isActive: false } });
  });
});

describe('the administrators’ requests', () => {
  it('list only pending requests, newest first, with learner and course (tRPC and REST)', async ({ admin, approvedLearner, as, bearer, db, portal }) => {
    const learner = await approvedLearner();
    const course = await createCourse(db);
    const newest = await createEnrolment(db, {
      userId: learner.id,
      courseId: course.id,
      requestedAt: new Date(Date.now() + 3600_000),
    });
    const decided = await createEnrolment(db, {
      userId: (await approvedLearner()).id,
      courseId: course.id,
      status: 'approved',
      requestedAt: new Date(Date.now() + 7200_000),
    });

    const page = await as(admin).enrolments.search();
    expect(page.items[0]).toEqual({
      id: newest.id,
      status: 'pending',
      requestedAt: newest.requestedAt.toISOString(),
      decidedAt: null,
      user: { id: learner.id, name: `${learner.firstName} ${learner.lastName}`, email: learner.email },
      course: {
        id: course.id,
        title: course.title,
        description: course.description,
        duration: course.duration,
        price: course.price,
        category: course.category,
        isActive: true,
      },
    });
    expect(page.items.every((item) => item.status === 'pending')).toBe(true);
    expect(page.items.map((item) => item.id)).not.toContain(decided.id);

    const approvedPage = await as(admin).enrolments.search({ status: 'approved' });
    expect(approvedPage.items.map((item) => item.id)).toContain(decided.id);

    const res = await portal.app.inject({ url: '/api/userCourses/inactive', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0]).toEqual({
      _id: newest.id,
      userName: `${learner.firstName} ${learner.lastName}`,
      userId: { _id: learner.id, email: learner.email },
      courseId: course.id,
      courseTitle: course.title,
      courseDescription: course.description,
      courseDuration: course.duration,
      coursePrice: course.price,
      courseCategory: course.category,
      courseIsActive: true,
      status: 'pending',
      isActive: false,
      requestedAt: newest.requestedAt.toISOString(),
      decidedAt: null,
    });
    expect(Number(res.headers['x-total-count'])).toBe(page.total);
    expect(res.json().data).toHaveLength(page.total);
  });

  it('search over learner name, e-mail and course title, in any case, with wildcards taken literally', async ({ admin, approvedLearner, as, bearer, db, portal }) => {
    const tag = randomUUID().slice(0, 6);
    const learner = await approvedLearner({ firstName: 'Meera', lastName: `Iyer${tag}`, email: `meera.${tag}@fleet.example` });
    const other = await approvedLearner({ email: `other.${tag}@fleet.example` });
    const course = await createCourse(db, { title: `Helicopter Landing ${tag}` });
    const elsewhere = await createCourse(db);
    const a = await createEnrolment(db, { userId: learner.id, courseId: elsewhere.id });
    const b = await createEnrolment(db, { userId: other.id, courseId: course.id });
    const search = async (text: string) => (await as(admin).enrolments.search({ search: text })).items.map((i) => i.id).sort();

    expect(await search(`IYER${tag}`)).toEqual([a.id]);
    expect(await search(`meera iyer${tag}`)).toEqual([a.id]);
    expect(await search(`meera.${tag}@fleet`)).toEqual([a.id]);
    expect(await search(`landing ${tag}`.toUpperCase())).toEqual([b.id]);
    expect(await search(`${tag}`)).toEqual([a.id, b.id].sort());
    expect(await search(`%${tag}`)).toEqual([]);
    expect(await search(`_eera.${tag}`)).toEqual([]);
    expect(await search(`nobody-${tag}`)).toEqual([]);

    const rest = await portal.app.inject({
      url: `/api/userCourses/inactive?search=${encodeURIComponent(`MEERA.${tag}`)}&page=1`,
      headers: bearer(admin),
    });
    expect(rest.json()).toMatchObject({ total: 1, data: [{ _id: a.id }] });
  });

  it('come in pages with a total', async ({ admin, approvedLearner, as, bearer, db, portal }) => {
    const tag = randomUUID().slice(0, 6);
    const course = await createCourse(db, { title: `Paged ${tag}` });
    for (let i = 0; i < 5; i += 1) {
      await createEnrolment(db, { userId: (await approvedLearner()).id, courseId: course.id });
    }
    const first = await as(admin).enrolments.search({ search: tag, page: 1, pageSize: 2 });
    const third = await as(admin).enrolments.search({ search: tag, page: 3, pageSize: 2 });
    expect(first).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(first.items).toHaveLength(2);
    expect(third.items).toHaveLength(1);
    expect(await as(admin).enrolments.search({ search: tag, page: 9, pageSize: 2 })).toMatchObject({ items: [], total: 5 });
    const everyPending = await as(admin).enrolments.search({ pageSize: 2 });
    expect(await as(admin).enrolments.search({ page: 10_000, pageSize: 2 })).toMatchObject({ items: [], total: everyPending.total });
    const rest = await portal.app.inject({ url: `/api/userCourses/inactive?search=${tag}&page=2&pageSize=2`, headers: bearer(admin) });
    expect(rest.json()).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(rest.json().data).toHaveLength(2);
  });

  it('refuse bad queries with 400 and anyone but administrators', async ({ admin, approvedLearner, as, bearer, portal }) => {
    for (const query of ['page=0', 'pageSize=1000', 'page=x', `search=${'a'.repeat(101)}`, 'status=approved', 'search=a&search=b']) {
      const res = await portal.app.inject({ url: `/api/userCourses/inactive?${query}`, headers: bearer(admin) });
      expect(res.statusCode, query).toBe(400);
    }
    const learner = await approvedLearner();
    expect((await portal.app.inject({ url: '/api/userCourses/inactive', headers: bearer(learner) })).statusCode).toBe(403);
    expect((await portal.app.inject({ url: '/api/userCourses/inactive' })).statusCode).toBe(401);
    await expect(as(learner).enrolments.search()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('accepting and rejecting', () => {

  it('pending → approved → rejected, recording who and when; each repeat says so (409)', async ({ admin, as, db, portal, pendingRequest, row }) => {
    const { learner, course, enrolment } = await pendingRequest();
    invalidateCatalogue(portal.runtime);
    const accepted = await as(admin).enrolments.accept({ enrolmentId: enrolment.id });
    expect(accepted).toMatchObject({ message: E.accepted, request: { id: enrolment.id, status: 'approved' } });
    expect(await row(enrolment.id)).toMatchObject({ status: 'approved', decidedBy: admin.id });
    expect((await as(admin).enrolments.search()).items.map((i) => i.id)).not.toContain(enrolment.id);
    expect((await as(learner).enrolments.dashboard()).find((c) => c.id === course.id)?.enrolment?.status).toBe('approved');
    await expect(as(admin).enrolments.accept({ enrolmentId: enrolment.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: E.alreadyAccepted,
    });

    const rejected = await as(admin).enrolments.reject({ enrolmentId: enrolment.id });
    expect(rejected).toMatchObject({ message: E.rejected, request: { status: 'rejected' } });
    expect((await row(enrolment.id)).status).toBe('rejected');
    await expect(as(learner).enrolments.courseHome({ courseId: course.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(as(admin).enrolments.reject({ enrolmentId: enrolment.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: E.alreadyRejected,
    });
    // Spec section 2: Accept is offered whenever the request is inactive, a rejected one included.
    const reaccepted = await as(admin).enrolments.accept({ enrolmentId: enrolment.id });
    expect(reaccepted).toMatchObject({ message: E.accepted, request: { status: 'approved' } });
    expect((await row(enrolment.id)).status).toBe('approved');
    await portal.drainJobs();
    // One mail per decision, to the learner, sent once.
    const sent = await db.select().from(mails).where(eq(mails.to, learner.email));
    expect(sent.map((mail) => mail.subject.replace(/^.*: /, '')).sort()).toEqual([
      'your enrolment was accepted',
      'your enrolment was accepted',
      'your enrolment was not accepted',
    ]);
    expect(sent.every((mail) => mail.sentAt !== null)).toBe(true);
    // Delivered mail keeps no body in the table; without SMTP it is written to the outbox folder.
    const outbox = path.join(portal.dataDir, 'outbox');
    const delivered = readdirSync(outbox).map((file) => readFileSync(path.join(outbox, file), 'utf8'));
    expect(delivered.filter((mail) => mail.includes(learner.email) && mail.includes(`was not accepted`))).toHaveLength(1);
  });

  it('a refused decision sends no mail', async ({ admin, as, db, portal, pendingRequest }) => {
    const { learner, enrolment } = await pendingRequest();
    await as(admin).enrolments.accept({ enrolmentId: enrolment.id });
    await expect(as(admin).enrolments.accept({ enrolmentId: enrolment.id })).rejects.toMatchObject({ code: 'CONFLICT' });
    await portal.drainJobs();
    expect(await db.select().from(mails).where(eq(mails.to, learner.email))).toHaveLength(1);
  });

  it('a pending request can be rejected straight away', async ({ admin, as, pendingRequest, row }) => {
    const { enrolment } = await pendingRequest();
    await as(admin).enrolments.reject({ enrolmentId: enrolment.id });
    expect((await row(enrolment.id)).status).toBe('rejected');
  });

  it('through REST: PUT activate and deactivate with the spec’s messages', async ({ admin, bearer, portal, pendingRequest, row }) => {
    const { learner, enrolment } = await pendingRequest();
    const accept = await portal.app.inject({ method: 'PUT', url: `/api/userCourses/activate/${enrolment.id}`, headers: bearer(admin) });
    expect(accept.statusCode).toBe(200);
    expect(accept.json()).toMatchObject({ message: E.accepted, data: { _id: enrolment.id, status: 'approved', isActive: true } });
    const reject = await portal.app.inject({ method: 'PUT', url: `/api/userCourses/deactivate/${enrolment.id}`, headers: bearer(admin) });
    expect(reject.json()).toMatchObject({ message: E.rejected, data: { status: 'rejected', isActive: false } });
    const again = await portal.app.inject({ method: 'PUT', url: `/api/userCourses/deactivate/${enrolment.id}`, headers: bearer(admin) });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: E.alreadyRejected });

    const byLearner = await portal.app.inject({ method: 'PUT', url: `/api/userCourses/activate/${enrolment.id}`, headers: bearer(learner) });
    expect(byLearner.statusCode).toBe(403);
    const missing = await portal.app.inject({ method: 'PUT', url: `/api/userCourses/activate/${MISSING}`, headers: bearer(admin) });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: E.notFound });
    const bad = await portal.app.inject({ method: 'PUT', url: '/api/userCourses/activate/%00', headers: bearer(admin) });
    expect(bad.statusCode).toBe(400);
    expect((await row(enrolment.id)).status).toBe('rejected');
  });

  it('is for administrators only', async ({ as, portal, pendingRequest, row }) => {
    const { learner, enrolment } = await pendingRequest();
    await expect(as(learner).enrolments.accept({ enrolmentId: enrolment.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(portal.caller().enrolments.reject({ enrolmentId: enrolment.id })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await row(enrolment.id)).status).toBe('pending');
  });
});
