import type { Logger } from 'pino';
import type { z } from 'zod';
import type { TSiteConfig } from '../../../shared/site-config.ts';
import type { Database } from '../../db/client.ts';
import type { FileStorage } from '../files/storage.ts';
import type { MailTransport } from '../mail/transport.ts';
import type { MediaAdapter } from '../media/media-adapter.ts';
import { findById, markDone, recordFailure } from './outbox.repository.ts';

/** One run of a job, as its processor sees it. */
export type TJobAttempt = {
  /** No retry follows this run if it fails. */
  isLast: boolean;
  /**
   * Fires when the process running the job stops (SIGTERM). Long work (a transcode) stops at once,
   * removes what it wrote and throws: the job is handed back, to run again from its start on the
   * next worker, not counted as a try. Short work (a mail, a PDF) may ignore it and finish.
   */
  signal?: AbortSignal | undefined;
};

/** The work behind one job name: its payload's schema and the function that does it. */
export type TJobProcessor = {
  payload: z.ZodType;
  /** Throws when the work failed and may be tried again; `attempt.isLast` says no retry follows. */
  run: (payload: never, ctx: JobContext, attempt: TJobAttempt) => Promise<void>;
};

/**
 * How a run ended when it did not throw: the work is done, there was nothing to do (a row done
 * already, or gone), or the process stopped it and handed it back with the row still pending.
 */
export type TJobOutcome = 'done' | 'skipped' | 'handed back';

/** What a processor may use; the same whether it runs in the API process or in a worker. */
export type JobContext = {
  db: Database;
  mail: MailTransport;
  files: FileStorage;
  media: MediaAdapter;
  logger: Logger;
  dataDir: string;
  /** The academy as the public pages show it (a certificate names it). */
  site: TSiteConfig;
  /** The address users reach the portal at, without a trailing slash (links in documents and mail). */
  publicUrl: string;
  /** Days before a certificate expires on which its holder is reminded (CERTIFICATE_REMINDER_DAYS, largest first). */
  certificateReminderDays: readonly number[];
  /** Hands jobs a job queued (in its own committed transaction) to whatever runs jobs. */
  dispatch: (jobs: Array<{ id: string; name: string }>) => Promise<void>;
  /** Every job name and its processor, handed in by the composition root (src/server/jobs.ts). */
  processors: Readonly<Record<string, TJobProcessor>>;
};

export const JOB_ATTEMPTS = 5;
export const JOB_BACKOFF_MS = 1000;

/**
 * Runs the job an outbox row describes. A row already done (or failed for good) is skipped, so a
 * job delivered twice does its work once. Throws when the work failed, so the caller retries.
 * A run that ends because `attempt.signal` fired (its process is stopping) is a hand-back, not a
 * failure: the row stays pending with no try counted, and the caller puts the job back in line.
 */
export async function runOutboxJob(ctx: JobContext, outboxId: string, attempt: TJobAttempt): Promise<TJobOutcome> {
  const row = await findById(ctx.db, outboxId);
  if (!row) {
    ctx.logger.warn({ outboxId }, 'job has no outbox row; skipped');
    return 'skipped';
  }
  if (row.status !== 'pending') return 'skipped';
  const processor = ctx.processors[row.name];
  try {
    if (!processor) throw new Error(`no processor for job ${row.name}`);
    await processor.run(processor.payload.parse(row.payload) as never, ctx, attempt);
    await markDone(ctx.db, row.id);
    ctx.logger.info({ job: row.name, outboxId }, 'job done');
    return 'done';
  } catch (error) {
    if (attempt.signal?.aborted) {
      ctx.logger.info({ job: row.name, outboxId, reason: String(attempt.signal.reason) }, `handing back ${row.name} ${row.id}`);
      return 'handed back';
    }
    const message = error instanceof Error ? error.message : String(error);
    await recordFailure(ctx.db, row.id, message, attempt.isLast);
    ctx.logger.error({ job: row.name, outboxId, err: error, isLast: attempt.isLast }, 'job failed');
    throw error;
  }
}
