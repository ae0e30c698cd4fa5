import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
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

/** Writes the batch's records in one statement. */
export async function saveWatchRecords(tx: Executor, records: TWatchRecordUpdate[]): Promise<void> {
  if (records.length === 0) return;
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
  await tx.execute(sql`
    update ${watchProgress} as w set
      watched_intervals = v.watched_intervals, watched_seconds = v.watched_seconds, observed_seconds = v.observed_seconds,
      last_position = v.last_position, last_beat_at = v.last_beat_at, first_beat_at = v.first_beat_at,
      completed_at = v.completed_at, updated_at = v.last_beat_at
    from jsonb_to_recordset(${rows}::jsonb) as v(id uuid, watched_intervals jsonb, watched_seconds real, observed_seconds real,
      last_position real, last_beat_at timestamptz, first_beat_at timestamptz, completed_at timestamptz)
    where w.id = v.id`);
}

export type TWatchRefusal = { userId: string; videoId: string; reason: string; claimedFrom: number; claimedTo: number; creditedSeconds: number; createdAt: Date };

/** The batch's refusals in one insert, in the order the reports came. */
export async function insertWatchRefusals(tx: Executor, refusals: TWatchRefusal[]): Promise<void> {
  if (refusals.length === 0) return;
  await tx.insert(watchRefusals).values(refusals);
}
