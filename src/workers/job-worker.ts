import { WaitingError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { SCHEDULED_TASKS, type TScheduleContext } from '../server/jobs.ts';
import { JOBS_QUEUE, type JobDispatcher } from '../server/lib/jobs/dispatcher.ts';
import { JOB_ATTEMPTS, runOutboxJob, type JobContext } from '../server/lib/jobs/runner.ts';
import type { TScheduledTask } from '../server/lib/jobs/schedule.ts';
import { startQueuedSchedule } from '../server/lib/jobs/scheduled-queue.ts';

const STALLED_AFTER_MS = 10_000;

/**
 * The worker process's nice value (`npm run worker` sets it as it starts). Its jobs (a
 * certificate's PDF, mail, a video's preparation) are background work: on a machine it shares
 * with the portal, a request waits for no job, and a job still gets about a tenth of a busy core
 * (the weight of nice 10 against 0's). Decision 036.
 */
export const WORKER_NICENESS = 10;

/**
 * A BullMQ worker that runs the outbox's jobs. Failed jobs stay in Redis for inspection. Closing it
 * takes no new job, hands back the long ones under way and waits for the short ones (see close).
 */
export function startJobWorker(
  ctx: JobContext,
  redisUrl: string,
  options: { concurrency?: number; prefix?: string | undefined } = {},
) {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const worker = new Worker<{ outboxId: string }>(
    JOBS_QUEUE,
    // Three parameters: BullMQ passes the AbortSignal that `cancelAllJobs` fires only to a processor that takes it.
    async (job, token, signal) => {
      const attempts = job.opts.attempts ?? JOB_ATTEMPTS;
      const outcome = await runOutboxJob(ctx, job.data.outboxId, { isLast: job.attemptsMade + 1 >= attempts, signal });
      if (outcome === 'handed back') {
        // Back to the front of waiting, its lock released, no try counted (BullMQ's manual retry):
        // another worker takes it at once, or this one as it starts again.
        await job.moveToWait(token);
        throw new WaitingError();
      }
    },
    {
      connection,
      concurrency: options.concurrency ?? 4,
      // A worker that dies mid-job (kill -9, a lost machine) stops renewing its lock: another
      // worker takes the job over within about two of these periods (BullMQ's default is 30 s each).
      lockDuration: STALLED_AFTER_MS,
      stalledInterval: STALLED_AFTER_MS,
      ...(options.prefix ? { prefix: options.prefix } : {}),
    },
  );
  worker.on('error', (err) => ctx.logger.error({ err }, 'job worker error'));
  return {
    worker,
    /**
     * Takes no new job, tells the jobs under way that the worker stops (a transcode hands itself
     * back at once; a mail or a PDF finishes), waits for them, then lets go of Redis.
     */
    async close() {
      const closing = worker.close();
      worker.cancelAllJobs('the worker is stopping');
      await closing;
      connection.disconnect();
    },
  };
}

/**
 * A worker as `npm run worker` runs it: the outbox's jobs, and the scheduled tasks (the sweep, the
 * reconciler) through their BullMQ job schedulers, which it upserts as it starts and every minute
 * after (scheduled-queue.ts). The tasks that say so also run once as it starts: the reconciler then
 * re-queues whatever the outbox still holds as pending, a Redis flush's losses among it.
 */
export async function startWorker(
  ctx: JobContext,
  redisUrl: string,
  dispatcher: JobDispatcher,
  options: {
    concurrency?: number;
    prefix?: string | undefined;
    /** The scheduled tasks (SCHEDULED_TASKS unless a test shortens their periods). */
    tasks?: ReadonlyArray<TScheduledTask<TScheduleContext>>;
    reassertEveryMs?: number;
  } = {},
) {
  const jobWorker = startJobWorker(ctx, redisUrl, options);
  await jobWorker.worker.waitUntilReady();
  const schedule = await startQueuedSchedule(options.tasks ?? SCHEDULED_TASKS, { ...ctx, jobs: dispatcher }, ctx.logger, redisUrl, {
    prefix: options.prefix,
    ...(options.reassertEveryMs ? { reassertEveryMs: options.reassertEveryMs } : {}),
  }).catch(async (err: unknown) => {
    await jobWorker.close();
    throw err;
  });
  return {
    /**
     * Hands back the long jobs under way, waits for the short ones and the scheduled runs under
     * way, then lets go of Redis.
     */
    async close() {
      await Promise.all([schedule.close(), jobWorker.close()]);
    },
  };
}
