import type { TTrainingPlayer } from '../../../shared/schemas/training.ts';

/** The spec's training progress keys in local storage, one pair per course. */
export const currentIndexKey = (courseId: string) => `currentVideoIndex_${courseId}`;
export const completedKey = (courseId: string) => `completedVideos_${courseId}`;

/**
 * Writes the part being played (its place, from 0) and the places of the completed parts, as the
 * server last answered them. The server's record is the truth: these keys follow it and are never
 * read back to decide anything. Storage that refuses (private mode, full) is no reason to fail.
 */
export function storeProgress(storage: Pick<Storage, 'setItem'>, player: TTrainingPlayer, currentIndex: number): void {
  const completed = player.videos.flatMap((video, index) => (video.completed ? [index] : []));
  try {
    storage.setItem(currentIndexKey(player.course.id), String(currentIndex));
    storage.setItem(completedKey(player.course.id), JSON.stringify(completed));
  } catch {
    // Nothing depends on them.
  }
}
