import { describe, expect, it } from 'vitest';
import { creditOfRecords, isCompletedBy, localCredit } from '@/lib/offline/local-credit.ts';
import { lockedParts } from '../../../shared/watched-spans.ts';

const rec = (videoId: string, from: number, to: number, playedMs = (to - from) * 1000) => ({ videoId, from, to, playedMs });

describe('credit of a part from the device records', () => {
  it('counts each second once, however often it was played, and never a gap', () => {
    const credit = creditOfRecords([rec('a', 0, 10), rec('a', 5, 15), rec('a', 20, 30)], 60);
    expect(credit.watchedSeconds).toBeCloseTo(25);
    expect(credit.playSeconds).toBeCloseTo(30);
  });

  it('joins spans that touch (a checkpoint in the middle of play)', () => {
    expect(creditOfRecords([rec('a', 0, 29.5), rec('a', 29.5, 60)], 60).watchedSeconds).toBeCloseTo(60);
  });

  it('credits a span no further than its played time and one second', () => {
    const credit = creditOfRecords([rec('a', 0, 60, 10_000)], 60);
    expect(credit.watchedSeconds).toBeCloseTo(11);
    expect(credit.playSeconds).toBeCloseTo(10);
  });

  it('keeps spans within the part', () => {
    expect(creditOfRecords([rec('a', 50, 80, 30_000)], 60).watchedSeconds).toBeCloseTo(10);
  });
});

describe('completion as the server decides it', () => {
  it('needs 95 % credited and 95 % of play time', () => {
    expect(isCompletedBy({ watchedSeconds: 95, playSeconds: 95 }, 100)).toBe(true);
    expect(isCompletedBy({ watchedSeconds: 94.9, playSeconds: 200 }, 100)).toBe(false);
    // Seconds played over and over add play time, not seconds watched.
    expect(isCompletedBy({ watchedSeconds: 100, playSeconds: 94 }, 100)).toBe(false);
    expect(isCompletedBy({ watchedSeconds: 10, playSeconds: 10 }, null)).toBe(false);
  });

  it('does not complete a part whose end was reached by seeking', () => {
    const [first] = localCredit([{ id: 'a', durationSeconds: 60, completed: false }], [rec('a', 0, 10), rec('a', 55, 60)]);
    expect(first?.completed).toBe(false);
  });
});

describe('locks', () => {
  it('keeps part N+1 locked until 1..N are completed', () => {
    expect(lockedParts([true, false, false])).toEqual([false, false, true]);
    expect(lockedParts([false, true, true])).toEqual([false, true, true]);
  });

  it('unlocks part 2 when the device played part 1 to its end, and part 3 stays locked', () => {
    const parts = [
      { id: 'a', durationSeconds: 5, completed: false },
      { id: 'b', durationSeconds: 5, completed: false },
      { id: 'c', durationSeconds: 5, completed: false },
    ];
    expect(localCredit(parts, []).map((part) => part.locked)).toEqual([false, true, true]);
    const after = localCredit(parts, [rec('a', 0, 2.5), rec('a', 2.5, 5)]);
    expect(after.map((part) => [part.completed, part.locked])).toEqual([
      [true, false],
      [false, false],
      [false, true],
    ]);
  });

  it('takes the server’s completion as it is, with or without records', () => {
    const parts = [
      { id: 'a', durationSeconds: 5, completed: true },
      { id: 'b', durationSeconds: 5, completed: false },
    ];
    expect(localCredit(parts, []).map((part) => part.locked)).toEqual([false, false]);
  });

  it('does not count a part played fast (a span claiming more than it played)', () => {
    const parts = [
      { id: 'a', durationSeconds: 60, completed: false },
      { id: 'b', durationSeconds: 60, completed: false },
    ];
    const after = localCredit(parts, [rec('a', 0, 60, 5_000)]);
    expect(after[0]?.completed).toBe(false);
    expect(after[1]?.locked).toBe(true);
  });
});
