import type { Logger } from 'pino';
import type { z } from 'zod';
import type { TSiteConfig } from '../../../shared/site-config.ts';
import type { Database } from '../../db/client.ts';
import type { FileStorage } from '../files/storage.ts';
import type { MailTransport } from '../mail/transport.ts';
import type { MediaAdapter } from '../media/media-adapter.ts';
import { findById, markDone, recordFailure } from './outbox.repository.ts';

/** The work behind one job name: its payload's schema and the function that does it. */
export type TJobProcessor = {
  payload: z.ZodType;
  /** Throws when the work failed and may be tried again; `attempt.isLast` says no retry follows. */
  run: (payload: never, ctx: JobContext, attempt: { isLast: boolean }) => Promise<void>;
};

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
 */
export async function runOutboxJob(
  ctx: JobContext,
  outboxId: string,
  attempt: { isLast: boolean },
): Promise<void> {
  const row = await findById(ctx.db, outboxId);
  if (!row) {
    ctx.logger.warn({ outboxId }, 'job has no outbox row; skipped');
    return;
  }
  if (row.status !== 'pending') return;
  const processor = ctx.processors[row.name];
  try {
    if (!processor) throw new Error(`no processor for job ${row.name}`);
    await processor.run(processor.payload.parse(row.payload) as never, ctx, attempt);
    await markDone(ctx.db, row.id);
    ctx.logger.info({ job: row.name, outboxId }, 'job done');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await recordFailure(ctx.db, row.id, message, attempt.isLast);
    ctx.logger.error({ job: row.name, outboxId, err: error, isLast: attempt.isLast }, 'job failed');
    throw error;
  }
}
