import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { HASHING_CONCURRENCY, hashingLoad, hashingThreads, hashPassword, verifyAgainstDecoy, verifyPassword } from './passwords.ts';
import { LOWEST_PRIORITY } from './hashing-threads.ts';

describe('passwords', () => {
  it('are hashed with argon2id at m=19456 KiB, t=2, p=1, salted', async () => {
    const first = await hashPassword('Anchor#77');
    const second = await hashPassword('Anchor#77');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword(first, 'Anchor#77')).toBe(true);
    expect(await verifyPassword(first, 'anchor#77')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'Anchor#77')).toBe(false);
  });

  it('are hashed off the event loop: timers keep firing while four hashes run', async () => {
    let ticks = 0;
    let worstGapMs = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worstGapMs = Math.max(worstGapMs, now - last);
      last = now;
      ticks += 1;
    }, 2);
    const started = performance.now();
    await Promise.all([hashPassword('a-1'), hashPassword('a-2'), hashPassword('a-3'), hashPassword('a-4'), verifyAgainstDecoy('x')]);
    const elapsed = performance.now() - started;
    clearInterval(timer);
    // A hash that blocked the loop would leave one gap as long as all the hashing together.
    expect(ticks).toBeGreaterThan(3);
    expect(worstGapMs).toBeLessThan(elapsed);
  });

  it('run at the lowest priority, as many at once as there are cores (one fewer where the priority stays), the rest wait their turn', async () => {
    const lowered = process.platform === 'linux';
    expect(HASHING_CONCURRENCY).toBe(lowered ? availableParallelism() : Math.max(1, availableParallelism() - 1));
    const burst = Array.from({ length: HASHING_CONCURRENCY + 3 }, (_, n) => hashPassword(`burst-${n}`));
    expect(hashingLoad()).toEqual({ running: HASHING_CONCURRENCY, waiting: 3 });
    const hashes = await Promise.all(burst);
    expect(new Set(hashes).size).toBe(burst.length);
    expect(hashingLoad()).toEqual({ running: 0, waiting: 0 });
    expect(hashingThreads().length).toBeLessThanOrEqual(HASHING_CONCURRENCY);
    if (lowered) for (const thread of hashingThreads()) expect(thread.priority).toBe(LOWEST_PRIORITY);
  });
});
