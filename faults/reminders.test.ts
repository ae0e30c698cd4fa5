import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, utcDay } from '../src/shared/calendar.ts';
import { openDatabase, type DatabaseHandle } from '../src/server/db/client.ts';
import { certificateReminders, certificates, jobOutbox, mails, testAttempts, tests } from '../src/server/db/schema.ts';
import { createCourse, createUser } from '../src/testing/factories.ts';
import { untilJobsSettled } from '../src/testing/job-queue.ts';
import { startSmtpServer } from '../src/testing/smtp-server.ts';
import { eventually, faultsCanRun, startBuilt, startRedis, stopGently, type TProcess } from './support.ts';

const services = faultsCanRun();
let db: DatabaseHandle;
const running: TProcess[] = [];
const cleanups: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  if (services) db = await openDatabase({ url: services.databaseUrl, maxConnections: 2 });
});
afterAll(async () => {
  await Promise.all(running.map((process_) => stopGently(process_).catch(() => undefined)));
  for (const cleanup of cleanups.reverse()) await cleanup();
  await db?.close();
});

/** A built worker (`npm run worker` as production runs it), logging its scheduled runs. */
function startWorkerProcess(env: Record<string, string>) {
  const worker = startBuilt('workers', { LOG_LEVEL: 'debug', JWT_SECRET: 'faults-secret-faults-secret-faults-secret', ...env });
  running.push(worker);
  return worker;
}

const sweepsIn = (worker: TProcess) =>
  worker
    .log()
    .split('\n')
    .filter((line) => line.includes('"task":"remind-expiring-certificates"') && line.includes('scheduled task done')).length;

describe.runIf(services)('expiry reminders with two worker processes, a Redis flush and a restart', () => {
  it('mails each due stage once, and nothing again after the flush and the restart', async () => {
    const smtp = await startSmtpServer();
    cleanups.push(smtp.close);
    const redis = await startRedis();
    cleanups.push(redis.stop);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'faults-reminders-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { DATABASE_URL: services!.databaseUrl, REDIS_URL: redis.url, SMTP_URL: smtp.url, DATA_DIR: dataDir };

    // Certificates due today at each stage (the workers sweep today's UTC day), and one not yet due.
    const course = await createCourse(db.db);
    const [test] = await db.db.insert(tests).values({ courseId: course.id, title: course.title, passMark: 50 }).returning();
    const made: Array<{ learner: Awaited<ReturnType<typeof createUser>>; certificate: typeof certificates.$inferSelect; daysLeft: number }> = [];
    for (const daysLeft of [90, 30, 7, 120]) {
      const learner = await createUser(db.db, { approvedAt: new Date() });
      const [attempt] = await db.db
        .insert(testAttempts)
        .values({ userId: learner.id, testId: test!.id, courseId: course.id, submittedAt: new Date(), score: 2, totalQuestions: 2, percentage: 100, passed: true, timeTakenSeconds: 30 })
        .returning();
      const serial = randomBytes(6).toString('hex');
      const [certificate] = await db.db
        .insert(certificates)
        .values({ userId: learner.id, courseId: course.id, attemptId: attempt!.id, number: `MTA/2026/F${serial}`, verificationCode: `faults-${serial}`, holderName: learner.firstName, status: 'ready', validUntil: addDays(utcDay(), daysLeft) })
        .returning();
      made.push({ learner, certificate: certificate!, daysLeft });
    }
    const ids = made.map((one) => one.certificate.id);
    const due = made.filter((one) => one.daysLeft <= 90);
    const state = async () => {
      const reminders = await db.db.select().from(certificateReminders).where(inArray(certificateReminders.certificateId, ids));
      const mailIds = reminders.flatMap((row) => (row.mailId ? [row.mailId] : []));
      const mailRows = mailIds.length ? await db.db.select().from(mails).where(inArray(mails.id, mailIds)) : [];
      const outbox = mailIds.length ? await db.db.select().from(jobOutbox).where(and(eq(jobOutbox.name, 'send-mail'), inArray(jobOutbox.businessKey, mailIds))) : [];
      return { reminders, mails: mailRows, outbox };
    };
    const received = (email: string) => smtp.received.filter((mail) => mail.to.includes(email)).length;

    // Two workers start together: both sweep as they start.
    let workers = [startWorkerProcess(env), startWorkerProcess(env)];
    await eventually('both workers swept', async () => workers.every((worker) => sweepsIn(worker) >= 1), 60_000);
    for (const one of due) await smtp.waitFor(one.learner.email, 30_000);
    // Both sweeps queued what they found, and every job queued has run to its end: a second
    // mail would have reached the server.
    await untilJobsSettled(redis.url);
    let written = await state();
    expect(written.reminders.map((row) => [row.certificateId, row.daysBefore]).sort()).toEqual(due.map((one) => [one.certificate.id, one.daysLeft]).sort());
    expect(written.mails).toHaveLength(due.length);
    expect(written.outbox.every((row) => row.status === 'done')).toBe(true);
    for (const one of made) expect(received(one.learner.email)).toBe(one.daysLeft <= 90 ? 1 : 0);

    // Redis loses everything; both workers restart and sweep again at start.
    await Promise.all(workers.map((worker) => stopGently(worker)));
    expect(redis.flushAll()).toBe('OK');
    workers = [startWorkerProcess(env), startWorkerProcess(env)];
    await eventually('both workers swept again', async () => workers.every((worker) => sweepsIn(worker) >= 1), 60_000);
    await untilJobsSettled(redis.url);
    written = await state();
    expect(written.reminders).toHaveLength(due.length);
    expect(written.mails).toHaveLength(due.length);
    for (const one of made) expect(received(one.learner.email)).toBe(one.daysLeft <= 90 ? 1 : 0);
    await Promise.all(workers.map((worker) => stopGently(worker)));
  }, 180_000);
});
