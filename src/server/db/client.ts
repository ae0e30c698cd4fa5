import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { MIGRATIONS_DIR } from '../lib/paths.ts';
import * as schema from './schema.ts';

export type TSchema = typeof schema;
/** The database as repositories see it; the same on PostgreSQL and on the embedded PGlite. */
export type Database = PgDatabase<PgQueryResultHKT, TSchema>;
/** A transaction, or the database itself, for repository functions that take part in either. */
export type Executor = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

export type DatabaseHandle = {
  db: Database;
  kind: 'postgres' | 'pglite';
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
};

const MIGRATION_LOCK = 7_201_604_811;
const migrationsFolder = MIGRATIONS_DIR;

export type DatabaseOptions =
  | { url: string; maxConnections?: number }
  /** `dataDir` undefined keeps the embedded database in memory (tests). */
  | { url?: undefined; dataDir: string | undefined };

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url !== undefined) {
    const client = postgres(options.url, {
      max: options.maxConnections ?? 10,
      onnotice: () => {},
      connection: { application_name: 'academy-portal' },
    });
    const db = drizzlePostgres(client, { schema }) as unknown as Database;
    return {
      db,
      kind: 'postgres',
      migrate: async () => {
        // API processes and workers may start together: one migrates, the others wait for it.
        // The lock is held on a connection of its own, the one the migrator uses.
        const single = postgres(options.url, { max: 1, onnotice: () => {} });
        try {
          await single`select pg_advisory_lock(${MIGRATION_LOCK})`;
          await migratePostgres(drizzlePostgres(single), { migrationsFolder });
        } finally {
          await single.end({ timeout: 5 });
        }
      },
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => client.end({ timeout: 5 }),
    };
  }

  if (options.dataDir !== undefined) mkdirSync(options.dataDir, { recursive: true });
  // pg_trgm backs the trigram search indexes, as it does on PostgreSQL.
  const client = await PGlite.create(options.dataDir, { extensions: { pg_trgm } });
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => client.close(),
  };
}
