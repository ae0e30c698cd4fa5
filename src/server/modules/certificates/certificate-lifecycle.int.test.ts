import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { TRPCError } from '@trpc/server';
import { and, eq, like, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { addDays, utcDay } from '../../../shared/calendar.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TCourseCertificateSettingsRequest } from '../../../shared/schemas/course.ts';
import type { TTestForm } from '../../../shared/schemas/tests.ts';
import { createCourse, createEnrolment, createProfileRow, createUser, sessionOf } from '../../../testing/factories.ts';
import { uniqueIp } from '../../../testing/mailbox.ts';
import { describe, expect, inject, test, type TPublishedTest, type TTestUser } from '../../../testing/portal-test.ts';
import type { Database } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';
import { certificates, certificateVersions, courses, jobOutbox, profiles, testAttempts, tests, users } from '../../db/schema.ts';
import { validUntilFor } from './certificate-state.ts';
import { storedCertificateFileNames } from './certificate-serving.service.ts';
import { myCertificates } from './certificates.service.ts';

const run = promisify(execFile);
const C = MESSAGES.certificate;
const A = MESSAGES.certificateAdmin;
const CC = MESSAGES.courseCertificate;
type TUser = TTestUser;
type TCertificateRow = typeof certificates.$inferSelect;

const QUESTIONS: TTestForm['questions'] = [
  { questionText: 'Which extinguisher suits an electrical fire?', options: ['Water', 'CO2', 'Foam', 'Wet sand'], correctAnswer: 'CO2' },
  { questionText: 'A lifejacket light must burn for at least how long?', options: ['2 hours', '4 hours', '8 hours', '12 hours'], correctAnswer: '8 hours' },
];

async function waitUntil<T>(check: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function rejection(work: Promise<unknown>): Promise<TRPCError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

test.override({ portalOptions: { env: { PUBLIC_URL: 'https://academy.example' } } });

const it = test
  .extend('admin', { scope: 'file' }, ({ staff }) => staff)
  .extend('visitor', { scope: 'file' }, ({ portal }) => () => portal.caller(null, uniqueIp()))
  /** Sets a course's certificate settings as an administrator would, leaving unsaid ones unset. */
  .extend('settle', { scope: 'file' }, ({ as, admin }) => (courseId: string, settings: Partial<Omit<TCourseCertificateSettingsRequest, 'courseId'>>) => {
    return as(admin).courses.updateCertificateSettings({
      courseId,
      code: null,
      approvalNumber: null,
      validityMonths: null,
      refresherCourseId: null,
      testRequiresApprovedProfile: false,
      ...settings,
    });
  })
  .extend('enrolIn', { scope: 'file' }, ({ db }) => (learner: TUser, courseId: string) =>
    createEnrolment(db, { userId: learner.id, courseId, status: 'approved', decidedAt: new Date(), trainingSubmittedAt: new Date() }))
  .extend('pass', { scope: 'file' }, ({ as }) => async (learner: TUser, where: TPublishedTest) => {
    await as(learner).tests.take({ courseId: where.course.id });
    const answers = where.test.questions.map((question) => ({ questionId: question.id, selectedAnswer: question.correctAnswer }));
    const result = await as(learner).tests.submit({ testId: where.test.id, answers });
    expect(result.passed).toBe(true);
    return result.certificate!;
  })
  .extend('ready', { scope: 'file' }, ({ as }) => (learner: TUser, courseId: string) =>
    waitUntil(async () => {
      const certificate = await as(learner).certificates.forCourse({ courseId });
      return certificate.status === 'ready' && certificate;
    }))
  .extend('rowOf', { scope: 'file' }, ({ db }) => async (id: string) => (await db.select().from(certificates).where(eq(certificates.id, id)))[0]!)
  /** A ready certificate written straight into the database (a course, its test, a passing attempt), with the given columns. */
  .extend('certificateRow', { scope: 'file' }, ({ db }) => async (learner: TUser, overrides: Partial<typeof certificates.$inferInsert> = {}): Promise<TCertificateRow & { courseTitle: string }> => {
    const course = await createCourse(db);
    const [test] = await db.insert(tests).values({ courseId: course.id, title: 'Assessment', passMark: 50 }).returning();
    const [attempt] = await db
      .insert(testAttempts)
      .values({ userId: learner.id, testId: test!.id, courseId: course.id, submittedAt: new Date(), score: 2, totalQuestions: 2, percentage: 100, passed: true, timeTakenSeconds: 30 })
      .returning();
    const [serial] = await db.select({ n: sql<string>`nextval('certificate_number_seq')::text` }).from(sql`(values (1)) as one`);
    const [row] = await db
      .insert(certificates)
      .values({
        userId: learner.id,
        courseId: course.id,
        attemptId: attempt!.id,
        number: `MTA/2026/${serial!.n.padStart(6, '0')}`,
        verificationCode: randomBytes(20).toString('base64url'),
        holderName: `${learner.firstName} ${learner.lastName}`,
        status: 'ready',
        pdfFile: `${randomBytes(18).toString('hex')}.pdf`,
        ...overrides,
      })
      .returning();
    return { ...row!, courseTitle: course.title };
  })
  /** The page's text as poppler reads it, lines joined. */
  .extend('pdfText', { scope: 'file' }, ({ portal }) => async (pdfUrl: string): Promise<string> => {
    const copy = await portal.runtime.files.localCopy('certificates', pdfUrl.replace('/certificates/', ''));
    try {
      const { stdout } = await run('pdftotext', ['-layout', copy.path, '-']);
      return stdout.replace(/\s+/g, ' ');
    } finally {
      await copy.release();
    }
  });

const today = () => utcDay();

describe('states at their boundaries', () => {
  it('reads valid, expiring and expired around the last valid day, and revoked and superseded before any date, the same for the learner and on the verify page', async ({ portal, db, as, visitor, certificateRow }) => {
    const learner = await createUser(db, { approvedAt: new Date(), firstName: 'Meera', lastName: 'Iyer' });
    const day = today();
    const renewal = await certificateRow(learner, { validUntil: addDays(day, 91) });
    const cases = [
      { name: 'the day before expiry', values: { validUntil: addDays(day, 1) }, state: 'expiring' },
      { name: 'the day of expiry', values: { validUntil: day }, state: 'expiring' },
      { name: 'the day after expiry', values: { validUntil: addDays(day, -1) }, state: 'expired' },
      { name: 'the first day of the window', values: { validUntil: addDays(day, 90) }, state: 'expiring' },
      { name: 'the day before the window', values: { validUntil: addDays(day, 91) }, state: 'valid' },
      { name: 'never expires', values: { validUntil: null }, state: 'valid' },
      { name: 'revoked before expiry', values: { validUntil: addDays(day, 400), revokedAt: new Date(), revokeReason: 'Issued in error' }, state: 'revoked' },
      { name: 'revoked after expiry', values: { validUntil: addDays(day, -30), revokedAt: new Date() }, state: 'revoked' },
      { name: 'superseded', values: { validUntil: addDays(day, 10), supersededAt: new Date(), supersededById: renewal.id }, state: 'superseded' },
    ] as const;
    const rows = [];
    for (const example of cases) rows.push({ ...example, row: await certificateRow(learner, example.values) });

    const mine = await as(learner).certificates.mine();
    expect(mine).toHaveLength(cases.length + 1);
    for (const { name, row, state } of rows) {
      const own = mine.find((certificate) => certificate.id === row.id)!;
      expect({ name, state: own.state, validUntil: own.validUntil, revoked: own.revoked }).toEqual({ name, state, validUntil: row.validUntil, revoked: state === 'revoked' });
      const full = await visitor().certificates.verify({ number: row.number, code: row.verificationCode });
      expect({ name, ...full }).toMatchObject({ name, detail: 'full', state, validUntil: row.validUntil, version: 1, holderName: 'Meera Iyer' });
      const masked = await visitor().certificates.verify({ number: row.number });
      expect({ name, ...masked }).toEqual({ name, detail: 'masked', number: row.number, state, maskedName: 'M. I***', issuedAt: row.issuedAt.toISOString(), validUntil: row.validUntil });
    }
    const superseded = rows.find((example) => example.state === 'superseded')!;
    expect(mine.find((certificate) => certificate.id === superseded.row.id)!.supersededBy).toEqual({ number: renewal.number, courseTitle: renewal.courseTitle });
    // The revoke reason is the holder's to read; verification never says it.
    const revoked = rows[6]!.row;
    expect(mine.find((certificate) => certificate.id === revoked.id)!.revokeReason).toBe('Issued in error');
    expect(JSON.stringify(await visitor().certificates.verify({ number: revoked.number, code: revoked.verificationCode }))).not.toContain('Issued in error');

    // The window is the earliest reminder day of the setting.
    const narrower = await myCertificates({ db, logger: portal.runtime.logger, env: { ...portal.runtime.env, CERTIFICATE_REMINDER_DAYS: [30, 7] } }, sessionOf(learner));
    const stateIn30 = (validUntil: string) => narrower.find((certificate) => certificate.validUntil === validUntil && !certificate.revoked && certificate.id !== superseded.row.id)?.state;
    expect(stateIn30(addDays(day, 90))).toBe('valid');
    expect(stateIn30(day)).toBe('expiring');
  });

  it.runIf(inject('databaseUrl'))("reads a learner's certificates with their links and refreshers in one query, however many there are", async ({ portal, db, certificateRow }) => {
    const learner = await createUser(db, { approvedAt: new Date() });
    const refresher = await createCourse(db);
    for (let index = 0; index < 12; index += 1) {
      const row = await certificateRow(learner, { validUntil: addDays(today(), index * 10) });
      await db.update(courses).set({ refresherCourseId: refresher.id }).where(eq(courses.id, row.courseId));
    }
    let queries = 0;
    const client = postgres(inject('databaseUrl')!, { max: 1, onnotice: () => {} });
    try {
      const counted = drizzle(client, { schema, logger: { logQuery: () => (queries += 1) } }) as unknown as Database;
      const mine = await myCertificates({ db: counted, logger: portal.runtime.logger, env: portal.runtime.env }, sessionOf(learner));
      expect(mine).toHaveLength(12);
      expect(mine.every((certificate) => certificate.refresher?.courseId === refresher.id && !certificate.refresher.enrolled)).toBe(true);
      expect(queries).toBe(1);
    } finally {
      await client.end();
    }
  });
});

describe('the refresher renews a certificate', () => {
  it("a pass of the refresher supersedes the original, whose verification names the new number; the new one names the one it renews", async ({ as, admin, learnerIn, publishedTest, visitor, settle, enrolIn, pass, ready, rowOf }) => {
    const original = await publishedTest({ questions: QUESTIONS });
    const refresher = await publishedTest({ questions: QUESTIONS });
    await settle(original.course.id, { code: 'PST', validityMonths: 60, refresherCourseId: refresher.course.id });
    await settle(refresher.course.id, { code: 'PST-R', validityMonths: 60 });
    const learner = await learnerIn(original.course.id);
    await pass(learner, original);
    const first = await ready(learner, original.course.id);
    expect(first).toMatchObject({ state: 'valid', refresher: { courseId: refresher.course.id, title: refresher.course.title, enrolled: false }, supersededBy: null, renews: null });

    // Asking to enrol in the refresher shows as enrolled.
    await enrolIn(learner, refresher.course.id);
    expect((await as(learner).certificates.forCourse({ courseId: original.course.id })).refresher).toEqual({ courseId: refresher.course.id, title: refresher.course.title, enrolled: true });

    const renewal = await pass(learner, refresher);
    const [old, renewed] = await Promise.all([rowOf(first.id), rowOf(renewal.id)]);
    expect(old).toMatchObject({ supersededById: renewed.id });
    expect(old.supersededAt).not.toBeNull();
    expect(renewed).toMatchObject({ renewsId: old.id, courseCode: 'PST-R' });

    const oldAnswer = await visitor().certificates.verify({ number: old.number, code: old.verificationCode });
    expect(oldAnswer).toMatchObject({ detail: 'full', state: 'superseded', supersededBy: { number: renewed.number, courseTitle: refresher.course.title }, renews: null, courseCode: 'PST' });
    expect(await visitor().certificates.verify({ number: old.number })).toMatchObject({ detail: 'masked', state: 'superseded' });
    const newAnswer = await visitor().certificates.verify({ number: renewed.number, code: renewed.verificationCode });
    expect(newAnswer).toMatchObject({ detail: 'full', state: 'valid', renews: { number: old.number, courseTitle: original.course.title }, supersededBy: null });

    const mine = await as(learner).certificates.mine();
    expect(mine.map((certificate) => [certificate.number, certificate.state])).toEqual([
      [old.number, 'superseded'],
      [renewed.number, 'valid'],
    ]);
    // A superseded certificate is not re-issued.
    const refused = await rejection(as(admin).certificates.reissue({ certificateId: old.id }));
    expect([refused.code, refused.message]).toEqual(['CONFLICT', A.cannotReissueSuperseded]);
  });
});

describe('re-issue', () => {

  it('makes version 2 with the same number and the corrected name; the old code and PDF answer that version 2 replaced them', async ({ portal, db, as, admin, learnerIn, publishedTest, visitor, settle, pass, ready, rowOf, pdfText }) => {
    const where = await publishedTest({ questions: QUESTIONS });
    await settle(where.course.id, { code: 'FPFF', approvalNumber: 'DGS/TC/2026/017', validityMonths: 60 });
    const learner = await learnerIn(where.course.id);
    await createProfileRow(db, learner.id, { name: 'Arjun Nair' });
    await pass(learner, where);
    const first = await ready(learner, where.course.id);
    const before = await rowOf(first.id);
    expect(before).toMatchObject({ version: 1, holderName: 'Arjun Nair', courseCode: 'FPFF', approvalNumber: 'DGS/TC/2026/017', validUntil: validUntilFor(before.issuedAt, 60) });
    expect(await visitor().certificates.verify({ number: before.number, code: before.verificationCode })).toEqual({
      detail: 'full',
      number: before.number,
      version: 1,
      state: 'valid',
      holderName: 'Arjun Nair',
      courseTitle: where.course.title,
      courseCode: 'FPFF',
      approvalNumber: 'DGS/TC/2026/017',
      issuedAt: before.issuedAt.toISOString(),
      validUntil: before.validUntil,
      supersededBy: null,
      renews: null,
    });

    // The name is corrected on the profile; the course's terms change too, which an issued certificate keeps.
    await db.update(profiles).set({ name: 'Arjun Kumar Nair' }).where(eq(profiles.userId, learner.id));
    await settle(where.course.id, { code: 'FPFF2', approvalNumber: 'DGS/TC/2027/001', validityMonths: 12 });
    const learnerTried = await rejection(as(learner).certificates.reissue({ certificateId: first.id }));
    expect(learnerTried.code).toBe('FORBIDDEN');
    expect(await rowOf(first.id)).toEqual(before);

    const answer = await as(admin).certificates.reissue({ certificateId: first.id });
    expect(answer.message).toBe(A.reissued(2));
    expect(answer.certificate).toMatchObject({
      id: first.id,
      number: before.number,
      version: 2,
      state: 'valid',
      status: 'pending',
      pdfUrl: null,
      holder: { userId: learner.id, name: 'Arjun Kumar Nair', email: learner.email },
      course: { id: where.course.id, title: where.course.title, code: 'FPFF' },
      issuedAt: before.issuedAt.toISOString(),
      validUntil: before.validUntil,
      revokedAt: null,
      supersededBy: null,
      lastReminder: null,
    });

    const after = await rowOf(first.id);
    expect(after).toMatchObject({
      number: before.number,
      version: 2,
      holderName: 'Arjun Kumar Nair',
      issuedAt: before.issuedAt,
      validUntil: before.validUntil,
      courseCode: 'FPFF',
      approvalNumber: 'DGS/TC/2026/017',
    });
    expect(after.verificationCode).not.toBe(before.verificationCode);
    expect(after.reissuedAt).not.toBeNull();
    const versions = await db.select().from(certificateVersions).where(eq(certificateVersions.certificateId, first.id));
    expect(versions).toMatchObject([
      { version: 1, verificationCode: before.verificationCode, pdfFile: before.pdfFile, holderName: 'Arjun Nair', madeAt: before.issuedAt, replacedBy: admin.id },
    ]);

    // The first version's code and PDF say which version replaced them.
    expect(await visitor().certificates.verify({ number: before.number, code: before.verificationCode })).toEqual({
      detail: 'superseded-version',
      number: before.number,
      version: 1,
      currentVersion: 2,
    });
    const oldPdf = await portal.app.inject({ url: first.pdfUrl! });
    expect(oldPdf.statusCode).toBe(410);
    expect(oldPdf.json()).toEqual({ message: C.supersededVersion(2) });
    // Its file stays: the sweep keeps what a version still points to.
    expect(await storedCertificateFileNames(portal.runtime)).toContain(before.pdfFile);

    const second = await ready(learner, where.course.id);
    expect(second).toMatchObject({ version: 2, state: 'valid', number: before.number, verificationCode: after.verificationCode });
    expect(second.pdfUrl).not.toBe(first.pdfUrl);
    const pdf = await portal.app.inject({ url: second.pdfUrl! });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pdfText(second.pdfUrl!)).toContain('Arjun Kumar Nair');
    expect(await visitor().certificates.verify({ number: before.number, code: after.verificationCode })).toMatchObject({
      detail: 'full',
      version: 2,
      holderName: 'Arjun Kumar Nair',
      issuedAt: before.issuedAt.toISOString(),
      validUntil: before.validUntil,
      courseCode: 'FPFF',
    });
    const renders = await db.select().from(jobOutbox).where(and(eq(jobOutbox.name, 'render-certificate'), like(jobOutbox.businessKey, `${first.id}%`)));
    expect(renders.map((job) => [job.businessKey, job.status]).sort()).toEqual([
      [first.id, 'done'],
      [`${first.id}:v2`, 'done'],
    ]);

    // Version 3: both earlier codes name it.
    const third = await as(admin).certificates.reissue({ certificateId: first.id });
    expect(third).toMatchObject({ message: A.reissued(3), certificate: { version: 3, number: before.number } });
    expect(await visitor().certificates.verify({ number: before.number, code: before.verificationCode })).toMatchObject({ detail: 'superseded-version', version: 1, currentVersion: 3 });
    expect(await visitor().certificates.verify({ number: before.number, code: after.verificationCode })).toMatchObject({ detail: 'superseded-version', version: 2, currentVersion: 3 });
    expect((await portal.app.inject({ url: second.pdfUrl! })).json()).toEqual({ message: C.supersededVersion(3) });
    const kept = await storedCertificateFileNames(portal.runtime);
    expect([kept.has(before.pdfFile!), kept.has(second.pdfUrl!.replace('/certificates/', ''))]).toEqual([true, true]);
    await ready(learner, where.course.id);
  });

  it('two re-issues at once make one new version; the other is refused', async ({ portal, db, as, admin, certificateRow }) => {
    const learner = await createUser(db, { approvedAt: new Date() });
    const certificate = await certificateRow(learner);
    const outcomes = await Promise.allSettled([
      as(admin).certificates.reissue({ certificateId: certificate.id }),
      as(admin).certificates.reissue({ certificateId: certificate.id }),
    ]);
    const made = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.certificate.version] : []));
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [(outcome.reason as TRPCError).message] : []));
    expect([made, refused]).toEqual([[2], [A.cannotReissuePending]]);
    expect(await db.select({ version: certificateVersions.version }).from(certificateVersions).where(eq(certificateVersions.certificateId, certificate.id))).toEqual([{ version: 1 }]);
    await portal.drainJobs();
  });

  it('refuses a revoked, a superseded, an unrendered or an unknown certificate, and changes nothing', async ({ db, as, admin, rowOf, certificateRow }) => {
    const learner = await createUser(db, { approvedAt: new Date() });
    const renewal = await certificateRow(learner);
    const revoked = await certificateRow(learner, { revokedAt: new Date() });
    const superseded = await certificateRow(learner, { supersededAt: new Date(), supersededById: renewal.id });
    const pending = await certificateRow(learner, { status: 'pending', pdfFile: null });
    const failed = await certificateRow(learner, { status: 'failed' });
    const outboxBefore = await db.select({ n: sql<number>`count(*)::int` }).from(jobOutbox);
    for (const [row, message] of [
      [revoked, A.cannotReissueRevoked],
      [superseded, A.cannotReissueSuperseded],
      [pending, A.cannotReissuePending],
      [failed, A.cannotReissuePending],
    ] as const) {
      const refused = await rejection(as(admin).certificates.reissue({ certificateId: row.id }));
      expect([refused.code, refused.message]).toEqual(['CONFLICT', message]);
      const { courseTitle: _title, ...unchanged } = row;
      expect(await rowOf(row.id)).toEqual(unchanged);
    }
    const unknown = await rejection(as(admin).certificates.reissue({ certificateId: '00000000-0000-4000-8000-000000000000' }));
    expect([unknown.code, unknown.message]).toEqual(['NOT_FOUND', C.notFound]);
    const ids = [revoked.id, superseded.id, pending.id, failed.id];
    expect((await db.select().from(certificateVersions)).filter((version) => ids.includes(version.certificateId))).toEqual([]);
    expect(await db.select({ n: sql<number>`count(*)::int` }).from(jobOutbox)).toEqual(outboxBefore);
  });
});

describe("a course's certificate settings", () => {
  it('start unset, save what is valid, and refuse an unknown course, an unknown or self refresher and a validity out of range, changing nothing', async ({ portal, db, as, admin, settle }) => {
    const course = await createCourse(db);
    const other = await createCourse(db);
    expect(await as(admin).courses.certificateSettings({ courseId: course.id })).toEqual({
      code: null,
      approvalNumber: null,
      validityMonths: null,
      refresher: null,
      testRequiresApprovedProfile: false,
    });
    const saved = await settle(course.id, { code: ' fpff ', approvalNumber: 'DGS/TC/2026/017', validityMonths: 60, refresherCourseId: other.id, testRequiresApprovedProfile: true });
    const settings = { code: 'FPFF', approvalNumber: 'DGS/TC/2026/017', validityMonths: 60, refresher: { id: other.id, title: other.title }, testRequiresApprovedProfile: true };
    expect(saved).toEqual({ message: CC.saved, settings });
    const [rowBefore] = await db.select().from(courses).where(eq(courses.id, course.id));

    const missing = '00000000-0000-4000-8000-000000000000';
    const refusals: Array<[Partial<TCourseCertificateSettingsRequest>, string, string]> = [
      [{ refresherCourseId: missing }, 'BAD_REQUEST', CC.refresherUnknown],
      [{ refresherCourseId: course.id }, 'BAD_REQUEST', CC.refresherSelf],
      [{ validityMonths: 0 }, 'BAD_REQUEST', CC.validityRange],
      [{ validityMonths: 121 }, 'BAD_REQUEST', CC.validityRange],
      [{ validityMonths: 1.5 }, 'BAD_REQUEST', CC.validityRange],
      [{ code: 'F P' }, 'BAD_REQUEST', CC.codeFormat],
    ];
    for (const [change, code, message] of refusals) {
      const refused = await rejection(settle(course.id, { ...change }));
      expect([refused.code, refused.message], JSON.stringify(change)).toEqual([code, expect.stringContaining(message)]);
    }
    const unknown = await rejection(as(admin).courses.updateCertificateSettings({ courseId: missing, code: null, approvalNumber: null, validityMonths: 12, refresherCourseId: null, testRequiresApprovedProfile: false }));
    expect([unknown.code, unknown.message]).toEqual(['NOT_FOUND', MESSAGES.courses.notFound]);
    const notThere = await rejection(as(admin).courses.certificateSettings({ courseId: missing }));
    expect(notThere.code).toBe('NOT_FOUND');
    expect((await db.select().from(courses).where(eq(courses.id, course.id)))[0]).toEqual(rowBefore);
    expect(await as(admin).courses.certificateSettings({ courseId: course.id })).toEqual(settings);

    // Over HTTP the answer is a 400 with the message, as the form shows it.
    const overHttp = await portal.app.inject({
      method: 'POST',
      url: '/trpc/courses.updateCertificateSettings',
      headers: { authorization: portal.authorization(admin) },
      payload: { courseId: course.id, code: null, approvalNumber: null, validityMonths: 121, refresherCourseId: null, testRequiresApprovedProfile: false },
    });
    expect(overHttp.statusCode).toBe(400);
    expect(overHttp.body).toContain(CC.validityRange);

    // "None" clears each again.
    const cleared = await settle(course.id, { code: '', approvalNumber: '' });
    expect(cleared.settings).toEqual({ code: null, approvalNumber: null, validityMonths: null, refresher: null, testRequiresApprovedProfile: false });
  });
});

describe('a test that requires an approved profile', () => {
  it('stays closed, saying why, until the account is approved and the profile holds INDOS, date of birth and passport', async ({ portal, db, as, admin, learnerIn, publishedTest, settle, pass, rowOf }) => {
    const where = await publishedTest({ questions: QUESTIONS });
    await settle(where.course.id, { testRequiresApprovedProfile: true });
    const learner = await learnerIn(where.course.id, { user: { approvedAt: null } });
    const attempts = async () => db.select().from(testAttempts).where(eq(testAttempts.userId, learner.id));
    const blocked = { reason: 'profileRequired', message: CC.profileRequired };

    const refusedNow = async (why: string) => {
      expect(await as(learner).tests.status({ courseId: where.course.id }), why).toMatchObject({ state: 'open', blocked });
      const refused = await rejection(as(learner).tests.take({ courseId: where.course.id }));
      expect([refused.code, refused.message], why).toEqual(['FORBIDDEN', CC.profileRequired]);
      expect(await attempts(), why).toEqual([]);
    };
    await refusedNow('no profile, account not approved');
    await createProfileRow(db, learner.id, { passportNumber: '  ' });
    await refusedNow('no passport number');
    await db.update(profiles).set({ passportNumber: 'Z1234567' }).where(eq(profiles.userId, learner.id));
    await refusedNow('complete profile, account not approved');
    const rest = await portal.app.inject({ url: `/api/test/${where.course.id}`, headers: { authorization: portal.authorization(learner) } });
    expect(rest.statusCode).toBe(403);
    expect(rest.json()).toEqual({ message: CC.profileRequired });

    await db.update(users).set({ approvedAt: new Date(), approvedBy: admin.id }).where(eq(users.id, learner.id));
    const status = await as(learner).tests.status({ courseId: where.course.id });
    expect(status.state).toBe('open');
    expect(status).not.toHaveProperty('blocked');
    const certificate = await pass(learner, where);
    expect(await attempts()).toHaveLength(1);
    // The certificate prints the approved profile's documents.
    expect(await rowOf(certificate.id)).toMatchObject({ holderPassportNumber: 'Z1234567', holderDateOfBirth: '1990-04-12' });
  });

  it('leaves a course without the setting open to a learner with no profile', async ({ as, learnerIn, publishedTest, pass }) => {
    const where = await publishedTest({ questions: QUESTIONS });
    const learner = await learnerIn(where.course.id, { user: { approvedAt: null } });
    const status = await as(learner).tests.status({ courseId: where.course.id });
    expect(status.state).toBe('open');
    expect(status).not.toHaveProperty('blocked');
    await pass(learner, where);
  });
});
