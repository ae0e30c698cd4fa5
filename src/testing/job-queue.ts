import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { JOBS_QUEUE } from '../server/lib/jobs/dispatcher.ts';

const UNSETTLED = new Set(['waiting', 'wait', 'active', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Waits until the jobs queue under `prefix` holds none of `ids` (outbox ids, the jobs' ids) waiting,
 * running or due again after a failed try, or, with no ids, no job at all: those jobs have run to
 * their end. A job queues the jobs it starts (a certificate's mail) before it ends. What a test
 * checks after this cannot change by waiting longer, short of a new dispatch. Other portals'
 * rows on the shared database can reach a portal's queue through its reconciler: a test waits
 * for its own jobs by their ids.
 */
export async function untilJobsSettled(redisUrl: string, prefix = 'bull', ids?: readonly string[], timeoutMs = 60_000): Promise<void> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(JOBS_QUEUE, { connection, prefix });
  const unsettled = async () => {
    if (!ids) return Object.values(await queue.getJobCounts('wait', 'active', 'delayed', 'prioritized', 'waiting-children')).some((count) => count > 0);
    const states = await Promise.all(ids.map((id) => queue.getJobState(id)));
    return states.some((state) => UNSETTLED.has(state));
  };
  try {
    const deadline = Date.now() + timeoutMs;
    while (await unsettled()) {
      if (Date.now() > deadline) throw new Error(`jobs still queued after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await queue.close();
    connection.disconnect();
  }
}
