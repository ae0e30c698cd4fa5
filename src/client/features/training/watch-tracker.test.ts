import { describe, expect, it } from 'vitest';
import { createWatchTracker } from '@/features/training/watch-tracker.ts';

/** Plays from `from` to `to` at normal speed, with a reading every quarter second, starting at `startMs`. */
function play(tracker: ReturnType<typeof createWatchTracker>, from: number, to: number, startMs: number): number {
  let at = startMs;
  for (let position = from; position < to; position += 0.25) {
    tracker.observe(position, at);
    at += 250;
  }
  tracker.observe(to, at);
  return at;
}

describe('the watch tracker', () => {
  it('reports contiguous playback as one span, and nothing once the server accepted it', () => {
    const tracker = createWatchTracker({ startedAtMs: 0 });
    const at = play(tracker, 0, 10, 0);
    expect(tracker.nextReport(at)).toEqual({ from: 0, to: 10 });
    tracker.accepted({ from: 0, to: 10 }, at);
    expect(tracker.nextReport(at)).toBeNull();
    expect(tracker.unsent()).toEqual([]);
  });

  it('keeps playing on from a report: playback after it is the next report, joined to nothing before it', () => {
    const tracker = createWatchTracker({ startedAtMs: 0 });
    let at = play(tracker, 0, 10, 0);
    const report = tracker.nextReport(at)!;
    // Playback goes on while the report travels.
    at = play(tracker, 10, 12, at + 250);
    tracker.accepted(report, at);
    expect(tracker.unsent()).toEqual([{ from: 10, to: 12 }]);
    at = play(tracker, 12, 20, at + 250);
    // No more than the time since the answer came (8.25 s) + 1.5 s: the last quarter second waits.
    expect(tracker.nextReport(at)).toEqual({ from: 10, to: 19.75 });
  });

  it('starts a new span at a seek and never claims the part skipped', () => {
    const tracker = createWatchTracker({ startedAtMs: 0 });
    let at = play(tracker, 0, 5, 0);
    tracker.jump();
    at = play(tracker, 60, 64, at + 300);
    expect(tracker.unsent()).toEqual([
      { from: 0, to: 5 },
      { from: 60, to: 64 },
    ]);
    expect(tracker.nextReport(at)).toEqual({ from: 0, to: 5 });
    tracker.accepted({ from: 0, to: 5 }, at);
    expect(tracker.unsent()).toEqual([{ from: 60, to: 64 }]);
  });

  it('treats a jump in the readings as a seek even without a seek event (a skip forward or back)', () => {
    const tracker = createWatchTracker({ startedAtMs: 0 });
    let at = play(tracker, 0, 4, 0);
    // Half a second later the playhead is 30 s on: that was not watched.
    tracker.observe(34, at + 500);
    at = play(tracker, 34, 36, at + 750);
    tracker.observe(2, at + 250);
    play(tracker, 2, 3, at + 500);
    expect(tracker.unsent()).toEqual([
      { from: 0, to: 4 },
      { from: 34, to: 36 },
    ]);
  });

  it('joins playback over what was already played but not yet sent, without double counting', () => {
    const tracker = createWatchTracker({ startedAtMs: 0 });
    let at = play(tracker, 0, 6, 0);
    tracker.jump();
    at = play(tracker, 4, 9, at + 250);
    expect(tracker.unsent()).toEqual([{ from: 0, to: 9 }]);
    expect(tracker.nextReport(at)).toEqual({ from: 0, to: 9 });
  });

  it('closes the span on pause with the last reading, and resumes with a new one', () => {
    const tracker = createWatchTracker({ startedAtMs: 0 });
    const at = play(tracker, 0, 3, 0);
    tracker.stop(3.1, at + 100);
    // Paused a minute; then playback goes on from where it stopped.
    play(tracker, 3.1, 5, at + 60_000);
    expect(tracker.unsent()).toEqual([{ from: 0, to: 5 }]);
  });

  it('keeps a span whose send failed and sends it joined with what was played next', () => {
    const tracker = createWatchTracker({ startedAtMs: 0 });
    let at = play(tracker, 0, 10, 0);
    const failed = tracker.nextReport(at)!;
    expect(failed).toEqual({ from: 0, to: 10 });
    // The send fails (offline): nothing is forgotten, and playback goes on.
    at = play(tracker, 10, 20, at + 250);
    expect(tracker.nextReport(at)).toEqual({ from: 0, to: 20 });
    tracker.accepted({ from: 0, to: 20 }, at);
    expect(tracker.unsent()).toEqual([]);
  });

  it('keeps separate failed spans and sends them one report at a time, never more than the time passed', () => {
    const tracker = createWatchTracker({ startedAtMs: 0 });
    let at = play(tracker, 0, 10, 0);
    tracker.jump();
    at = play(tracker, 30, 40, at + 250);
    // Offline until now: both spans wait. The first goes whole.
    const first = tracker.nextReport(at)!;
    expect(first).toEqual({ from: 0, to: 10 });
    tracker.accepted(first, at);
    // Right after, the second would claim ten seconds in no time at all: only the server's slack.
    expect(tracker.nextReport(at)).toEqual({ from: 30, to: 31.5 });
    // Four seconds later, what the server takes for four seconds (4 + 1.5); the rest next time.
    expect(tracker.nextReport(at + 4000)).toEqual({ from: 30, to: 35.5 });
    tracker.accepted({ from: 30, to: 35.5 }, at + 4000);
    expect(tracker.nextReport(at + 10_000)).toEqual({ from: 35.5, to: 40 });
  });

  it('tells the server that playback starts before any span played after it, and after what was played before', () => {
    const tracker = createWatchTracker({ startedAtMs: 0 });
    let at = play(tracker, 0, 4, 0);
    tracker.stop(4, at);
    // Played again before the pause's report went out: that report first, then the start.
    tracker.begin(4);
    at = play(tracker, 4, 6, at + 60_000);
    expect(tracker.nextReport(at)).toEqual({ from: 0, to: 4 });
    tracker.accepted({ from: 0, to: 4 }, at);
    expect(tracker.nextReport(at)).toEqual({ from: 4, to: 4, start: true });
    tracker.accepted({ from: 4, to: 4, start: true }, at);
    // Then the span played since, within the time since the start was taken.
    at = play(tracker, 6, 14, at + 250);
    expect(tracker.nextReport(at)).toEqual({ from: 4, to: 13.75 });
  });

  it('sends a start at once when nothing played is waiting, and drops it when refused', () => {
    const tracker = createWatchTracker({ startedAtMs: 0 });
    tracker.begin(12);
    expect(tracker.nextReport(0)).toEqual({ from: 12, to: 12, start: true });
    tracker.refused({ from: 12, to: 12, start: true });
    expect(tracker.nextReport(0)).toBeNull();
  });

  it('forgets a refused report without counting it as accepted', () => {
    const tracker = createWatchTracker({ startedAtMs: 0 });
    const at = play(tracker, 0, 8, 0);
    tracker.refused(tracker.nextReport(at)!);
    expect(tracker.unsent()).toEqual([]);
    // The refusal did not start a new allowance: real time since the start still counts.
    tracker.jump();
    const end = play(tracker, 50, 52, at);
    expect(tracker.nextReport(end)).toEqual({ from: 50, to: 52 });
  });

  it('has nothing to report before playback, or for a moment too short to matter', () => {
    const tracker = createWatchTracker({ startedAtMs: 0 });
    expect(tracker.nextReport(1000)).toBeNull();
    tracker.observe(12, 1000);
    tracker.observe(12.01, 1010);
    expect(tracker.nextReport(1010)).toBeNull();
  });

  it('never claims more than real time before the first accepted report (a player running fast)', () => {
    const tracker = createWatchTracker({ startedAtMs: 0 });
    // Twice real speed: 8 s of video in 4 s.
    for (let step = 0; step <= 16; step += 1) tracker.observe(step * 0.5, step * 250);
    expect(tracker.nextReport(4000)).toEqual({ from: 0, to: 4 });
  });
});
