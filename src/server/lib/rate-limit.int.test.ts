import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { createLogger } from './logger.ts';
import { consume, createMemoryRateLimitStore, createRedisRateLimitStore, type RateLimitStore } from './rate-limit.ts';

const redisUrl = inject('redisUrl');
const stores: Array<[string, (() => RateLimitStore) | undefined]> = [
  ['memory', () => createMemoryRateLimitStore()],
  [
    'redis',
    redisUrl ? () => createRedisRateLimitStore(redisUrl, createLogger('silent'), `test-${randomBytes(4).toString('hex')}`) : undefined,
  ],
];

for (const [kind, make] of stores) {
  describe.runIf(make !== undefined)(`the ${kind} throttle store`, () => {
    it('counts fifty simultaneous hits exactly once each', async () => {
      const store = make!();
      try {
        const hits = await Promise.all(Array.from({ length: 50 }, () => store.hit('storm', 60_000)));
        expect(hits.map((hit) => hit.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
        expect(hits.every((hit) => hit.resetInMs > 0 && hit.resetInMs <= 60_000)).toBe(true);
        const gates = await Promise.all(Array.from({ length: 10 }, () => consume(store, 'gate', { limit: 3, windowMs: 60_000 })));
        expect(gates.filter((gate) => gate.allowed)).toHaveLength(3);
        expect(gates.find((gate) => !gate.allowed)?.retryAfterSeconds).toBeGreaterThan(0);
      } finally {
        await store.close();
      }
    });

    it('starts again when the window ends, and on reset', async () => {
      const store = make!();
      try {
        await store.hit('short', 100);
        expect((await store.hit('short', 100)).count).toBe(2);
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect((await store.hit('short', 100)).count).toBe(1);
        await store.hit('cleared', 60_000);
        await store.reset('cleared');
        expect((await store.hit('cleared', 60_000)).count).toBe(1);
      } finally {
        await store.close();
      }
    });
  });
}

describe('the redis throttle store when Redis is unreachable', () => {
  it('lets requests through instead of failing them', async () => {
    const store = createRedisRateLimitStore('redis://127.0.0.1:9', createLogger('silent'));
    try {
      expect(await consume(store, 'down', { limit: 1, windowMs: 1000 })).toMatchObject({ allowed: true });
    } finally {
      await store.close();
    }
  });
});
