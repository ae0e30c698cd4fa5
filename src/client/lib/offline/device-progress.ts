import type { TProgress } from '../../../shared/schemas/enrolment.ts';
import { type TCreditPart, localCredit } from '@/lib/offline/local-credit.ts';
import type { TStoredRecord } from '@/lib/offline/offline-db.ts';
import { notCounted } from '@/lib/offline/watch-records.ts';

/*
 * The training as this device may show it: the server's record (as last seen) with what this
 * device's own watch records complete on top, locked in order as online (local-credit.ts). The
 * one view of the device's progress: the player and the course home both read it, so they never
 * disagree on a part. It changes nothing on the server; the records go through the sync, which
 * applies the server's rules again (decision 050).
 */

/** A part as the device may show it. */
export type TDevicePart = {
  completed: boolean;
  locked: boolean;
  /** Seconds of the part the device's records cover (the server's own figure may be higher). */
  watchedSeconds: number;
  /**
   * Completed by this device's records while the server's record (as last seen) says not yet,
   * with some of those records still on the device: played here, waiting to be sent.
   */
  waitingToBeSent: boolean;
};

/** Records the server has not refused (pending, or credited): what the device may count. */
const countableRecords = (records: readonly TStoredRecord[]) => records.filter((stored) => !notCounted(stored)).map((stored) => stored.record);

/** Each of `parts` (in order) with this device's `records` of the course counted. */
export function partsOnDevice(parts: readonly TCreditPart[], records: readonly TStoredRecord[]): TDevicePart[] {
  const credits = localCredit(parts, countableRecords(records));
  return parts.map((part, index) => {
    const credit = credits[index]!;
    const pending = records.some((stored) => stored.state === 'pending' && stored.record.videoId === part.id);
    return {
      completed: credit.completed,
      locked: credit.locked,
      watchedSeconds: credit.watchedSeconds,
      waitingToBeSent: credit.completed && !part.completed && pending,
    };
  });
}

/** The share of `parts` completed, as the server words it (whole percent, rounded down). */
export function progressOfParts(parts: readonly { completed: boolean }[]): TProgress {
  const completedVideos = parts.filter((part) => part.completed).length;
  const totalVideos = parts.length;
  return { completedVideos, totalVideos, percent: totalVideos ? Math.floor((100 * completedVideos) / totalVideos) : 0 };
}
