import type { Logger } from 'pino';
import type { TSiteConfig } from '../shared/site-config.ts';
import type { Database, DatabaseHandle } from './db/client.ts';
import type { TEnv } from './env.ts';
import type { FileStorage } from './lib/files/storage.ts';
import type { JobDispatcher } from './lib/jobs/dispatcher.ts';
import type { MailTransport } from './lib/mail/transport.ts';
import type { RateLimitStore } from './lib/rate-limit.ts';
import type { AccessGrants } from './lib/access-grants.ts';

/** Everything services need, built once at start (runtime.ts) and passed down explicitly. */
export type AppDeps = {
  env: TEnv;
  db: Database;
  database: DatabaseHandle;
  jobs: JobDispatcher;
  mail: MailTransport;
  /** Throttling counters: Redis when REDIS_URL is set, this process's memory otherwise. */
  rateLimit: RateLimitStore;
  /** Stream access granted a moment ago, and its revocation in every process (decision 055). */
  accessGrants: AccessGrants;
  files: FileStorage;
  logger: Logger;
  jwtSecret: string;
  site: TSiteConfig;
  /** The built client (dist/client); absent when only the API is served. */
  clientDir: string | undefined;
};
