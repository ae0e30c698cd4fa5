/*
 * The arithmetic of watched spans, the same on the server (modules/training/watched.ts,
 * offline-credit.ts) and on the device (lib/offline/local-credit.ts), so a part the device unlocks
 * offline is the part the server completes once its records arrive (decisions 041 and 050).
 */

/** [start, end] of a part, in seconds. */
export type TSpan = [start: number, end: number];

/** Spans closer than this (seconds) are the same span: float rounding, never a gap worth crediting. */
const TOUCHING_SECONDS = 0.001;

/** Adds a watched span to the merged, sorted list of spans; overlapping and touching spans join, gaps stay gaps. */
export function mergeInterval(intervals: readonly TSpan[], span: TSpan): TSpan[] {
  const all = [...intervals, span].filter(([start, end]) => end > start).sort((a, b) => a[0] - b[0]);
  const merged: TSpan[] = [];
  for (const [start, end] of all) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1] + TOUCHING_SECONDS) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Seconds covered by merged spans: each second of the video counts once, however often watched. */
export function watchedSeconds(intervals: readonly TSpan[]): number {
  return intervals.reduce((total, [start, end]) => total + (end - start), 0);
}

/**
 * `span` cut short so that it adds at most `allowed` seconds not already in `intervals` (merged,
 * sorted): the seconds a report may add are counted from its start, across what was watched before.
 */
export function clipToNewSeconds(intervals: readonly TSpan[], span: TSpan, allowed: number): TSpan {
  const [from, to] = span;
  let left = Math.max(0, allowed);
  let cursor = from;
  for (const [start, end] of intervals) {
    if (end <= cursor) continue;
    if (start >= to) break;
    const gap = Math.max(0, Math.min(start, to) - cursor);
    // Allowance used up before this watched stretch: stop where it ran out (seconds already
    // watched cost nothing, so a span starting inside one goes on to its end).
    if (gap > 0 && gap >= left) return [from, cursor + left];
    left -= gap;
    cursor = Math.max(cursor, end);
    if (cursor >= to) return [from, to];
  }
  return [from, Math.min(to, cursor + left)];
}

/** Part N+1 stays locked until parts 1..N are completed: each part's lock, given completion in order. */
export function lockedParts(completedInOrder: readonly boolean[]): boolean[] {
  return completedInOrder.map((_, index) => completedInOrder.slice(0, index).some((completed) => !completed));
}
