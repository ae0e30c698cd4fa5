import { describe, expect, it } from 'vitest';
import { concurrencyLimit } from './concurrency.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('concurrencyLimit', () => {
  it('runs at most the limit at once, the rest in order of arrival', async () => {
    const pool = concurrencyLimit(2);
    let active = 0;
    let peak = 0;
    const started: number[] = [];
    const results = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((n) =>
        pool.run(async () => {
          started.push(n);
          active += 1;
          peak = Math.max(peak, active);
          await tick();
          active -= 1;
          return n * 10;
        }),
      ),
    );
    expect(results).toEqual([0, 10, 20, 30, 40, 50]);
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(pool.load).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the place of a task that fails', async () => {
    const pool = concurrencyLimit(1);
    await expect(pool.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(pool.run(async () => 'next')).resolves.toBe('next');
  });

  it('refuses a limit that is not a whole number of at least one', () => {
    expect(() => concurrencyLimit(0)).toThrow(RangeError);
    expect(() => concurrencyLimit(1.5)).toThrow(RangeError);
  });
});
