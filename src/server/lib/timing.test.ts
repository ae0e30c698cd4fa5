import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { atLeast } from './timing.ts';

/**
 * The floor that hides which path an answer took (decision 013), on the test's own clock: what
 * matters is when the answer comes relative to the work, not how fast this machine is.
 */
describe('atLeast', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  /** When `promise` settles, in fake milliseconds from now, advancing the clock 1 ms at a time. */
  async function settlesAfter(promise: Promise<unknown>): Promise<number> {
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (let elapsed = 0; elapsed <= 10_000; elapsed += 1) {
      await vi.advanceTimersByTimeAsync(elapsed === 0 ? 0 : 1);
      if (settled) return elapsed;
    }
    throw new Error('did not settle within 10 s');
  }

  const after = <T>(ms: number, value: () => T) => new Promise<T>((resolve) => setTimeout(() => resolve(value()), ms));

  it('holds a quick answer and a quick failure to the floor alike', async () => {
    expect(await settlesAfter(atLeast(300, () => after(20, () => 'known')))).toBe(300);
    expect(await settlesAfter(atLeast(300, async () => 'unknown'))).toBe(300);
    const failing = atLeast(300, () => after(5, () => 0).then(() => Promise.reject(new Error('wrong code'))));
    failing.catch(() => {});
    expect(await settlesAfter(failing)).toBe(300);
    await expect(failing).rejects.toThrow('wrong code');
  });

  it('adds nothing to work that takes longer than the floor', async () => {
    expect(await settlesAfter(atLeast(300, () => after(450, () => 'slow')))).toBe(450);
  });
});
