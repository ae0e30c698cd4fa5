import { describe, expect, it } from 'vitest';
import { isPlausibleSpan, lockedParts, mergeInterval, watchedSeconds } from './watched.ts';

describe('watched spans', () => {
  it('joins overlapping and touching spans and counts each second once', () => {
    let spans = mergeInterval([], [0, 10]);
    spans = mergeInterval(spans, [5, 20]);
    spans = mergeInterval(spans, [20.3, 30]);
    spans = mergeInterval(spans, [50, 60]);
    spans = mergeInterval(spans, [0, 10]);
    expect(spans).toEqual([
      [0, 30],
      [50, 60],
    ]);
    expect(watchedSeconds(spans)).toBe(40);
  });

  it('ignores empty spans', () => {
    expect(mergeInterval([[0, 5]], [7, 7])).toEqual([[0, 5]]);
  });

  it('allows no more video than time has passed since the last heartbeat', () => {
    expect(isPlausibleSpan(10, 10, 10)).toBe(true);
    expect(isPlausibleSpan(12.5, 10, 10)).toBe(true);
    expect(isPlausibleSpan(30, 10, 10)).toBe(false);
    // The first heartbeat of a video covers at most about one period.
    expect(isPlausibleSpan(10, null, 10)).toBe(true);
    expect(isPlausibleSpan(600, null, 10)).toBe(false);
    // Offline for five minutes while playing: the span waited with the time.
    expect(isPlausibleSpan(300, 301, 10)).toBe(true);
  });
});

describe('locked parts', () => {
  it('locks every part after the first one not completed', () => {
    expect(lockedParts([true, false, false])).toEqual([false, false, true]);
    expect(lockedParts([false, true])).toEqual([false, true]);
    expect(lockedParts([true, true])).toEqual([false, false]);
  });
});
