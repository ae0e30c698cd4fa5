import { describe, expect, it } from 'vitest';
import { CHECKPOINT_MS, createSpanRecorder } from '@/features/training/span-recorder.ts';

function setup() {
  const clock = { mono: 1_000, wall: 1_764_000_000_000 };
  const recorder = createSpanRecorder({ monotonic: () => clock.mono, wall: () => clock.wall });
  const pass = (ms: number) => {
    clock.mono += ms;
    clock.wall += ms;
  };
  /** Plays on from `from` to `to` at normal speed, a reading every quarter second. */
  const play = (from: number, to: number) => {
    for (let at = from + 0.25; at <= to + 1e-9; at += 0.25) {
      pass(250);
      expect(recorder.observe(at)).toBeNull();
    }
  };
  return { clock, recorder, pass, play };
}

describe('offline spans', () => {
  it('measures a span from play to pause with the monotonic clock and the wall clock at both ends', () => {
    const { clock, recorder, play } = setup();
    const startedAt = clock.wall;
    recorder.start('a', 2);
    play(2, 7);
    const span = recorder.stop(7);
    expect(span).toEqual({ videoId: 'a', from: 2, to: 7, startedAt, endedAt: startedAt + 5_000, playedMs: 5_000 });
    expect(recorder.isOpen()).toBe(false);
  });

  it('ends a span at a seek and claims nothing of the skipped stretch', () => {
    const { recorder, play, pass } = setup();
    recorder.start('a', 0);
    play(0, 3);
    pass(250);
    const closed = recorder.observe(40);
    expect(closed).toMatchObject({ from: 0, to: 3 });
    play(40, 42);
    expect(recorder.stop(42)).toMatchObject({ from: 40, to: 42, playedMs: 2_000 });
  });

  it('does not count paused time: the clock runs only between play and pause', () => {
    const { recorder, play, pass } = setup();
    recorder.start('a', 0);
    play(0, 2);
    recorder.stop(2);
    pass(60_000);
    recorder.start('a', 2);
    play(2, 4);
    expect(recorder.stop(4)).toMatchObject({ from: 2, to: 4, playedMs: 2_000 });
  });

  it('cuts a long play every checkpoint into spans that touch, with no time in between', () => {
    const { recorder, play } = setup();
    recorder.start('a', 0);
    play(0, 10);
    expect(recorder.checkpoint(10)).toBeNull();
    play(10, CHECKPOINT_MS / 1000);
    const first = recorder.checkpoint(CHECKPOINT_MS / 1000);
    expect(first).toMatchObject({ from: 0, to: 30, playedMs: 30_000 });
    play(30, 35);
    const second = recorder.stop(35);
    expect(second).toMatchObject({ from: 30, to: 35, playedMs: 5_000 });
    expect(second?.startedAt).toBe(first?.endedAt);
  });

  it('closes the part left behind when another starts', () => {
    const { recorder, play } = setup();
    recorder.start('a', 0);
    play(0, 1);
    expect(recorder.start('b', 0)).toMatchObject({ videoId: 'a', from: 0, to: 1 });
    expect(recorder.stop(0)).toMatchObject({ videoId: 'b' });
  });
});
