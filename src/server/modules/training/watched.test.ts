import { describe, expect, it } from 'vitest';
import type { TWatchedInterval } from '../../db/schema/training.ts';
import {
  CLOCK_SLACK_SECONDS,
  clipToNewSeconds,
  creditReport,
  isCompleted,
  lockedParts,
  mergeInterval,
  type TWatchClock,
  watchedSeconds,
} from './watched.ts';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 26, 8, 0, 0) + seconds * 1000);

/** Sends reports in turn, each at its own server time, as the service keeps the clock between them. */
function replay(reports: Array<{ at: number; from: number; to: number }>, duration = 60) {
  let clock: TWatchClock = { intervals: [], observedSeconds: 0, lastReportAt: null };
  let last = { watchedSeconds: 0, observedSeconds: 0, refusedSeconds: 0 };
  let refused = 0;
  for (const report of reports) {
    const credit = creditReport(clock, report, duration, at(report.at));
    clock = { intervals: credit.intervals, observedSeconds: credit.observedSeconds, lastReportAt: at(report.at) };
    refused += credit.refusedSeconds;
    last = credit;
  }
  return { ...last, refused, intervals: clock.intervals };
}

describe('watched spans', () => {
  it('joins overlapping and touching spans and counts each second once', () => {
    let spans = mergeInterval([], [0, 10]);
    spans = mergeInterval(spans, [5, 20]);
    spans = mergeInterval(spans, [20, 30]);
    spans = mergeInterval(spans, [50, 60]);
    spans = mergeInterval(spans, [0, 10]);
    expect(spans).toEqual([
      [0, 30],
      [50, 60],
    ]);
    expect(watchedSeconds(spans)).toBe(40);
  });

  it('never joins across a gap, however small', () => {
    expect(mergeInterval([[0, 5]], [5.3, 6])).toEqual([
      [0, 5],
      [5.3, 6],
    ]);
  });

  it('ignores empty spans', () => {
    expect(mergeInterval([[0, 5]], [7, 7])).toEqual([[0, 5]]);
  });

  it('cuts a span to the new seconds allowed, counting across what was watched before', () => {
    const before: TWatchedInterval[] = [
      [10, 20],
      [30, 40],
    ];
    expect(clipToNewSeconds(before, [0, 50], 5)).toEqual([0, 5]);
    expect(clipToNewSeconds(before, [0, 50], 15)).toEqual([0, 25]);
    expect(clipToNewSeconds(before, [0, 50], 30)).toEqual([0, 50]);
    expect(clipToNewSeconds(before, [12, 50], 0)).toEqual([12, 20]);
    expect(clipToNewSeconds([], [5, 9], 10)).toEqual([5, 9]);
  });
});

describe('credit on the server\'s clock', () => {
  it('credits honest playback in full: a start, then a report every ten seconds', () => {
    const reports = [{ at: 0, from: 0, to: 0 }];
    for (let t = 10; t <= 60; t += 10) reports.push({ at: t + 0.2, from: t - 10, to: t });
    const result = replay(reports);
    expect(result.watchedSeconds).toBe(60);
    expect(result.refused).toBe(0);
    expect(isCompleted(result, 60, 0.95)).toBe(true);
  });

  it('gives reports sent back to back nothing beyond the slack (finding 1)', () => {
    // One report of 0-13 s, then 22 reports of 2 s each at once.
    const reports = [{ at: 0, from: 0, to: 13 }];
    for (let index = 0; index < 22; index += 1) reports.push({ at: 0.03 * (index + 1), from: 13 + index * 2, to: 15 + index * 2 });
    const result = replay(reports);
    expect(result.watchedSeconds).toBeLessThanOrEqual(0.66 + CLOCK_SLACK_SECONDS + 1e-9);
    expect(isCompleted(result, 60, 0.95)).toBe(false);
  });

  it('never credits the gaps between spans (finding 2)', () => {
    const reports = [{ at: 0, from: 0, to: 0 }];
    for (let index = 0; index < 40; index += 1) reports.push({ at: 0.5 * (index + 1), from: index * 0.5, to: index * 0.5 + 0.01 });
    const result = replay(reports);
    expect(result.watchedSeconds).toBeCloseTo(0.4, 5);
  });

  it('cannot complete a part of D seconds in less than 0.95 × D, however the reports are timed', () => {
    // The best a script can do: open the clock, wait, then claim everything in pieces.
    for (const wait of [0, 10, 30, 50, 56]) {
      const reports = [{ at: 0, from: 0, to: 0 }];
      for (let piece = 0; piece < 60; piece += 1) reports.push({ at: wait + piece * 0.001, from: piece, to: piece + 1 });
      const result = replay(reports);
      expect(isCompleted(result, 60, 0.95), `after ${wait} s`).toBe(wait >= 57);
    }
    const patient = replay([
      { at: 0, from: 0, to: 0 },
      { at: 57, from: 0, to: 60 },
    ]);
    expect(isCompleted(patient, 60, 0.95)).toBe(true);
  });

  it('adds nothing for two tabs or devices playing at once', () => {
    const reports = [
      { at: 0, from: 0, to: 0 },
      { at: 0.1, from: 30, to: 30 },
    ];
    for (let t = 10; t <= 30; t += 10) {
      reports.push({ at: t, from: t - 10, to: t });
      reports.push({ at: t + 0.1, from: 20 + t, to: 30 + t });
    }
    const result = replay(reports);
    expect(result.watchedSeconds).toBeLessThanOrEqual(30.1 + CLOCK_SLACK_SECONDS);
  });

  it('does not count a pause the player announced, and keeps a lost link\'s backlog', () => {
    const paused = replay([
      { at: 0, from: 0, to: 0 },
      { at: 10, from: 0, to: 10 },
      // Paused for ten minutes, then playing again.
      { at: 610, from: 10, to: 10 },
      { at: 620, from: 10, to: 20 },
    ]);
    expect(paused.observedSeconds).toBe(20);
    expect(paused.watchedSeconds).toBe(20);
    const offline = replay([
      { at: 0, from: 0, to: 0 },
      { at: 10, from: 0, to: 10 },
      // A minute without a link, the video playing from its buffer: the backlog comes at once.
      { at: 71, from: 10, to: 40 },
      { at: 71.1, from: 40, to: 70 },
    ], 120);
    expect(offline.watchedSeconds).toBe(70);
    expect(offline.refused).toBe(0);
  });

  it('credits a seek ahead only with the time it took to get there', () => {
    const result = replay([
      { at: 0, from: 0, to: 0 },
      { at: 10, from: 0, to: 10 },
      { at: 11, from: 50, to: 60 },
    ]);
    expect(result.watchedSeconds).toBe(13);
    expect(result.intervals).toEqual([
      [0, 10],
      [50, 53],
    ]);
  });
});

describe('locked parts', () => {
  it('locks every part after the first one not completed', () => {
    expect(lockedParts([true, false, false])).toEqual([false, false, true]);
    expect(lockedParts([false, true])).toEqual([false, true]);
    expect(lockedParts([true, true])).toEqual([false, false]);
  });
});
