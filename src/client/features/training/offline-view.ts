import type { TOfflinePackage } from '../../../shared/schemas/offline.ts';
import type { TTrainingPlayer } from '../../../shared/schemas/training.ts';
import type { TStoredRecord } from '@/lib/offline/offline-db.ts';
import { partsOnDevice, progressOfParts } from '@/lib/offline/device-progress.ts';

/*
 * The player's parts as this device may show them: the server's record (as last answered, or as
 * the downloaded package had it when the server cannot be reached) with what this device's own
 * watch records complete on top, locked in order exactly as online (lib/offline/device-progress.ts).
 */

/** The training as the downloaded package describes it: for a player opened with no link and no data kept. */
export function playerFromPackage(pkg: TOfflinePackage): TTrainingPlayer {
  const videos = pkg.parts.map((part) => ({
    id: part.id,
    serial: part.serial,
    title: part.title,
    ready: true,
    durationSeconds: part.durationSeconds,
    posterUrl: null,
    sources: [],
    completed: part.completed,
    locked: false,
    watchedSeconds: part.watchedSeconds,
    resumeAt: 0,
  }));
  const progress = progressOfParts(videos);
  return {
    setId: pkg.setId,
    title: pkg.course.title,
    course: pkg.course,
    videos,
    progress,
    currentIndex: 0,
    allCompleted: videos.length > 0 && progress.completedVideos === videos.length,
    submittedAt: pkg.submittedAt,
  };
}

/**
 * `player` with the device's records counted (lib/offline/device-progress.ts, which the course
 * home reads too): parts they complete are completed, locks follow, progress and the part to play
 * now too. `allCompleted` stays the server's: submitting the training waits for the server to
 * have the records.
 */
export function withLocalCredit(player: TTrainingPlayer, records: readonly TStoredRecord[]): TTrainingPlayer {
  const onDevice = partsOnDevice(player.videos, records);
  const videos = player.videos.map((video, index) => {
    const part = onDevice[index]!;
    // Where the device last stopped, while the server has not heard of it.
    const lastPending = records.filter((stored) => stored.state === 'pending' && stored.record.videoId === video.id).at(-1);
    return {
      ...video,
      completed: part.completed,
      locked: part.locked,
      watchedSeconds: Math.max(video.watchedSeconds, part.watchedSeconds),
      resumeAt: lastPending?.record.to ?? video.resumeAt,
    };
  });
  const progress = progressOfParts(videos);
  const current = videos.findIndex((video) => !video.completed);
  return {
    ...player,
    videos,
    progress: progress.completedVideos === player.progress.completedVideos ? player.progress : progress,
    currentIndex: current === -1 ? Math.max(0, videos.length - 1) : current,
  };
}
