import { EnvError, parseEnv } from '../server/env.ts';
import { createLogger } from '../server/lib/logger.ts';
import { lowerProcessPriority } from '../server/lib/process-priority.ts';
import { openJobRuntime } from '../server/runtime.ts';
import { startWorker, WORKER_NICENESS } from './job-worker.ts';

/** `npm run worker`: processes the queued jobs on REDIS_URL against DATABASE_URL. */
async function main() {
  const env = parseEnv(process.env);
  if (!env.REDIS_URL || !env.DATABASE_URL) {
    throw new EnvError(
      'Invalid configuration: the worker needs REDIS_URL and DATABASE_URL (without them the portal runs jobs itself)',
    );
  }
  const logger = createLogger(env.LOG_LEVEL, 'worker');
  const niceness = lowerProcessPriority(WORKER_NICENESS);
  const runtime = await openJobRuntime(env, logger);
  const worker = await startWorker(runtime.jobContext, env.REDIS_URL, runtime.jobs);
  logger.info({ niceness, node: process.version }, 'worker ready');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker stopping: handing back long jobs, finishing short ones');
    try {
      await worker.close();
      await runtime.close();
      logger.info('worker stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'worker shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(
    err instanceof EnvError ? `${err.message}\n` : `The worker could not start: ${err instanceof Error ? err.stack : String(err)}\n`,
  );
  process.exit(1);
});
