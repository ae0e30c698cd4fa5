import type { TWatchedInterval } from '../../db/schema/training.ts';

/** Spans closer than this (seconds) join: a heartbeat's rounding must not leave slivers unwatched. */
const JOIN_GAP_SECONDS = 0.5;

/** Adds a watched span to the merged, sorted list of spans; overlapping and touching spans join. */
export function mergeInterval(intervals: readonly TWatchedInterval[], span: TWatchedInterval): TWatchedInterval[] {
  const all = [...intervals, span].filter(([start, end]) => end > start).sort((a, b) => a[0] - b[0]);
  const merged: TWatchedInterval[] = [];
  for (const [start, end] of all) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1] + JOIN_GAP_SECONDS) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Seconds covered by merged spans: each second of the video counts once, however often watched. */
export function watchedSeconds(intervals: readonly TWatchedInterval[]): number {
  return intervals.reduce((total, [start, end]) => total + (end - start), 0);
}

/**
 * Whether a span claimed now could have been watched since the previous heartbeat: no more video
 * than wall-clock time (with a little slack for timers and the network), so jumping ahead or
 * speeding up the player completes nothing. The first heartbeat of a video may cover one
 * heartbeat period.
 */
export function isPlausibleSpan(spanSeconds: number, sinceLastBeatSeconds: number | null, heartbeatSeconds: number): boolean {
  const allowed = (sinceLastBeatSeconds ?? heartbeatSeconds) * 1.1 + 2;
  return spanSeconds <= allowed;
}

/** Part N+1 stays locked until parts 1..N are completed: each part's lock, given completion in order. */
export function lockedParts(completedInOrder: readonly boolean[]): boolean[] {
  return completedInOrder.map((_, index) => completedInOrder.slice(0, index).some((completed) => !completed));
}
