import type { TWatchedInterval } from '../../db/schema/training.ts';
import { clipToNewSeconds, mergeInterval, watchedSeconds } from '../../../shared/watched-spans.ts';

export { clipToNewSeconds, lockedParts, mergeInterval, watchedSeconds } from '../../../shared/watched-spans.ts';

/**
 * Seconds a report may claim beyond the playing time the server has seen: the player's timer and
 * the server's clock drift apart by a network round trip, no more.
 */
export const CLOCK_SLACK_SECONDS = 2;
/**
 * The longest stretch between two reports counted as playing. Longer, the player was paused or
 * closed without saying so; up to this, a lost link with the video still playing from its buffer.
 */
export const LONGEST_UNSEEN_PLAY_SECONDS = 5 * 60;

export type TWatchClock = {
  intervals: readonly TWatchedInterval[];
  /** Wall-clock seconds the server has seen the viewer playing the part, summed over every report. */
  observedSeconds: number;
  lastReportAt: Date | null;
};

export type TWatchReport = { from: number; to: number };

export type TCredit = {
  intervals: TWatchedInterval[];
  watchedSeconds: number;
  observedSeconds: number;
  /** Seconds of the claimed span the server did not credit: it ran ahead of the server's clock. */
  refusedSeconds: number;
};

/**
 * What one report from a player earns, measured on the server's clock, never the client's.
 *
 * A report of no length (from = to) says playback starts: it opens the clock and earns nothing. A
 * report of a span counts the time since the viewer's previous report as time seen playing (up to
 * LONGEST_UNSEEN_PLAY_SECONDS), and credits the span's seconds not watched before only as far as
 * the time seen playing, summed over the whole viewing, covers them (plus CLOCK_SLACK_SECONDS):
 * reports sent back to back, from a script, a second tab or another device, add nothing together,
 * and the gaps between spans are never credited.
 */
export function creditReport(clock: TWatchClock, report: TWatchReport, durationSeconds: number, now: Date): TCredit {
  const from = Math.min(Math.max(report.from, 0), durationSeconds);
  const to = Math.min(Math.max(report.to, from), durationSeconds);
  const watchedBefore = watchedSeconds(clock.intervals);
  const sinceLast = clock.lastReportAt ? Math.max(0, (now.getTime() - clock.lastReportAt.getTime()) / 1000) : 0;
  const starting = to <= from;
  const observedSeconds = clock.observedSeconds + (starting ? 0 : Math.min(sinceLast, LONGEST_UNSEEN_PLAY_SECONDS));
  if (starting) return { intervals: [...clock.intervals], watchedSeconds: watchedBefore, observedSeconds, refusedSeconds: 0 };

  const claimed = watchedSeconds(mergeInterval(clock.intervals, [from, to])) - watchedBefore;
  const allowed = Math.max(0, observedSeconds + CLOCK_SLACK_SECONDS - watchedBefore);
  const span: TWatchedInterval = claimed > allowed ? clipToNewSeconds(clock.intervals, [from, to], allowed) : [from, to];
  const intervals = mergeInterval(clock.intervals, span);
  const watched = Math.min(watchedSeconds(intervals), durationSeconds);
  return { intervals, watchedSeconds: watched, observedSeconds, refusedSeconds: Math.max(0, claimed - (watched - watchedBefore)) };
}

/**
 * A part counts as completed when `share` of it was credited and at least that much real time was
 * seen playing it: however a script times its reports, a part of D seconds takes share × D of the
 * server's clock.
 */
export function isCompleted(credit: Pick<TCredit, 'watchedSeconds' | 'observedSeconds'>, durationSeconds: number | null, share: number): boolean {
  if (durationSeconds === null || durationSeconds <= 0) return false;
  const needed = durationSeconds * share;
  return credit.watchedSeconds >= needed && credit.observedSeconds >= needed;
}
