import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { JOB_ATTEMPTS, JOB_BACKOFF_MS, runOutboxJob, type JobContext } from './runner.ts';

/** An outbox row to hand to whatever runs jobs. */
export type TJobRef = { id: string; name: string };

export type JobDispatcher = {
  kind: 'bullmq' | 'in-process';
  /** Hands committed intents to the runner. Never throws: a row not handed over stays pending. */
  dispatch(jobs: TJobRef[]): Promise<void>;
  /**
   * Of these jobs, those the queue has given up on (failed for good) with its reason. BullMQ keeps
   * such a job under its id, so dispatching it again does nothing (the reconciler asks this).
   */
  givenUp(ids: readonly string[]): Promise<Array<{ id: string; reason: string }>>;
  /** Runs a job the queue gave up on again, with its tries counted afresh. */
  runAgain(id: string): Promise<void>;
  /** Resolves once no dispatched job is still running (in-process) — for tests and shutdown. */
  drain(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
};

export const JOBS_QUEUE = 'jobs';

/** BullMQ options every job shares: the outbox id as jobId makes a re-dispatch a no-op. */
const JOB_OPTIONS = {
  attempts: JOB_ATTEMPTS,
  backoff: { type: 'exponential', delay: JOB_BACKOFF_MS },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: false,
} as const;

export function createBullmqDispatcher(redisUrl: string, logger: Logger, prefix?: string): JobDispatcher {
  // Fail fast in the API process: a request must not hang on Redis; the outbox keeps the intent.
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  connection.on('error', (err) => logger.warn({ err }, 'redis connection error'));
  const queue = new Queue(JOBS_QUEUE, { connection, ...(prefix ? { prefix } : {}) });
  queue.on('error', (err) => logger.warn({ err }, 'job queue error'));
  return {
    kind: 'bullmq',
    async dispatch(jobs) {
      try {
        await queue.addBulk(
          jobs.map((job) => ({ name: job.name, data: { outboxId: job.id }, opts: { ...JOB_OPTIONS, jobId: job.id } })),
        );
      } catch (err) {
        logger.warn({ err, jobs }, 'jobs not queued now; the reconciler will queue them');
      }
    },
    async givenUp(ids) {
      try {
        const jobs = await Promise.all(ids.map((id) => queue.getJob(id)));
        const failed = await Promise.all(jobs.map(async (job) => (job && (await job.isFailed()) ? job : undefined)));
        return failed.flatMap((job) => (job?.id ? [{ id: job.id, reason: job.failedReason || 'failed' }] : []));
      } catch (err) {
        logger.warn({ err }, 'could not ask the queue which jobs it gave up on');
        return [];
      }
    },
    async runAgain(id) {
      try {
        await (await queue.getJob(id))?.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      } catch (err) {
        logger.warn({ err, id }, 'job not run again now; the reconciler will try again');
      }
    },
    drain: async () => {},
    ping: async () => {
      await connection.ping();
    },
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}

/**
 * Runs jobs in this process with the same processors and retry policy as the workers, for the
 * embedded set-up with no Redis. Closing it (the portal stopping) hands back the long jobs under
 * way (a transcode stops and its row stays pending, for the reconciler as the portal starts
 * again) and lets the short ones finish; no retry starts after.
 */
export function createInProcessDispatcher(ctx: JobContext): JobDispatcher {
  const running = new Set<Promise<void>>();
  const queued = new Set<string>();
  const stopping = new AbortController();

  async function runWithRetries(job: TJobRef): Promise<void> {
    const { signal } = stopping;
    for (let attempt = 1; attempt <= JOB_ATTEMPTS && !signal.aborted; attempt += 1) {
      try {
        // Done, skipped, or handed back: a row handed back stays pending for the next start.
        await runOutboxJob(ctx, job.id, { isLast: attempt === JOB_ATTEMPTS, signal });
        return;
      } catch {
        if (attempt < JOB_ATTEMPTS) await pause(JOB_BACKOFF_MS * 2 ** (attempt - 1), signal);
      }
    }
  }

  return {
    kind: 'in-process',
    async dispatch(jobs) {
      for (const job of jobs) {
        if (stopping.signal.aborted || queued.has(job.id)) continue;
        queued.add(job.id);
        const run = new Promise<void>((resolve) => setImmediate(resolve))
          .then(() => runWithRetries(job))
          .finally(() => {
            queued.delete(job.id);
            running.delete(run);
          });
        running.add(run);
      }
    },
    // A row whose runs all ended without the row saying so is simply dispatched again here.
    givenUp: async () => [],
    runAgain: async () => {},
    async drain() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    ping: async () => {},
    async close() {
      stopping.abort('the portal is stopping');
      await this.drain();
    },
  };
}

/** Waits `ms`, or less when `signal` fires. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
