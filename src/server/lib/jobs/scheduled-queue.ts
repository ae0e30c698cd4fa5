import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createTaskRunner, startSchedule, type TScheduledTask } from './schedule.ts';

/** The BullMQ queue the scheduled tasks' job schedulers feed (apart from the outbox's `jobs`). */
export const SCHEDULE_QUEUE = 'scheduled';

/**
 * How often a worker upserts the job schedulers again. A Redis flushed or replaced loses them with
 * everything else, and nothing scheduled would ever run again; within this long they are back.
 */
export const SCHEDULERS_REASSERTED_EVERY_MS = 60_000;

/** A scheduled run that fails is not retried (the next period runs it); a few are kept to inspect. */
const TEMPLATE_OPTIONS = { attempts: 1, removeOnComplete: { count: 50 }, removeOnFail: { count: 50 } } as const;

/**
 * Creates each task's job scheduler, or leaves it as it is: upserting a scheduler that exists with
 * the same period keeps its next run (no extra run, no shift), so any number of processes may call
 * this at any time. A new scheduler, or one whose period changed, runs its first job at once.
 */
export async function upsertJobSchedulers<C>(queue: Queue, tasks: ReadonlyArray<TScheduledTask<C>>): Promise<void> {
  for (const task of tasks) {
    await queue.upsertJobScheduler(task.name, { every: task.everyMs }, { name: task.name, opts: TEMPLATE_OPTIONS });
  }
}

/**
 * The schedule as a worker runs it on Redis. Each task has a BullMQ job scheduler, which makes one
 * job per period for the whole platform however many workers upsert it; this worker takes its share
 * of those jobs, runs the tasks that say so once as it starts (in this process), and upserts the
 * schedulers again every SCHEDULERS_REASSERTED_EVERY_MS. Within this process one task never runs
 * twice at once (a job that comes while a run of its task is going completes as 'skipped').
 */
export async function startQueuedSchedule<C>(
  tasks: ReadonlyArray<TScheduledTask<C>>,
  ctx: C,
  logger: Logger,
  redisUrl: string,
  options: { prefix?: string | undefined; reassertEveryMs?: number } = {},
): Promise<{ close(): Promise<void> }> {
  const runner = createTaskRunner(tasks, ctx, logger);
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const prefix = options.prefix ? { prefix: options.prefix } : {};
  const queue = new Queue(SCHEDULE_QUEUE, { connection, ...prefix });
  queue.on('error', (err) => logger.warn({ err }, 'schedule queue error'));
  const worker = new Worker(SCHEDULE_QUEUE, (job) => runner.run(job.name, { atStart: false }), {
    connection,
    // A long sweep must not hold the reconciler's job back; the runner keeps each task single.
    concurrency: Math.max(1, tasks.length),
    ...prefix,
  });
  worker.on('error', (err) => logger.error({ err }, 'schedule worker error'));
  const reassert = startSchedule(
    [
      {
        name: 'upsert-job-schedulers',
        everyMs: options.reassertEveryMs ?? SCHEDULERS_REASSERTED_EVERY_MS,
        runAtStart: false,
        run: () => upsertJobSchedulers(queue, tasks),
      },
    ],
    undefined,
    logger,
  );
  const close = async () => {
    // No upsert starts from here; one under way is not waited for before letting go of Redis (with
    // Redis away it would wait for its return), and ends when the connection does.
    const reassertStopped = reassert.stop();
    await worker.close();
    await runner.stop();
    await queue.close();
    connection.disconnect();
    await reassertStopped;
  };
  try {
    await upsertJobSchedulers(queue, tasks);
    await worker.waitUntilReady();
  } catch (err) {
    await close();
    throw err;
  }
  for (const task of tasks) if (task.runAtStart) void runner.run(task.name, { atStart: true });
  return { close };
}
