import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  enrolments,
  offlineDownloads,
  offlinePartFetches,
  offlineWatchRecords,
  refreshTokens,
  trainingVideos,
  trainingVideoSets,
  watchProgress,
  watchRefusals,
  type TOfflineDownloadRow,
} from '../../db/schema.ts';
import type { TRendition, TWatchedInterval } from '../../db/schema/training.ts';

/** Offline downloads (decision 050): the rows of a download, its parts' fetches and its device's records. */

export async function insertDownload(db: Executor, row: { userId: string; courseId: string; height: number; recordKey: string }): Promise<TOfflineDownloadRow> {
  const [download] = await db.insert(offlineDownloads).values(row).returning();
  return download!;
}

export async function findDownload(db: Executor, downloadId: string): Promise<TOfflineDownloadRow | undefined> {
  const [row] = await db.select().from(offlineDownloads).where(eq(offlineDownloads.id, downloadId));
  return row;
}

/** The download, locked until the transaction ends: its syncs are taken in one at a time. */
export async function lockDownload(tx: Executor, downloadId: string): Promise<TOfflineDownloadRow | undefined> {
  const [row] = await tx.select().from(offlineDownloads).where(eq(offlineDownloads.id, downloadId)).for('update');
  return row;
}

/** Which of the given downloads are the user's and still open: the enrolment in their course approved. */
export async function findActiveDownloadIds(db: Executor, userId: string, downloadIds: string[]): Promise<string[]> {
  if (downloadIds.length === 0) return [];
  const rows = await db
    .select({ id: offlineDownloads.id })
    .from(offlineDownloads)
    .innerJoin(enrolments, and(eq(enrolments.userId, offlineDownloads.userId), eq(enrolments.courseId, offlineDownloads.courseId)))
    .where(and(eq(offlineDownloads.userId, userId), inArray(offlineDownloads.id, downloadIds), eq(enrolments.status, 'approved')));
  return rows.map((row) => row.id);
}

export type TOfflineMediaAccess = {
  download: { userId: string; courseId: string; height: number };
  /** The course's training, when it has one. */
  setId: string | null;
  /** The video, when it is a part of the download's course. */
  video: { status: string; renditions: TRendition[]; serial: number } | null;
  enrolmentStatus: string | null;
  sessionLive: boolean;
  /** When the viewer's session ends (ms since the epoch), when it is live. */
  sessionEndsAt: number | null;
  fetched: boolean;
};

/**
 * What a request for a downloaded part's media needs to know, in one round trip: the download,
 * the video if it is a part of the download's course, the downloader's enrolment now, whether the
 * session of the viewer's pass is live, and whether the part was fetched before.
 */
export async function findOfflineMediaAccess(
  db: Executor,
  input: { downloadId: string; videoId: string; viewerId: string; sessionId: string },
): Promise<TOfflineMediaAccess | undefined> {
  const [row] = await db
    .select({
      userId: offlineDownloads.userId,
      courseId: offlineDownloads.courseId,
      height: offlineDownloads.height,
      setId: trainingVideoSets.id,
      videoStatus: trainingVideos.status,
      renditions: trainingVideos.renditions,
      serial: trainingVideos.serial,
      enrolmentStatus: sql<string | null>`(select ${enrolments.status} from ${enrolments} where ${enrolments.userId} = ${offlineDownloads.userId} and ${enrolments.courseId} = ${offlineDownloads.courseId})`,
      sessionLive: sql<boolean>`exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${input.sessionId} and ${refreshTokens.userId} = ${input.viewerId} and ${refreshTokens.revokedAt} is null and ${refreshTokens.expiresAt} > now())`,
      sessionEndsAt: sql<number | null>`(select extract(epoch from max(${refreshTokens.expiresAt})) * 1000 from ${refreshTokens} where ${refreshTokens.familyId} = ${input.sessionId} and ${refreshTokens.userId} = ${input.viewerId} and ${refreshTokens.revokedAt} is null)`.mapWith(Number),
      fetched: sql<boolean>`exists (select 1 from ${offlinePartFetches} where ${offlinePartFetches.downloadId} = ${offlineDownloads.id} and ${offlinePartFetches.videoId} = ${input.videoId})`,
    })
    .from(offlineDownloads)
    .leftJoin(trainingVideoSets, eq(trainingVideoSets.courseId, offlineDownloads.courseId))
    .leftJoin(trainingVideos, and(eq(trainingVideos.setId, trainingVideoSets.id), eq(trainingVideos.id, input.videoId)))
    .where(eq(offlineDownloads.id, input.downloadId));
  if (!row) return undefined;
  return {
    download: { userId: row.userId, courseId: row.courseId, height: row.height },
    setId: row.setId,
    video: row.videoStatus ? { status: row.videoStatus, renditions: row.renditions ?? [], serial: row.serial ?? 0 } : null,
    enrolmentStatus: row.enrolmentStatus,
    sessionLive: row.sessionLive,
    sessionEndsAt: row.sessionEndsAt,
    fetched: row.fetched,
  };
}

/** When the part's media was first fetched for the download; later fetches keep the first time. */
export async function recordPartFetched(db: Executor, downloadId: string, videoId: string): Promise<void> {
  await db.insert(offlinePartFetches).values({ downloadId, videoId }).onConflictDoNothing();
}

/** The course's parts in order, each with when this download fetched it. */
export function findOfflineParts(db: Executor, downloadId: string, setId: string) {
  return db
    .select({
      id: trainingVideos.id,
      status: trainingVideos.status,
      durationSeconds: trainingVideos.durationSeconds,
      fetchedAt: offlinePartFetches.fetchedAt,
    })
    .from(trainingVideos)
    .leftJoin(offlinePartFetches, and(eq(offlinePartFetches.videoId, trainingVideos.id), eq(offlinePartFetches.downloadId, downloadId)))
    .where(eq(trainingVideos.setId, setId))
    .orderBy(asc(trainingVideos.serial));
}

/**
 * The learner's watch records of the given parts, locked until the transaction ends (as an online
 * report locks its part's), those of `create` made empty first when new.
 */
export async function lockWatchRecords(tx: Executor, userId: string, videoIds: string[], create: string[]) {
  if (create.length > 0) {
    await tx
      .insert(watchProgress)
      // In one order for every caller: two syncs making the same rows wait for each other, never deadlock.
      .values([...create].sort().map((videoId) => ({ userId, videoId })))
      .onConflictDoNothing({ target: [watchProgress.userId, watchProgress.videoId] });
  }
  if (videoIds.length === 0) return [];
  return tx
    .select()
    .from(watchProgress)
    .where(and(eq(watchProgress.userId, userId), inArray(watchProgress.videoId, videoIds)))
    .orderBy(asc(watchProgress.id))
    .for('update');
}

/** Records of the given ids taken in before, by any download. */
export function findRecordsByIds(db: Executor, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({
      id: offlineWatchRecords.id,
      downloadId: offlineWatchRecords.downloadId,
      signature: offlineWatchRecords.signature,
      outcome: offlineWatchRecords.outcome,
      reason: offlineWatchRecords.reason,
      creditedSeconds: offlineWatchRecords.creditedSeconds,
    })
    .from(offlineWatchRecords)
    .where(inArray(offlineWatchRecords.id, ids));
}

export async function insertWatchRecords(tx: Executor, rows: Array<typeof offlineWatchRecords.$inferInsert>): Promise<void> {
  if (rows.length > 0) await tx.insert(offlineWatchRecords).values(rows);
}

export async function insertWatchRefusals(tx: Executor, rows: Array<typeof watchRefusals.$inferInsert>): Promise<void> {
  if (rows.length > 0) await tx.insert(watchRefusals).values(rows);
}

/**
 * Writes a part's watch record after offline credit. `lastBeatAt` is cleared: the online clock
 * counts from the last report it saw, and the offline time was counted here, so the next online
 * span earns nothing until its player says playback starts.
 */
export async function saveOfflineWatch(
  tx: Executor,
  id: string,
  record: { watchedIntervals: TWatchedInterval[]; watchedSeconds: number; observedSeconds: number; lastPosition: number; completedAt: Date | null; now: Date },
): Promise<void> {
  const { now, ...fields } = record;
  await tx
    .update(watchProgress)
    .set({ ...fields, lastBeatAt: null, firstBeatAt: sql`coalesce(${watchProgress.firstBeatAt}, ${now.toISOString()}::timestamptz)`, updatedAt: now })
    .where(eq(watchProgress.id, id));
}

export async function saveChain(
  tx: Executor,
  downloadId: string,
  chain: { lastSeq: number; lastSignature: string | null; lastDeviceEndedAt: Date | null; creditedPlaySeconds: number },
): Promise<void> {
  await tx
    .update(offlineDownloads)
    .set({ ...chain, updatedAt: new Date() })
    .where(eq(offlineDownloads.id, downloadId));
}
