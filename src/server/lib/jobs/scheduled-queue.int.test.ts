import { randomBytes } from 'node:crypto';
import { utimesSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Queue } from 'bullmq';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { PDF } from '../../../testing/multipart.ts';
import { isStored, leavePartialFile } from '../../../testing/storage.ts';
import { jobOutbox } from '../../db/schema.ts';
import { SCHEDULED_TASKS, type TScheduleContext } from '../../jobs.ts';
import { queueMail } from '../mail/mail.service.ts';
import { SWEEP_AGE_MS } from '../files/sweep.ts';
import { DISPATCH_GRACE_MS } from './reconciler.ts';
import { SCHEDULE_QUEUE, startQueuedSchedule } from './scheduled-queue.ts';
import type { TScheduledTask } from './schedule.ts';
import { describe, expect, inject, test } from '../../../testing/portal-test.ts';

const redisUrl = inject('redisUrl');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not in time`);
    await sleep(50);
  }
}

/** A key prefix of the test's own on the shared Redis, so nothing else's queues are touched. */
const newPrefix = () => `test-schedule-${randomBytes(4).toString('hex')}`;

test.override({ portalOptions: { smtp: true } });

/** Starts the schedule of the tasks on the file's portal; every schedule started is closed before the portal. */
const it = test.extend('schedule', { scope: 'file' }, ({ portal }, { onCleanup }) => {
  const ctx: TScheduleContext = { ...portal.runtime.jobContext, jobs: portal.runtime.jobs };
  const closing: Array<() => Promise<void>> = [];
  onCleanup(async () => {
    for (const close of closing.reverse()) await close();
  });
  return async (tasks: ReadonlyArray<TScheduledTask<TScheduleContext>>, prefix: string, reassertEveryMs?: number) => {
    const started = await startQueuedSchedule(tasks, ctx, portal.runtime.logger, redisUrl!, {
      prefix,
      ...(reassertEveryMs ? { reassertEveryMs } : {}),
    });
    closing.push(started.close);
    return started;
  };
});

describe.runIf(redisUrl)('scheduled tasks on Redis', () => {
  /** A task that counts its runs, every `everyMs`. */
  function countingTask(everyMs: number) {
    const runs: number[] = [];
    const task: TScheduledTask<TScheduleContext> = {
      name: 'count-runs',
      everyMs,
      runAtStart: false,
      run: async () => {
        runs.push(Date.now());
      },
    };
    return { task, runs };
  }

  it('runs a task once per period however many instances register and run the schedule', async ({ schedule }) => {
    const prefix = newPrefix();
    const every = 400;
    const { task, runs } = countingTask(every);
    // Two instances (two workers, or an API and a worker) upserting the same schedulers, again and
    // again (every 100 ms), and both taking jobs off the queue.
    const first = await schedule([task], prefix, 100);
    const second = await schedule([task], prefix, 100);
    // Six runs: one at the scheduler's creation, then one each period (about two seconds in all).
    await waitUntil('six runs', async () => runs.length >= 6);
    await first.close();
    await second.close();
    const span = runs.at(-1)! - runs[0]!;

    // At most one run each period from the first, with one of slack for the edges: a second
    // instance, or an upsert, that made runs of its own would about double the count.
    expect(runs.length).toBeGreaterThanOrEqual(6);
    expect(runs.length).toBeLessThanOrEqual(Math.floor(span / every) + 2);
    // Each run was its own slot of the scheduler, done once.
    const connection = new Redis(redisUrl!, { maxRetriesPerRequest: null });
    const queue = new Queue(SCHEDULE_QUEUE, { connection, prefix });
    try {
      const done = await queue.getJobs(['completed']);
      expect(done.map((job) => job.returnvalue).filter((outcome) => outcome === 'ran')).toHaveLength(runs.length);
      expect(new Set(done.map((job) => job.id)).size).toBe(done.length);
      expect(await queue.getJobSchedulers()).toEqual([expect.objectContaining({ key: task.name, every })]);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });

  it('re-creates the schedulers a Redis flush deleted, and runs resume', async ({ schedule }) => {
    const prefix = newPrefix();
    const { task, runs } = countingTask(300);
    await schedule([task], prefix, 200);
    await waitUntil('a first run', async () => runs.length >= 1);

    // What FLUSHALL does to this schedule (only its own keys: other tests share the Redis).
    const redis = new Redis(redisUrl!);
    try {
      const keys = await redis.keys(`${prefix}:*`);
      expect(keys.some((key) => key.endsWith(`:${SCHEDULE_QUEUE}:repeat`))).toBe(true);
      await redis.del(...keys);
      const afterFlush = runs.length;
      await waitUntil('the scheduler back', async () => (await redis.exists(`${prefix}:${SCHEDULE_QUEUE}:repeat`)) === 1, 5000);
      await waitUntil('runs after the flush', async () => runs.length >= afterFlush + 2, 10_000);
    } finally {
      redis.disconnect();
    }
  });

  it('re-queues an outbox row whose dispatch was lost, and sweeps a left-over file, through the job schedulers', async ({ db, portal, schedule, smtp }) => {
    const prefix = newPrefix();
    // The declared tasks as they are, with periods a test can wait for, and no run at start: what
    // happens below is the periodic run through BullMQ.
    const tasks = SCHEDULED_TASKS.map((task) => ({ ...task, everyMs: 500, runAtStart: false }));
    expect(tasks.map((task) => task.name).sort()).toEqual(['purge-ended-retention', 'remind-expiring-certificates', 'requeue-pending-jobs', 'sweep-stored-files']);

    const to = `lost-dispatch-${randomBytes(3).toString('hex')}@example.com`;
    const job = await db.transaction((tx) => queueMail(tx, { to, subject: 'Your certificate', text: 'ready' }));
    // Committed two minutes ago, and never dispatched (the process died after the commit).
    await db
      .update(jobOutbox)
      .set({ createdAt: new Date(Date.now() - DISPATCH_GRACE_MS - 60_000) })
      .where(eq(jobOutbox.id, job.id));

    const files = portal.runtime.files;
    const stranded = await files.save('id_documents', Readable.from(PDF), { maxBytes: 1024, kinds: ['pdf'] });
    const part = leavePartialFile(files, 'profile_pictures');
    const longAgo = new Date(Date.now() - SWEEP_AGE_MS - 60_000);
    utimesSync(path.join(files.location, 'id_documents', stranded.name), longAgo, longAgo);
    utimesSync(path.join(files.location, 'profile_pictures', part.name), longAgo, longAgo);
    const fresh = await files.save('id_documents', Readable.from(PDF), { maxBytes: 1024, kinds: ['pdf'] });

    await schedule(tasks, prefix);
    expect((await smtp.waitFor(to, 20_000)).subject).toBe('Your certificate');
    await waitUntil('the row done', async () => {
      const [row] = await db.select().from(jobOutbox).where(eq(jobOutbox.id, job.id));
      return row?.status === 'done';
    });
    await waitUntil('the stranded file swept', async () => !(await isStored(files, 'id_documents', stranded.name)));
    expect(part.exists()).toBe(false);
    // A file younger than the sweep's age may belong to a change about to commit: kept.
    expect(await isStored(files, 'id_documents', fresh.name)).toBe(true);
  });
});
