import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { courses, enrolments, refreshTokens, trainingVideos, trainingVideoSets, users, watchProgress, watchRefusals } from '../../db/schema.ts';
import type { TRendition } from '../../db/schema/training.ts';

export type TVideoRow = typeof trainingVideos.$inferSelect;
export type TSetRow = typeof trainingVideoSets.$inferSelect;
export type TCourseOfSet = { id: string; title: string; isActive: boolean };

export async function findCourse(db: Executor, courseId: string): Promise<TCourseOfSet | undefined> {
  const [row] = await db
    .select({ id: courses.id, title: courses.title, isActive: courses.isActive })
    .from(courses)
    .where(eq(courses.id, courseId));
  return row;
}

/**
 * The course's training set, created on first upload; the title is the latest one given. The row
 * is locked until the transaction ends, so two uploads to one course number their parts in turn.
 */
export async function lockSetForCourse(tx: Executor, courseId: string, title: string): Promise<TSetRow> {
  const [row] = await tx
    .insert(trainingVideoSets)
    .values({ courseId, title })
    .onConflictDoUpdate({ target: trainingVideoSets.courseId, set: { title, updatedAt: new Date() } })
    .returning();
  await tx.select({ id: trainingVideoSets.id }).from(trainingVideoSets).where(eq(trainingVideoSets.id, row!.id)).for('update');
  return row!;
}

export async function lockSet(tx: Executor, setId: string): Promise<TSetRow | undefined> {
  const [row] = await tx.select().from(trainingVideoSets).where(eq(trainingVideoSets.id, setId)).for('update');
  return row;
}

export async function findSetByCourse(db: Executor, courseId: string): Promise<TSetRow | undefined> {
  const [row] = await db.select().from(trainingVideoSets).where(eq(trainingVideoSets.courseId, courseId));
  return row;
}

export async function findSetById(db: Executor, setId: string): Promise<TSetRow | undefined> {
  const [row] = await db.select().from(trainingVideoSets).where(eq(trainingVideoSets.id, setId));
  return row;
}

export async function lastSerial(tx: Executor, setId: string): Promise<number> {
  const [row] = await tx
    .select({ last: sql<number>`coalesce(max(${trainingVideos.serial}), 0)`.mapWith(Number) })
    .from(trainingVideos)
    .where(eq(trainingVideos.setId, setId));
  return row?.last ?? 0;
}

export function insertVideos(tx: Executor, rows: Array<typeof trainingVideos.$inferInsert>): Promise<TVideoRow[]> {
  return tx.insert(trainingVideos).values(rows).returning();
}

/** Every set with its course, and every set's videos in order (All Uploaded Training Videos). */
export async function findAllSets(db: Executor) {
  const sets = await db
    .select({ set: trainingVideoSets, course: { id: courses.id, title: courses.title, isActive: courses.isActive } })
    .from(trainingVideoSets)
    .innerJoin(courses, eq(courses.id, trainingVideoSets.courseId))
    .orderBy(asc(courses.title), asc(trainingVideoSets.id));
  const videos = sets.length
    ? await db
        .select()
        .from(trainingVideos)
        .where(inArray(trainingVideos.setId, sets.map((row) => row.set.id)))
        .orderBy(asc(trainingVideos.setId), asc(trainingVideos.serial))
    : [];
  return sets.map((row) => ({ ...row, videos: videos.filter((video) => video.setId === row.set.id) }));
}

export function findVideosOfSet(db: Executor, setId: string): Promise<TVideoRow[]> {
  return db.select().from(trainingVideos).where(eq(trainingVideos.setId, setId)).orderBy(asc(trainingVideos.serial));
}

export async function findVideo(db: Executor, videoId: string): Promise<(TVideoRow & { courseId: string }) | undefined> {
  const [row] = await db
    .select({ video: trainingVideos, courseId: trainingVideoSets.courseId })
    .from(trainingVideos)
    .innerJoin(trainingVideoSets, eq(trainingVideoSets.id, trainingVideos.setId))
    .where(eq(trainingVideos.id, videoId));
  return row ? { ...row.video, courseId: row.courseId } : undefined;
}

export async function updateVideo(db: Executor, videoId: string, patch: Partial<typeof trainingVideos.$inferInsert>): Promise<void> {
  await db
    .update(trainingVideos)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(trainingVideos.id, videoId));
}

/**
 * Marks a video processing unless it is ready already; answers whether the job should work on it
 * (a job delivered twice after success does nothing).
 */
export async function claimForProcessing(db: Executor, videoId: string): Promise<TVideoRow | undefined> {
  const [row] = await db
    .update(trainingVideos)
    .set({ status: 'processing', progressPercent: 0, error: null, updatedAt: new Date() })
    .where(and(eq(trainingVideos.id, videoId), sql`${trainingVideos.status} <> 'ready'`))
    .returning();
  return row;
}

/**
 * A video whose preparation was handed back (its worker stopping) waits again, at 0 %, as before
 * a worker took it: the next run starts it afresh. A video finished or failed meanwhile is left.
 */
export async function returnToWaiting(db: Executor, videoId: string): Promise<void> {
  await db
    .update(trainingVideos)
    .set({ status: 'pending', progressPercent: 0, updatedAt: new Date() })
    .where(and(eq(trainingVideos.id, videoId), eq(trainingVideos.status, 'processing')));
}

/** Gives the set's parts the serials 1..n in the order given (every id of the set, once). */
export async function renumber(tx: Executor, setId: string, orderedIds: string[]): Promise<void> {
  if (orderedIds.length === 0) return;
  // Two steps, so the unique (set, serial) index never sees two parts on one number.
  await tx
    .update(trainingVideos)
    .set({ serial: sql`${trainingVideos.serial} + 100000` })
    .where(eq(trainingVideos.setId, setId));
  const cases = sql.join(
    orderedIds.map((id, index) => sql`when ${id}::uuid then ${index + 1}::integer`),
    sql` `,
  );
  await tx
    .update(trainingVideos)
    .set({ serial: sql`case ${trainingVideos.id} ${cases} end`, updatedAt: new Date() })
    .where(and(eq(trainingVideos.setId, setId), inArray(trainingVideos.id, orderedIds)));
}

export async function deleteVideo(tx: Executor, videoId: string): Promise<TVideoRow | undefined> {
  const [row] = await tx.delete(trainingVideos).where(eq(trainingVideos.id, videoId)).returning();
  return row;
}

/** The set's parts in order with this learner's watch record of each, if any. */
export async function findPlayerRows(db: Executor, userId: string, setId: string) {
  return db
    .select({ video: trainingVideos, watch: watchProgress })
    .from(trainingVideos)
    .leftJoin(watchProgress, and(eq(watchProgress.videoId, trainingVideos.id), eq(watchProgress.userId, userId)))
    .where(eq(trainingVideos.setId, setId))
    .orderBy(asc(trainingVideos.serial));
}

/** How many of the set's parts the learner has completed. */
export async function countCompleted(db: Executor, userId: string, setId: string): Promise<{ completed: number; total: number }> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)`.mapWith(Number),
      completed: sql<number>`count(${watchProgress.completedAt})`.mapWith(Number),
    })
    .from(trainingVideos)
    .leftJoin(watchProgress, and(eq(watchProgress.videoId, trainingVideos.id), eq(watchProgress.userId, userId), isNotNull(watchProgress.completedAt)))
    .where(eq(trainingVideos.setId, setId));
  return { completed: row?.completed ?? 0, total: row?.total ?? 0 };
}

/** Every stored file the videos point to: originals, renditions and posters (for the sweep). */
export async function findVideoFileNames(db: Executor): Promise<string[]> {
  const rows = await db
    .select({ source: trainingVideos.sourceFile, poster: trainingVideos.posterFile, renditions: trainingVideos.renditions })
    .from(trainingVideos);
  return rows.flatMap((row) => [row.source, ...(row.poster ? [row.poster] : []), ...row.renditions.map((rendition) => rendition.file)]);
}

export function inTransaction<T>(db: Database, work: (tx: Executor) => Promise<T>): Promise<T> {
  return db.transaction(work);
}


/**
 * Stores a finished transcode if the video is still there and still processing (not deleted or
 * finished by another delivery of the job meanwhile). Answers whether it was stored.
 */
export async function storeTranscode(
  db: Executor,
  videoId: string,
  result: { renditions: TRendition[]; posterFile: string; durationSeconds: number },
): Promise<boolean> {
  const rows = await db
    .update(trainingVideos)
    .set({ ...result, status: 'ready', progressPercent: 100, error: null, updatedAt: new Date() })
    .where(and(eq(trainingVideos.id, videoId), eq(trainingVideos.status, 'processing')))
    .returning({ id: trainingVideos.id });
  return rows.length > 0;
}

/** Records why a video could not be prepared; its status becomes failed (unless it is gone). */
export async function markFailed(db: Executor, videoId: string, reason: string): Promise<void> {
  await db
    .update(trainingVideos)
    .set({ status: 'failed', error: reason, updatedAt: new Date() })
    .where(and(eq(trainingVideos.id, videoId), sql`${trainingVideos.status} <> 'ready'`));
}

export type TStreamAccess = {
  setId: string;
  status: TVideoRow['status'];
  renditions: TRendition[];
  serial: number;
  role: 'admin' | 'learner';
  enrolmentStatus: string | null;
  /** Earlier parts of the set the viewer has not completed. */
  openEarlier: number;
  /** Whether the session the viewer's pass names is still live (not ended, not expired). */
  sessionLive: boolean;
  /** When that session ends (ms since the epoch), when it is live. */
  sessionEndsAt: number | null;
};

/**
 * What a stream request needs to know, in one round trip: the video, the viewer's role, the
 * viewer's enrolment in the video's course and how many earlier parts the viewer has not completed.
 */
export async function findStreamAccess(db: Executor, viewerId: string, sessionId: string, videoId: string): Promise<TStreamAccess | undefined> {
  if (!/^[0-9a-f-]{36}$/.test(viewerId) || !/^[0-9a-f-]{36}$/.test(sessionId)) return undefined;
  const earlier = db
    .select({ open: sql<number>`count(*)`.mapWith(Number) })
    .from(sql`${trainingVideos} as earlier`)
    .leftJoin(watchProgress, sql`${watchProgress.videoId} = earlier.id and ${watchProgress.userId} = ${users.id}`)
    .where(sql`earlier.set_id = ${trainingVideos.setId} and earlier.serial < ${trainingVideos.serial} and ${watchProgress.completedAt} is null`);
  const [row] = await db
    .select({
      setId: trainingVideos.setId,
      status: trainingVideos.status,
      renditions: trainingVideos.renditions,
      serial: trainingVideos.serial,
      role: users.role,
      enrolmentStatus: sql<string | null>`(select ${enrolments.status} from ${enrolments} where ${enrolments.userId} = ${users.id} and ${enrolments.courseId} = ${trainingVideoSets.courseId})`,
      openEarlier: sql<number>`(${earlier})`.mapWith(Number),
      sessionLive: sql<boolean>`exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${sessionId} and ${refreshTokens.userId} = ${users.id} and ${refreshTokens.revokedAt} is null and ${refreshTokens.expiresAt} > now())`,
      sessionEndsAt: sql<number | null>`(select extract(epoch from max(${refreshTokens.expiresAt})) * 1000 from ${refreshTokens} where ${refreshTokens.familyId} = ${sessionId} and ${refreshTokens.userId} = ${users.id} and ${refreshTokens.revokedAt} is null)`.mapWith(Number),
    })
    .from(trainingVideos)
    .innerJoin(trainingVideoSets, eq(trainingVideoSets.id, trainingVideos.setId))
    .innerJoin(users, eq(users.id, viewerId))
    .where(eq(trainingVideos.id, videoId));
  return row;
}

/** Clears what the learner watched of a course's parts: not completed, nothing watched, back to the start. */
export async function clearWatchProgressOfCourse(db: Executor, userId: string, courseId: string): Promise<number> {
  const parts = db
    .select({ id: trainingVideos.id })
    .from(trainingVideos)
    .innerJoin(trainingVideoSets, eq(trainingVideoSets.id, trainingVideos.setId))
    .where(eq(trainingVideoSets.courseId, courseId));
  const rows = await db
    .update(watchProgress)
    .set({ completedAt: null, watchedIntervals: [], watchedSeconds: 0, observedSeconds: 0, lastPosition: 0, updatedAt: new Date() })
    .where(and(eq(watchProgress.userId, userId), inArray(watchProgress.videoId, parts)))
    .returning({ id: watchProgress.id });
  return rows.length;
}

/** What was refused of a learner's reports on a set's parts, oldest first (the auditor's evidence). */
export async function findWatchRefusals(db: Executor, userId: string, setId: string) {
  return db
    .select({
      videoId: watchRefusals.videoId,
      reason: watchRefusals.reason,
      claimedFrom: watchRefusals.claimedFrom,
      claimedTo: watchRefusals.claimedTo,
      creditedSeconds: watchRefusals.creditedSeconds,
      at: watchRefusals.createdAt,
    })
    .from(watchRefusals)
    .innerJoin(trainingVideos, eq(trainingVideos.id, watchRefusals.videoId))
    .where(and(eq(watchRefusals.userId, userId), eq(trainingVideos.setId, setId)))
    .orderBy(asc(watchRefusals.createdAt));
}
