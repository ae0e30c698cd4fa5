import type { Logger } from 'pino';
import type { Database } from '../../db/client.ts';
import type { JobDispatcher } from './dispatcher.ts';
import { findPending } from './outbox.repository.ts';

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
    total += rows.length;
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
    if (rows.length < BATCH) break;
  }
  if (total > 0) logger.info({ count: total }, 'pending jobs re-queued');
  return total;
}

/** Re-queues rows left pending for a minute, every minute: a lost dispatch never stalls a job. */
export function startReconciler(db: Database, dispatcher: JobDispatcher, logger: Logger): () => void {
  const timer = setInterval(() => {
    requeuePending(db, dispatcher, logger, new Date(Date.now() - 60_000)).catch((err) =>
      logger.warn({ err }, 'job reconciler failed'),
    );
  }, 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
