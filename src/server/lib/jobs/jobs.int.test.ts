import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { UnrecoverableError, Worker } from 'bullmq';
import { eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { untilJobsSettled } from '../../../testing/job-queue.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';
import { jobOutbox, mails } from '../../db/schema.ts';
import { queueMail } from '../mail/mail.service.ts';
import { createBullmqDispatcher, JOBS_QUEUE, type JobDispatcher } from './dispatcher.ts';
import { DISPATCH_GRACE_MS, requeueLostDispatches, requeuePending } from './reconciler.ts';
import { JOB_ATTEMPTS, runOutboxJob } from './runner.ts';
import { afterAll, beforeAll, describe, expect, inject, test } from '../../../testing/portal-test.ts';

async function outboxRow(portal: TestPortal, id: string) {
  const [row] = await portal.runtime.db.select().from(jobOutbox).where(eq(jobOutbox.id, id));
  return row;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** postgres.js answers an array, PGlite an object with rows. */
function rowsOf(result: unknown): unknown[] {
  return Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
}

function mailTo(name: string) {
  return `${name}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

test.override({ portalOptions: { smtp: true } });

/** The BullMQ queue prefix of the file's own, so nothing else's jobs are touched. */
const prefix = `test-${randomBytes(4).toString('hex')}`;

/** A BullMQ worker on the file's queue doing `work`; close it when done. */
function queueWorker(work: (outboxId: string) => Promise<unknown>) {
  const connection = new Redis(inject('redisUrl')!, { maxRetriesPerRequest: null });
  const worker = new Worker<{ outboxId: string }>(JOBS_QUEUE, (job) => work(job.data.outboxId), { connection, prefix });
  return {
    worker,
    async close() {
      await worker.close();
      connection.disconnect();
    },
  };
}

const it = test
  /**
   * The portal whose jobs the runner runs: the file's runs them itself; for BullMQ, a portal of its
   * own with a worker on Redis, built when first asked for.
   */
  .extend('portalRunning', { scope: 'file' }, ({ portal, smtp }, { onCleanup }) => {
    let onRedis: Promise<TestPortal> | undefined;
    onCleanup(async () => {
      await (await onRedis)?.close();
    });
    return (redis: boolean) => (redis ? (onRedis ??= createTestPortal({ redis: true, env: { SMTP_URL: smtp.url } })) : Promise.resolve(portal));
  })
  /** A dispatcher onto the file's BullMQ queue, with no worker of the portal's taking its jobs. */
  .extend('dispatcher', { scope: 'file' }, ({ portal }, { onCleanup }) => {
    const dispatcher = createBullmqDispatcher(inject('redisUrl')!, portal.runtime.logger, prefix);
    onCleanup(() => dispatcher.close());
    return dispatcher;
  })
  /** A pending mail whose BullMQ job failed for good the way a second stall fails it. */
  .extend('givenUpMail', { scope: 'file' }, ({ db, dispatcher }) => async (to: string) => {
    const job = await db.transaction((tx) => queueMail(tx, { to, subject: 'Certificate ready', text: 'ready' }));
    const failing = queueWorker(async () => {
      throw new UnrecoverableError('job stalled more than allowable limit');
    });
    const failed = new Promise<void>((resolve) => failing.worker.once('failed', () => resolve()));
    await dispatcher.dispatch([job]);
    await failed;
    await failing.close();
    expect(await dispatcher.givenUp([job.id])).toEqual([{ id: job.id, reason: 'job stalled more than allowable limit' }]);
    return job;
  });

const runners = [
  { name: 'in-process runner', redis: false },
  { name: 'BullMQ on Redis', redis: true },
];

for (const runner of runners) {
  describe.runIf(!runner.redis || inject('redisUrl'))(`mail through the ${runner.name}`, () => {
    let portal: TestPortal;
    it.beforeAll(async ({ portalRunning }) => {
      portal = await portalRunning(runner.redis);
    });

    it('delivers a mail queued in a transaction, then forgets its body', async ({ smtp }) => {
      const to = mailTo('deliver');
      const job = await portal.runtime.db.transaction((tx) =>
        queueMail(tx, { to, subject: 'Your verification code', text: 'Your code is 482913. It expires in 10 minutes.' }),
      );
      await portal.runtime.jobs.dispatch([job]);

      const received = await smtp.waitFor(to);
      expect(received.subject).toBe('Your verification code');
      expect(received.text).toContain('482913');

      await waitUntil(async () => (await outboxRow(portal, job.id))?.status === 'done');
      const [mail] = await portal.runtime.db.select().from(mails).where(eq(mails.to, to));
      expect(mail?.sentAt).toBeInstanceOf(Date);
      expect(mail?.text).toBeNull();
    });

    it('writes nothing when the transaction that queued it rolls back', async () => {
      const to = mailTo('rollback');
      await expect(
        portal.runtime.db.transaction(async (tx) => {
          await queueMail(tx, { to, subject: 'Never sent', text: 'x' });
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect(await portal.runtime.db.select().from(mails).where(eq(mails.to, to))).toHaveLength(0);
      // No intent may point at a mail that does not exist.
      const orphans = await portal.runtime.db.execute(
        sql`select count(*)::int as n from job_outbox o where o.name = 'send-mail'
            and not exists (select 1 from mails m where m.id::text = o.payload->>'mailId')`,
      );
      expect(rowsOf(orphans)[0]).toEqual({ n: 0 });
    });

    it('sends once when the same job is dispatched twice', async ({ smtp }) => {
      const to = mailTo('twice');
      const job = await portal.runtime.db.transaction((tx) => queueMail(tx, { to, subject: 'Once', text: 'once' }));
      await portal.runtime.jobs.dispatch([job]);
      await portal.runtime.jobs.dispatch([job]);
      await smtp.waitFor(to);
      await waitUntil(async () => (await outboxRow(portal, job.id))?.status === 'done');
      await portal.runtime.jobs.dispatch([job]);
      // The job has run to its end again if it ran again: a second send would have reached the server.
      await portal.drainJobs([job.id]);
      expect(smtp.received.filter((mail) => mail.to.includes(to))).toHaveLength(1);
    });

    it('re-queues an intent that was committed but never dispatched', async ({ smtp }) => {
      const to = mailTo('reconcile');
      const job = await portal.runtime.db.transaction((tx) => queueMail(tx, { to, subject: 'Late', text: 'late' }));
      expect((await outboxRow(portal, job.id))?.status).toBe('pending');
      const requeued = await requeuePending(portal.runtime.db, portal.runtime.jobs, portal.runtime.logger);
      expect(requeued).toBeGreaterThanOrEqual(1);
      expect((await smtp.waitFor(to)).subject).toBe('Late');
    });
  });
}

describe.runIf(inject('redisUrl'))('a job BullMQ gave up on while its outbox row is still pending', () => {
  // A worker killed twice during one job, or a database away through every retry: BullMQ fails the
  // job without the runner recording anything, and keeps it under the row's id.
  it('is run again by the reconciler and done once', async ({ dispatcher, givenUpMail, portal, smtp }) => {
    const to = mailTo('given-up');
    const job = await givenUpMail(to);
    const worker = queueWorker((outboxId) => runOutboxJob(portal.runtime.jobContext, outboxId, { isLast: false }));
    try {
      await requeuePending(portal.runtime.db, dispatcher, portal.runtime.logger);
      await smtp.waitFor(to);
      await waitUntil(async () => (await outboxRow(portal, job.id))?.status === 'done');
      // The give-up counted as a try, then the run.
      expect(await outboxRow(portal, job.id)).toMatchObject({ status: 'done', attempts: 2 });
      await requeuePending(portal.runtime.db, dispatcher, portal.runtime.logger);
      // Whatever that queued has run: a second send would have reached the server.
      await untilJobsSettled(inject('redisUrl')!, prefix, [job.id]);
      expect(smtp.received.filter((mail) => mail.to.includes(to))).toHaveLength(1);
    } finally {
      await worker.close();
    }
  });

  it('is marked failed with the queue’s reason once the row has had its tries', async ({ dispatcher, givenUpMail, portal }) => {
    const to = mailTo('given-up-for-good');
    const job = await givenUpMail(to);
    await portal.runtime.db.update(jobOutbox).set({ attempts: JOB_ATTEMPTS - 1 }).where(eq(jobOutbox.id, job.id));
    await requeuePending(portal.runtime.db, dispatcher, portal.runtime.logger);
    expect(await outboxRow(portal, job.id)).toMatchObject({
      status: 'failed',
      attempts: JOB_ATTEMPTS,
      lastError: 'the queue gave up: job stalled more than allowable limit',
    });
    expect(await dispatcher.givenUp([job.id])).toHaveLength(1);
  });
});

describe('the reconciler as a scheduled task', () => {
  /** The portal's own dispatcher, noting which rows it was handed. */
  function noting(dispatcher: JobDispatcher) {
    const handed = new Set<string>();
    const dispatch: JobDispatcher['dispatch'] = async (jobs) => {
      for (const job of jobs) handed.add(job.id);
      await dispatcher.dispatch(jobs);
    };
    return { handed, dispatcher: { ...dispatcher, dispatch } };
  }

  it('leaves a row just committed to its own dispatch on its periods, and hands every pending row over at start', async ({ portal }) => {
    const { runtime } = portal;
    const fresh = await runtime.db.transaction((tx) => queueMail(tx, { to: mailTo('fresh'), subject: 'Fresh', text: 'x' }));
    const lost = await runtime.db.transaction((tx) => queueMail(tx, { to: mailTo('lost'), subject: 'Lost', text: 'x' }));
    await runtime.db
      .update(jobOutbox)
      .set({ createdAt: new Date(Date.now() - DISPATCH_GRACE_MS - 1000) })
      .where(eq(jobOutbox.id, lost.id));

    const periodic = noting(runtime.jobs);
    await requeueLostDispatches(runtime.db, periodic.dispatcher, runtime.logger, { atStart: false });
    expect(periodic.handed.has(lost.id)).toBe(true);
    expect(periodic.handed.has(fresh.id)).toBe(false);

    const atStart = noting(runtime.jobs);
    await requeueLostDispatches(runtime.db, atStart.dispatcher, runtime.logger, { atStart: true });
    expect(atStart.handed.has(fresh.id)).toBe(true);
    await portal.drainJobs();
    expect(await outboxRow(portal, fresh.id)).toMatchObject({ status: 'done' });
    expect(await outboxRow(portal, lost.id)).toMatchObject({ status: 'done' });
  });
});

describe('a job that keeps failing', () => {
  // A portal of its own, its mail going to a server that is not there.
  let portal: TestPortal;
  beforeAll(async () => {
    // Nothing listens on port 9: every delivery fails.
    portal = await createTestPortal({ env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
  });
  afterAll(() => portal.close());

  it('records each failure and marks the row failed on the last try', async () => {
    const job = await portal.runtime.db.transaction((tx) =>
      queueMail(tx, { to: mailTo('fail'), subject: 'Fails', text: 'x' }),
    );
    await expect(runOutboxJob(portal.runtime.jobContext, job.id, { isLast: false })).rejects.toThrow();
    expect(await outboxRow(portal, job.id)).toMatchObject({ status: 'pending', attempts: 1 });
    await expect(runOutboxJob(portal.runtime.jobContext, job.id, { isLast: true })).rejects.toThrow();
    const row = await outboxRow(portal, job.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 2 });
    expect(row?.lastError).toMatch(/ECONNREFUSED|connect/i);
  });
});

describe('mail with no SMTP server configured', () => {
  // A portal of its own: the file's sends its mail to the file's SMTP server.
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await createTestPortal();
  });
  afterAll(() => portal.close());

  it('is written as an .eml file in the outbox folder', async () => {
    const to = mailTo('file');
    const job = await portal.runtime.db.transaction((tx) =>
      queueMail(tx, { to, subject: 'Welcome aboard', text: 'Welcome to the academy.' }),
    );
    await portal.runtime.jobs.dispatch([job]);
    await portal.drainJobs();
    const folder = path.join(portal.dataDir, 'outbox');
    const files = readdirSync(folder).filter((file) => file.endsWith('.eml'));
    const written = files.map((file) => readFileSync(path.join(folder, file), 'utf8')).find((raw) => raw.includes(to));
    expect(written).toContain('Subject: Welcome aboard');
    expect(written).toContain('Welcome to the academy.');
    expect(files.every((file) => !file.endsWith('.tmp'))).toBe(true);
  });
});
