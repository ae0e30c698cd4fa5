import { personName } from '../../../shared/names.ts';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { TRPCError } from '@trpc/server';
import { and, eq, inArray, sql } from 'drizzle-orm';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TAdminTest, TTestForm } from '../../../shared/schemas/tests.ts';
import { createCourse, createEnrolment, createProfileRow, createUser, sessionOf } from '../../../testing/factories.ts';
import { mailsTo, uniqueIp } from '../../../testing/mailbox.ts';
import { startSmtpServer } from '../../../testing/smtp-server.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';
import { certificates, jobOutbox, mails, profiles, testAttempts } from '../../db/schema.ts';
import type { JobContext } from '../../lib/jobs/runner.ts';
import { VERIFY_HOLDER_LIMIT, VERIFY_LIMIT, VERIFY_NUMBER_LIMITS } from './certificate-verification.service.ts';
import { renderCertificate } from './render-certificate.job.ts';
import { afterAll, beforeAll, describe, expect, inject, test } from '../../../testing/portal-test.ts';

const run = promisify(execFile);
const C = MESSAGES.certificate;
const PUBLIC_URL = 'https://academy.example';
type TUser = Awaited<ReturnType<typeof createUser>>;
type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;
type TUserOverrides = Parameters<typeof createUser>[1];
type TProfileOverrides = Parameters<typeof createProfileRow>[2];

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

/** The page's text as poppler reads it, lines joined. */
async function pdfText(file: string): Promise<string> {
  const { stdout } = await run('pdftotext', ['-layout', file, '-']);
  return stdout.replace(/\s+/g, ' ');
}

/** The QR code on page 1, decoded from a 150 dpi rendering. */
async function qrIn(file: string): Promise<string | undefined> {
  const dir = mkdtempSync(path.join(tmpdir(), 'certificate-png-'));
  try {
    await run('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '1', file, path.join(dir, 'page')]);
    const png = PNG.sync.read(readFileSync(path.join(dir, readdirSync(dir)[0]!)));
    return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type TCaller = ReturnType<TestPortal['caller']>;

/** The learner (as their caller) takes the test and answers every question right. */
async function pass(me: TCaller, course: { id: string }, test: TAdminTest) {
  await me.tests.take({ courseId: course.id });
  const answers = test.questions.map((question) => ({ questionId: question.id, selectedAnswer: question.correctAnswer }));
  return me.tests.submit({ testId: test.id, answers });
}

/** The learner's certificate for the course once its PDF is rendered. */
function readyCertificate(me: TCaller, courseId: string) {
  return waitUntil(async () => {
    const certificate = await me.certificates.forCourse({ courseId });
    return certificate.status === 'ready' && certificate;
  });
}

type TLearnerOptions = { profile?: boolean | TProfileOverrides; user?: TUserOverrides };
/** What issuing a certificate by hand needs: a database, a course with a published test, learners in it. */
type TIssuer = {
  db: TestPortal['runtime']['db'];
  publishedTest(): Promise<{ course: { id: string; title: string }; test: TAdminTest }>;
  learnerIn(courseId: string, options?: TLearnerOptions): Promise<TUser>;
};

/**
 * Everything a portal of the file's own needs to issue certificates: an admin, courses with a
 * published test, learners who pass.
 */
function kit(portal: () => TestPortal) {
  const db = () => portal().runtime.db;
  let admin: TUser;
  const as = (user: TUser) => portal().caller(sessionOf(user));
  return {
    async init() {
      admin = await createUser(db(), { role: 'admin', approvedAt: new Date() });
    },
    admin: () => admin,
    as,
    bearer: (user: TUser) => ({ authorization: portal().authorization(user) }),
    async publishedTest() {
      const course = await createCourse(db());
      const { test } = await as(admin).tests.create({ courseId: course.id, title: course.title, passMark: 50, questions: QUESTIONS });
      await as(admin).tests.publish({ testId: test.id });
      return { course, test };
    },
    async learnerIn(courseId: string, options: TLearnerOptions = {}) {
      const learner = await createUser(db(), { approvedAt: new Date(), ...options.user });
      if (options.profile) await createProfileRow(db(), learner.id, options.profile === true ? {} : options.profile);
      await createEnrolment(db(), { userId: learner.id, courseId, status: 'approved', decidedAt: new Date(), trainingSubmittedAt: new Date() });
      return learner;
    },
    pass: (learner: TUser, course: { id: string }, test: TAdminTest) => pass(as(learner), course, test),
    ready: (learner: TUser, courseId: string) => readyCertificate(as(learner), courseId),
  };
}

/**
 * A pending certificate whose render job was never queued, to drive the job by hand or to verify:
 * issued straight into the database, to a learner made with the given options.
 */
async function issueWithoutPdf({ db: database, publishedTest, learnerIn }: TIssuer, options: TLearnerOptions = {}) {
  const db = () => database;
  const { course, test } = await publishedTest();
  const learner = await learnerIn(course.id, options);
  const [attempt] = await db()
    .insert(testAttempts)
    .values({ userId: learner.id, testId: test.id, courseId: course.id, submittedAt: new Date(), score: 2, totalQuestions: 2, percentage: 100, passed: true, timeTakenSeconds: 30 })
    .returning();
  const [serial] = await db().execute<{ n: string }>(sql`select nextval('certificate_number_seq')::text as n`).then(
    (rows) => (Array.isArray(rows) ? rows : (rows as unknown as { rows: Array<{ n: string }> }).rows),
  );
  const [certificate] = await db()
    .insert(certificates)
    .values({ userId: learner.id, courseId: course.id, attemptId: attempt!.id, number: `MTA/2026/${serial!.n.padStart(6, '0')}`, verificationCode: `code-${serial!.n}-${learner.id}`, holderName: personName(learner) })
    .returning();
  return { learner, course, certificate: certificate! };
}

test.override({ portalOptions: { env: { PUBLIC_URL }, smtp: true } });

const it = test
  /** An approved learner enrolled in the course, their training submitted, with a profile if asked. */
  .extend('holderIn', { scope: 'file' }, ({ db, learnerIn }) => async (courseId: string, options: TLearnerOptions = {}) => {
    const learner = await learnerIn(courseId, { user: options.user });
    if (options.profile) await createProfileRow(db, learner.id, options.profile === true ? {} : options.profile);
    return learner;
  })
  .extend('pendingCertificate', { scope: 'file' }, ({ db, holderIn, publishedTest }) => (options: TLearnerOptions = {}) =>
    issueWithoutPdf({ db, publishedTest: () => publishedTest(), learnerIn: holderIn }, options))
  /** The names in the certificates' area, files being written left out. */
  .extend('areaFiles', { scope: 'file' }, ({ portal }) => async () => {
    const names = new Set<string>();
    for await (const entry of portal.runtime.files.entries('certificates')) if (!entry.partial) names.add(entry.name);
    return names;
  })
  .extend('learnerMails', { scope: 'file' }, ({ db }) => (learner: TUser) => db.select().from(mails).where(eq(mails.to, learner.email)));

const runners = [
  { name: 'in-process runner', redis: false },
  { name: 'BullMQ on Redis', redis: true },
];

// A portal of its own per runner: its jobs in process or on BullMQ, and its public address written with a slash.
for (const runner of runners) {
  describe.runIf(!runner.redis || inject('redisUrl'))(`a pass's certificate through the ${runner.name}`, () => {
    let smtp: Smtp;
    let portal: TestPortal;
    const k = kit(() => portal);
    beforeAll(async () => {
      smtp = await startSmtpServer();
      portal = await createTestPortal({ redis: runner.redis, env: { SMTP_URL: smtp.url, PUBLIC_URL: `${PUBLIC_URL}/` } });
      await k.init();
    }, 60_000);
    afterAll(async () => {
      await portal?.close();
      await smtp?.close();
    });

    it('renders the PDF (name, INDOS, course, number, a QR code to the verify page), serves it and mails the learner once', async () => {
      const { course, test } = await k.publishedTest();
      const learner = await k.learnerIn(course.id, { profile: true });
      const result = await k.pass(learner, course, test);
      expect(result.passed).toBe(true);
      const number = result.certificate!.number;

      const certificate = await k.ready(learner, course.id);
      expect(certificate).toMatchObject({ number, course: { id: course.id, title: course.title }, revoked: false });
      const filename = certificate.pdfUrl!.replace('/certificates/', '');
      expect(filename).toMatch(/^[0-9a-f]{36}\.pdf$/);
      const [row] = await portal.runtime.db.select().from(certificates).where(eq(certificates.id, certificate.id));
      expect(row).toMatchObject({ status: 'ready', pdfFile: filename });

      const copy = await portal.runtime.files.localCopy('certificates', filename);
      const file = copy.path;
      const text = await pdfText(file);
      const [profile] = await portal.runtime.db.execute<{ indos_no: string }>(sql`select indos_no from profiles where user_id = ${learner.id}`).then(
        (rows) => (Array.isArray(rows) ? rows : (rows as unknown as { rows: Array<{ indos_no: string }> }).rows),
      );
      // The holder's name as on the profile, which the certificate's row keeps.
      expect(row!.holderName).not.toBe(`${learner.firstName} ${learner.lastName}`);
      expect(text).toContain(row!.holderName);
      expect(text).toContain(course.title);
      expect(text).toContain(number);
      expect(text).toContain(profile!.indos_no);
      expect(text).toContain('Maritime Training Academy');
      // The QR code and the printed link carry the secret code beside the number.
      expect(row!.verificationCode).toMatch(/^[A-Za-z0-9_-]{27}$/);
      const link = `${PUBLIC_URL}/verify/${number}?code=${row!.verificationCode}`;
      expect(await qrIn(file)).toBe(link);
      expect(text).toContain(link);
      await copy.release();

      const pdf = await portal.app.inject({ url: certificate.pdfUrl! });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toMatch(/^inline;/);
      expect(pdf.headers['cache-control']).toMatch(/^private/);
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

      const rest = await portal.app.inject({ url: `/api/certificate/${course.id}`, headers: k.bearer(learner) });
      expect(rest.statusCode).toBe(200);
      expect(rest.json()).toEqual({ data: { pdfPath: { filename } } });

      const [mail] = await mailsTo(smtp, learner.email);
      expect(mail!.subject).toBe(`Maritime Training Academy: ${C.readyMailSubject}`);
      expect(mail!.text).toContain(number);
      expect(mail!.text).toContain(link);
      // Every job of the pass (its PDF, its mails) has run to its end, retries too: a second mail
      // would have reached the server.
      const mailIds = (await portal.runtime.db.select({ id: mails.id }).from(mails).where(eq(mails.to, learner.email))).map((mail) => mail.id);
      const jobs = await portal.runtime.db.select({ id: jobOutbox.id }).from(jobOutbox).where(inArray(jobOutbox.businessKey, [certificate.id, ...mailIds]));
      await portal.drainJobs(jobs.map((job) => job.id));
      expect(smtp.received.filter((received) => received.to.includes(learner.email))).toHaveLength(1);
      const outbox = await portal.runtime.db
        .select()
        .from(jobOutbox)
        .where(and(eq(jobOutbox.name, 'render-certificate'), eq(jobOutbox.businessKey, certificate.id)));
      expect(outbox).toMatchObject([{ status: 'done' }]);
    });

    it('answers POST /api/submitTest with pdfPath null while the PDF is rendered, and the file name once it is', async () => {
      const { course, test } = await k.publishedTest();
      const learner = await k.learnerIn(course.id);
      await portal.app.inject({ url: `/api/test/${course.id}`, headers: k.bearer(learner) });
      const answers = test.questions.map((question) => ({ questionId: question.id, selectedAnswer: question.correctAnswer }));
      const body = { testId: test.id, courseId: course.id, answers, timeTaken: 60 };
      const first = await portal.app.inject({ method: 'POST', url: '/api/submitTest', headers: k.bearer(learner), payload: body });
      expect(first.statusCode).toBe(201);
      expect(first.json().data).toMatchObject({ passed: true, pdfPath: null });

      const ready = await k.ready(learner, course.id);
      // A pass closes the test: the spec's client finds the file name, once rendered, at GET /certificate/{courseId}.
      const later = await portal.app.inject({ url: `/api/certificate/${course.id}`, headers: k.bearer(learner) });
      expect(later.json()).toEqual({ data: { pdfPath: { filename: ready.pdfUrl!.replace('/certificates/', '') } } });

      const failed = await k.learnerIn(course.id);
      await portal.app.inject({ url: `/api/test/${course.id}`, headers: k.bearer(failed) });
      const wrong = test.questions.map((question) => ({ questionId: question.id, selectedAnswer: question.options.find((o) => o !== question.correctAnswer)! }));
      const failedAnswer = await portal.app.inject({ method: 'POST', url: '/api/submitTest', headers: k.bearer(failed), payload: { ...body, answers: wrong } });
      expect(failedAnswer.json().data.passed).toBe(false);
      expect(failedAnswer.json().data).not.toHaveProperty('pdfPath');
    });
  });
}

describe('certificates', () => {
  it('a render retried after a crash between writing the file and marking it ready, then re-delivered, leaves one file, one number and one mail', async ({ areaFiles, db, learnerMails, pendingCertificate, portal, smtp }) => {
    const { learner, certificate } = await pendingCertificate();
    const before = await areaFiles();
    const ctx = portal.runtime.jobContext;
    const crashing: JobContext = {
      ...ctx,
      files: {
        ...ctx.files,
        put: async (...args) => {
          await ctx.files.put(...args);
          throw new Error('the worker died');
        },
      },
    };
    await expect(renderCertificate({ certificateId: certificate.id }, crashing, { isLast: false })).rejects.toThrow('the worker died');
    const [afterCrash] = await db.select().from(certificates).where(eq(certificates.id, certificate.id));
    expect(afterCrash).toMatchObject({ status: 'pending', number: certificate.number });
    expect(afterCrash!.pdfFile).toMatch(/^[0-9a-f]{36}\.pdf$/);
    expect(await learnerMails(learner)).toHaveLength(0);

    await renderCertificate({ certificateId: certificate.id }, ctx, { isLast: false });
    await renderCertificate({ certificateId: certificate.id }, ctx, { isLast: false });
    await portal.drainJobs();

    const [done] = await db.select().from(certificates).where(eq(certificates.id, certificate.id));
    expect(done).toMatchObject({ status: 'ready', number: certificate.number, pdfFile: afterCrash!.pdfFile });
    const added = [...(await areaFiles())].filter((name) => !before.has(name));
    expect(added).toEqual([afterCrash!.pdfFile]);
    expect(await learnerMails(learner)).toHaveLength(1);
    // Every job has run to its end (drained above): a second mail would have reached the server.
    await mailsTo(smtp, learner.email);
    expect(smtp.received.filter((received) => received.to.includes(learner.email))).toHaveLength(1);
    expect(await db.select().from(certificates).where(eq(certificates.userId, learner.id))).toHaveLength(1);
  });

  it('the same render job run twice at once writes one file and mails once', async ({ areaFiles, learnerMails, pendingCertificate, portal }) => {
    const { learner, certificate } = await pendingCertificate();
    const before = await areaFiles();
    await Promise.all([
      renderCertificate({ certificateId: certificate.id }, portal.runtime.jobContext, { isLast: false }),
      renderCertificate({ certificateId: certificate.id }, portal.runtime.jobContext, { isLast: false }),
    ]);
    await portal.drainJobs();
    expect([...(await areaFiles())].filter((name) => !before.has(name))).toHaveLength(1);
    expect(await learnerMails(learner)).toHaveLength(1);
  });

  it('marks the certificate failed when the last try fails, and mails nothing', async ({ as, db, learnerMails, pendingCertificate, portal }) => {
    const { learner, certificate } = await pendingCertificate();
    const ctx = portal.runtime.jobContext;
    const broken: JobContext = { ...ctx, files: { ...ctx.files, put: async () => Promise.reject(new Error('disk full')) } };
    await expect(renderCertificate({ certificateId: certificate.id }, broken, { isLast: false })).rejects.toThrow('disk full');
    expect((await db.select().from(certificates).where(eq(certificates.id, certificate.id)))[0]?.status).toBe('pending');
    await expect(renderCertificate({ certificateId: certificate.id }, broken, { isLast: true })).rejects.toThrow('disk full');
    expect((await db.select().from(certificates).where(eq(certificates.id, certificate.id)))[0]?.status).toBe('failed');
    expect(await learnerMails(learner)).toHaveLength(0);
    expect(await as(learner).certificates.forCourse({ courseId: certificate.courseId })).toMatchObject({ status: 'failed', pdfUrl: null });
  });

  it("another learner's course answers exactly like a course with no certificate, over REST and tRPC", async ({ as, bearer, db, holderIn, portal, publishedTest }) => {
    const { course, test } = await publishedTest();
    const holder = await holderIn(course.id);
    await pass(as(holder), course, test);
    await readyCertificate(as(holder), course.id);
    const other = await holderIn(course.id);
    const empty = await createCourse(db);

    const theirs = await portal.app.inject({ url: `/api/certificate/${course.id}`, headers: bearer(other) });
    const none = await portal.app.inject({ url: `/api/certificate/${empty.id}`, headers: bearer(other) });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ message: C.notFound });
    expect({ status: none.statusCode, body: none.json() }).toEqual({ status: theirs.statusCode, body: theirs.json() });

    const viaTrpc = await rejection(as(other).certificates.forCourse({ courseId: course.id }));
    const missing = await rejection(as(other).certificates.forCourse({ courseId: empty.id }));
    expect([viaTrpc.code, viaTrpc.message]).toEqual(['NOT_FOUND', C.notFound]);
    expect([missing.code, missing.message]).toEqual([viaTrpc.code, viaTrpc.message]);
    expect(await as(other).certificates.mine()).toEqual([]);
    expect((await as(holder).certificates.mine()).map((certificate) => certificate.course.id)).toEqual([course.id]);

    const anonymous = await portal.app.inject({ url: `/api/certificate/${course.id}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('verifies a certificate as valid, then revoked, in full with its code and masked by its number alone; stops serving the PDF', async ({ as, bearer, db, holderIn, portal, publishedTest, staff }) => {
    const { course, test } = await publishedTest();
    const learner = await holderIn(course.id, { profile: true });
    const { certificate } = await pass(as(learner), course, test);
    const ready = await readyCertificate(as(learner), course.id);
    const visitor = portal.caller(null, uniqueIp());

    const { verificationCode } = (await as(learner).certificates.forCourse({ courseId: course.id }));
    const [profile] = await db.select({ name: profiles.name }).from(profiles).where(eq(profiles.userId, learner.id));
    const valid = await visitor.certificates.verify({ number: ` ${certificate!.number.toLowerCase()} `, code: verificationCode });
    // The name as the certificate prints it: the profile's, not the account's.
    expect(valid).toEqual({
      detail: 'full',
      number: certificate!.number,
      version: 1,
      state: 'valid',
      holderName: profile!.name,
      courseTitle: course.title,
      courseCode: null,
      approvalNumber: null,
      issuedAt: certificate!.issuedAt,
      validUntil: null,
      supersededBy: null,
      renews: null,
    });
    const byNumber = await visitor.certificates.verify({ number: certificate!.number });
    expect(byNumber).toMatchObject({ detail: 'masked', state: 'valid', issuedAt: certificate!.issuedAt, validUntil: null });

    const results = await as(staff).tests.results({ search: learner.email });
    expect(results.items).toHaveLength(1);
    expect(results.items[0]!.certificate).toEqual({ id: ready.id, number: ready.number, status: 'ready', revokedAt: null, pdfUrl: ready.pdfUrl });
    // The code is the holder's to share: an administrator's list does not carry it.
    expect(JSON.stringify(results)).not.toContain(verificationCode);

    const refused = await rejection(as(learner).certificates.revoke({ certificateId: ready.id }));
    expect(refused.code).toBe('FORBIDDEN');
    const revoked = await as(staff).certificates.revoke({ certificateId: ready.id, reason: '  Issued against a disputed attempt.  ' });
    expect(revoked).toMatchObject({ id: ready.id, pdfUrl: null });
    expect(revoked.revokedAt).not.toBeNull();
    const [row] = await db.select().from(certificates).where(eq(certificates.id, ready.id));
    expect(row).toMatchObject({ revokedBy: staff.id, revokeReason: 'Issued against a disputed attempt.' });

    const again = await rejection(as(staff).certificates.revoke({ certificateId: ready.id }));
    expect([again.code, again.message]).toEqual(['CONFLICT', C.alreadyRevoked]);
    const unknown = await rejection(as(staff).certificates.revoke({ certificateId: '00000000-0000-4000-8000-000000000000' }));
    expect([unknown.code, unknown.message]).toEqual(['NOT_FOUND', C.notFound]);

    expect(await visitor.certificates.verify({ number: certificate!.number, code: verificationCode })).toEqual({ ...valid, state: 'revoked' });
    expect(await visitor.certificates.verify({ number: certificate!.number })).toEqual({ ...byNumber, state: 'revoked' });
    const pdf = await portal.app.inject({ url: ready.pdfUrl! });
    expect(pdf.statusCode).toBe(410);
    expect(pdf.json()).toEqual({ message: C.revoked });
    expect((await portal.app.inject({ url: `/api/certificate/${course.id}`, headers: bearer(learner) })).statusCode).toBe(404);
    expect(await as(learner).certificates.forCourse({ courseId: course.id })).toMatchObject({
      revoked: true,
      state: 'revoked',
      revokeReason: 'Issued against a disputed attempt.',
      pdfUrl: null,
    });
    expect((await as(staff).tests.results({ search: learner.email })).items[0]!.certificate).toMatchObject({ revokedAt: revoked.revokedAt, pdfUrl: null });
  });

  it('refuses unknown numbers, malformed numbers and a visitor walking the numbers', async ({ portal }) => {
    const visitor = portal.caller(null, uniqueIp());
    const unknown = await rejection(visitor.certificates.verify({ number: 'MTA/1999/999999' }));
    expect([unknown.code, unknown.message]).toEqual(['NOT_FOUND', C.unknownNumber]);
    const malformed = await rejection(visitor.certificates.verify({ number: 'not a number' }));
    // A direct caller sees the schema's issues; over HTTP the formatter answers the first message alone.
    expect(malformed.code).toBe('BAD_REQUEST');
    expect(malformed.message).toContain(C.numberFormat);

    const walker = portal.caller(null, uniqueIp());
    for (let i = 0; i < VERIFY_LIMIT.limit; i += 1) {
      await walker.certificates.verify({ number: `MTA/2026/${String(900_000 + i)}` }).catch(() => undefined);
    }
    const throttled = await rejection(walker.certificates.verify({ number: 'MTA/2026/999999' }));
    expect(throttled.code).toBe('TOO_MANY_REQUESTS');
    expect(throttled.message).toMatch(/^Too many certificate checks/);
    // Another address is not held back by the walker.
    await expect(portal.caller(null, uniqueIp()).certificates.verify({ number: 'MTA/2026/999999' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers a number alone with only whether the certificate exists, its state and a masked name', async ({ pendingCertificate, portal }) => {
    const { certificate, course, learner } = await pendingCertificate({ user: { firstName: 'Arjun', lastName: 'Menon' } });
    const visitor = portal.caller(null, uniqueIp());
    const answer = await visitor.certificates.verify({ number: certificate.number });
    expect(answer).toEqual({
      detail: 'masked',
      number: certificate.number,
      state: 'valid',
      maskedName: 'A. M***',
      issuedAt: certificate.issuedAt.toISOString(),
      validUntil: null,
    });
    const said = JSON.stringify(answer);
    for (const secret of ['Arjun', 'Menon', course.title, learner.email, certificate.verificationCode]) expect(said).not.toContain(secret);

    // The same over HTTP, as the page asks it.
    const res = await portal.app.inject({ url: `/trpc/certificates.verify?input=${encodeURIComponent(JSON.stringify({ number: certificate.number }))}`, remoteAddress: uniqueIp() });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data).toEqual(answer);
    expect(res.body).not.toContain(course.title);
  });

  it('answers the code from the QR code with the holder, the course and the date of issue; a wrong code like the number alone', async ({ pendingCertificate, portal }) => {
    const { certificate, course } = await pendingCertificate({ user: { firstName: 'Meera', lastName: 'Iyer' } });
    const other = await pendingCertificate();
    const visitor = portal.caller(null, uniqueIp());
    expect(await visitor.certificates.verify({ number: certificate.number, code: certificate.verificationCode })).toEqual({
      detail: 'full',
      number: certificate.number,
      version: 1,
      state: 'valid',
      holderName: 'Meera Iyer',
      courseTitle: course.title,
      courseCode: null,
      approvalNumber: null,
      issuedAt: certificate.issuedAt.toISOString(),
      validUntil: null,
      supersededBy: null,
      renews: null,
    });
    const alone = await visitor.certificates.verify({ number: certificate.number });
    expect(alone).toEqual({
      detail: 'masked',
      number: certificate.number,
      state: 'valid',
      maskedName: 'M. I***',
      issuedAt: certificate.issuedAt.toISOString(),
      validUntil: null,
    });
    // Another certificate's code, or one made up, tells no more than the number alone.
    expect(await visitor.certificates.verify({ number: certificate.number, code: other.certificate.verificationCode })).toEqual(alone);
    expect(await visitor.certificates.verify({ number: certificate.number, code: 'x'.repeat(27) })).toEqual(alone);
    const unknown = await rejection(visitor.certificates.verify({ number: 'MTA/1999/999998', code: certificate.verificationCode }));
    expect([unknown.code, unknown.message]).toEqual(['NOT_FOUND', C.unknownNumber]);
    const malformed = await rejection(visitor.certificates.verify({ number: certificate.number, code: 'short' }));
    expect(malformed.code).toBe('BAD_REQUEST');
  });

  it("answers the number with the holder's date of birth or INDOS number with the details; a wrong one exactly like the number alone", async ({ pendingCertificate, portal }) => {
    const { certificate, course } = await pendingCertificate({
      user: { firstName: 'Kavya', lastName: 'Menon' },
      profile: { dateOfBirth: '1994-07-21', indosNo: '13EL 4567' },
    });
    const visitor = portal.caller(null, uniqueIp());
    const full = {
      detail: 'full',
      number: certificate.number,
      version: 1,
      state: 'valid',
      holderName: 'Kavya Menon',
      courseTitle: course.title,
      courseCode: null,
      approvalNumber: null,
      issuedAt: certificate.issuedAt.toISOString(),
      validUntil: null,
      supersededBy: null,
      renews: null,
    };
    const alone = await visitor.certificates.verify({ number: certificate.number });
    expect(alone).toEqual({
      detail: 'masked',
      number: certificate.number,
      state: 'valid',
      maskedName: 'K. M***',
      issuedAt: certificate.issuedAt.toISOString(),
      validUntil: null,
    });

    expect(await visitor.certificates.verifyByHolder({ number: certificate.number, dateOfBirth: '1994-07-21' })).toEqual(full);
    expect(await visitor.certificates.verifyByHolder({ number: certificate.number, indosNo: ' 13el-4567 ' })).toEqual(full);
    expect(await visitor.certificates.verifyByHolder({ number: certificate.number, dateOfBirth: '1994-07-21', indosNo: '13EL4567' })).toEqual(full);

    for (const wrong of [{ dateOfBirth: '1994-07-22' }, { indosNo: '13EL4568' }, { dateOfBirth: '1994-07-21', indosNo: '99XX0000' }, { indosNo: '--' }]) {
      expect(await visitor.certificates.verifyByHolder({ number: certificate.number, ...wrong }), JSON.stringify(wrong)).toEqual(alone);
    }
    // A holder with no profile matches nothing; an unknown number answers as it does alone.
    const noProfile = await pendingCertificate();
    const bare = await visitor.certificates.verify({ number: noProfile.certificate.number });
    expect(await visitor.certificates.verifyByHolder({ number: noProfile.certificate.number, dateOfBirth: '1990-04-12' })).toEqual(bare);
    const unknown = await rejection(visitor.certificates.verifyByHolder({ number: 'MTA/1999/999997', dateOfBirth: '1994-07-21' }));
    expect([unknown.code, unknown.message]).toEqual(['NOT_FOUND', C.unknownNumber]);
    const nothing = await rejection(visitor.certificates.verifyByHolder({ number: certificate.number }));
    expect(nothing.code).toBe('BAD_REQUEST');
    expect(nothing.message).toContain(C.holderDetailRequired);

    // Over HTTP it is a POST: the date of birth never sits in an address.
    const res = await portal.app.inject({
      method: 'POST',
      url: '/trpc/certificates.verifyByHolder',
      payload: { number: certificate.number, dateOfBirth: '1994-07-21' },
      remoteAddress: uniqueIp(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data).toEqual(full);
  });

  it("counts every holder check of one number, right or wrong, so the holder's date of birth cannot be guessed", async ({ pendingCertificate, portal }) => {
    const { certificate } = await pendingCertificate({ profile: { dateOfBirth: '1988-01-30' } });
    for (let day = 1; day <= VERIFY_HOLDER_LIMIT.limit; day += 1) {
      const dateOfBirth = `1988-02-${String(day).padStart(2, '0')}`;
      await portal.caller(null, uniqueIp()).certificates.verifyByHolder({ number: certificate.number, dateOfBirth });
    }
    const held = await rejection(portal.caller(null, uniqueIp()).certificates.verifyByHolder({ number: certificate.number, dateOfBirth: '1988-01-30' }));
    expect(held.code).toBe('TOO_MANY_REQUESTS');
    expect(held.message).toMatch(/^Too many checks of this certificate's holder/);
    // The code from the QR code still answers.
    expect(await portal.caller(null, uniqueIp()).certificates.verify({ number: certificate.number, code: certificate.verificationCode })).toMatchObject({
      detail: 'full',
    });
  });

  it('the learner sees their own verification link; nobody else gets the code', async ({ as, db, holderIn, publishedTest, staff }) => {
    const { course, test } = await publishedTest();
    const learner = await holderIn(course.id);
    await pass(as(learner), course, test);
    const [row] = await db.select().from(certificates).where(eq(certificates.userId, learner.id));
    expect(await as(learner).certificates.forCourse({ courseId: course.id })).toMatchObject({ verificationCode: row!.verificationCode });
    expect(await as(learner).certificates.mine()).toMatchObject([{ verificationCode: row!.verificationCode }]);
    const other = await holderIn(course.id);
    expect(JSON.stringify(await as(other).certificates.mine())).not.toContain(row!.verificationCode);
    const results = await as(staff).tests.results({ search: learner.email });
    expect(JSON.stringify(results)).not.toContain(row!.verificationCode);
  });

  it('serves no PDF for unknown, malformed or not-yet-ready names', async ({ db, pendingCertificate, portal }) => {
    const { certificate } = await pendingCertificate();
    const claimed = 'ab'.repeat(18) + '.pdf';
    await db.update(certificates).set({ pdfFile: claimed }).where(eq(certificates.id, certificate.id));
    for (const name of [claimed, 'cd'.repeat(18) + '.pdf', '..%2F..%2Fetc%2Fpasswd', 'x.pdf']) {
      const res = await portal.app.inject({ url: `/certificates/${name}` });
      expect(res.statusCode, name).toBe(404);
      expect(res.json()).toEqual({ message: C.notFound });
    }
  });
});

// A portal of its own: the limit across all addresses counts every check on it, the file's other tests' too.
describe('walking the certificate numbers', () => {
  let portal: TestPortal;
  const k = kit(() => portal);
  beforeAll(async () => {
    portal = await createTestPortal();
    await k.init();
  }, 60_000);
  afterAll(async () => {
    await portal?.close();
  });

  const verifyFrom = (remoteAddress: string, input: Record<string, string>) =>
    portal.app.inject({ url: `/trpc/certificates.verify?input=${encodeURIComponent(JSON.stringify(input))}`, remoteAddress });

  it('from many addresses is stopped by a limit across all of them, while the code from the QR code still answers', async () => {
    const { certificate } = await issueWithoutPdf({ db: portal.runtime.db, publishedTest: k.publishedTest, learnerIn: k.learnerIn }, { profile: { dateOfBirth: '1985-03-09' } });
    let walked = 0;
    let refused: Awaited<ReturnType<typeof verifyFrom>> | undefined;
    // Each address keeps under its own limit; together they walk the numbers.
    for (let host = 2; host < 40 && !refused; host += 1) {
      for (let i = 0; i < VERIFY_LIMIT.limit - 1; i += 1) {
        const res = await verifyFrom(`127.0.0.${host}`, { number: `MTA/2026/${String(700_000 + walked)}` });
        if (res.statusCode === 429) {
          refused = res;
          break;
        }
        expect(res.statusCode).toBe(404);
        walked += 1;
      }
    }
    expect(refused, 'a walk across addresses was never stopped').toBeDefined();
    expect(walked).toBe(VERIFY_NUMBER_LIMITS[0]![1].limit);
    expect(refused!.json().error.message).toMatch(/^Too many certificates are being checked by number right now/);
    expect(refused!.headers['retry-after']).toBeDefined();

    // A fresh address is held back too, by number alone and by number with a date of birth.
    expect((await verifyFrom('127.0.0.200', { number: certificate.number })).statusCode).toBe(429);
    const byHolder = await portal.app.inject({
      method: 'POST',
      url: '/trpc/certificates.verifyByHolder',
      payload: { number: certificate.number, dateOfBirth: '1985-03-09' },
      remoteAddress: '127.0.0.201',
    });
    expect(byHolder.statusCode).toBe(429);
    // Whoever holds the certificate's code is not.
    const byCode = await verifyFrom('127.0.0.202', { number: certificate.number, code: certificate.verificationCode });
    expect(byCode.statusCode).toBe(200);
    expect(byCode.json().result.data).toMatchObject({ detail: 'full', number: certificate.number });
  });
});
