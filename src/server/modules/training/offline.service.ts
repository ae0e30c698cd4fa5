import { randomBytes } from 'node:crypto';
import { VIDEO_COMPLETION_SHARE } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TOfflinePackage, TOfflinePackageRequest, TOfflineStatus, TOfflineSyncRequest, TOfflineSyncResult } from '../../../shared/schemas/offline.ts';
import type { TOfflineDownloadRow } from '../../db/schema.ts';
import type { TRendition } from '../../db/schema/training.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/errors.ts';
import { fileUrl, type TFileToServe } from '../../lib/files/file-urls.ts';
import type { TSessionUser } from '../../lib/session-user.ts';
import { findApprovedEnrolment } from '../enrolments/enrolments.service.ts';
import { isSignedRecord, judgeOfflineRecords, type TKnownRecord, type TOfflinePart } from './offline-credit.ts';
import {
  findActiveDownloadIds,
  findDownload,
  findOfflineMediaAccess,
  findOfflineParts,
  findRecordsByIds,
  insertDownload,
  insertWatchRecords,
  insertWatchRefusals,
  lockDownload,
  lockWatchRecords,
  recordPartFetched,
  saveChain,
  saveOfflineWatch,
} from './offline.repository.ts';
import { isOfflineLinkSignature, offlineLinkSignature, readStreamPass } from './stream-pass.ts';
import { countCompleted, findCourse, findPlayerRows, findSetByCourse, inTransaction } from './training.repository.ts';

/*
 * Study without a link (decision 050): a course downloaded to a device, its media fetched through
 * links that need the viewer's stream pass, and the watching the device recorded offline taken in
 * under offline-credit.ts's rules.
 */

const T = MESSAGES.training;
type Deps = Pick<AppDeps, 'db' | 'files' | 'jwtSecret' | 'logger' | 'accessGrants'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The rendition served for a download: its own height, or the nearest there is (the lower one on a tie). */
export function renditionFor(renditions: readonly TRendition[], height: number): TRendition | undefined {
  return [...renditions].sort((a, b) => Math.abs(a.height - height) - Math.abs(b.height - height) || a.height - b.height)[0];
}

function offlineMediaUrl(deps: Pick<AppDeps, 'jwtSecret'>, viewer: TSessionUser, download: TOfflineDownloadRow, videoId: string): string {
  // A caller without a session (only tests make one) has no pass to carry, so gets no links.
  if (!viewer.sessionId) return '';
  const signature = offlineLinkSignature(deps, { userId: viewer.id, sessionId: viewer.sessionId }, download.id, videoId, download.height);
  return `/api/trainingVideo/stream/offline/${download.id}/${videoId}?signature=${signature}`;
}

/** The learner's approved enrolment in the course, or the refusal with `message`. */
async function requireApproved(deps: Deps, userId: string, courseId: string, message: string) {
  const enrolment = await findApprovedEnrolment(deps, userId, courseId);
  if (!enrolment) throw new AppError('FORBIDDEN', message);
  return enrolment;
}

/** The package of a download: every ready part (locked or not) with its size and media link. */
async function packageOf(deps: Deps, viewer: TSessionUser, download: TOfflineDownloadRow, submittedAt: Date | null): Promise<TOfflinePackage> {
  const course = await findCourse(deps.db, download.courseId);
  const set = await findSetByCourse(deps.db, download.courseId);
  if (!course || !set) throw new AppError('NOT_FOUND', T.noneForCourse);
  const rows = (await findPlayerRows(deps.db, viewer.id, set.id)).filter(({ video }) => video.status === 'ready' && video.durationSeconds);
  if (rows.length === 0) throw new AppError('NOT_FOUND', T.noneForCourse);
  const now = new Date();
  const parts = await Promise.all(
    rows.map(async ({ video, watch }) => {
      const rendition = renditionFor(video.renditions, download.height);
      const info = rendition ? await deps.files.stat('trainingVideo', rendition.file) : undefined;
      if (!info) deps.logger.warn({ videoId: video.id }, 'an offline part has no stored rendition');
      return {
        id: video.id,
        serial: video.serial,
        title: video.originalName,
        durationSeconds: video.durationSeconds!,
        bytes: info?.bytes ?? 0,
        url: offlineMediaUrl(deps, viewer, download, video.id),
        posterUrl: video.posterFile ? fileUrl(deps, 'trainingVideo', video.posterFile, now) : null,
        completed: watch?.completedAt != null,
        watchedSeconds: Math.round((watch?.watchedSeconds ?? 0) * 10) / 10,
      };
    }),
  );
  return {
    downloadId: download.id,
    recordKey: download.recordKey,
    setId: set.id,
    course: { id: course.id, title: course.title },
    height: download.height,
    parts,
    totalBytes: parts.reduce((total, part) => total + part.bytes, 0),
    submittedAt: submittedAt?.toISOString() ?? null,
  };
}

/**
 * A new download of a course for the learner's device: its own id and record key (the device
 * signs its watch records with it), and every ready part with its size and a media link for this
 * session. Only to a learner with an approved enrolment.
 */
export async function createOfflinePackage(deps: Deps, learner: TSessionUser, input: Required<TOfflinePackageRequest>): Promise<TOfflinePackage> {
  const enrolment = await requireApproved(deps, learner.id, input.courseId, T.notEnrolled);
  const set = await findSetByCourse(deps.db, input.courseId);
  if (!set) throw new AppError('NOT_FOUND', T.noneForCourse);
  const download = await insertDownload(deps.db, { userId: learner.id, courseId: input.courseId, height: input.height, recordKey: randomBytes(32).toString('base64url') });
  deps.logger.info({ userId: learner.id, courseId: input.courseId, downloadId: download.id, height: input.height }, 'course downloaded for offline study');
  return packageOf(deps, learner, download, enrolment.trainingSubmittedAt);
}

/** The learner's own download, or the answer a missing one gets. */
async function ownDownload(deps: Deps, learner: TSessionUser, downloadId: string): Promise<TOfflineDownloadRow> {
  const download = await findDownload(deps.db, downloadId);
  if (!download || download.userId !== learner.id) throw new AppError('NOT_FOUND', T.offlineNotFound);
  return download;
}

/** The same download with fresh media links (for this session) and the same key: a download resumed on its device. */
export async function resumeOfflinePackage(deps: Deps, learner: TSessionUser, downloadId: string): Promise<TOfflinePackage> {
  const download = await ownDownload(deps, learner, downloadId);
  const enrolment = await requireApproved(deps, learner.id, download.courseId, T.offlineEnded);
  return packageOf(deps, learner, download, enrolment.trainingSubmittedAt);
}

/** Which of the given downloads are the learner's and still work; the device removes the others. */
export async function offlineStatus(deps: Deps, learner: TSessionUser, downloadIds: string[]): Promise<TOfflineStatus> {
  return { active: await findActiveDownloadIds(deps.db, learner.id, downloadIds) };
}

/**
 * Checks a request for a downloaded part's media: the viewer's stream pass (its cookie) names the
 * downloader, the link is signed for that viewer's session and this download, part and height, the
 * session is live, the enrolment is approved now and the video is a ready part of the course. No
 * lock is checked: the device keeps every part and applies the locks itself. The first request of
 * each part records when it was fetched (offline credit never runs ahead of it). The rendition is
 * the download's height, or the nearest one the part has.
 */
export async function authorizeOfflineStream(
  deps: Deps,
  input: { downloadId: string; videoId: string; signature?: string; cookies: Partial<Record<string, string>> },
): Promise<TFileToServe> {
  const refused = () => new AppError('FORBIDDEN', T.offlineLinkRefused);
  if (!UUID.test(input.downloadId) || !UUID.test(input.videoId)) throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
  const pass = readStreamPass(deps, input.cookies);
  if (pass === 'expired') throw new AppError('FORBIDDEN', MESSAGES.files.linkExpired);
  if (typeof pass === 'string') throw refused();

  // Kept a moment once allowed (decision 055): the Range requests of a part ask the database once,
  // and record its first fetch once, before the grant is kept.
  const grant = await deps.accessGrants.remember<{ height: number; rendition: TRendition; serial: number }>(
    `offline/${pass.userId}/${pass.sessionId}/${input.downloadId}/${input.videoId}`,
    async () => {
      const access = await findOfflineMediaAccess(deps.db, { downloadId: input.downloadId, videoId: input.videoId, viewerId: pass.userId, sessionId: pass.sessionId });
      if (!access || access.download.userId !== pass.userId) throw refused();
      if (!isOfflineLinkSignature(deps, pass, input.downloadId, input.videoId, access.download.height, input.signature)) throw refused();
      if (!access.sessionLive) throw refused();
      if (access.enrolmentStatus !== 'approved') throw new AppError('FORBIDDEN', T.offlineEnded);
      if (!access.video || !access.setId) throw new AppError('FORBIDDEN', T.offlineNotInCourse);
      const rendition = access.video.status === 'ready' ? renditionFor(access.video.renditions, access.download.height) : undefined;
      if (!rendition) throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
      if (!access.fetched) await recordPartFetched(deps.db, input.downloadId, input.videoId);
      return {
        grant: { height: access.download.height, rendition, serial: access.video.serial },
        tags: { userId: pass.userId, sessionId: pass.sessionId, setId: access.setId },
        endsAt: access.sessionEndsAt ?? undefined,
      };
    },
  );
  // Checked on every request, the grant kept or not: the link is this viewer's, for this part.
  if (!isOfflineLinkSignature(deps, pass, input.downloadId, input.videoId, grant.height, input.signature)) throw refused();
  const { rendition } = grant;
  return { area: 'trainingVideo', name: rendition.file, mime: 'video/mp4', downloadName: `training-${grant.serial}-${rendition.height}p.mp4`, image: false };
}

/**
 * Takes in a device's watch records for a download (offline-credit.ts): in one transaction, with
 * the download locked (two syncs of one download are taken in one after the other, so a batch
 * sent twice at once is credited once) and the learner's watch records of its parts locked as an
 * online report locks them. Unknown download: 404; enrolment no longer approved: 403, and nothing
 * changes. `owner`, when given (the app's own call), must be the download's learner.
 */
export async function syncOffline(deps: Deps, request: TOfflineSyncRequest, owner?: TSessionUser): Promise<TOfflineSyncResult> {
  const found = await findDownload(deps.db, request.downloadId);
  if (!found || (owner && found.userId !== owner.id)) throw new AppError('NOT_FOUND', T.offlineNotFound);
  await requireApproved(deps, found.userId, found.courseId, T.offlineEnded);
  const set = await findSetByCourse(deps.db, found.courseId);
  if (!set) throw new AppError('NOT_FOUND', T.noneForCourse);

  const results = await inTransaction(deps.db, async (tx) => {
    const download = await lockDownload(tx, request.downloadId);
    if (!download) throw new AppError('NOT_FOUND', T.offlineNotFound);
    const partRows = await findOfflineParts(tx, download.id, set.id);
    const inCourse = new Set(partRows.map((part) => part.id));
    const known = new Map<string, TKnownRecord>(
      (await findRecordsByIds(tx, [...new Set(request.records.map((record) => record.id))])).map((row) => [
        row.id,
        { downloadId: row.downloadId, signature: row.signature, outcome: row.outcome === 'credited' ? 'credited' : 'refused', reason: row.reason, creditedSeconds: row.creditedSeconds },
      ]),
    );
    // Watch records are made only for the parts of genuine records not taken in before.
    const fresh = request.records.filter(
      (record) => inCourse.has(record.videoId) && !known.has(record.id) && record.seq > download.lastSeq && isSignedRecord(download.recordKey, download.id, record),
    );
    const watchRows = await lockWatchRecords(tx, download.userId, [...inCourse], [...new Set(fresh.map((record) => record.videoId))]);
    // The server's clock, read once the download is locked.
    const now = new Date();
    const parts: TOfflinePart[] = partRows.map((part) => {
      const watch = watchRows.find((row) => row.videoId === part.id);
      return {
        videoId: part.id,
        durationSeconds: part.status === 'ready' ? part.durationSeconds : null,
        fetchedAt: part.fetchedAt,
        intervals: watch?.watchedIntervals ?? [],
        watchedSeconds: watch?.watchedSeconds ?? 0,
        observedSeconds: watch?.observedSeconds ?? 0,
        lastPosition: watch?.lastPosition ?? 0,
        completed: watch?.completedAt != null,
      };
    });
    const judged = judgeOfflineRecords({
      downloadId: download.id,
      recordKey: download.recordKey,
      chain: {
        lastSeq: download.lastSeq,
        lastSignature: download.lastSignature,
        lastDeviceEndedAt: download.lastDeviceEndedAt?.getTime() ?? null,
        creditedPlaySeconds: download.creditedPlaySeconds,
      },
      parts,
      known,
      records: request.records,
      now,
      completionShare: VIDEO_COMPLETION_SHARE,
    });

    await insertWatchRecords(
      tx,
      judged.stored.map(({ record, outcome, reason, creditedSeconds }) => ({
        id: record.id,
        downloadId: download.id,
        seq: record.seq,
        videoId: record.videoId,
        fromSeconds: record.from,
        toSeconds: record.to,
        deviceStartedAt: new Date(record.startedAt),
        deviceEndedAt: new Date(record.endedAt),
        playedMs: record.playedMs,
        signature: record.signature,
        outcome,
        reason,
        creditedSeconds,
        createdAt: now,
      })),
    );
    await insertWatchRefusals(tx, judged.refusals.map((refusal) => ({ ...refusal, userId: download.userId, createdAt: now })));
    for (const part of judged.parts) {
      const watch = watchRows.find((row) => row.videoId === part.videoId);
      if (!part.changed || !watch) continue;
      await saveOfflineWatch(tx, watch.id, {
        watchedIntervals: [...part.intervals],
        watchedSeconds: part.watchedSeconds,
        observedSeconds: part.observedSeconds,
        lastPosition: part.lastPosition,
        completedAt: watch.completedAt ?? (part.completedNow ? now : null),
        now,
      });
    }
    if (judged.chain.lastSeq !== download.lastSeq || judged.chain.creditedPlaySeconds !== download.creditedPlaySeconds) {
      await saveChain(tx, download.id, {
        lastSeq: judged.chain.lastSeq,
        lastSignature: judged.chain.lastSignature,
        lastDeviceEndedAt: judged.chain.lastDeviceEndedAt === null ? null : new Date(judged.chain.lastDeviceEndedAt),
        creditedPlaySeconds: judged.chain.creditedPlaySeconds,
      });
    }
    return judged.results;
  });

  const credited = results.filter((result) => result.outcome === 'credited').length;
  const refused = results.filter((result) => result.outcome === 'refused').length;
  deps.logger.info({ downloadId: found.id, userId: found.userId, records: results.length, credited, refused }, 'offline watching synced');

  const [rows, counts] = await Promise.all([findPlayerRows(deps.db, found.userId, set.id), countCompleted(deps.db, found.userId, set.id)]);
  return {
    results: results.map((result) => ({ ...result, creditedSeconds: Math.round(result.creditedSeconds * 10) / 10 })),
    parts: rows.map(({ video, watch }) => ({
      videoId: video.id,
      watchedSeconds: Math.round((watch?.watchedSeconds ?? 0) * 10) / 10,
      completed: watch?.completedAt != null,
    })),
    progress: { completedVideos: counts.completed, totalVideos: counts.total, percent: counts.total === 0 ? 0 : Math.floor((counts.completed / counts.total) * 100) },
    allCompleted: counts.total > 0 && counts.completed === counts.total,
  };
}
