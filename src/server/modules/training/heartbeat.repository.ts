import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { Sql } from 'postgres';
import type { Database, Executor } from '../../db/client.ts';
import { enrolments, trainingVideos, trainingVideoSets, watchProgress, watchRefusals } from '../../db/schema.ts';
import type { TWatchedInterval } from '../../db/schema/training.ts';

/** A part of a set some report of the batch names, with its course. */
export type TReportPart = { id: string; setId: string; courseId: string; serial: number; status: string; durationSeconds: number | null };

/**
 * What a batch of reports needs to be checked, read in one round trip (the three queries go down
 * one connection together): every part of the sets the reported parts belong to, the reporting
 * learners' enrolments in those courses, and which of those parts each learner has a record of and
 * has completed.
 */
export async function findReportContext(tx: Executor, userIds: string[], videoIds: string[]) {
  const setsOfBatch = tx.select({ id: trainingVideos.setId }).from(trainingVideos).where(inArray(trainingVideos.id, videoIds));
  const coursesOfBatch = tx
    .select({ id: trainingVideoSets.courseId })
    .from(trainingVideoSets)
    .where(inArray(trainingVideoSets.id, setsOfBatch));
  const [parts, enrolled, records] = await Promise.all([
    tx
      .select({
        id: trainingVideos.id,
        setId: trainingVideos.setId,
        courseId: trainingVideoSets.courseId,
        serial: trainingVideos.serial,
        status: trainingVideos.status,
        durationSeconds: trainingVideos.durationSeconds,
      })
      .from(trainingVideos)
      .innerJoin(trainingVideoSets, eq(trainingVideoSets.id, trainingVideos.setId))
      .where(inArray(trainingVideos.setId, setsOfBatch))
      .orderBy(asc(trainingVideos.setId), asc(trainingVideos.serial)),
    tx
      .select({ userId: enrolments.userId, courseId: enrolments.courseId, status: enrolments.status })
      .from(enrolments)
      .where(and(inArray(enrolments.userId, userIds), inArray(enrolments.courseId, coursesOfBatch))),
    tx
      .select({ userId: watchProgress.userId, videoId: watchProgress.videoId, completed: sql<boolean>`${watchProgress.completedAt} is not null` })
      .from(watchProgress)
      .innerJoin(trainingVideos, eq(trainingVideos.id, watchProgress.videoId))
      .where(and(inArray(watchProgress.userId, userIds), inArray(trainingVideos.setId, setsOfBatch))),
  ]);
  return { parts: parts as TReportPart[], enrolled, records };
}

export type TRecordKey = { userId: string; videoId: string };

/**
 * Creates the empty records the batch lacks, in the order rows are locked (by learner, then part),
 * and answers them (locked: they are this transaction's). One created meanwhile by another
 * transaction is not answered: lock it with lockWatchRecords.
 */
export function createWatchRecords(tx: Executor, keys: TRecordKey[]) {
  if (keys.length === 0) return Promise.resolve([]);
  return tx
    .insert(watchProgress)
    .values(keys.map(({ userId, videoId }) => ({ userId, videoId })))
    .onConflictDoNothing({ target: [watchProgress.userId, watchProgress.videoId] })
    .returning();
}

/**
 * The batch's records, locked until the transaction ends, in one stable order (by learner, then
 * part): two batches, in this process or another, wait for each other and never deadlock.
 */
export async function lockWatchRecords(tx: Executor, keys: TRecordKey[]): Promise<Array<typeof watchProgress.$inferSelect>> {
  if (keys.length === 0) return [];
  const pairs = sql.join(
    keys.map((key) => sql`(${key.userId}::uuid, ${key.videoId}::uuid)`),
    sql`, `,
  );
  return tx
    .select()
    .from(watchProgress)
    .where(sql`(${watchProgress.userId}, ${watchProgress.videoId}) in (${pairs})`)
    .orderBy(asc(watchProgress.userId), asc(watchProgress.videoId))
    .for('update');
}

export type TWatchRecordUpdate = {
  id: string;
  watchedIntervals: TWatchedInterval[];
  watchedSeconds: number;
  observedSeconds: number;
  lastPosition: number;
  lastBeatAt: Date;
  firstBeatAt: Date;
  completedAt: Date | null;
};

/** The statement that writes the batch's records, all in one. */
export function saveWatchRecordsStatement(records: TWatchRecordUpdate[]): SQL | undefined {
  if (records.length === 0) return undefined;
  const rows = JSON.stringify(
    records.map((record) => ({
      id: record.id,
      watched_intervals: record.watchedIntervals,
      watched_seconds: record.watchedSeconds,
      observed_seconds: record.observedSeconds,
      last_position: record.lastPosition,
      last_beat_at: record.lastBeatAt.toISOString(),
      first_beat_at: record.firstBeatAt.toISOString(),
      completed_at: record.completedAt?.toISOString() ?? null,
    })),
  );
  return sql`
    update ${watchProgress} as w set
      watched_intervals = v.watched_intervals, watched_seconds = v.watched_seconds, observed_seconds = v.observed_seconds,
      last_position = v.last_position, last_beat_at = v.last_beat_at, first_beat_at = v.first_beat_at,
      completed_at = v.completed_at, updated_at = v.last_beat_at
    from jsonb_to_recordset(${rows}::jsonb) as v(id uuid, watched_intervals jsonb, watched_seconds real, observed_seconds real,
      last_position real, last_beat_at timestamptz, first_beat_at timestamptz, completed_at timestamptz)
    where w.id = v.id`;
}

export type TWatchRefusal = { userId: string; videoId: string; reason: string; claimedFrom: number; claimedTo: number; creditedSeconds: number; createdAt: Date };

/** The statement that keeps the batch's refusals, all in one, in the order the reports came. */
export function insertWatchRefusalsStatement(refusals: TWatchRefusal[]): SQL | undefined {
  if (refusals.length === 0) return undefined;
  const rows = JSON.stringify(
    refusals.map((refusal) => ({
      user_id: refusal.userId,
      video_id: refusal.videoId,
      reason: refusal.reason,
      claimed_from: refusal.claimedFrom,
      claimed_to: refusal.claimedTo,
      credited_seconds: refusal.creditedSeconds,
      created_at: refusal.createdAt.toISOString(),
    })),
  );
  return sql`
    insert into ${watchRefusals} (user_id, video_id, reason, claimed_from, claimed_to, credited_seconds, created_at)
    select v.user_id, v.video_id, v.reason, v.claimed_from, v.claimed_to, v.credited_seconds, v.created_at
    from jsonb_to_recordset(${rows}::jsonb) as v(user_id uuid, video_id uuid, reason text, claimed_from real, claimed_to real,
      credited_seconds real, created_at timestamptz)`;
}

const dialect = new PgDialect();

/**
 * Runs `work` in a transaction, and on PostgreSQL in two round trips fewer than one that waits for
 * each statement: BEGIN goes down the connection with the first reads, and the last writes
 * (`work`'s answer) with COMMIT; the connection keeps them in order (postgres.js pipelines a
 * connection's queries). Resolves once COMMIT has succeeded; a failed write rolls it all back.
 * On the embedded database it is an ordinary transaction.
 */
export async function inPipelinedTransaction<T>(db: Database, work: (tx: Executor) => Promise<{ result: T; writes: Array<SQL | undefined> }>): Promise<T> {
  const client = (db as unknown as { $client?: Sql }).$client;
  if (!client || typeof client.reserve !== 'function') {
    return db.transaction(async (tx) => {
      const { result, writes } = await work(tx);
      for (const write of writes) if (write) await tx.execute(write);
      return result;
    });
  }
  const connection = await client.reserve();
  try {
    const begun = connection`begin`.execute();
    // The reserved connection shares its client's options (drizzle reads the type parsers there).
    const tx = drizzlePostgres(Object.assign(connection, { options: client.options }) as unknown as Sql) as unknown as Executor;
    const { result, writes } = await work(tx).catch(async (error: unknown) => {
      await begun.catch(() => {});
      throw error;
    });
    // Sent now, in this order, without waiting: the writes, then COMMIT.
    const sent = writes.filter((write): write is SQL => write !== undefined).map((write) => {
      const query = dialect.sqlToQuery(write);
      return connection.unsafe(query.sql, query.params as never[]).execute();
    });
    const committed = connection`commit`.execute();
    await Promise.all([begun, ...sent, committed]);
    return result;
  } catch (error) {
    await connection`rollback`.catch(() => {});
    throw error;
  } finally {
    connection.release();
  }
}
