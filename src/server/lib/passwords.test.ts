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

  it('are hashed off the event loop: it turns while four hashes run', async () => {
    let settled = false;
    const hashing = Promise.all([hashPassword('a-1'), hashPassword('a-2'), hashPassword('a-3'), hashPassword('a-4'), verifyAgainstDecoy('x')]).then(() => {
      settled = true;
    });
    // A hash on this thread would have run to its end before the loop's next turn; on the hashing
    // threads they are still running (or waiting their turn) when it comes. No clock is read.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    expect(hashingLoad().running).toBeGreaterThan(0);
    await hashing;
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
