import { describe, expect, it } from 'vitest';
import { partsOnDevice, progressOfParts } from '@/lib/offline/device-progress.ts';
import type { TStoredRecord } from '@/lib/offline/offline-db.ts';

/** Two parts of 5 s, as the server last answered them. */
const parts = (completed: [boolean, boolean] = [false, false]) => [
  { id: 'a', durationSeconds: 5, completed: completed[0] },
  { id: 'b', durationSeconds: 5, completed: completed[1] },
];

let seq = 0;
function stored(videoId: string, from: number, to: number, overrides: Partial<TStoredRecord> = {}): TStoredRecord {
  seq += 1;
  const record = { id: `r${seq}`, seq, videoId, from, to, startedAt: seq * 10_000, endedAt: seq * 10_000 + (to - from) * 1000, playedMs: (to - from) * 1000, prev: null, signature: 'x' };
  return { id: record.id, userId: 'u1', courseId: 'c1', downloadId: 'd1', record, state: 'pending', outcome: null, reason: null, creditedSeconds: 0, ...overrides };
}

const view = (onDevice: ReturnType<typeof partsOnDevice>) => onDevice.map((part) => [part.completed, part.locked, part.waitingToBeSent]);

describe("the device's view of a course's training", () => {
  it('is the server’s record while the device holds no watching: part 2 locked until part 1 is completed', () => {
    expect(view(partsOnDevice(parts(), []))).toEqual([
      [false, false, false],
      [false, true, false],
    ]);
    expect(view(partsOnDevice(parts([true, false]), []))).toEqual([
      [true, false, false],
      [false, false, false],
    ]);
  });

  it('completes the parts played here, unlocks the next as the player does, and marks them waiting to be sent', () => {
    const one = partsOnDevice(parts(), [stored('a', 0, 5)]);
    expect(view(one)).toEqual([
      [true, false, true],
      [false, false, false],
    ]);
    const both = partsOnDevice(parts(), [stored('a', 0, 5), stored('b', 0, 5)]);
    expect(view(both)).toEqual([
      [true, false, true],
      [true, false, true],
    ]);
    expect(progressOfParts(both)).toEqual({ completedVideos: 2, totalVideos: 2, percent: 100 });
    expect(progressOfParts(one)).toEqual({ completedVideos: 1, totalVideos: 2, percent: 50 });
  });

  it('counts a part the device only started as not completed', () => {
    expect(view(partsOnDevice(parts(), [stored('a', 0, 2)]))).toEqual([
      [false, false, false],
      [false, true, false],
    ]);
  });

  it('no longer marks as waiting what was sent, nor what the server already completed', () => {
    const sent = { state: 'sent' as const, outcome: 'credited' as const, creditedSeconds: 5 };
    // Sent and credited, the server's record on screen not read again yet.
    expect(view(partsOnDevice(parts(), [stored('a', 0, 5, sent)]))[0]).toEqual([true, false, false]);
    expect(view(partsOnDevice(parts([true, false]), [stored('a', 0, 5)]))[0]).toEqual([true, false, false]);
  });

  it('does not count what the server refused', () => {
    const refused = { state: 'sent' as const, outcome: 'refused' as const, reason: 'edited or replayed record' };
    expect(view(partsOnDevice(parts(), [stored('a', 0, 5, refused)]))).toEqual([
      [false, false, false],
      [false, true, false],
    ]);
  });
});
