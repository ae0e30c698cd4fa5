import { readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { TestPortal } from './test-runtime.ts';

/** What a call may have written: rows per table, stored files, and jobs handed to the runner. */
export type TWriteSnapshot = { rows: Record<string, number>; digests: Record<string, string>; files: number; jobs: number };

function countFiles(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    total += entry.isDirectory() ? countFiles(path.join(dir, entry.name)) : 1;
  }
  return total;
}

/**
 * Watches a portal for writes: every table's row count (one query), the files under its data
 * directory and the jobs dispatched since it started watching (the dispatcher is wrapped).
 */
export async function watchWrites(portal: TestPortal, options: { digests?: boolean } = {}) {
  const { digests: withDigests = true } = options;
  const db = portal.runtime.db;
  const rowsOf = (result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<Record<string, unknown>>;
  const tables = rowsOf(await db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`)).map(
    (row) => String(row.tablename),
  );
  // A count and (unless told otherwise) a digest of every row: an update shows as well as an insert.
  const countAll = sql.raw(
    tables
      .map((table) =>
        withDigests
          ? `select '${table}' as t, count(*)::int as n, md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as d from "${table}" r`
          : `select '${table}' as t, count(*)::int as n, '' as d from "${table}"`,
      )
      .join(' union all '),
  );

  let counted: { xmax: string; rows: Record<string, number>; digests: Record<string, string> } | undefined;
  let dispatched = 0;
  const jobs = portal.runtime.jobs;
  const dispatch = jobs.dispatch.bind(jobs);
  jobs.dispatch = async (refs) => {
    dispatched += refs.length;
    return dispatch(refs);
  };

  return {
    tables,
    async snapshot(): Promise<TWriteSnapshot> {
      // A write takes a transaction id. While the next id to be given out is the same as at the
      // last count, nothing anywhere on the server wrote, and the count stands.
      const [{ xmax } = { xmax: '' }] = rowsOf(await db.execute(sql`select pg_snapshot_xmax(pg_current_snapshot())::text as xmax`));
      if (!counted || counted.xmax !== String(xmax)) {
        const rows: Record<string, number> = {};
        const digests: Record<string, string> = {};
        for (const row of rowsOf(await db.execute(countAll))) {
          rows[String(row.t)] = Number(row.n);
          digests[String(row.t)] = String(row.d);
        }
        counted = { xmax: String(xmax), rows, digests };
      }
      return { rows: counted.rows, digests: counted.digests, files: countFiles(portal.dataDir), jobs: dispatched };
    },
  };
}

/** The differences between two snapshots, as readable lines (empty when nothing changed). */
export function writesBetween(before: TWriteSnapshot, after: TWriteSnapshot): string[] {
  const changes: string[] = [];
  for (const [table, count] of Object.entries(after.rows)) {
    if (before.rows[table] !== count) changes.push(`${table}: ${before.rows[table]} → ${count} rows`);
    else if (before.digests[table] !== after.digests[table]) changes.push(`${table}: a row changed`);
  }
  if (before.files !== after.files) changes.push(`files: ${before.files} → ${after.files}`);
  if (before.jobs !== after.jobs) changes.push(`jobs dispatched: ${after.jobs - before.jobs}`);
  return changes;
}
