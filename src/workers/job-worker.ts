import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { JOBS_QUEUE } from '../server/lib/jobs/dispatcher.ts';
import { JOB_ATTEMPTS, runOutboxJob, type JobContext } from '../server/lib/jobs/runner.ts';

/** A BullMQ worker that runs the outbox's jobs. Failed jobs stay in Redis for inspection. */
export function startJobWorker(ctx: JobContext, redisUrl: string, concurrency = 4) {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const worker = new Worker<{ outboxId: string }>(
    JOBS_QUEUE,
    async (job) => {
      const attempts = job.opts.attempts ?? JOB_ATTEMPTS;
      await runOutboxJob(ctx, job.data.outboxId, { isLast: job.attemptsMade + 1 >= attempts });
    },
    { connection, concurrency },
  );
  worker.on('error', (err) => ctx.logger.error({ err }, 'job worker error'));
  return {
    worker,
    async close() {
      await worker.close();
      connection.disconnect();
    },
  };
}
