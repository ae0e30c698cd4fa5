import { randomBytes, randomUUID } from 'node:crypto';
import type { TStaffActor } from '../../lib/session-user.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TRPCError } from '@trpc/server';
import { and, eq, inArray } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { addDays, utcDay } from '../../../shared/calendar.ts';
import { JOBS } from '../../../shared/jobs.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { createCourse, createEnrolment, createUser, sessionOf } from '../../../testing/factories.ts';
import { mailsTo } from '../../../testing/mailbox.ts';
import { startSmtpServer } from '../../../testing/smtp-server.ts';
import { afterAll, beforeAll, describe, expect, inject, test } from '../../../testing/portal-test.ts';
import { createTestPortal, startWorker } from '../../../testing/test-runtime.ts';
import type { Executor } from '../../db/client.ts';
import { certificateReminders, certificates, jobOutbox, mails, testAttempts, tests, users } from '../../db/schema.ts';
import { parseEnv } from '../../env.ts';
import { SCHEDULED_TASKS } from '../../jobs.ts';
import { createLogger } from '../../lib/logger.ts';
import { createRuntime } from '../../runtime.ts';
import { reminderDepsOf, sendDueReminders } from './reminders.service.ts';

const PUBLIC_URL = 'https://academy.example';
const ACADEMY = 'Konkan Maritime Academy';
const databaseUrl = inject('databaseUrl');
const redisUrl = inject('redisUrl');
type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;
type TUser = Awaited<ReturnType<typeof createUser>>;

/**
 * Each test sweeps days of its own, thousands of days from now: the sweeps the portals run at start
 * (today's) never reach these certificates, and no test's sweep reaches another's.
 */
let nextBase = 4000;
const newBase = () => addDays(utcDay(), (nextBase += 1000));

async function waitUntil<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not in time`);
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

/** A course (with a test, so its certificates have an attempt), optionally renewed by `refresherCourseId`. */
async function courseWithTest(db: Executor, overrides: Parameters<typeof createCourse>[1] = {}) {
  const course = await createCourse(db, overrides);
  const [test] = await db.insert(tests).values({ courseId: course.id, title: course.title, passMark: 50 }).returning();
  return { ...course, testId: test!.id };
}

/** A live certificate of `course` valid until `validUntil`, held by a new learner (or `holder`). */
async function certificateOf(
  db: Executor,
  course: { id: string; testId: string },
  validUntil: string | null,
  options: { holder?: TUser; user?: Parameters<typeof createUser>[1]; revoked?: boolean; superseded?: boolean } = {},
) {
  const learner = options.holder ?? (await createUser(db, { approvedAt: new Date(), ...options.user }));
  const [attempt] = await db
    .insert(testAttempts)
    .values({ userId: learner.id, testId: course.testId, courseId: course.id, submittedAt: new Date(), score: 2, totalQuestions: 2, percentage: 100, passed: true, timeTakenSeconds: 30 })
    .returning();
  const serial = randomBytes(6).toString('hex');
  const [certificate] = await db
    .insert(certificates)
    .values({
      userId: learner.id,
      courseId: course.id,
      attemptId: attempt!.id,
      number: `MTA/2026/R${serial}`,
      verificationCode: `reminder-${serial}`,
      holderName: `${learner.firstName} ${learner.lastName}`,
      status: 'ready',
      validUntil,
      revokedAt: options.revoked ? new Date() : null,
      supersededAt: options.superseded ? new Date() : null,
    })
    .returning();
  return { learner, certificate: certificate! };
}

/** What the database holds for some certificates: their reminder rows, the mails and outbox rows behind them. */
async function written(db: Executor, certificateIds: string[]) {
  const reminders = await db.select().from(certificateReminders).where(inArray(certificateReminders.certificateId, certificateIds));
  const mailIds = reminders.flatMap((row) => (row.mailId ? [row.mailId] : []));
  const mailRows = mailIds.length ? await db.select().from(mails).where(inArray(mails.id, mailIds)) : [];
  const outbox = mailIds.length
    ? await db.select().from(jobOutbox).where(and(eq(jobOutbox.name, JOBS.sendMail.name), inArray(jobOutbox.businessKey, mailIds)))
    : [];
  return { reminders, mails: mailRows, outbox };
}

test.override({ portalOptions: { env: { PUBLIC_URL: `${PUBLIC_URL}/`, ACADEMY_NAME: ACADEMY }, smtp: true } });

const it = test
  .extend('admin', { scope: 'file' }, ({ db }) => createUser(db, { role: 'admin', approvedAt: new Date(), firstName: 'Meera', lastName: 'Kulkarni' }))
  .extend('sweep', { scope: 'file' }, ({ portal }) => (today: string, extra: { runBy?: TStaffActor; batchSize?: number } = {}) =>
    sendDueReminders(reminderDepsOf(portal.runtime), { today, ...extra }));

describe('certificate expiry reminders', () => {
  it('mails each stage once as the days pass (90, then 30, then 7), none on a second sweep of a day or after expiry', async ({ portal, db, sweep, smtp }) => {
    const base = newBase();
    const refresher = await courseWithTest(db, { title: `PST Refresher ${randomUUID().slice(0, 6)}` });
    const course = await courseWithTest(db, { refresherCourseId: refresher.id });
    const validUntil = addDays(base, 100);
    const { learner, certificate } = await certificateOf(db, course, validUntil);
    const queuedOn = async (daysLeft: number) => (await sweep(addDays(validUntil, -daysLeft))).queued;

    expect(await queuedOn(91)).toBe(0);
    expect(await queuedOn(90)).toBe(1);
    expect(await queuedOn(90)).toBe(0);
    expect(await queuedOn(45)).toBe(0);
    expect(await queuedOn(31)).toBe(0);
    expect(await queuedOn(30)).toBe(1);
    expect(await queuedOn(29)).toBe(0);
    expect(await queuedOn(7)).toBe(1);
    expect(await queuedOn(7)).toBe(0);
    expect(await queuedOn(0)).toBe(0);
    expect(await queuedOn(-1)).toBe(0);
    await portal.drainJobs();

    const { reminders, mails: mailRows, outbox } = await written(db, [certificate.id]);
    expect(reminders.map((row) => row.daysBefore).sort((a, b) => b - a)).toEqual([90, 30, 7]);
    expect(reminders.every((row) => row.validUntil === validUntil && row.runBy === null && row.mailId !== null)).toBe(true);
    expect(mailRows).toHaveLength(3);
    expect(mailRows.every((mail) => mail.to === learner.email && mail.sentAt !== null)).toBe(true);
    expect(outbox).toHaveLength(3);
    expect(outbox.every((row) => row.status === 'done')).toBe(true);
    const received = await mailsTo(smtp, learner.email, 3);
    expect(received).toHaveLength(3);
    expect(received.map((mail) => mail.text.match(/: (\d+) days from today/)?.[1])).toEqual(['90', '30', '7']);
  });

  it('follows the reminder days setting (CERTIFICATE_REMINDER_DAYS, here 60 and 14)', async ({ portal, db, smtp }) => {
    expect(portal.runtime.jobContext.certificateReminderDays).toEqual([90, 30, 7]);
    const base = newBase();
    const course = await courseWithTest(db);
    const validUntil = addDays(base, 90);
    const { certificate } = await certificateOf(db, course, validUntil);
    const deps = { ...reminderDepsOf(portal.runtime), certificateReminderDays: [60, 14] };
    const queuedOn = async (daysLeft: number) => (await sendDueReminders(deps, { today: addDays(validUntil, -daysLeft) })).queued;
    expect([await queuedOn(90), await queuedOn(61), await queuedOn(60), await queuedOn(30), await queuedOn(14), await queuedOn(7)]).toEqual([0, 0, 1, 0, 1, 0]);
    const { reminders } = await written(db, [certificate.id]);
    expect(reminders.map((row) => row.daysBefore).sort((a, b) => b - a)).toEqual([60, 14]);
    await portal.drainJobs();
    const [, second] = await mailsTo(smtp, (await db.select({ email: users.email }).from(users).where(eq(users.id, certificate.userId)))[0]!.email, 2);
    expect(second!.text.replace(/\s+/g, ' ')).toContain('We write 60 and 14 days before a certificate expires.');
  });

  it('the mail: to the holder, the academy in the subject, course, number, last valid day, days left, the refresher link and how to stop', async ({ portal, db, sweep, smtp }) => {
    const base = newBase();
    const refresher = await courseWithTest(db, { title: `FPFF Refresher ${randomUUID().slice(0, 6)}` });
    const course = await courseWithTest(db, { refresherCourseId: refresher.id });
    const lone = await courseWithTest(db);
    const validUntil = addDays(base, 30);
    const renewable = await certificateOf(db, course, validUntil);
    const noRefresher = await certificateOf(db, lone, validUntil);
    expect((await sweep(base)).queued).toBe(2);
    await portal.drainJobs();

    const [mail] = await mailsTo(smtp, renewable.learner.email);
    expect(mail!.subject).toBe(`${ACADEMY}: ${MESSAGES.certificate.reminderMailSubject}`);
    const text = mail!.text.replace(/\s+/g, ' ');
    const printed = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${validUntil}T00:00:00Z`));
    expect(text).toContain(`Hello ${renewable.learner.firstName},`);
    expect(text).toContain(`Your certificate ${renewable.certificate.number} for ${course.title} is valid until ${printed}: 30 days from today.`);
    expect(text).toContain(`To renew it, enrol in the refresher course, ${refresher.title}, from My certificates: ${PUBLIC_URL}/my-certificates`);
    expect(text).not.toContain(`${PUBLIC_URL}/courses`);
    expect(text).toContain(`We write 90, 30 and 7 days before a certificate expires. To stop these e-mails, turn reminders off in My certificates: ${PUBLIC_URL}/my-certificates`);

    const [other] = await mailsTo(smtp, noRefresher.learner.email);
    const otherText = other!.text.replace(/\s+/g, ' ');
    expect(otherText).toContain(`for ${lone.title} is valid until ${printed}`);
    expect(otherText).not.toContain('refresher');
    expect(otherText).toContain(`See your certificates and what each needs: ${PUBLIC_URL}/my-certificates`);
  });

  it('reminds no revoked, superseded, expired or never-expiring certificate, no holder who turned reminders off or enrolled in the refresher', async ({ db, sweep }) => {
    const base = newBase();
    const refresher = await courseWithTest(db);
    const course = await courseWithTest(db, { refresherCourseId: refresher.id });
    const due = addDays(base, 30);
    const control = await certificateOf(db, course, due);
    const refused = await certificateOf(db, course, due);
    await createEnrolment(db, { userId: refused.learner.id, courseId: refresher.id, status: 'rejected', decidedAt: new Date() });
    const skipped = [
      await certificateOf(db, course, due, { revoked: true }),
      await certificateOf(db, course, due, { superseded: true }),
      await certificateOf(db, course, addDays(base, -1)),
      await certificateOf(db, course, null),
      await certificateOf(db, course, due, { user: { certificateReminders: false } }),
    ];
    for (const status of ['pending', 'approved'] as const) {
      const enrolled = await certificateOf(db, course, due);
      await createEnrolment(db, { userId: enrolled.learner.id, courseId: refresher.id, status });
      skipped.push(enrolled);
    }

    const result = await sweep(base);
    expect(result).toMatchObject({ queued: 2, daysBefore: [90, 30, 7] });
    // Live certificates in the window, whatever their holders chose: the control, the refused one, the opted-out and the two enrolled.
    expect(result.examined).toBe(5);
    const all = [control, refused, ...skipped].map((one) => one.certificate.id);
    const { reminders, mails: mailRows } = await written(db, all);
    expect(reminders.map((row) => row.certificateId).sort()).toEqual([control.certificate.id, refused.certificate.id].sort());
    expect(reminders.every((row) => row.daysBefore === 30)).toBe(true);
    expect(mailRows.map((mail) => mail.to).sort()).toEqual([control.learner.email, refused.learner.email].sort());
    const skippedMail = await db
      .select({ id: mails.id })
      .from(mails)
      .where(inArray(mails.to, skipped.map((one) => one.learner.email)));
    expect(skippedMail).toEqual([]);
  });

  it('concurrent sweeps (in one runtime and in a second one on the same database) mail each stage exactly once', async ({ portal, db, sweep, smtp }) => {
    const base = newBase();
    const course = await courseWithTest(db);
    // Days left on `base`: due at 90, 30 and 7 (and the stage a missed day leaves due), and not yet due.
    const daysLeft = [90, 89, 60, 30, 29, 10, 7, 3, 0, 91, 120];
    const made: Array<Awaited<ReturnType<typeof certificateOf>>> = [];
    for (let index = 0; index < 33; index += 1) made.push(await certificateOf(db, course, addDays(base, daysLeft[index % daysLeft.length]!)));
    const dueCount = made.filter((one) => one.certificate.validUntil! <= addDays(base, 90)).length;
    expect(dueCount).toBe(27);

    const second = await (databaseUrl ? createTestPortal({ env: { SMTP_URL: smtp.url } }) : undefined);
    try {
      const sweeps = [
        ...[1, 2, 3].map((n) => sweep(base, { batchSize: 4 + n })),
        ...(second ? [1, 2, 3].map((n) => sendDueReminders(reminderDepsOf(second.runtime), { today: base, batchSize: 2 + n })) : []),
      ];
      const results = await Promise.all(sweeps);
      expect(results.reduce((sum, result) => sum + result.queued, 0)).toBe(dueCount);
      expect(results.every((result) => result.examined === dueCount)).toBe(true);
      await portal.drainJobs();
      await second?.drainJobs();
    } finally {
      await second?.close();
    }

    const ids = made.map((one) => one.certificate.id);
    const { reminders, mails: mailRows, outbox } = await written(db, ids);
    expect(reminders).toHaveLength(dueCount);
    expect(new Set(reminders.map((row) => row.certificateId)).size).toBe(dueCount);
    expect(mailRows).toHaveLength(dueCount);
    expect(outbox).toHaveLength(dueCount);
    const allMails = await db
      .select({ id: mails.id })
      .from(mails)
      .where(inArray(mails.to, made.map((one) => one.learner.email)));
    expect(allMails).toHaveLength(dueCount);
    // The stage each got: the smallest its days left had reached.
    const stageOf = new Map(reminders.map((row) => [row.certificateId, row.daysBefore]));
    for (const one of made) {
      const left = daysLeft[made.indexOf(one) % daysLeft.length]!;
      expect(stageOf.get(one.certificate.id) ?? null).toBe(left > 90 ? null : left <= 7 ? 7 : left <= 30 ? 30 : 90);
    }
  });

  it('an administrator runs it now: today’s due stage is recorded as run by them, and their history lists it', async ({ portal, db, admin }) => {
    const course = await courseWithTest(db);
    const { learner, certificate } = await certificateOf(db, course, addDays(utcDay(), 30));
    const result = await portal.caller(sessionOf(admin)).certificates.runRemindersNow();
    expect(result.queued).toBeGreaterThanOrEqual(1);
    expect(result.daysBefore).toEqual([90, 30, 7]);
    await portal.drainJobs();

    const { reminders } = await written(db, [certificate.id]);
    expect(reminders).toEqual([expect.objectContaining({ daysBefore: 30, runBy: admin.id })]);
    const history = await portal.caller(sessionOf(admin)).certificates.reminders({ certificateId: certificate.id });
    expect(history).toEqual([
      {
        daysBefore: 30,
        validUntil: certificate.validUntil,
        queuedAt: reminders[0]!.createdAt.toISOString(),
        sentAt: expect.any(String),
        to: learner.email,
        runBy: 'Meera Kulkarni',
      },
    ]);

    // Again: nothing more for it.
    await portal.caller(sessionOf(admin)).certificates.runRemindersNow();
    expect((await written(db, [certificate.id])).reminders).toHaveLength(1);
  });

  it("the schedule's history says 'schedule', newest first; an unknown certificate is 404", async ({ portal, db, admin, sweep }) => {
    const base = newBase();
    const course = await courseWithTest(db);
    const { certificate } = await certificateOf(db, course, addDays(base, 90));
    await sweep(base);
    await sweep(addDays(base, 60));
    const history = await portal.caller(sessionOf(admin)).certificates.reminders({ certificateId: certificate.id });
    expect(history.map((row) => [row.daysBefore, row.runBy])).toEqual([
      [30, 'schedule'],
      [90, 'schedule'],
    ]);
    const missing = await rejection(portal.caller(sessionOf(admin)).certificates.reminders({ certificateId: randomUUID() }));
    expect(missing).toMatchObject({ code: 'NOT_FOUND', message: MESSAGES.certificate.notFound });
  });

  it('a learner cannot run the reminders nor read a history (403, nothing written), and turns only their own reminders off', async ({ portal, db, sweep }) => {
    const base = newBase();
    const course = await courseWithTest(db);
    const { learner, certificate } = await certificateOf(db, course, addDays(base, 7));
    const neighbour = await createUser(db, { approvedAt: new Date() });
    const asLearner = portal.caller(sessionOf(learner));
    const mailsBefore = (await db.select({ id: mails.id }).from(mails)).length;

    expect(await rejection(asLearner.certificates.runRemindersNow())).toMatchObject({ code: 'FORBIDDEN' });
    expect(await rejection(asLearner.certificates.reminders({ certificateId: certificate.id }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await rejection(portal.caller().certificates.reminderPreference())).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await rejection(portal.caller().certificates.setReminderPreference({ remindersOn: false }))).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await written(db, [certificate.id])).reminders).toEqual([]);
    expect((await db.select({ id: mails.id }).from(mails)).length).toBe(mailsBefore);

    expect(await asLearner.certificates.reminderPreference()).toEqual({ remindersOn: true });
    // Bad input, or naming someone else: 400, and nothing changes.
    const bad = await rejection(asLearner.certificates.setReminderPreference({ remindersOn: 'no' } as never));
    expect(bad.code).toBe('BAD_REQUEST');
    const other = await rejection(asLearner.certificates.setReminderPreference({ remindersOn: false, userId: neighbour.id } as never));
    expect(other.code).toBe('BAD_REQUEST');
    const choice = async (id: string) => (await db.select({ on: users.certificateReminders }).from(users).where(eq(users.id, id)))[0]!.on;
    expect([await choice(learner.id), await choice(neighbour.id)]).toEqual([true, true]);

    expect(await asLearner.certificates.setReminderPreference({ remindersOn: false })).toEqual({ remindersOn: false });
    expect([await choice(learner.id), await choice(neighbour.id)]).toEqual([false, true]);
    expect(await asLearner.certificates.reminderPreference()).toEqual({ remindersOn: false });
    expect((await sweep(base)).queued).toBe(0);
    expect((await written(db, [certificate.id])).reminders).toEqual([]);

    expect(await asLearner.certificates.setReminderPreference({ remindersOn: true })).toEqual({ remindersOn: true });
    expect((await sweep(base)).queued).toBe(1);
    expect((await written(db, [certificate.id])).reminders).toEqual([expect.objectContaining({ daysBefore: 7 })]);
  });
});

/**
 * Two workers on Redis (each with its own runtime and database pool, as two `npm run worker`
 * processes), both running the reminder task as they start; then Redis loses everything and both
 * start again. Each stage goes out once, through the outbox, to the SMTP server.
 */
describe.runIf(redisUrl && databaseUrl)('certificate expiry reminders with workers on Redis', () => {
  let mailServer: Smtp;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'reminders-redis-'));
  const prefix = `test-reminders-${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    mailServer = await startSmtpServer();
  });
  afterAll(async () => {
    await mailServer?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function openRuntime() {
    const env = parseEnv({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      JWT_SECRET: 'a'.repeat(64),
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      SMTP_URL: mailServer.url,
    });
    return createRuntime(env, createLogger(env.LOG_LEVEL), { inMemoryDatabase: true, queuePrefix: prefix });
  }

  /** What each reminder run of the workers queued, in the order they ended. */
  const runs: number[] = [];

  /** A worker process: its own runtime and worker, its reminder task sweeping `today`. */
  async function startWorkerProcess(today: string) {
    const runtime = await openRuntime();
    const tasks = SCHEDULED_TASKS.map((task) =>
      task.name === 'remind-expiring-certificates'
        ? {
            ...task,
            run: async (ctx: Parameters<typeof task.run>[0]) => {
              const result = await sendDueReminders(ctx, { today });
              runs.push(result.queued);
              return result;
            },
          }
        : task,
    );
    const worker = await startWorker(runtime.jobContext, redisUrl!, runtime.jobs, { prefix, tasks });
    return {
      async close() {
        await worker.close();
        await runtime.close();
      },
    };
  }

  it('two workers starting at once send each stage once; after a Redis flush and a restart nothing is sent again', async () => {
    const base = newBase();
    const setup = await openRuntime();
    try {
      const db = setup.db;
      const course = await courseWithTest(db);
      const made: Array<Awaited<ReturnType<typeof certificateOf>>> = [];
      for (const left of [90, 30, 7, 12, 50]) made.push(await certificateOf(db, course, addDays(base, left)));
      const ids = made.map((one) => one.certificate.id);
      const delivered = () =>
        waitUntil('every reminder delivered', async () => {
          const state = await written(db, ids);
          return state.reminders.length === 5 && state.outbox.length === 5 && state.outbox.every((row) => row.status === 'done') && state;
        });

      // Two workers start together: each runs the reminder task as it starts.
      let workers = await Promise.all([startWorkerProcess(base), startWorkerProcess(base)]);
      await waitUntil('both sweeps at start', async () => runs.length >= 2);
      let state = await delivered();
      for (const one of made) await mailsTo(mailServer, one.learner.email, 1);
      expect(runs.reduce((sum, queued) => sum + queued, 0)).toBe(5);
      expect(state.mails).toHaveLength(5);
      expect(state.mails.every((mail) => mail.sentAt !== null)).toBe(true);

      // Redis loses every key of this platform's queues (what FLUSHALL does to it), and both workers restart.
      await Promise.all(workers.map((worker) => worker.close()));
      const redis = new Redis(redisUrl!);
      try {
        const keys = await redis.keys(`${prefix}:*`);
        expect(keys.length).toBeGreaterThan(0);
        await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
      const before = runs.length;
      workers = await Promise.all([startWorkerProcess(base), startWorkerProcess(base)]);
      await waitUntil('both sweeps after the restart', async () => runs.length >= before + 2);
      state = await delivered();
      await Promise.all(workers.map((worker) => worker.close()));

      expect(runs.slice(before)).toEqual(runs.slice(before).map(() => 0));
      expect(state.reminders).toHaveLength(5);
      expect(state.mails).toHaveLength(5);
      const toThem = mailServer.received.filter((mail) => made.some((one) => mail.to.includes(one.learner.email)));
      expect(toThem).toHaveLength(5);
      expect(new Set(toThem.map((mail) => mail.to[0])).size).toBe(5);
    } finally {
      await setup.close();
    }
  });
});
