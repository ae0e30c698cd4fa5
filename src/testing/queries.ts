import type { Database } from '../server/db/client.ts';

type TLogger = { logQuery(query: string, params: unknown[]): void };

/**
 * Counts the statements the database is sent from now on (outside transactions), on PostgreSQL
 * and on PGlite alike: the drizzle session's logger is swapped until `stop`.
 */
export function countQueries(db: Database): { readonly count: number; readonly statements: string[]; stop(): void } {
  const session = (db as unknown as { session: { logger: TLogger } }).session;
  const previous = session.logger;
  const statements: string[] = [];
  session.logger = { logQuery: (query) => void statements.push(query) };
  return {
    get count() {
      return statements.length;
    },
    statements,
    stop: () => {
      session.logger = previous;
    },
  };
}
