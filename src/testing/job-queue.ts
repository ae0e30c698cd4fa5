import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { JOBS_QUEUE } from '../server/lib/jobs/dispatcher.ts';

/**
 * Waits until the jobs queue under `prefix` holds no job waiting, running or due again after a
 * failed try: every job dispatched so far has run to its end. A job queues the jobs it starts
 * (a certificate's mail) before it ends, so those are waited for too. What a test checks after
 * this cannot change by waiting longer, short of a new dispatch.
 */
export async function untilJobsSettled(redisUrl: string, prefix = 'bull', timeoutMs = 60_000): Promise<void> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(JOBS_QUEUE, { connection, prefix });
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const counts = await queue.getJobCounts('wait', 'active', 'delayed', 'prioritized', 'waiting-children');
      if (Object.values(counts).every((count) => count === 0)) return;
      if (Date.now() > deadline) throw new Error(`jobs still queued after ${timeoutMs} ms: ${JSON.stringify(counts)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await queue.close();
    connection.disconnect();
  }
}
