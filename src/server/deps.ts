import type { Logger } from 'pino';
import type { TSiteConfig } from '../shared/site-config.ts';
import type { Database, DatabaseHandle } from './db/client.ts';
import type { TEnv } from './env.ts';
import type { JobDispatcher } from './lib/jobs/dispatcher.ts';
import type { MailTransport } from './lib/mail/transport.ts';

/** Everything services need, built once at start (runtime.ts) and passed down explicitly. */
export type AppDeps = {
  env: TEnv;
  db: Database;
  database: DatabaseHandle;
  jobs: JobDispatcher;
  mail: MailTransport;
  logger: Logger;
  jwtSecret: string;
  site: TSiteConfig;
  /** The built client (dist/client); absent when only the API is served. */
  clientDir: string | undefined;
};
