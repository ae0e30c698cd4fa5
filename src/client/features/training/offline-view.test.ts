import { describe, expect, it } from 'vitest';
import type { TOfflinePackage } from '../../../shared/schemas/offline.ts';
import { playerFromPackage, withLocalCredit } from '@/features/training/offline-view.ts';
import type { TStoredRecord } from '@/lib/offline/offline-db.ts';

const pkg: TOfflinePackage = {
  downloadId: 'd1',
  recordKey: 'key',
  setId: 's1',
  course: { id: 'c1', title: 'Sea Survival' },
  height: 360,
  totalBytes: 2000,
  submittedAt: null,
  parts: [
    { id: 'a', serial: 1, title: 'Fire drill', durationSeconds: 5, bytes: 1000, url: '/a', posterUrl: null, completed: false, watchedSeconds: 0 },
    { id: 'b', serial: 2, title: 'Abandon ship', durationSeconds: 5, bytes: 1000, url: '/b', posterUrl: null, completed: false, watchedSeconds: 0 },
  ],
};

let seq = 0;
function stored(videoId: string, from: number, to: number, overrides: Partial<TStoredRecord> = {}): TStoredRecord {
  seq += 1;
  const record = { id: `r${seq}`, seq, videoId, from, to, startedAt: seq * 10_000, endedAt: seq * 10_000 + (to - from) * 1000, playedMs: (to - from) * 1000, prev: null, signature: 'x' };
  return { id: record.id, userId: 'u1', courseId: 'c1', downloadId: 'd1', record, state: 'pending', outcome: null, reason: null, creditedSeconds: 0, ...overrides };
}

describe('the player offline', () => {
  it('builds the parts from the downloaded package, part 2 locked until part 1 is completed', () => {
    const view = withLocalCredit(playerFromPackage(pkg), []);
    expect(view.videos.map((video) => [video.serial, video.locked, video.completed])).toEqual([
      [1, false, false],
      [2, true, false],
    ]);
    expect(view.allCompleted).toBe(false);
  });

  it('completes part 1 and unlocks part 2 from the device records, and resumes where the device stopped', () => {
    const view = withLocalCredit(playerFromPackage(pkg), [stored('a', 0, 5), stored('b', 0, 1.5)]);
    expect(view.videos.map((video) => [video.locked, video.completed])).toEqual([
      [false, true],
      [false, false],
    ]);
    expect(view.progress).toEqual({ completedVideos: 1, totalVideos: 2, percent: 50 });
    expect(view.currentIndex).toBe(1);
    expect(view.videos[1]?.resumeAt).toBe(1.5);
    // Submitting waits for the server's record.
    expect(withLocalCredit(playerFromPackage(pkg), [stored('a', 0, 5), stored('b', 0, 5)]).allCompleted).toBe(false);
  });

  it('does not count records the server refused', () => {
    const view = withLocalCredit(playerFromPackage(pkg), [stored('a', 0, 5, { state: 'sent', outcome: 'refused', reason: 'edited or replayed record' })]);
    expect(view.videos[0]?.completed).toBe(false);
    expect(view.videos[1]?.locked).toBe(true);
    // Replayed by the service worker first: the page hears 'duplicate' with the first answer's reason.
    const replayed = withLocalCredit(playerFromPackage(pkg), [stored('a', 0, 5, { state: 'sent', outcome: 'duplicate', reason: 'edited or replayed record' })]);
    expect(replayed.videos[0]?.completed).toBe(false);
  });
});
