import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { openDatabase } from './db/client.ts';
import type { AppDeps } from './deps.ts';
import { publicBaseUrl, type TEnv } from './env.ts';
import { JOB_PROCESSORS, SCHEDULED_TASKS } from './jobs.ts';
import { openFileStorage } from './lib/files/open-storage.ts';
import { createMediaAdapter } from './lib/media/media-adapter.ts';
import { createBullmqDispatcher, createInProcessDispatcher, type JobDispatcher } from './lib/jobs/dispatcher.ts';
import type { JobContext } from './lib/jobs/runner.ts';
import { startSchedule, type Schedule } from './lib/jobs/schedule.ts';
import { createMailTransport } from './lib/mail/transport.ts';
import { closePasswordHashing } from './lib/passwords.ts';
import { createMemoryRateLimitStore, createRedisRateLimitStore } from './lib/rate-limit.ts';
import { CLIENT_DIST_DIR } from './lib/paths.ts';
import { createAccessGrants } from './lib/access-grants.ts';
import { resolveJwtSecret } from './lib/secrets.ts';
import { siteConfigFromEnv } from './modules/site/site.service.ts';

export type Runtime = AppDeps & { jobContext: JobContext; close(): Promise<void> };

/** What running jobs needs, and no more: the worker's runtime, and the first half of the portal's. */
export type JobRuntime = Pick<AppDeps, 'env' | 'db' | 'database' | 'jobs' | 'mail' | 'files' | 'logger' | 'site'> & {
  jobContext: JobContext;
  close(): Promise<void>;
};

type TRuntimeOptions = {
  clientDir?: string | undefined;
  inMemoryDatabase?: boolean;
  /** A BullMQ key prefix of its own, so parallel test runs on one Redis never share queues. */
  queuePrefix?: string;
};

/**
 * Opens everything the portal runs on, as the environment says: PostgreSQL or the embedded PGlite,
 * BullMQ on Redis or jobs in this process, SMTP or the outbox folder. Migrations run here. Beside
 * what jobs need (openJobRuntime), the API's own: its rate limits, access grants and JWT secret.
 */
export async function createRuntime(env: TEnv, logger: Logger, options: TRuntimeOptions = {}): Promise<Runtime> {
  const base = await openJobRuntime(env, logger, options);
  const rateLimit = env.REDIS_URL
    ? createRedisRateLimitStore(env.REDIS_URL, logger, options.queuePrefix)
    : createMemoryRateLimitStore();
  const accessGrants = createAccessGrants({
    ttlMs: { stream: env.STREAM_GRANT_SECONDS * 1000, session: env.SESSION_CHECK_SECONDS * 1000 },
    logger,
    redisUrl: env.REDIS_URL,
    prefix: options.queuePrefix,
  });
  if (base.files.kind !== 'local' && !env.REDIS_URL) {
    logger.warn('files are shared (STORAGE_URL) but REDIS_URL is not set: rate limits and jobs stay in this process; set REDIS_URL to run more than one instance');
  }
  const clientDir = options.clientDir ?? CLIENT_DIST_DIR;
  return {
    ...base,
    rateLimit,
    accessGrants,
    jwtSecret: resolveJwtSecret(env.JWT_SECRET, base.jobContext.dataDir, logger),
    clientDir: existsSync(clientDir) ? clientDir : undefined,
    async close() {
      await rateLimit.close();
      await accessGrants.close();
      await base.close();
      await closePasswordHashing();
    },
  };
}

/**
 * Opens what running jobs needs: the database (migrated), mail, files, the media tools and the
 * dispatcher (BullMQ on Redis, or this process with its scheduled tasks). `npm run worker` runs on
 * this alone: it answers no request, so it keeps no rate limit, no access grant and no JWT secret.
 */
export async function openJobRuntime(env: TEnv, logger: Logger, options: Omit<TRuntimeOptions, 'clientDir'> = {}): Promise<JobRuntime> {
  const dataDir = path.resolve(env.DATA_DIR);
  const database = await openDatabase(
    env.DATABASE_URL
      ? { url: env.DATABASE_URL }
      : { dataDir: options.inMemoryDatabase ? undefined : path.join(dataDir, 'db') },
  );
  try {
    await database.migrate();
  } catch (err) {
    await database.close();
    throw err;
  }
  logger.info({ database: database.kind }, 'database ready');

  const mail = createMailTransport({
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
    outboxDir: path.join(dataDir, 'outbox'),
    logger,
  });
  let files;
  try {
    files = await openFileStorage({ storageUrl: env.STORAGE_URL, dataDir, awsRegion: env.AWS_REGION, delivery: env.STREAM_DELIVERY });
  } catch (err) {
    mail.close();
    await database.close();
    throw err;
  }
  logger.info({ storage: files.kind, location: files.location, delivery: files.internalRedirect ? 'x-accel' : 'node' }, 'file storage ready');
  if (env.STREAM_DELIVERY === 'x-accel' && !files.internalRedirect) {
    logger.warn('STREAM_DELIVERY=x-accel applies to files on the local disk: the files in the bucket are sent by the portal');
  }
  const media = createMediaAdapter({ ffmpegPath: env.FFMPEG_PATH, ffprobePath: env.FFPROBE_PATH });
  const site = siteConfigFromEnv(env);
  // A job that queues another (the certificate's mail) hands it to the same dispatcher, made below.
  let dispatcher: JobDispatcher | undefined;
  const jobContext: JobContext = {
    db: database.db,
    mail,
    files,
    media,
    logger,
    dataDir,
    site,
    publicUrl: publicBaseUrl(env),
    certificateReminderDays: env.CERTIFICATE_REMINDER_DAYS,
    dispatch: async (refs) => dispatcher?.dispatch(refs),
    processors: JOB_PROCESSORS,
  };
  const jobs: JobDispatcher = (dispatcher = env.REDIS_URL
    ? createBullmqDispatcher(env.REDIS_URL, logger, options.queuePrefix)
    : createInProcessDispatcher(jobContext));

  // With no Redis this process is also the worker, and runs the scheduled tasks (the sweep, the
  // reconciler) itself. On Redis they are BullMQ job schedulers that the workers run
  // (src/workers/job-worker.ts): an API process runs no job and no scheduled task there.
  const schedule: Schedule | undefined =
    jobs.kind === 'in-process' ? startSchedule(SCHEDULED_TASKS, { ...jobContext, jobs }, logger) : undefined;

  return {
    env,
    jobContext,
    db: database.db,
    database,
    jobs,
    mail,
    files,
    logger,
    site,
    async close() {
      // A sweep or reconcile under way finishes before the dispatcher and the database close.
      await schedule?.stop();
      await jobs.close();
      mail.close();
      await files.close();
      await database.close();
    },
  };
}
