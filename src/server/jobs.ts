import { JOBS } from '../shared/jobs.ts';
import { sweepStoredFiles, SWEEP_INTERVAL_MS } from './lib/files/sweep.ts';
import type { JobDispatcher } from './lib/jobs/dispatcher.ts';
import { RECONCILE_EVERY_MS, requeueLostDispatches } from './lib/jobs/reconciler.ts';
import type { JobContext, TJobProcessor } from './lib/jobs/runner.ts';
import type { TScheduledTask } from './lib/jobs/schedule.ts';
import { sendMail } from './lib/mail/send-mail.job.ts';
import { renderCertificate } from './modules/certificates/render-certificate.job.ts';
import { sendDueReminders } from './modules/certificates/reminders.service.ts';
import { referencedFileNames } from './modules/files/stored-files.service.ts';
import { purgeEndedRetention } from './modules/personal-data/personal-data.service.ts';
import { transcodeTrainingVideo } from './modules/training/transcode.job.ts';

/**
 * Every job name and the processor that does its work, handed to the runner by the runtime, so the
 * API process and `npm run worker` run the same work. A feature that queues a job adds it here.
 */
export const JOB_PROCESSORS: Readonly<Record<string, TJobProcessor>> = {
  [JOBS.sendMail.name]: { payload: JOBS.sendMail.payload, run: sendMail },
  [JOBS.transcodeVideo.name]: { payload: JOBS.transcodeVideo.payload, run: transcodeTrainingVideo },
  [JOBS.renderCertificate.name]: { payload: JOBS.renderCertificate.payload, run: renderCertificate },
};

/** What a scheduled task may use: what a job may, and the dispatcher itself (the reconciler asks it). */
export type TScheduleContext = JobContext & { jobs: JobDispatcher };

/**
 * Every task that runs on a schedule, once: the runtime runs them in-process on the embedded
 * set-up, `npm run worker` through BullMQ job schedulers on Redis (once per period for the whole
 * platform). A new task is one entry here: a unique name, its period, whether it also runs as the
 * process that runs the schedule starts, and its function. A task that runs at start may run once
 * per worker start, so it must be harmless twice (queue through the outbox, with a business key).
 */
export const SCHEDULED_TASKS: ReadonlyArray<TScheduledTask<TScheduleContext>> = [
  {
    // Upload files a crash or a kill left behind, and stored files no row points to.
    name: 'sweep-stored-files',
    everyMs: SWEEP_INTERVAL_MS,
    runAtStart: true,
    run: async (ctx) => {
      const result = await sweepStoredFiles(ctx.files, referencedFileNames(ctx));
      if (result.partialRemoved + result.orphansRemoved > 0) ctx.logger.info(result, 'left-over upload files removed');
    },
  },
  {
    // Outbox rows whose dispatch was lost (a crash after the commit, Redis down or flushed).
    name: 'requeue-pending-jobs',
    everyMs: RECONCILE_EVERY_MS,
    runAtStart: true,
    run: (ctx, occasion) => requeueLostDispatches(ctx.db, ctx.jobs, ctx.logger, occasion),
  },
  {
    // Certificates about to expire: each reminder stage mailed once, the database row its record.
    name: 'remind-expiring-certificates',
    everyMs: 24 * 60 * 60_000,
    runAtStart: true,
    run: (ctx) => sendDueReminders(ctx),
  },
  {
    // What a learner's erasure kept (certificates and the records behind them), once its retention has ended.
    name: 'purge-ended-retention',
    everyMs: 24 * 60 * 60_000,
    runAtStart: true,
    run: async (ctx) => {
      await purgeEndedRetention(ctx);
    },
  },
];
