import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, inject, it, vi } from 'vitest';
import { createLogger } from './logger.ts';
import { consume, createMemoryRateLimitStore, createRedisRateLimitStore, REDIS_LIMIT_TIMEOUT_MS, type RateLimitStore } from './rate-limit.ts';

const redisUrl = inject('redisUrl');
const stores: Array<[string, (() => RateLimitStore) | undefined]> = [
  ['memory', () => createMemoryRateLimitStore()],
  [
    'redis',
    redisUrl ? () => createRedisRateLimitStore(redisUrl, createLogger('silent'), `test-${randomBytes(4).toString('hex')}`) : undefined,
  ],
];

/** Asks again every 20 ms until `check` holds. */
async function until(check: () => Promise<boolean>, timeoutMs = 5000) {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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
        // Redis counts windows in whole seconds: the shortest is one.
        await store.hit('short', 1000);
        expect((await store.hit('short', 1000)).count).toBe(2);
        await until(async () => (await store.peek('short')).count === 0);
        expect((await store.hit('short', 1000)).count).toBe(1);
        await store.hit('cleared', 60_000);
        await store.reset('cleared');
        expect((await store.hit('cleared', 60_000)).count).toBe(1);
      } finally {
        await store.close();
      }
    });

    it('takes hits back within the window, never below zero, and keeps its end', async () => {
      const store = make!();
      try {
        for (let i = 0; i < 5; i += 1) await store.hit('returned', 60_000);
        await store.takeBack('returned', 2);
        const after = await store.peek('returned');
        expect(after.count).toBe(3);
        expect(after.resetInMs).toBeGreaterThan(50_000);
        await store.takeBack('returned', 10);
        expect((await store.peek('returned')).count).toBe(0);
        expect((await store.hit('returned', 60_000)).count).toBe(1);
        await store.takeBack('never-hit', 3);
        expect((await store.hit('never-hit', 60_000)).count).toBe(1);
      } finally {
        await store.close();
      }
    });
  });
}

function capturedLogger() {
  const lines: string[] = [];
  return { logger: createLogger('info', 'portal', { write: (line: string) => void lines.push(line) }), lines };
}

describe('the redis throttle store when Redis fails', () => {
  it('counts in this process when Redis is down, at once, and says so once', async () => {
    const { logger, lines } = capturedLogger();
    const store = createRedisRateLimitStore('redis://127.0.0.1:9', logger);
    try {
      // At once: every answer comes before the event loop's next turn, so none waited on a timer
      // or a socket (a wait for the connection would). No clock of this machine is read.
      let loopTurned = false;
      setImmediate(() => (loopTurned = true));
      const gates = [];
      for (let i = 0; i < 4; i += 1) gates.push(await consume(store, 'down', { limit: 2, windowMs: 60_000 }));
      expect(loopTurned).toBe(false);
      expect(gates.map((gate) => gate.allowed)).toEqual([true, true, false, false]);
      expect(lines.filter((line) => line.includes('counted in this process'))).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it.runIf(redisUrl)('counts in this process when Redis stops answering, within the timeout', async () => {
    const { logger, lines } = capturedLogger();
    const prefix = `test-${randomBytes(4).toString('hex')}`;
    const store = createRedisRateLimitStore(redisUrl!, logger, prefix);
    const admin = new Redis(redisUrl!);
    try {
      // Connected: a hit is counted in Redis, not in this process.
      await vi.waitFor(async () => {
        await consume(store, 'connected', { limit: 100, windowMs: 60_000 });
        expect(await admin.exists(`${prefix}:rl:connected`)).toBe(1);
      });
      // Redis holds every client's writes (the counting script among them) for a while, as a Redis
      // stuck on a slow disk would; the UNPAUSE below, not a write, ends it once checked.
      // Each check must be answered (by the command's timeout, REDIS_LIMIT_TIMEOUT_MS) while Redis
      // still holds it: the pause is twenty times the three timeouts, so the answer's order
      // against Redis's, not this machine's speed, is what is checked.
      const pauseMs = 20 * 3 * REDIS_LIMIT_TIMEOUT_MS;
      await admin.call('CLIENT', 'PAUSE', String(pauseMs), 'WRITE');
      let redisAnswersAgain = false;
      const resumes = setTimeout(() => (redisAnswersAgain = true), pauseMs);
      for (let i = 0; i < 3; i += 1) {
        const gate = await consume(store, 'slow', { limit: 1, windowMs: 60_000 });
        expect(redisAnswersAgain).toBe(false);
        expect(gate.allowed).toBe(i === 0);
      }
      clearTimeout(resumes);
      expect(lines.filter((line) => line.includes('did not answer a rate-limit check'))).toHaveLength(1);
    } finally {
      await admin.call('CLIENT', 'UNPAUSE').catch(() => {});
      admin.disconnect();
      await store.close();
    }
  });
});
