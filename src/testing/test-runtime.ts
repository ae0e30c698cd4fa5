import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../server/app.ts';
import { parseEnv } from '../server/env.ts';
import { createLogger } from '../server/lib/logger.ts';
import { signAccessToken } from '../server/lib/tokens.ts';
import type { TRole, TSecondFactorState } from '../shared/constants.ts';
import type { TSessionUser } from '../server/lib/session-user.ts';
import { appRouter } from '../server/router.ts';
import { createRuntime, type Runtime } from '../server/runtime.ts';
import { createCallerFactory } from '../server/trpc/init.ts';
import { startJobWorker, startWorker } from '../workers/job-worker.ts';
import { untilJobsSettled } from './job-queue.ts';
import { createTestBucket, type TStorageDriver } from './storage.ts';

/**
 * The worker `npm run worker` runs, and its job part alone, for tests that start several on one
 * Redis or stop one mid-job (tests reach workers through here).
 */
export { startJobWorker, startWorker };

const createCaller = createCallerFactory(appRouter);

export type TestPortal = {
  runtime: Runtime;
  app: FastifyInstance;
  /** Every HTTP route the app holds (HEAD twins of GET routes left out), as `METHOD /path`. */
  routes: string[];
  dataDir: string;
  /**
   * An `Authorization` header value for the user, as a login would give (no session bound); staff
   * have given their second factor unless `secondFactor` is null.
   */
  authorization(user: { id: string; role: TRole }, secondFactor?: TSecondFactorState | null): string;
  /**
   * A tRPC caller acting as the given user (or a visitor), from the given address. It keeps no
   * cookies: the login's refresh cookie is tested over HTTP (browser-session.int.test.ts).
   */
  caller(user?: TSessionUser | null, ip?: string): ReturnType<typeof createCaller>;
  /**
   * Waits until the jobs dispatched so far have run, their retries too: the in-process runner's
   * (all of them), or on Redis the jobs of these outbox ids (or the whole queue with none given).
   */
  drainJobs(ids?: readonly string[]): Promise<void>;
  close(): Promise<void>;
};

/**
 * The whole portal on the run's test database (in-memory PGlite unless TEST_DATABASE_URL is set).
 * `redis: true` runs jobs through BullMQ on TEST_REDIS_URL with a worker of its own; `storage: 's3'`
 * keeps its files in a bucket of their own on the run's S3-compatible server.
 */
export async function createTestPortal(
  options: {
    env?: Record<string, string>;
    redis?: boolean;
    clientDir?: string;
    storage?: TStorageDriver;
    sharedDataDir?: string;
    /** Redis keys and channels shared with another portal of the test (two API processes of one platform). */
    queuePrefix?: string;
  } = {},
): Promise<TestPortal> {
  // A data folder of its own, or one the portals of a project share (and that outlives each).
  const dataDir = options.sharedDataDir ?? mkdtempSync(path.join(tmpdir(), 'portal-test-'));
  if (options.sharedDataDir) mkdirSync(dataDir, { recursive: true });
  const redisUrl = options.redis ? inject('redisUrl') : undefined;
  if (options.redis && !redisUrl) throw new Error('TEST_REDIS_URL is not set');
  const env = parseEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: inject('databaseUrl'),
    REDIS_URL: redisUrl,
    STORAGE_URL: options.storage === 's3' ? await createTestBucket(inject('s3Endpoint')) : undefined,
    ...options.env,
  });
  const logger = createLogger(env.LOG_LEVEL);
  const queuePrefix = options.queuePrefix ?? `test-${randomBytes(4).toString('hex')}`;
  const runtime = await createRuntime(env, logger, {
    inMemoryDatabase: true,
    clientDir: options.clientDir ?? path.join(dataDir, 'no-client'),
    queuePrefix,
  });
  const worker = redisUrl
    ? await startWorker(runtime.jobContext, redisUrl, runtime.jobs, { prefix: queuePrefix })
    : undefined;
  const routes = new Set<string>();
  const app = await buildApp(runtime, {
    onRoute: ({ method, url }) => {
      for (const verb of [method].flat()) if (verb !== 'HEAD') routes.add(`${verb} ${url}`);
    },
  });
  await app.ready();
  return {
    runtime,
    app,
    routes: [...routes].sort(),
    dataDir,
    // Staff in tests have signed in with their second factor; `secondFactor: null` says they have not.
    authorization: (user, secondFactor = user.role === 'admin' ? 'passed' : null) =>
      `Bearer ${signAccessToken({ sub: user.id, role: user.role, ...(secondFactor ? { mf: secondFactor } : {}) }, runtime.jwtSecret, 900)}`,
    caller: (user = null, ip = '127.0.0.1') => createCaller({ deps: runtime, user, ip, requestId: 'test', setCookie: () => {} }),
    drainJobs: (ids) => (redisUrl ? untilJobsSettled(redisUrl, queuePrefix, ids) : runtime.jobs.drain()),
    async close() {
      await app.close();
      // The jobs this portal runs itself finish, as a test's later checks expect: closing the
      // runtime alone would hand a transcode under way back, its row left pending.
      await runtime.jobs.drain();
      await worker?.close();
      await runtime.close();
      if (!options.sharedDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
