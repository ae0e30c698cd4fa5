import type { Logger } from 'pino';
import type { Database } from '../../db/client.ts';
import type { JobDispatcher } from './dispatcher.ts';
import { findPending, recordFailure, type TOutboxRow } from './outbox.repository.ts';
import { JOB_ATTEMPTS } from './runner.ts';

const BATCH = 500;

/**
 * Hands every outbox row still pending (created before `olderThan`) to the dispatcher again.
 * Dispatch is idempotent, so a row already queued is not run twice.
 */
export async function requeuePending(
  db: Database,
  dispatcher: JobDispatcher,
  logger: Logger,
  olderThan: Date = new Date(),
): Promise<number> {
  let total = 0;
  let after: { createdAt: Date; id: string } | undefined;
  for (;;) {
    const rows = await findPending(db, olderThan, BATCH, after);
    if (rows.length === 0) break;
    await dispatcher.dispatch(rows.map((row) => ({ id: row.id, name: row.name })));
    await runAgainWhatTheQueueGaveUp(db, dispatcher, logger, rows);
    total += rows.length;
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
    if (rows.length < BATCH) break;
  }
  if (total > 0) logger.info({ count: total }, 'pending jobs re-queued');
  return total;
}

/**
 * Pending rows whose job the queue gave up on without the runner recording it: a worker killed twice
 * during the job (BullMQ fails a job stalled more than once), the database unreachable through every
 * retry, a failed row an operator set back to pending. Dispatching them again does nothing (the queue
 * keeps the failed job under the row's id), so each is run again, counted as a try on the row, until
 * the row has had JOB_ATTEMPTS tries: then it is marked failed with the queue's reason, for a person.
 */
async function runAgainWhatTheQueueGaveUp(db: Database, dispatcher: JobDispatcher, logger: Logger, rows: readonly TOutboxRow[]) {
  const givenUp = await dispatcher.givenUp(rows.map((row) => row.id));
  for (const { id, reason } of givenUp) {
    const row = rows.find((pending) => pending.id === id)!;
    const final = row.attempts + 1 >= JOB_ATTEMPTS;
    // Only while the row is still pending: a run that ended meanwhile has recorded its outcome.
    if (!(await recordFailure(db, id, `the queue gave up: ${reason}`, final))) continue;
    if (final) {
      logger.error({ job: row.name, outboxId: id, reason }, 'job failed: the queue gave up on it once more');
      continue;
    }
    logger.warn({ job: row.name, outboxId: id, reason }, 'job the queue gave up on runs again');
    await dispatcher.runAgain(id);
  }
}

/** How often the reconciler runs (a scheduled task, src/server/jobs.ts). */
export const RECONCILE_EVERY_MS = 60_000;

/**
 * How long a pending row is left to the dispatch that follows its commit before the reconciler
 * hands it over again: a lost dispatch never stalls a job for much longer than this.
 */
export const DISPATCH_GRACE_MS = 60_000;

/**
 * The reconciler's scheduled run. As the process that runs the schedule starts, every pending row
 * is handed over (what an earlier run, or a flushed Redis, left behind); on each period only those
 * older than DISPATCH_GRACE_MS, so a row whose own dispatch is on its way is not raced.
 */
export function requeueLostDispatches(
  db: Database,
  dispatcher: JobDispatcher,
  logger: Logger,
  occasion: { atStart: boolean },
): Promise<number> {
  return requeuePending(db, dispatcher, logger, new Date(Date.now() - (occasion.atStart ? 0 : DISPATCH_GRACE_MS)));
}
