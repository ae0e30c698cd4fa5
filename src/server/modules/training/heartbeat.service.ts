import { VIDEO_COMPLETION_SHARE } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { THeartbeat, THeartbeatResult } from '../../../shared/schemas/training.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/errors.ts';
import type { TSessionUser } from '../../lib/session-user.ts';
import { countCompleted, findPlayerRows, findVideo, inTransaction, insertWatchRefusal, lockWatchRecord, saveWatchRecord } from './training.repository.ts';
import { progressOf, REFUSAL_REASONS, requireTrainingAccess } from './training.service.ts';
import { creditReport, isCompleted, lockedParts } from './watched.ts';

const T = MESSAGES.training;
type Deps = Pick<AppDeps, 'db' | 'env' | 'files' | 'jobs' | 'jwtSecret' | 'logger'>;

/**
 * Records a report from a player (the portal's own, or another through the REST path): a start
 * (from = to) opens the server's clock for the part; a span is credited as far as the time the
 * server has seen the viewer playing covers it (watched.ts), each second once, and the part is
 * completed at VIDEO_COMPLETION_SHARE of its duration, watched and timed. What a report claimed
 * beyond the clock is not credited and is kept, with the reason, for the auditor. A locked or
 * unready part is refused and nothing is recorded.
 */
export async function recordHeartbeat(deps: Deps, viewer: TSessionUser, beat: THeartbeat): Promise<THeartbeatResult> {
  const video = await findVideo(deps.db, beat.videoId);
  if (!video) throw new AppError('NOT_FOUND', T.videoNotFound);
  await requireTrainingAccess(deps, viewer, video.courseId);
  if (video.status !== 'ready' || !video.durationSeconds) throw new AppError('CONFLICT', T.notReady);
  const duration = video.durationSeconds;

  const result = await inTransaction(deps.db, async (tx) => {
    const rows = await findPlayerRows(tx, viewer.id, video.setId);
    const locks = lockedParts(rows.map(({ watch }) => watch?.completedAt != null));
    if (viewer.role !== 'admin' && locks[rows.findIndex((row) => row.video.id === video.id)]) {
      throw new AppError('FORBIDDEN', T.locked);
    }
    const record = await lockWatchRecord(tx, viewer.id, video.id);
    // The server's clock, read once the record is locked: reports of one viewer are timed in turn.
    const now = new Date();
    const credit = creditReport(
      { intervals: record.watchedIntervals, observedSeconds: record.observedSeconds, lastReportAt: record.lastBeatAt },
      beat,
      duration,
      now,
    );
    const completedAt = record.completedAt ?? (isCompleted(credit, duration, VIDEO_COMPLETION_SHARE) ? now : null);
    await saveWatchRecord(tx, record.id, {
      watchedIntervals: credit.intervals,
      watchedSeconds: credit.watchedSeconds,
      observedSeconds: credit.observedSeconds,
      lastPosition: Math.min(beat.position, duration),
      lastBeatAt: now,
      firstBeatAt: record.firstBeatAt ?? now,
      completedAt,
    });
    if (credit.refusedSeconds > 0.01) {
      await insertWatchRefusal(tx, {
        userId: viewer.id,
        videoId: video.id,
        reason: REFUSAL_REASONS.aheadOfClock,
        claimedFrom: beat.from,
        claimedTo: beat.to,
        creditedSeconds: Math.max(0, Math.min(beat.to, duration) - Math.min(beat.from, duration) - credit.refusedSeconds),
        createdAt: now,
      });
    }
    return { watched: credit.watchedSeconds, completed: completedAt !== null };
  });
  const counts = await countCompleted(deps.db, viewer.id, video.setId);
  return {
    videoId: video.id,
    watchedSeconds: Math.round(result.watched * 10) / 10,
    completed: result.completed,
    progress: progressOf(counts.completed, counts.total),
    allCompleted: counts.total > 0 && counts.completed === counts.total,
  };
}
